import { Controller, Delete, Get, HttpCode, Post, Req, Res } from '@nestjs/common';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { Request, Response } from 'express';
import { Public } from '../../common/decorators/public.decorator';
import { RateLimit } from '../../common/decorators/rate-limit.decorator';
import { clientIp } from '../../common/http/client-ip';
import { McpServerFactory } from './mcp-server.factory';

/**
 * POST /mcp: MCP Streamable HTTP, stateless, JSON responses, anonymous (quota per client IP).
 * A new server and transport per request; both are closed when the response closes.
 * GET and DELETE /mcp (SSE stream, session end) don't exist without sessions: 405.
 */
@Public()
@RateLimit('mcp')
@Controller('mcp')
export class McpController {
  constructor(private readonly factory: McpServerFactory) {}

  @Post()
  async post(@Req() req: Request, @Res() res: Response): Promise<void> {
    const server = this.factory.create(clientIp(req));
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on('close', () => {
      transport.close().catch(() => undefined);
      server.close().catch(() => undefined);
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, req.body);
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

function methodNotAllowed(res: Response): void {
  res
    .status(405)
    .setHeader('Allow', 'POST')
    .json({ jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed: this MCP endpoint is stateless; send JSON-RPC messages with POST.' }, id: null });
}
