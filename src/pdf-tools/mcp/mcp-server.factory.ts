import { Injectable } from '@nestjs/common';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv-provider.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { AppConfig } from '../../common/config/env';
import { PAGE_RANGE_GRAMMAR } from '../core/page-range';
import { PDF_TOOLS, PDF_TOOLS_BY_NAME } from '../tools';
import type { PdfTool } from '../tools/tool';
import type { ProgressSink } from '../run/progress';
import { ToolRunnerService } from '../run/tool-runner.service';
import { mcpResult } from './mcp-result';
import { fileSize } from '../../common/text/file-size';

export const SERVER_INFO = { name: 'beacon-pdf-tools', title: 'Beacon PDF tools', version: '1.0.0' };

/** The server instructions: what every tool shares, said once (limits read from the settings). */
export function serverInstructions(config: AppConfig): string {
  const kept =
    config.PDF_RESULT_TTL_S % 3600 === 0
      ? `${config.PDF_RESULT_TTL_S / 3600} h`
      : `${Math.round(config.PDF_RESULT_TTL_S / 60)} min`;
  return [
    'PDF tools: merge, split, rotate, remove pages, compress, watermark, page numbers, metadata, form flatten; read_pdf gives the text as Markdown (with next_cursor to read on).',
    `Pass an input as {"file_id": ...} (an earlier result or an upload, kept ${kept}), {"url": "https://..."} (the server downloads it; public addresses only) or {"base64": ...} (small files): exactly one; prefer file_id to chain tools. Optional per input: "filename" (download name) and "password" (an encrypted PDF).`,
    `With a shell, upload first: curl -sS -H "Content-Type: application/pdf" --data-binary @file.pdf "${config.publicBaseUrl()}/files?filename=file.pdf", then pass the file_id it answers (a file encrypted with a password is stored as sent: give its "password" next to the file_id).`,
    'A result is a download link (resource_link) and structuredContent {file_id, download_url, expires_at, filename, bytes, pages, sha256, quota, ...}; the bytes of small files are embedded only with "inline": true.',
    'Pages use one grammar everywhere: "1-3,7,9-", "last", "odd", "even", "all".',
    `Limits: ${fileSize(config.PDF_MAX_FILE_BYTES)} and ${config.PDF_MAX_PAGES} pages per file; a daily quota per tool (see \`quota\` in every result). Failed calls are refunded.`,
    'Long calls send notifications/progress when the request has _meta.progressToken.',
  ].join(' ');
}

function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): Record<string, unknown> {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Record<
    string,
    unknown
  >;
  return rest;
}

/**
 * The `inline` argument every tool accepts (the runner takes it off before the tool's own checks);
 * what it does is said once, in the server instructions.
 */
export const INLINE_ARGUMENT = { type: 'boolean' };

/** The page grammar in full is in the server instructions; each argument gets the short form. */
const SHORT_GRAMMAR = 'e.g. "1-3,7,9-", "odd".';

/**
 * Keys that carry nothing a model needs to make a good call: zod's safe-integer bounds, a
 * date-time's regex (format says it), length caps of strings and lists (the server enforces them
 * with errors that name the argument).
 */
function noise(key: string, value: unknown, node: Json): boolean {
  if (key === 'additionalProperties' || key === 'maxLength' || key === 'maxItems' || key === 'propertyNames')
    return true;
  if ((key === 'minimum' || key === 'maximum') && Math.abs(value as number) === Number.MAX_SAFE_INTEGER) return true;
  // A default the description already states is said twice.
  if (key === 'default' && typeof node.description === 'string' && /default/i.test(node.description)) return true;
  return key === 'pattern' && node.format === 'date-time';
}

type Json = Record<string, unknown>;

/**
 * The one description of an input file argument in tools/list (the rest is in the server
 * instructions): clients that drop the instructions still learn where a file_id comes from.
 */
export const FILE_ARGUMENT = 'file_id (from a result or POST /files), url or base64.';

/** Is `node` the JSON Schema of an input file (file_id / base64 / url / filename)? */
function isFileRef(node: Json): boolean {
  const props = node.properties as Json | undefined;
  return !!props && 'file_id' in props && 'base64' in props;
}

/**
 * Input schema for a model: the tool's own descriptions kept, `additionalProperties` dropped (the
 * server validates strictly anyway), and an input file shown as its fields' names and types: what
 * they mean is said once, in the server instructions.
 */
function compactInput(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(compactInput);
  if (!node || typeof node !== 'object') return node;
  const out: Json = {};
  for (const [k, v] of Object.entries(node as Json)) {
    if (noise(k, v, node as Json)) continue;
    out[k] =
      k === 'description' && typeof v === 'string' ? v.replace(PAGE_RANGE_GRAMMAR, SHORT_GRAMMAR) : compactInput(v);
  }
  if (isFileRef(out)) {
    const props = out.properties as Record<string, Json>;
    out.properties = Object.fromEntries(
      Object.entries(props).map(([k, v]) => [k, k === 'pages' ? v : { type: v.type }]),
    );
    out.description = FILE_ARGUMENT;
  }
  return constantsAsEnum(out);
}

