import type { ToolErrorCode } from '../../pdf-tools/core/tool-failure';
import type { QuotaState } from '../../pdf-tools/quota/quota.service';
import { html, SafeHtml } from '../../common/html/html';
import { fileSize } from '../../common/text/file-size';
import { plural } from '../../common/text/plural';
import { errorSummary } from '../render/layout';
import { CSRF_FIELD } from '../web-context';
import { PAGE_EXAMPLES, refundWords, uploadRefusals, WebLimits } from '../pdf-web-text';

/**
 * The parts the website's conversion pages share (PDF to images, OCR: `/pdf/images`, `/pdf/ocr`):
 * the upload form and chosen-file list of the tool pages (same ids and data attributes, so the
 * page script uploads through POST /files with progress and shows results in place), a password
 * field for a protected file, a web address instead of an upload, the quota line, and failures
 * in the page's words from their typed codes.
 */

/** An uploaded file shown on the page; `pages` null: protected by a password. */
export interface ChosenFile {
  file_id: string;
  filename: string;
  pages: number | null;
  bytes: number;
}

export interface ConvertPageState {
  chosen?: ChosenFile;
  /** The address typed (or given by the extension's link: `?url=`). */
  url?: string;
  error?: string;
  errorField?: string;
  result?: SafeHtml;
}

export interface ConvertPage {
  slug: string;
  title: string;
  intro: string;
  button: string;
  csrf: string;
  limits: WebLimits;
  quota: QuotaState;
  /** Which daily limit applies (signed in or not) and both limits, for the quota line. */
  daily: DailyLimits;
  /** The conversion's own options (fields), rendered inside the run form. */
  options: SafeHtml;
}

/** Longest password taken (as the tools). */
export const MAX_PASSWORD = 1024;
/** Longest web address taken. */
export const MAX_URL = 2048;

/**
 * The website's daily limits per tool (issue 23): a visitor's per device (PDF_DAILY_LIMIT), a
 * signed-in user's per account (PDF_DAILY_LIMIT_SIGNED_IN), and which one applies to this page.
 */
export interface DailyLimits {
  signedIn: boolean;
  anonymous: number;
  signedInLimit: number;
}

/** Where the day's runs are counted, in the page's words. */
export const countedOn = (d: DailyLimits): string => (d.signedIn ? 'on your account' : 'on this device');

/**
 * The quota line of a tool page: today's remaining runs and the limit that applies; a visitor
 * is told the signed-in limit and where to sign up, when it is higher.
 */
export function quotaLine(q: QuotaState, what: string, d: DailyLimits): SafeHtml {
  const hours = Math.max(0, Math.ceil((Date.parse(q.resets_at) - Date.now()) / 3600_000));
  const which = d.signedIn
    ? html` <span id="quota-limit">Signed in: ${d.signedInLimit} a day.</span>`
    : d.signedInLimit > d.anonymous
      ? html` <span id="quota-limit"><a href="/signup">Sign up</a> for ${d.signedInLimit} a day instead of ${d.anonymous}.</span>`
      : '';
  return html`<p class="notice" id="quota">Quota: <strong>${q.remaining} of ${plural(q.limit, 'run')}</strong> of ${what} left today ${countedOn(d)}. It resets at ${q.resets_at.slice(11, 16)} UTC on ${q.resets_at.slice(0, 10)}, in about ${hours} h.${which}</p>`;
}

const invalid = (field: string | undefined, id: string): SafeHtml | '' =>
  field === id ? html` aria-invalid="true"` : '';

/** What the upload form of a tool page says and takes. */
export interface UploadFormParts {
  slug: string;
  /** The query string of the no-JavaScript upload (the CSRF token; merge: the files chosen before). */
  query: URLSearchParams;
  limits: WebLimits;
  label: string;
  /** The hint's first sentence; the limits follow. */
  hint: string;
  /** Merge: how many files it takes (the script then takes several). */
  many?: number;
  invalid?: boolean;
}

/**
 * The upload form of every tool page (the nine tools, PDF to images, OCR): the page script posts
 * its file to POST /files with progress (`data-upload`); without JavaScript it posts here.
 */
