import { Controller, Get, Param, Res } from '@nestjs/common';
import type { Response } from 'express';
import { Public } from '../../common/decorators/public.decorator';
import { DomainError } from '../../common/errors/domain-error';
import { ErrorCode } from '../../common/errors/error-code';
import { allowCors } from '../mcp/mcp.controller';
import { FileStoreService } from './file-store.service';

/** Downloads of stored tool results. Anonymous: the 256-bit id is the capability. */
@Public()
@Controller('files')
export class FilesController {
  constructor(private readonly store: FileStoreService) {}

  @Get(':id')
  async download(@Param('id') id: string, @Res() res: Response): Promise<void> {
    const found = await this.store.lookup(id);
    if (found.status !== 'ok') {
      throw new DomainError(
        ErrorCode.FileNotFound,
        found.status === 'expired'
          ? 'This file has expired (results are kept for a limited time). Run the tool again.'
          : 'No such file. Results are kept for a limited time; run the tool again.',
        { expired: found.status === 'expired' },
      );
    }
    const { file, bytes } = found;
    const ascii = file.filename.replace(/[^\x20-\x7e]/g, '_');
    res.setHeader('Content-Type', 'application/pdf');
    res.setHeader('Content-Length', String(bytes.length));
    res.setHeader('Content-Disposition', `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(file.filename)}`);
    res.setHeader('Cache-Control', 'private, no-transform');
    res.setHeader('Expires', file.expiresAt.toUTCString());
    res.setHeader('ETag', `"${file.sha256}"`);
    res.setHeader('X-Content-Type-Options', 'nosniff');
    allowCors(res);
    res.end(bytes);
  }
}
