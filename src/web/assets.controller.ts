import { Controller, Get, Param, Res } from '@nestjs/common';
import type { Response } from 'express';
import { Public } from '../common/decorators/public.decorator';
import { DomainError } from '../common/errors/domain-error';
import { Asset, assetNamed, FAVICON } from '../common/html/assets';

/** Another build's name answered with this build's file: kept briefly, as that name's content may differ elsewhere. */
const OTHER_BUILD_CACHE = 'public, max-age=300';
/** Cache lifetime of /favicon.ico (its name carries no hash, so not a year). */
const FAVICON_ICO_MAX_AGE_S = 24 * 3600;

function send(res: Response, a: Asset, cacheControl: string): void {
  res
    .status(200)
    .set({ 'Content-Type': a.type, 'Cache-Control': cacheControl, ETag: a.etag, 'X-Content-Type-Options': 'nosniff' })
    .send(a.body);
}

/**
 * The website's CSS, JavaScript and icon, content-hashed, cached for a year (another build's name of
 * the same file gets this build's, for five minutes: see assetNamed); and `/favicon.ico`,
 * which browsers and crawlers ask for whatever the page links to, answered with the same SVG icon.
 */
@Public()
@Controller()
export class AssetsController {
  @Get('assets/:name')
  asset(@Param('name') name: string, @Res() res: Response): void {
    const found = assetNamed(name);
    if (!found) throw DomainError.notFound('No such asset.');
    send(res, found.asset, found.current ? 'public, max-age=31536000, immutable' : OTHER_BUILD_CACHE);
  }

  @Get('favicon.ico')
  favicon(@Res() res: Response): void {
    send(res, FAVICON, `public, max-age=${FAVICON_ICO_MAX_AGE_S}`);
  }
}
