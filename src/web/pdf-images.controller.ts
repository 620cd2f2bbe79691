import { Get, Post, Req, Res } from '@nestjs/common';
import type { Response } from 'express';
import { RateLimit } from '../common/decorators/rate-limit.decorator';
import {
  IMAGE_FORMATS,
  ImageFormat,
  MAX_DPI,
  MIN_DPI,
  PDF_TO_IMAGES,
  PdfImagesService,
} from '../pdf-tools/render/pdf-images.service';
import { pageRangeTokens } from '../pdf-tools/core/page-range';
import { CsrfService } from './csrf.service';
import { toolErrorStatus } from '../pdf-tools/core/tool-failure';
import { IMAGES_DEFAULTS, IMAGES_INTRO, imagesOptions, imagesResult, ImagesValues } from './pages/pdf-images.pages';
import { ConvertSupport, ConvertTool } from './pdf-convert.support';
import { single } from './pdf-form';
import { PAGE_EXAMPLES } from './pdf-web-text';
import { Anonymous, CsrfAfterBody, WebRequest } from './web-context';
import { WebController } from './web-controller.decorator';
import { MeteredRun } from '../pdf-tools/render/metered-run';

/**
 * PDF to images on the website (`/pdf/images`, issue 23 item 1): the upload of the tool pages
 * (POST /files, or the no-JavaScript upload here), or a web address (`?url=` prefills it: the
 * browser extension's link), then PdfImagesService under the 'web' quota. Registered before
 * PdfController, whose `/pdf/:tool` would otherwise answer this address.
 */
@WebController('pdf')
export class PdfImagesController {
  private readonly tool: ConvertTool<ImagesValues> = {
    page: {
      slug: 'images',
      title: 'PDF to images',
      pageTitle: 'PDF to images',
      intro: IMAGES_INTRO,
      button: 'Convert to images',
    },
    quota: (caller) => this.metered.status(PDF_TO_IMAGES, caller),
    options: imagesOptions,
  };

  constructor(
    private readonly images: PdfImagesService,
    private readonly metered: MeteredRun,
    private readonly support: ConvertSupport,
    private readonly csrf: CsrfService,
  ) {}

  @Get('images')
  @Anonymous()
  async form(@Req() req: WebRequest, @Res() res: Response): Promise<void> {
    const view = { csrf: this.csrf.token(req, res), values: IMAGES_DEFAULTS };
    await this.support.send(this.tool, req, res, 200, view, { url: this.support.prefilledUrl(req) });
  }

  @Post('images/upload')
  @Anonymous()
  @CsrfAfterBody()
  @RateLimit('pdf-upload')
  async upload(@Req() req: WebRequest, @Res() res: Response): Promise<void> {
    await this.support.upload(req, res, (status, s) =>
      this.support.send(this.tool, req, res, status, { csrf: this.csrf.token(req, res), values: IMAGES_DEFAULTS }, s),
    );
  }

  @Post('images')
  @Anonymous()
  async run(@Req() req: WebRequest, @Res() res: Response): Promise<void> {
    const body = (req.body ?? {}) as Record<string, unknown>;
    const csrf = this.csrf.token(req, res);
    const values: ImagesValues = {
      pages: (single(body.pages) ?? '').trim() || 'all',
      format: single(body.format) ?? IMAGES_DEFAULTS.format,
      dpi: (single(body.dpi) ?? '').trim() || IMAGES_DEFAULTS.dpi,
    };
    const form = await this.support.formInput(body);
    const again = (status: number, error: string, errorField: string): Promise<void> =>
      this.support.send(
        this.tool,
        req,
        res,
        status,
        { csrf, values },
        { chosen: form.chosen, url: form.url, error, errorField },
      );
    if (!form.ok) return again(form.status, form.message, form.field);
    // The options, checked before anything is spent.
    const dpi = Number(values.dpi);
    if (!/^\d+$/.test(values.dpi) || dpi < MIN_DPI || dpi > MAX_DPI)
      return again(400, `Resolution must be a whole number from ${MIN_DPI} to ${MAX_DPI} dots per inch.`, 'dpi');
    if (!IMAGE_FORMATS.includes(values.format as ImageFormat))
      return again(400, 'Choose PNG or JPEG as the image format.', 'format');
    try {
      pageRangeTokens(values.pages);
    } catch {
      return again(400, `Pages: "${values.pages}" is not a list of pages. ${PAGE_EXAMPLES}`, 'pages');
    }
    const out = await this.images.convert(
      form.input,
      { pages: values.pages, format: values.format as ImageFormat, dpi },
      this.support.caller(req),
    );
    if (!out.ok) {
      const words = this.support.failure(req, res, out.failure, out, form.name, 'PDF to images');
      return this.support.send(
        this.tool,
        req,
        res,
        toolErrorStatus(out.failure.code),
        { csrf, values, quota: out.quota },
        { chosen: form.chosen, url: form.url, error: words.message, errorField: words.field },
      );
    }
    await this.support.send(
      this.tool,
      req,
      res,
      200,
      { csrf, values, quota: out.quota },
      { chosen: form.chosen, url: form.url, result: imagesResult(out.value) },
    );
  }
}
