import { Controller, Get, HttpCode, Logger, Param, Post, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Public } from '../../common/decorators/public.decorator';
import { RateLimit } from '../../common/decorators/rate-limit.decorator';
import { DomainError } from '../../common/errors/domain-error';
import { ErrorCode } from '../../common/errors/error-code';
import { allowCors } from '../mcp/mcp.controller';
import { contentTypeOf, FileStoreService } from './file-store.service';
import { UploadResult, UploadService } from './upload.service';

/**
 * Downloads of stored files. Anonymous: the 256-bit id is the capability. Rate-limited per client
 * IP; the bytes are streamed from where they are stored (PostgreSQL or PDF_FILE_DIR) a chunk at a time with backpressure, so a download
 * holds one chunk in memory whatever the file size and however slow the client (a file this
 * instance saved recently is sent from its memory instead; one whose bytes another instance is
 * still writing is waited for).
 */
@Public()
@Controller('files')
export class FilesController {
  private readonly logger = new Logger('PdfFiles');

  constructor(
    private readonly store: FileStoreService,
    private readonly uploads: UploadService,
  ) {}

  /**
   * Upload a PDF (raw body `application/pdf` or multipart field `file`, e.g. from a browser form):
   * anonymous, rate-limited per IP, no tool quota. 201 with the file_id for any tool.
   */
  @Post()
  @HttpCode(201)
  @RateLimit('pdf-upload')
  async upload(@Req() req: Request, @Res({ passthrough: true }) res: Response): Promise<UploadResult> {
    allowCors(res);
    try {
      return await this.uploads.upload(req);
    } catch (e) {
      // Bytes may still be coming (cut off at the limit, too slow): close the connection after the answer.
      if (!req.complete) res.setHeader('Connection', 'close');
      throw e;
    }
  }

  @Get(':id')
  @RateLimit('pdf-download')
  async download(@Param('id') id: string, @Res() res: Response): Promise<void> {
    const found = await this.store.info(id);
    if (found.status !== 'ok') {
      throw new DomainError(
        ErrorCode.FileNotFound,
        found.status === 'expired'
          ? 'This file has expired (results are kept for a limited time). Run the tool again.'
          : 'No such file. Results are kept for a limited time; run the tool again.',
        { expired: found.status === 'expired' },
      );
    }
    // Saved or used moments ago by this instance: straight from memory, no chunked reads.
    const cached = this.store.cached(found.file.id);
    // Else the bytes may still be on their way from the instance that stored the file.
    const state = cached ? 'stored' : await this.store.whenStored(found.file);
    if (state !== 'stored') {
      throw new DomainError(
        ErrorCode.FileNotFound,
        state === 'lost'
          ? 'This file was not stored completely (the server that made it stopped). Run the tool again.'
          : 'No such file. Results are kept for a limited time; run the tool again.',
        { expired: false },
      );
    }
    const { file } = found;
    const ascii = file.filename.replace(/[^\x20-\x7e]/g, '_');
    res.setHeader('Content-Type', contentTypeOf(file.filename));
    res.setHeader('Content-Length', String(file.size));
    res.setHeader(
      'Content-Disposition',
      `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(file.filename)}`,
    );
    res.setHeader('Cache-Control', 'private, no-transform');
    res.setHeader('Expires', file.expiresAt.toUTCString());
    res.setHeader('ETag', `"${file.sha256}"`);
    res.setHeader('X-Content-Type-Options', 'nosniff');
    allowCors(res);
    if (cached) {
      res.end(cached);
      return;
    }
    try {
      await pipeline(
        Readable.from(this.store.chunks(file.id, file.size), { objectMode: false, highWaterMark: 1 }),
        res,
      );
    } catch (e) {
      // Headers are out: the client sees a short body (Content-Length not reached). Gone mid-way
      // (expired and cleaned up) or the client went away: nothing else to answer.
      if (!res.destroyed) res.destroy();
      this.logger.debug(`download ${id.slice(0, 6)}… ended early: ${(e as Error).message}`);
    }
  }
}