export function uploadForm(u: UploadFormParts): SafeHtml {
  const l = u.limits;
  return html`<form class="stack" id="upload-form" method="post" action="/pdf/${u.slug}/upload?${u.query.toString()}" enctype="multipart/form-data" data-upload="/files"${u.many ? html` data-many="${u.many}"` : ''} data-refusals="${JSON.stringify(uploadRefusals(l))}">
  <div class="dropzone">
    <label for="file">${u.label}</label>
    <input type="file" id="file" name="file" accept="application/pdf,.pdf" aria-describedby="file-hint"${u.invalid ? html` aria-invalid="true"` : ''}>
    <span class="hint" id="file-hint">${u.hint} At most ${fileSize(l.maxBytes)} and ${plural(l.maxPages, 'page')}${u.many ? ' per file' : ''}.</span>
    <div data-nojs><button type="submit" class="secondary">Upload</button></div>
  </div>
  <progress hidden max="100" value="0" aria-label="Upload progress"></progress>
  <p id="upload-status" role="status" aria-live="polite"></p>
</form>`;
}

/** The run form's opening tag and its CSRF field (closed by the page). */
export const runFormOpen = (slug: string, csrf: string): SafeHtml =>
  html`<form class="stack" id="run-form" method="post" action="/pdf/${slug}" data-run>
  <input type="hidden" name="${CSRF_FIELD}" value="${csrf}">`;

/**
 * The address of a PDF on the web instead of an upload: the browser extension's link fills it
 * (`/pdf/<tool>?url=`); the tool downloads it behind the egress guard when it runs.
 */
export function urlField(url: string | undefined, errorField: string | undefined): SafeHtml {
  const note = url ? addressNote(url) : undefined;
  return html`<div>
    <label for="url">Or the address of a PDF on the web</label><br>
    <input type="text" inputmode="url" id="url" name="url" value="${url ?? ''}" maxlength="${MAX_URL}" autocomplete="url" aria-describedby="url-hint${note ? ' url-note' : ''}"${invalid(errorField, 'url')}><br>
    <span class="hint" id="url-hint">Used when no file is uploaded, e.g. https://example.com/report.pdf. Public addresses only.</span>
    ${note ? html`<br><span class="bad" id="url-note">${note}</span>` : ''}
  </div>`;
}

/** The address as the tools fetch it: one typed without a scheme is read as https. */
export const fullAddress = (url: string): string =>
  /^[a-z][a-z0-9+.-]*:/i.test(url) ? url : `https://${url.replace(/^\/\//, '')}`;

/**
 * What is wrong with an address given to a tool page (typed, or the extension's `?url=`) before
 * anything is fetched: not a web address at all, or one whose path does not end in .pdf (it may
 * still lead to a PDF: the run says so if it does not). Undefined when it looks like a PDF's.
 */
export function addressNote(url: string): string | undefined {
  let u: URL;
  try {
    u = new URL(fullAddress(url));
  } catch {
    return 'This is not a web address: give one such as https://example.com/report.pdf, or upload the file.';
  }
  if (u.protocol !== 'https:' && u.protocol !== 'http:')
    return 'Only http and https addresses can be fetched: download the PDF and upload it instead.';
  if (!/\.pdf$/i.test(u.pathname))
    return 'This address does not end in .pdf: if it does not lead to a PDF file, the tool will say so when you run it.';
  return undefined;
}

/** The page body: title, intro, quota, result, errors, the upload form and the run form. */
export function convertBody(p: ConvertPage, s: ConvertPageState): SafeHtml {
  const f = s.chosen;
  const upload = new URLSearchParams({ [CSRF_FIELD]: p.csrf });
  return html`<h1>${p.title}</h1>
<p>${p.intro}</p>
${quotaLine(p.quota, 'this tool', p.daily)}
${s.result ?? ''}
${errorSummary(s.error, s.errorField)}
${uploadForm({
  slug: p.slug,
  query: upload,
  limits: p.limits,
  label: '1. PDF file',
  hint: 'Choose a file or drop it here.',
  invalid: s.errorField === 'file',
})}
${runFormOpen(p.slug, p.csrf)}
  <div>
    <h2 id="chosen-title">2. File and options</h2>
    <ul id="chosen" aria-labelledby="chosen-title">${
      f
        ? html`<li data-name="${f.filename}"><input type="hidden" name="file_id" value="${f.file_id}">${f.filename} <span class="hint">(${f.pages === null ? 'password-protected' : plural(f.pages, 'page')}, ${fileSize(f.bytes)})</span>${
            f.pages === null
              ? html`<div class="password"><label for="password-1">Password of ${f.filename}</label><br><input type="password" id="password-1" name="password.${f.file_id}" autocomplete="off" maxlength="${MAX_PASSWORD}" aria-describedby="password-1-hint"${invalid(s.errorField, 'password-1')}><br><span class="hint" id="password-1-hint">Needed to open the file. Used for this run only: it is not kept.</span></div>`
              : ''
          }</li>`
        : ''
    }</ul>
    <p class="hint" id="none-chosen"${f ? html` hidden` : ''}>No file uploaded yet.</p>
    ${f || (s.url && s.result) ? html`<p><a href="/pdf/${p.slug}">Start again with another file</a></p>` : ''}
  </div>
  ${urlField(s.url, s.errorField)}
  ${p.options}
  <div><button type="submit">${p.button}</button> <span class="hint" id="run-wait" hidden></span></div>
</form>`;
}