/**
 * A choice among constants of one type (zod writes a union of literals as `anyOf` of `const`s) as
 * `{type, enum}`: shorter, and clients that convert command-line text by the argument's `type`
 * (the MCP Inspector's CLI) send `90`, not `"90"`.
 */
function constantsAsEnum(node: Json): Json {
  const options = node.anyOf as Json[] | undefined;
  if (!Array.isArray(options) || options.length === 0) return node;
  const type = options[0].type;
  if (!options.every((o) => 'const' in o && o.type === type && Object.keys(o).length === 2)) return node;
  const { anyOf: _options, ...rest } = node;
  return { type, enum: options.map((o) => o.const), ...rest };
}

/**
 * Output schema for a model and for SDK clients' validation: names and types only (what each field
 * means is in the tool description and the server instructions), nothing required and extra fields
 * allowed, so the error shape of an `isError` result validates too (SDK 1.x clients validate
 * `structuredContent` even then: typescript-sdk issue #1943).
 */
/** Result fields every file result has, described once in the server instructions. */
const SAID_IN_INSTRUCTIONS = new Set(['expires_at', 'filename', 'sha256', 'note', 'bytes', 'quota']);

function compactOutput(schema: Json): Json {
  const properties = Object.fromEntries(
    Object.keys(schema.properties as Json)
      .filter((name) => !SAID_IN_INSTRUCTIONS.has(name))
      .map((name) => [name, {}]),
  );
  return { type: 'object', properties };
}

/** Annotations that differ from the MCP defaults (readOnlyHint false, destructiveHint true, idempotentHint false, openWorldHint true). */
function withoutDefaults(a: PdfTool['annotations']): PdfTool['annotations'] {
  const defaults: Record<string, boolean> = {
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: false,
    openWorldHint: true,
  };
  return Object.fromEntries(Object.entries(a).filter(([k, v]) => defaults[k] !== v));
}

/** The tools/list entry of a tool: compact schemas (tools/list stays under 12 KB in total). */
function describeTool(tool: PdfTool): Tool {
  const input = compactInput(jsonSchema(tool.input, 'input')) as Json;
  const properties = { ...(input.properties as Json), inline: INLINE_ARGUMENT };
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: { ...input, type: 'object', properties },
    outputSchema: compactOutput(jsonSchema(tool.output, 'output')) as Tool['outputSchema'],
    annotations: withoutDefaults(tool.annotations),
  };
}

/** Built once: the tools/list answer. */
export const TOOL_LIST: Tool[] = PDF_TOOLS.map(describeTool);

/**
 * Builds a fresh MCP server per HTTP request (stateless Streamable HTTP: nothing survives the
 * request, so any instance can answer any call). Unknown tools are JSON-RPC errors; everything
 * about a known tool's arguments or files is an `isError` tool result.
 */
@Injectable()
export class McpServerFactory {
  /**
   * One JSON Schema validator (Ajv) for every server: the SDK would build a new Ajv instance per
   * server, i.e. per request (about 1 ms of event-loop time each). It holds no per-request state
   * (it only serves elicitation, which these tools never use).
   */
  private readonly validator = new AjvJsonSchemaValidator();
  private readonly instructions: string;
  private readonly inlineMaxBytes: number;

  constructor(
    private readonly runner: ToolRunnerService,
    config: AppConfig,
  ) {
    this.instructions = serverInstructions(config);
    this.inlineMaxBytes = config.PDF_INLINE_MAX_BYTES;
  }

  create(ip: string): Server {
    const server = new Server(SERVER_INFO, {
      capabilities: { tools: { listChanged: false } },
      instructions: this.instructions,
      jsonSchemaValidator: this.validator,
    });
    server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: TOOL_LIST }));
    server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
      const tool = PDF_TOOLS_BY_NAME.get(request.params.name);
      if (!tool) {
        throw new McpError(
          ErrorCode.InvalidParams,
          `Unknown tool "${request.params.name}". Tools: ${PDF_TOOLS.map((t) => t.name).join(', ')}.`,
        );
      }
      // A client that gives a progressToken gets notifications/progress on the call's response stream.
      const token = request.params._meta?.progressToken;
      const progress: ProgressSink | undefined =
        token === undefined
          ? undefined
          : (update) =>
              extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, ...update } });
      return mcpResult(await this.runner.run(tool, request.params.arguments, { ip }, progress), this.inlineMaxBytes);
    });
    return server;
  }
}
