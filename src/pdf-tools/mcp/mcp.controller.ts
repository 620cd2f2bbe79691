import { Controller, Delete, Get, HttpCode, Options, Post, Req, Res } from '@nestjs/common';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import type { Request, Response } from 'express';
import { Public } from '../../common/decorators/public.decorator';
import { RateLimit } from '../../common/decorators/rate-limit.decorator';
import { clientSubject } from '../../common/http/client-ip';
import { expectedResponse } from '../../common/logging/logging';
import { McpServerFactory } from './mcp-server.factory';

/**
 * POST /mcp: MCP Streamable HTTP, stateless, JSON responses (SSE for a tool call with a progressToken),
 * anonymous (quota per client IP).
 * A new server and transport per request; both are closed when the response closes.
 * GET and DELETE /mcp (SSE stream, session end) don't exist without sessions: 405, which every SDK
 * client gets when it probes for the stream: expected, so logged at debug and not rate limited
 * (only POST spends units of the `mcp` bucket; the 405 and the preflight are constant answers).
 */
@Public()
@Controller('mcp')
export class McpController {
  constructor(private readonly factory: McpServerFactory) {}

  @Post()
  @RateLimit('mcp')
  async post(@Req() req: Request, @Res() res: Response): Promise<void> {
    allowCors(res);
    if (Array.isArray(req.body)) {
      // The MCP revisions we serve (2025-06-18 and later) have no JSON-RPC batching: one message per
      // POST, so each call costs one unit of the rate limit.
      res.status(400).json({
        jsonrpc: '2.0',
        error: {
          code: ErrorCode.InvalidRequest,
          message: 'JSON-RPC batches are not supported: send one JSON-RPC message per POST /mcp.',
        },
        id: null,
      });
      return;
    }
    const server = this.factory.create(clientSubject(req));
    // JSON responses, except for a tool call that asks for progress: its notifications need the SSE stream.
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: !wantsProgress(req.body),
    });
    res.on('close', () => {
      transport.close().catch(() => undefined);
      server.close().catch(() => undefined);
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, req.body);
  }

  /** CORS preflight: browser-based MCP clients (e.g. the Inspector's direct mode) may call us. */
  @Options()
  preflight(@Res() res: Response): void {
    allowCors(res);
    res.setHeader('Access-Control-Allow-Methods', 'POST, OPTIONS');
    res.setHeader(
      'Access-Control-Allow-Headers',
      'Content-Type, Accept, Mcp-Protocol-Version, Mcp-Session-Id, Last-Event-ID',
    );
    res.setHeader('Access-Control-Max-Age', '86400');
    res.status(204).end();
  }

  @Get()
  @HttpCode(405)
  get(@Res() res: Response): void {
    methodNotAllowed(res);
  }

  @Delete()
  @HttpCode(405)
  delete(@Res() res: Response): void {
    methodNotAllowed(res);
  }
}

/**
 * The endpoint is anonymous and uses no cookies, so any origin may call it; the headers a client
 * needs (protocol version, rate limits) are exposed.
 */
export function allowCors(res: Response): void {
  res.setHeader('Access-Control-Allow-Origin', '*');
  res.setHeader(
    'Access-Control-Expose-Headers',
    'Mcp-Protocol-Version, Mcp-Session-Id, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, Retry-After',
  );
}

/** A tools/call with `_meta.progressToken`: answered as an SSE stream carrying notifications/progress. */
function wantsProgress(body: unknown): boolean {
  const msg = body as { method?: unknown; params?: { _meta?: { progressToken?: unknown } } } | undefined;
  return msg?.method === 'tools/call' && msg.params?._meta?.progressToken !== undefined;
}

function methodNotAllowed(res: Response): void {
  expectedResponse(res);
  res
    .status(405)
    .setHeader('Allow', 'POST')
    .json({
      jsonrpc: '2.0',
      error: {
        code: -32000,
        message: 'Method not allowed: this MCP endpoint is stateless; send JSON-RPC messages with POST.',
      },
      id: null,
    });
}
