import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { FileStoreService } from './files/file-store.service';
import { FilesController } from './files/files.controller';
import { UploadService } from './files/upload.service';
import { UrlInputService } from './files/url-input.service';
import { StoredFile } from './files/stored-file.entity';
import { StoredFileStore } from './files/stored-file.store';
import { McpServerFactory } from './mcp/mcp-server.factory';
import { McpController } from './mcp/mcp.controller';
import { ToolRunnerService } from './run/tool-runner.service';
import { InputResolver } from './files/input-resolver';
import { QuotaClock } from './quota/quota-clock';
import { QuotaUsage } from './quota/quota-usage.entity';
import { QuotaService } from './quota/quota.service';
import { quotaStoreProvider } from './quota/quota-store.provider';
import { fileBytesProvider } from './files/bytes/file-bytes.provider';
import { DailyStat } from './stats/daily-stat.entity';
import { PublicController } from './stats/public.controller';
import { StatsService } from './stats/stats.service';
import { StatsStore } from './stats/stats.store';
import { PdfPoolService } from './worker/pdf-pool.service';
import { MeteredRun } from './render/metered-run';
import { PdfImagesService } from './render/pdf-images.service';
import { OcrJobStore, PostgresOcrJobStore } from './ocr/ocr-job.store';
import { OcrService } from './ocr/ocr.service';

/**
 * PDF tools over MCP (POST /mcp), result downloads (GET /files/:id), GET /llms.txt and
 * GET /api/public-stats: see ../shared/spec/pdf-tools-mcp.md and docs/pdf-tools.md.
 * QuotaService and ToolRunnerService are exported: the website runs the same tools on the 'web' quota channel.
 */
@Module({
  imports: [TypeOrmModule.forFeature([StoredFile, QuotaUsage, DailyStat])],
  controllers: [McpController, FilesController, PublicController],
  providers: [
    PdfPoolService,
    fileBytesProvider,
    StoredFileStore,
    FileStoreService,
    UploadService,
    UrlInputService,
    InputResolver,
    QuotaClock,
    quotaStoreProvider,
    QuotaService,
    StatsStore,
    StatsService,
    ToolRunnerService,
    McpServerFactory,
    MeteredRun,
    PdfImagesService,
    { provide: OcrJobStore, useClass: PostgresOcrJobStore },
    OcrService,
  ],
  exports: [
    QuotaService,
    QuotaClock,
    ToolRunnerService,
    UploadService,
    FileStoreService,
    StatsService,
    MeteredRun,
    PdfImagesService,
    OcrService,
  ],
})
export class PdfToolsModule {}
