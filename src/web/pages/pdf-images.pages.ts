import { html, SafeHtml } from '../../common/html/html';
import { fileSize } from '../../common/text/file-size';
import { plural } from '../../common/text/plural';
import {
  IMAGE_FORMATS,
  ImageFormat,
  ImagesResult,
  MAX_DPI,
  MAX_PAGE_PIXELS,
  MIN_DPI,
} from '../../pdf-tools/render/pdf-images.service';
import { describeValue } from '../render/values';
import { PAGE_EXAMPLES } from '../pdf-web-text';

/** The options of PDF to images as the form sends them (strings), with their defaults. */
export interface ImagesValues {
  pages: string;
  format: string;
  dpi: string;
}

export const IMAGES_DEFAULTS: ImagesValues = { pages: 'all', format: 'png', dpi: '150' };
export const IMAGES_INTRO =
  'Turn the pages of a PDF into images: every page or the ones you choose, as PNG (sharp text and lines) or JPEG (smaller, for photos), at 72 to 300 dpi. One page gives one image; several pages come as one ZIP file.';
const FORMAT_WORDS: Record<ImageFormat, string> = {
  png: 'PNG (sharp text and lines)',
  jpeg: 'JPEG (smaller, for photos)',
};

const invalid = (field: string | undefined, id: string): SafeHtml | '' =>
  field === id ? html` aria-invalid="true"` : '';

/** The three options: pages, format, resolution. */
export function imagesOptions(v: ImagesValues, errorField?: string): SafeHtml {
  return html`<div>
    <label for="pages">Pages</label><br>
    <input type="text" id="pages" name="pages" value="${v.pages}" maxlength="200" aria-describedby="pages-hint"${invalid(errorField, 'pages')} data-page-picker><br>
    <span class="hint" id="pages-hint">${PAGE_EXAMPLES}</span>
  </div>
  <fieldset>
    <legend>Image format</legend>
    ${IMAGE_FORMATS.map((f) => html`<label><input type="radio" name="format" value="${f}"${v.format === f ? html` checked` : ''}> ${FORMAT_WORDS[f]}</label><br>`)}
  </fieldset>
  <div>
    <label for="dpi">Resolution (dots per inch)</label><br>
    <input type="number" id="dpi" name="dpi" value="${v.dpi}" min="${MIN_DPI}" max="${MAX_DPI}" step="1" required aria-describedby="dpi-hint"${invalid(errorField, 'dpi')}><br>
    <span class="hint" id="dpi-hint">${MIN_DPI} to ${MAX_DPI}: 72 for the screen, 150 for reading, 300 for printing. An A4 page at 150 dpi is 1240 × 1754 pixels.</span>
  </div>`;
}

/** The result: what was converted, the download, and what was left out or drawn smaller. */
export function imagesResult(r: ImagesResult): SafeHtml {
  const what = r.format === 'png' ? 'PNG' : 'JPEG';
  const pages = r.rendered.length === 1 ? `page ${r.rendered[0]}` : `pages ${describeValue(r.rendered)}`;
  const opened =
    r.opened === 'decrypted'
      ? `${r.source} was opened with your password.`
      : r.opened === 'repaired'
        ? `${r.source} was damaged: it was repaired before the pages were drawn; check the images.`
        : '';
  return html`<section class="notice" aria-labelledby="result-title" id="result">
<h2 id="result-title">Done</h2>
<p>${plural(r.rendered.length, 'page')} of ${r.source} as ${what} at ${r.dpi} dpi (${pages}).</p>
${opened ? html`<p id="result-note">${opened}</p>` : ''}
${r.leftOut.length ? html`<p id="result-left-out"><strong>${r.leftOut.length === 1 ? `Page ${r.leftOut[0]} was` : `Pages ${describeValue(r.leftOut)} were`} left out:</strong> ${r.leftOutReason === 'time' ? `the conversion reached its time limit (${plural(Math.round(r.timeLimitMs / 60_000), 'minute')})` : `the images reached ${fileSize(r.capBytes)}, the most one result may be`}. Convert ${r.leftOut.length === 1 ? 'it' : 'them'} in another run, or choose JPEG or a lower resolution.</p>` : ''}
${r.lowered.length ? html`<p id="result-lowered">${r.lowered.map((l) => `Page ${l.page} is too large for ${r.dpi} dpi: it was drawn at ${l.dpi} dpi (at most ${MAX_PAGE_PIXELS / 1_000_000} megapixels per image).`).join(' ')}</p>` : ''}
<ul><li><a href="/files/${r.file.file_id}" download="${r.file.filename}">Download ${r.file.filename}</a> (${r.kind === 'zip' ? `ZIP of ${plural(r.rendered.length, 'image')}, ` : ''}${fileSize(r.file.bytes)}; available until ${r.file.expires_at.slice(11, 16)} UTC)</li></ul>
</section>`;
}
