import { Module } from '@nestjs/common';

/** PDF tools over MCP (/mcp), /llms.txt and /api/public-stats: see ../shared/spec/pdf-tools-mcp.md. */
@Module({})
export class PdfToolsModule {}
