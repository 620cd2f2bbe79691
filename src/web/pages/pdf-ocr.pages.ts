import { html, SafeHtml } from '../../common/html/html';
import { plural } from '../../common/text/plural';
import type { OcrJobView } from '../../pdf-tools/ocr/ocr-job.store';
import { OCR_LANGUAGES, OcrLanguage } from '../../pdf-tools/ocr/ocr-languages';
import { failureWords, type FailureFacts } from './pdf-convert.pages';
import type { WebLimits } from '../pdf-web-text';

export const OCR_INTRO =
  'The text on the pages of a scanned PDF is recognised (OCR) and laid under the page images, so you can search, select and copy it. You also get the text alone. Long documents take a while: the job has its own page, which you can leave and come back to.';
export const OCR_POLL_MS = 2000;

const LANGS = Object.entries(OCR_LANGUAGES) as [OcrLanguage, string][];

/** The language boxes: "Detect the language" and the four languages (several may be ticked). */
export function ocrOptions(chosen: string[], errorField?: string): SafeHtml {
  const on = (v: string): SafeHtml | '' => (chosen.includes(v) ? html` checked` : '');
  return html`<fieldset id="languages"${errorField === 'languages' ? html` aria-invalid="true"` : ''} aria-describedby="languages-hint">
  <legend>Language of the text</legend>
  <label><input type="checkbox" name="languages" value="auto"${on('auto')}> Detect it (from the first page)</label><br>
  ${LANGS.map(([code, name]) => html`<label><input type="checkbox" name="languages" value="${code}"${on(code)}> ${name}</label><br>`)}
  <span class="hint" id="languages-hint">Tick the languages of the document (several if it mixes them), or "Detect it". The right language reads accents and special letters correctly.</span>
</fieldset>`;
}

const languageNames = (codes: string[]): string => codes.map((c) => OCR_LANGUAGES[c as OcrLanguage] ?? c).join(', ');

/** The job's page body: its state, progress or results. */
export function ocrJobBody(job: OcrJobView, limits: WebLimits, textPreview?: string): SafeHtml {
  const until = job.expiresAt.toISOString().slice(11, 16);
  const keep = html`<p class="hint">This page and its files are kept until ${until} UTC (${plural(limits.keptMinutes, 'minute')} after the start): you can leave it and come back with its address.</p>`;
  const langs = job.detectedLanguage
    ? `${OCR_LANGUAGES[job.detectedLanguage as OcrLanguage] ?? job.detectedLanguage} (detected)`
    : job.languages.join() === 'auto'
      ? 'to be detected'
      : languageNames(job.languages);
  const head = html`<h1>OCR of ${job.sourceName}</h1>
<p>${plural(job.pages, 'page')}, language: ${langs}.</p>`;
  if (job.status === 'queued' || job.status === 'running') {
    return html`${head}
<div id="ocr-job" data-poll="${OCR_POLL_MS}" data-poll-url="/pdf/ocr/jobs/${job.id}" role="status" aria-live="polite">
  <p>${job.status === 'queued' ? 'Waiting for its turn…' : `Reading the pages: ${job.pagesDone} of ${job.pages} done.`}</p>
  ${job.status === 'queued' ? html`<progress aria-label="OCR progress"></progress>` : html`<progress max="${job.pages}" value="${job.pagesDone}" aria-label="OCR progress">${job.pagesDone} of ${job.pages}</progress>`}
  <p class="hint">This page updates itself; without JavaScript, <a href="/pdf/ocr/jobs/${job.id}">reload it</a>.</p>
</div>
${keep}`;
  }
  if (job.status === 'failed') {
    const facts: FailureFacts = {
      code: job.error ?? 'internal_error',
      details: {},
      refunded: job.refunded ?? undefined,
      quota: { tool: 'ocr', limit: 0, remaining: 0, resets_at: new Date().toISOString() },
    };
    const words = failureWords(facts, job.sourceName, limits, 'OCR');
    return html`${head}
<div class="error-summary" role="alert" aria-labelledby="error-title" tabindex="-1" id="ocr-job">
  <h2 id="error-title">The OCR failed</h2>
  <p>${words.message}</p>
</div>
<p><a href="/pdf/ocr">Start again</a></p>`;
  }
  return html`${head}
<section class="notice" aria-labelledby="result-title" id="result">
<h2 id="result-title">Done</h2>
<p>${plural(job.pages, 'page')} read. The PDF now has a text layer: search it, select and copy its text.</p>
<ul>
  <li><a href="/files/${job.pdfFileId}" id="ocr-pdf">Download the searchable PDF</a></li>
  <li><a href="/files/${job.textFileId}" id="ocr-text">Download the text</a></li>
</ul>
<p><a href="/pdf/ocr" id="ocr-again">Make another PDF searchable</a></p>
</section>
${
  textPreview !== undefined
    ? html`<h2 id="preview-title">The text</h2>
<pre class="ocr-text" tabindex="0" aria-labelledby="preview-title">${textPreview || '(No text was found on the pages.)'}</pre>`
    : ''
}
${keep}`;
}
