import { Get, Req, Res } from '@nestjs/common';
import type { Response } from 'express';
import { Zip, ZipPassThrough } from 'fflate';
import { DomainError } from '../common/errors/domain-error';
import { FileStoreService } from '../pdf-tools/files/file-store.service';
import type { StoredFile } from '../pdf-tools/files/stored-file.entity';
import { MAX_ZIP_FILES, zipName } from './pages/pdf.pages';
import { Anonymous, WebRequest } from './web-context';
import { WebController } from './web-controller.decorator';

/**
 * Several results as one ZIP (`GET /pdf/zip?file_id=...&file_id=...`): split's parts besides their
 * single links (docs/web.md, "Split"). Each file id is the capability its own download address is
 * (/files/{id}); the ZIP is made as it is sent (fflate, stored entries: PDFs are compressed
 * already), one part in memory at a time, named after the first part. Registered before PdfController.
 */
@WebController('pdf')
export class PdfZipController {
  constructor(private readonly files: FileStoreService) {}

  @Get('zip')
  @Anonymous()
  async zip(@Req() req: WebRequest, @Res() res: Response): Promise<void> {
    const raw = req.query.file_id;
    const ids = (Array.isArray(raw) ? raw : [raw]).filter((x): x is string => typeof x === 'string');
    if (ids.length === 0 || ids.length > MAX_ZIP_FILES)
      throw DomainError.badRequest(`Name 1 to ${MAX_ZIP_FILES} files to put in one ZIP.`);
    const found: StoredFile[] = [];
    for (const id of ids) {
      const f = await this.files.info(id);
      if (f.status !== 'ok')
        throw DomainError.notFound(
          'A part is no longer kept (results are kept for a limited time): run the tool again.',
        );
      found.push(f.file);
    }
    const name = zipName(found[0].filename);
    res.status(200).set({
      'Content-Type': 'application/zip',
      'Content-Disposition': `attachment; filename="parts.zip"; filename*=UTF-8''${encodeURIComponent(name)}`,
      'Cache-Control': 'private, no-store',
      'X-Content-Type-Options': 'nosniff',
    });
    const zip = new Zip((err, chunk, final) => {
      if (err) res.destroy(err);
      else {
        res.write(chunk);
        if (final) res.end();
      }
    });
    const used = new Set<string>();
    for (const f of found) {
      const bytes = await this.files.content(f);
      if (!bytes) {
        // Gone while the ZIP was being sent: the download stops short rather than pretend.
        res.destroy();
        return;
      }
      let entry = f.filename;
      for (let n = 2; used.has(entry); n++) entry = f.filename.replace(/(\.pdf)?$/i, ` (${n})$1`);
      used.add(entry);
      const part = new ZipPassThrough(entry);
      zip.add(part);
      part.push(bytes, true);
    }
    zip.end();
  }
}
