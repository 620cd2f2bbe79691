import { Controller, Get, Header } from '@nestjs/common';
import { AppConfig } from '../../common/config/env';
import { Public } from '../../common/decorators/public.decorator';
import { TOOL_LIST } from '../mcp/mcp-server.factory';
import { StatsService } from './stats.service';
import { fileSize } from '../../common/text/file-size';
import { TOOL_ERROR_CODES } from '../core/tool-failure';
import { READ_DEFAULT_CHARS } from '../tools/read-pdf.tool';

/** GET /api/public-stats and GET /llms.txt: anonymous, not rate limited (cheap, cached). */
@Public()
@Controller()
export class PublicController {
  private llms?: string;

  constructor(
    private readonly stats: StatsService,
    private readonly config: AppConfig,
  ) {}

  @Get('api/public-stats')
  @Header('Cache-Control', 'public, max-age=60')
  async publicStats(): Promise<{ window_days: number; success: number }> {
    return this.stats.publicStats();
  }

  @Get('llms.txt')
  @Header('Content-Type', 'text/plain; charset=utf-8')
  @Header('Cache-Control', 'public, max-age=3600')
  llmsTxt(): string {
    this.llms ??= buildLlmsTxt(this.config);
    return this.llms;
  }
}

interface JsonSchemaLike {
  type?: string;
  description?: string;
  enum?: unknown[];
  default?: unknown;
  properties?: Record<string, JsonSchemaLike>;
  required?: string[];
  items?: JsonSchemaLike;
  anyOf?: JsonSchemaLike[];
}

function optionLine(name: string, s: JsonSchemaLike, required: boolean): string {
  const type = s.enum
    ? s.enum.map((v) => JSON.stringify(v)).join(' | ')
    : s.anyOf
      ? s.anyOf.map((a) => a.type ?? JSON.stringify(a)).join(' | ')
      : (s.type ?? 'object');
  const bits = [
    `\`${name}\` (${type}${required ? ', required' : ''}${s.default !== undefined ? `, default ${JSON.stringify(s.default)}` : ''})`,
  ];
  if (s.description) bits.push(s.description);
  return `  - ${bits.join(': ')}`;
}

/** The llms.txt document (llmstxt.org): title, summary, sections of links and facts. */
export function buildLlmsTxt(config: AppConfig): string {
  const base = config.publicBaseUrl();
  const clientConfig = JSON.stringify({ mcpServers: { 'beacon-pdf': { type: 'http', url: `${base}/mcp` } } }, null, 2);
  const tools = TOOL_LIST.map((t) => {
    const schema = t.inputSchema as JsonSchemaLike;
    const required = new Set(schema.required ?? []);
    const options = Object.entries(schema.properties ?? {}).map(([k, v]) => optionLine(k, v, required.has(k)));
    return [`- **${t.name}**: ${t.description ?? ''}`, ...options].join('\n');
  });
  return `# Beacon PDF tools

> PDF processing for programs and AI agents over one anonymous MCP endpoint (Streamable HTTP, stateless): merge, split, rotate, remove pages, compress, watermark, page numbers, metadata and form flatten, and the text of a PDF as Markdown (read_pdf). Free beta; no API key or account. There is no other REST API for PDF processing.

Results are stored for ${Math.round(config.PDF_RESULT_TTL_S / 60)} minutes and returned as a download link plus a \`file_id\` that any tool accepts as input, so tools chain without re-sending files. Image conversions (PDF to images, OCR) and AI features run on the website only.

## MCP endpoint

- Endpoint: \`POST ${base}/mcp\` (MCP Streamable HTTP, JSON responses, no sessions; GET and DELETE answer 405)
- Client configuration:

\`\`\`json
${clientConfig}
\`\`\`

- Inputs: \`{"file_id": "..."}\` (an earlier result or an upload), \`{"url": "https://..."}\` (the server downloads the PDF itself: public http(s) addresses only, redirects followed up to ${config.PDF_URL_MAX_REDIRECTS}, at most ${Math.round(config.PDF_URL_TIMEOUT_MS / 1000)} s) or \`{"base64": "..."}\` (the PDF's bytes, small files); optional \`filename\`, \`password\`.
- Upload (agents with a shell, browser forms), anonymous, no tool quota: \`curl -sS -H 'Content-Type: application/pdf' --data-binary @file.pdf '${base}/files?filename=file.pdf'\` answers 201 \`{file_id, expires_at, filename, bytes, pages, sha256}\`; pass the \`file_id\` to any tool. The name (used for the results' names) comes from \`?filename=\` or \`Content-Disposition: attachment; filename=...\`, else "upload.pdf". Also multipart/form-data with the field \`file\` (its own file name). A PDF encrypted with a password is stored as sent (\`encrypted: true\`, \`pages: null\`): pass \`{"file_id": "...", "password": "..."}\` to the tools.
- read_pdf answers the Markdown in its text content (at most \`max_chars\`, default ${READ_DEFAULT_CHARS}) and \`{pages_read, page_count, characters, next_cursor}\`: while \`next_cursor\` is not null, call it again with the same file and pages and \`cursor\`. A scanned PDF without a text layer is the error \`no_text_layer\`.
- Outputs: a \`resource_link\` to \`GET ${base}/files/{file_id}\` and \`structuredContent\` \`{file_id, download_url, expires_at, bytes, pages, sha256, quota, ...}\`; with \`"inline": true\` results up to ${Math.round(config.PDF_INLINE_MAX_BYTES / 1024)} KB are also embedded.
- Page ranges (every tool): \`1-3,7,9-\`, \`last\`, \`odd\`, \`even\`, \`all\`; the resolved pages are echoed back.
- Errors are tool results with \`isError: true\` and \`structuredContent\` \`{error, message, quota}\`; codes: ${TOOL_ERROR_CODES.join(', ')}.
- Progress: a \`tools/call\` with \`_meta.progressToken\` is answered as an SSE stream with \`notifications/progress\` (percent of the call, with a message) for downloads, merges, splits and page loops.

## Tools

${tools.join('\n')}

## Limits and quotas

- At most ${fileSize(config.PDF_MAX_FILE_BYTES)} and ${config.PDF_MAX_PAGES} pages per input file.
- Daily quota per client IP and tool: ${config.PDF_MCP_DAILY_CAP} MCP calls, within a pool of ${config.PDF_DAILY_LIMIT} calls per tool shared with the website. Quotas reset at 00:00 UTC.
- Only successful calls count: argument errors that need no file bytes (types, page ranges, stamp text, and pages beyond a stored file's count) are answered before the quota; other failed calls are refunded automatically, up to ${config.PDF_DAILY_REFUNDS} refunds per day.
- Every result carries \`quota {tool, limit, remaining, resets_at}\`.
- Rate limit: ${config.MCP_RATE_LIMIT} requests per ${config.MCP_RATE_WINDOW_S} s per IP on /mcp.

## Other APIs

- [Public stats](${base}/api/public-stats): \`{window_days: 30, success: N}\`, successful tool runs in the last 30 days, anonymous.
- [Visibility reporting API (OpenAPI)](${base}/api/v1/openapi.json): AI-answer visibility metrics, API key required.
- [Accessibility scans](${base}/scan): the scan form; its API is \`POST ${base}/api/scan\` with \`{"url": "https://..."}\` (JSON), anonymous, rate limited.

## Optional

- [MCP specification](https://modelcontextprotocol.io/specification)
- [llms.txt convention](https://llmstxt.org/)
`;
}
