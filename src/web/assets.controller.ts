import { Controller, Get, Param, Res } from '@nestjs/common';
import type { Response } from 'express';
import { Public } from '../common/decorators/public.decorator';
import { DomainError } from '../common/errors/domain-error';
import { ASSETS } from './render/assets';

/** The website's CSS and JavaScript, content-hashed, cached for a year. */
@Public()
@Controller('assets')
export class AssetsController {
  @Get(':name')
  asset(@Param('name') name: string, @Res() res: Response): void {
    const a = ASSETS.get(`/assets/${name}`);
    if (!a) throw DomainError.notFound('No such asset.');
    res
      .status(200)
      .set({ 'Content-Type': a.type, 'Cache-Control': 'public, max-age=31536000, immutable', ETag: a.etag, 'X-Content-Type-Options': 'nosniff' })
      .send(a.body);
  }
}