/** A failure's typed details (ToolFailure.details plus the refund). */
export interface FailureFacts {
  code: ToolErrorCode;
  details: Record<string, unknown>;
  refunded?: boolean;
  quota: QuotaState;
  /** Where the day's runs are counted ("on your account" when signed in); "on this device" when absent. */
  countedOn?: string;
}

/** A conversion failure in the page's words and the field it is about. `name`: the input's file name (or address). */
export function failureWords(
  f: FailureFacts,
  name: string,
  l: WebLimits,
  what: string,
): { message: string; field: string } {
  const d = f.details;
  const fromUrl = d.input === 'url';
  const field = fromUrl ? 'url' : 'file';
  const refund = refundWords(f.refunded);
  const n = (v: unknown): number | undefined => (typeof v === 'number' ? v : undefined);
  switch (f.code) {
    case 'quota_exceeded':
      return {
        message: `You have used all ${plural(f.quota.limit, 'run')} of ${what} for today ${f.countedOn ?? 'on this device'}. It resets at ${f.quota.resets_at.slice(11, 16)} UTC.`,
        field: 'file',
      };
    case 'encrypted':
      if (fromUrl || !d.password_given)
        return {
          message: `${name} is protected by a password: ${fromUrl ? 'download it and upload it here, then enter its password' : `enter it in "Password of ${name}"`}.${refund}`,
          field: fromUrl ? 'url' : 'password-1',
        };
      return {
        message: `The password of ${name} is not correct: type it again in "Password of ${name}".${refund}`,
        field: 'password-1',
      };
    case 'file_too_large':
      if (n(d.max_bytes) !== undefined && n(d.page) !== undefined)
        return {
          message: `The image of page ${n(d.page)!} alone would be larger than ${fileSize(n(d.max_bytes)!)}: choose JPEG or a lower resolution.${refund}`,
          field: 'dpi',
        };
      return {
        message: `${name} is larger than ${fileSize(l.maxBytes)}, the most a file may be here.${refund}`,
        field,
      };
    case 'too_many_pages':
      return {
        message: `${name} has ${n(d.pages) !== undefined ? plural(n(d.pages)!, 'page') : 'too many pages'}; at most ${plural(l.maxPages, 'page')} per file: split it first with the Split tool.${refund}`,
        field,
      };
    case 'not_a_pdf':
      if (fromUrl)
        return {
          message: `${name} does not lead to a PDF file: check the link, or download the PDF and upload it.${refund}`,
          field,
        };
      return { message: `${name} is not a PDF file: choose a PDF.${refund}`, field };
    case 'corrupt_pdf':
      return { message: `${name} is damaged and cannot be read, even after an attempt to repair it.${refund}`, field };
    case 'no_pages':
      return { message: `${name} has no pages: there is nothing to convert.${refund}`, field };
    case 'invalid_page_range':
      return {
        message: `The pages you chose do not fit ${name}${n(d.page_count) !== undefined ? `, which has ${plural(n(d.page_count)!, 'page')}` : ''}. ${PAGE_EXAMPLES}`,
        field: 'pages',
      };
    case 'file_not_found':
      return {
        message: `The file you chose is no longer kept (files are kept ${plural(l.keptMinutes, 'minute')}): upload it again.`,
        field: 'file',
      };
    case 'url_not_allowed':
      return {
        message: `${name} cannot be fetched from here: only public http(s) addresses are. Download the PDF and upload it instead.`,
        field: 'url',
      };
    case 'download_failed':
      return {
        message: `${name} could not be downloaded (the site did not answer with the file in time). Check the address, or download the PDF and upload it.${refund}`,
        field: 'url',
      };
    case 'timeout':
      return { message: `This took too long with this file: try fewer pages.${refund}`, field: 'file' };
    case 'busy':
      return { message: 'The converter is busy: try again in a few seconds.', field: 'file' };
    default:
      return {
        message: `Something went wrong: try again. If it keeps failing, try another file.${refund}`,
        field: 'file',
      };
  }
}
