import { Get, Param, Res } from '@nestjs/common';
import type { Response } from 'express';
import { DomainError } from '../common/errors/domain-error';
import { PdfThumbnailsService } from '../pdf-tools/render/thumbnails';
import { Anonymous } from './web-context';
import { WebController } from './web-controller.decorator';

/** Thumbnails live as long as their file; the browser may keep them that long for this page. */
const CACHE_CONTROL = 'private, max-age=3600, immutable';

/**
 * The page pickers' thumbnails (docs/web.md, "Choosing pages by looking"): what a file offers
 * (`GET /pdf/thumbnails/{file_id}`: its page count, or why it has no thumbnails) and each page
 * drawn small (`GET /pdf/thumbnails/{file_id}/{page}.png`). The file id is the same capability
 * as its download address (/files/{file_id}). Registered before PdfController.
 */
@WebController('pdf/thumbnails')
export class PdfThumbnailsController {
  constructor(private readonly thumbnails: PdfThumbnailsService) {}

  @Get(':id')
  @Anonymous()
  async source(@Param('id') id: string, @Res() res: Response): Promise<void> {
    const s = await this.thumbnails.source(id);
    res.status(s.status === 'gone' ? 404 : 200).json(s);
  }

  @Get(':id/:page')
  @Anonymous()
  async page(@Param('id') id: string, @Param('page') name: string, @Res() res: Response): Promise<void> {
    const m = /^(\d{1,5})\.png$/.exec(name);
    const out = m ? await this.thumbnails.page(id, Number(m[1])) : ({ status: 'no_page' } as const);
    switch (out.status) {
      case 'ok':
        res.status(200).set({ 'Content-Type': 'image/png', 'Cache-Control': CACHE_CONTROL }).send(out.png);
        return;
      case 'gone':
        throw DomainError.notFound('This file is no longer kept: upload it again.');
      case 'locked':
        throw DomainError.notFound('This file is protected by a password: its pages are not drawn.');
      case 'no_page':
        throw DomainError.notFound('The file has no such page.');
      default:
        res.status(503).set('Retry-After', '5').send();
    }
  }
}
