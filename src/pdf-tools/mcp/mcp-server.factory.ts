import { Injectable } from '@nestjs/common';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv-provider.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError, Tool } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { PDF_TOOLS, PDF_TOOLS_BY_NAME } from '../tools';
import { quotaSchema, type PdfTool } from '../tools/tool';
import { ToolRunnerService } from './tool-runner.service';

export const SERVER_INFO = { name: 'beacon-pdf-tools', title: 'Beacon PDF tools', version: '1.0.0' };

const INSTRUCTIONS = [
  'PDF tools: merge, split, rotate, remove pages, compress, watermark, page numbers, metadata, form flatten.',
  'Pass an input as {"file_id": ...} (a result of an earlier call, kept 1 hour) or {"base64": ...}; prefer file_id to chain tools.',
  'Every result is a download link (resource_link) plus file_id; small results are also embedded.',
  'Pages use one grammar everywhere: "1-3,7,9-", "last", "odd", "even", "all".',
  'Limits: 10 MB and 200 pages per file; a daily quota per tool (see `quota` in every result). Failed calls are refunded.',
].join(' ');

/** Shape of `structuredContent` of a failed call (isError: true). */
export const toolErrorSchema = z
  .object({
    error: z.string().describe('Error code, e.g. file_too_large, too_many_pages, encrypted, not_a_pdf, invalid_page_range, file_not_found, quota_exceeded.'),
    message: z.string(),
    input: z.string().optional().describe('The input the error is about, e.g. "files[1]".'),
    refunded: z.boolean().optional().describe('Whether this failed call was refunded (did not use quota).'),
    resets_at: z.string().optional(),
    quota: quotaSchema,
  })
  .loose();

function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): Record<string, unknown> {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Record<string, unknown>;
  return rest;
}

/**
 * The tools/list entry of a tool. The output schema accepts the success shape or the error shape:
 * clients of SDK 1.x validate `structuredContent` against it even on `isError` results
 * (typescript-sdk issue #1943), and our errors carry structured content too.
 */
function describeTool(tool: PdfTool): Tool {
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: jsonSchema(tool.input, 'input') as Tool['inputSchema'],
    outputSchema: { type: 'object', anyOf: [jsonSchema(tool.output, 'output'), jsonSchema(toolErrorSchema, 'output')] },
    annotations: { title: tool.title, ...tool.annotations },
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

  constructor(private readonly runner: ToolRunnerService) {}

  create(ip: string): Server {
    const server = new Server(SERVER_INFO, {
      capabilities: { tools: { listChanged: false } },
      instructions: INSTRUCTIONS,
      jsonSchemaValidator: this.validator,
    });
    server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: TOOL_LIST }));
    server.setRequestHandler(CallToolRequestSchema, async (request) => {
      const tool = PDF_TOOLS_BY_NAME.get(request.params.name);
      if (!tool) {
        throw new McpError(ErrorCode.InvalidParams, `Unknown tool "${request.params.name}". Tools: ${PDF_TOOLS.map((t) => t.name).join(', ')}.`);
      }
      return this.runner.call(tool, request.params.arguments, { ip });
    });
    return server;
  }
}
