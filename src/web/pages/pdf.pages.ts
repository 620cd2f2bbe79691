import { html, SafeHtml } from '../../common/html/html';
import { fileSize } from '../../common/text/file-size';
import { plural } from '../../common/text/plural';
import type { QuotaState } from '../../pdf-tools/quota/quota.service';
import type { ToolSuccess } from '../../pdf-tools/run/tool-outcome';
import { PDF_TOOLS } from '../../pdf-tools/tools';
import { storedFileShape, type PdfTool } from '../../pdf-tools/tools/tool';
import { OptionField, renderOption } from '../pdf-form';
import { DailyLimits, quotaLine, runFormOpen, uploadForm, urlField } from './pdf-convert.pages';
import { firstSentence, WEB_TOOL_TEXT, WebLimits, webNote, webResultData, webSummary } from '../pdf-web-text';
import { page } from '../../common/html/page';
import { errorSummary } from '../render/layout';
import { describeResult, describeValue } from '../render/values';
import { CSRF_FIELD, WebRequest } from '../web-context';

/** Most files one ZIP of results holds (split's parts: at most one per page). */
export const MAX_ZIP_FILES = 200;
/** The ZIP of split's parts, named after the first ("report-split-1.pdf" gives "report-split.zip"). */
export const zipName = (first: string): string => `${first.replace(/\.pdf$/i, '').replace(/[-_ ]?\d+$/, '')}.zip`;

/** Most files one run takes (merge). */
export const MAX_FILES = 20;
/** Longest password the tools take (their `password` argument). */
export const MAX_PASSWORD = 1024;
export const slugOf = (tool: PdfTool): string => tool.name.replace(/_/g, '-');
/** The form field of a locked file's password: named by its file_id, so each file's password travels with it. */
export const passwordName = (fileId: string): string => `password.${fileId}`;
/** The id of the password field of the i-th chosen file (0-based). */
export const passwordId = (i: number): string => `password-${i + 1}`;

/** An uploaded input file shown on the page (and carried as a hidden file_id). */
export interface ChosenFile {
  file_id: string;
  filename: string;
  /**
   * Null for a locked file: protected by a password needed to open it (an upload encrypted with a
   * user password, stored as sent: its pages are counted when a tool opens it). The form asks for
   * the password.
   */
  pages: number | null;
  bytes: number;
}

/** What a tool page shows besides the form: an error (and its field), the values entered, the chosen files, a result. */
export interface PdfPageState {
  error?: string;
  /** The field the error is about (the summary links to it). */
  errorField?: string;
  values?: Record<string, string>;
  chosen?: ChosenFile[];
  /** The address of a PDF on the web, used when no file is uploaded (one-file tools; `?url=` fills it). */
  url?: string;
  result?: SafeHtml;
}

/** The page's frame: who is signed in, the CSRF token, the limits the words name. */
export interface PdfPageContext {
  req: WebRequest;
  csrf: string;
  limits: WebLimits;
  /** The daily limits and which applies (signed in or not). */
  daily: DailyLimits;
}

/**
 * A locked file's password field: type=password, no autocomplete, labelled with the file's name.
 * Always rendered empty: a password is never written back into a page.
 */
function passwordField(f: ChosenFile, i: number, invalid?: string): SafeHtml {
  const id = passwordId(i);
  return html`<div class="password"><label for="${id}">Password of ${f.filename}</label><br><input type="password" id="${id}" name="${passwordName(f.file_id)}" autocomplete="off" maxlength="${MAX_PASSWORD}" aria-describedby="${id}-hint"${invalid === id ? html` aria-invalid="true"` : ''}><br><span class="hint" id="${id}-hint">Needed to open the file. Used for this run only: it is not kept.</span></div>`;
}

/** The website's pages beyond the MCP tools, linked from /pdf (PDF to text, `read_pdf`, is among the tool cards). */
const MORE_PAGES: { href: string; title: string; text: string }[] = [
  { href: '/pdf/images', title: 'PDF to images', text: 'Every page, or the pages you choose, as PNG or JPEG images.' },
  { href: '/pdf/ocr', title: 'OCR', text: 'Make a scanned PDF searchable and get its text.' },
  {
    href: '/pdf/ai',
    title: 'AI summary, translation and chat',
    text: 'Summarise, translate or ask questions about a PDF (signed in).',
  },
];

/** The daily quota in the index's words: per device, or per account when signed in. */
function dailyWords(d: DailyLimits): SafeHtml {
  if (d.signedIn) return html`Signed in: each tool runs ${plural(d.signedInLimit, 'time')} a day on your account.`;
  if (d.signedInLimit > d.anonymous)
    return html`Each tool runs ${plural(d.anonymous, 'time')} a day per device; <a href="/signup">sign up</a> for ${d.signedInLimit} a day instead.`;
  return html`Each tool has a daily quota per device.`;
}

/** /pdf: the list of tools. */
export function pdfIndexPage(c: PdfPageContext, resultTtlS: number): string {
  const l = c.limits;
  return page({
    title: 'PDF tools',
    section: 'pdf',
    user: c.req.webUser,
    csrf: c.csrf,
    body: html`<h1>PDF tools</h1>
<p>Free, no account. Files up to ${fileSize(l.maxBytes)} and ${plural(l.maxPages, 'page')}; results are kept ${plural(Math.round(resultTtlS / 60), 'minute')}. ${dailyWords(c.daily)} AI agents use the same tools over <a href="/llms.txt">MCP</a>.</p>
<ul class="tools">${PDF_TOOLS.map((t) => html`<li class="card"><h2><a href="/pdf/${slugOf(t)}">${t.title}</a></h2><p>${firstSentence(WEB_TOOL_TEXT[t.name]?.intro ?? t.description)}</p></li>`)}</ul>
<h2 id="more-tools">More PDF tools</h2>
<ul class="tools" aria-labelledby="more-tools">${MORE_PAGES.map((m) => html`<li class="card"><h2><a href="${m.href}">${m.title}</a></h2><p>${m.text}</p></li>`)}</ul>`,
  });
}

/** A tool's page: its introduction, the quota, a result or an error, the upload form and the run form. */
export function pdfToolPage(
  c: PdfPageContext,
  tool: PdfTool,
  fields: OptionField[],
  q: QuotaState,
  o: PdfPageState = {},
): string {
  const slug = slugOf(tool);
  const l = c.limits;
  const many = tool.name === 'merge_pdfs';
  const chosen = o.chosen ?? [];
  const upload = new URLSearchParams({ [CSRF_FIELD]: c.csrf });
  if (many) for (const f of chosen) upload.append('file_id', f.file_id);
  return page({
    title: tool.title,
    section: 'pdf',
    user: c.req.webUser,
    csrf: c.csrf,
    body: html`<h1>${tool.title}</h1>
<p>${WEB_TOOL_TEXT[tool.name]?.intro ?? tool.description}</p>
${quotaLine(q, 'this tool', c.daily)}
${o.result ?? ''}
${errorSummary(o.error, o.errorField)}
${uploadForm({
  slug,
  query: upload,
  limits: l,
  label: `1. ${many ? `PDF files (2 to ${MAX_FILES}, merged in the order listed below)` : 'PDF file'}`,
  hint: `Choose ${many ? 'a file, then the next one,' : 'a file'} or drop ${many ? 'files' : 'it'} here.`,
  many: many ? MAX_FILES : undefined,
  invalid: o.errorField === 'file',
})}
${runFormOpen(slug, c.csrf)}
  <div>
    <h2 id="chosen-title">2. ${many ? 'Files' : 'File'} and options</h2>
    <ul id="chosen" aria-labelledby="chosen-title">${chosen.map(
      (f, i) =>
        html`<li data-name="${f.filename}"><input type="hidden" name="file_id" value="${f.file_id}">${f.filename} <span class="hint">(${f.pages === null ? 'password-protected' : plural(f.pages, 'page')}, ${fileSize(f.bytes)})</span>${f.pages === null ? passwordField(f, i, o.errorField) : ''}</li>`,
    )}</ul>
    <p class="hint" id="none-chosen"${chosen.length ? html` hidden` : ''}>No file uploaded yet.</p>
    ${many ? html`<p class="hint" id="chosen-status" role="status" aria-live="polite"></p>` : ''}
    ${chosen.length || (o.url && o.result) ? html`<p><a href="/pdf/${slug}">Start again with ${many ? 'other files' : 'another file'}</a></p>` : ''}
  </div>
  ${many ? '' : urlField(o.url, o.errorField)}
  ${fields.map((f) => renderOption(f, o.values ?? {}, fields, o.errorField))}
  <div><button type="submit">${WEB_TOOL_TEXT[tool.name]?.button ?? `Run: ${tool.title}`}</button> <span class="hint" id="run-wait" hidden></span></div>
</form>`,
  });
}

/** Fields of a result shown as its files (or said in its summary), not listed with the tool's own. */
const SHOWN_ELSEWHERE = new Set(['note', 'quota', 'files', ...Object.keys(storedFileShape)]);

/** The tool's own fields of a result, as the page lists them (a metadata change says `changed`). */
function listedData(o: ToolSuccess): Record<string, unknown> {
  const data = Object.fromEntries(Object.entries(o.data).filter(([k]) => !SHOWN_ELSEWHERE.has(k)));
  if (o.shape === 'optional-file' && o.files.length) data.changed = true;
  return data;
}

/** The pages of the input a split part holds (the tool's `source_pages` of the file), if the tool says. */
function sourcePages(extra: Record<string, unknown>): number[] | undefined {
  const v = extra.source_pages;
  return Array.isArray(v) && v.every((n) => typeof n === 'number') ? v : undefined;
}

/** Split's parts as one ZIP, besides their single links (GET /pdf/zip, pdf-zip.controller.ts). */
function partsZip(files: ToolSuccess['files']): SafeHtml {
  const q = new URLSearchParams(files.map((f): [string, string] => ['file_id', f.file_id]));
  const name = zipName(files[0].filename);
  const bytes = files.reduce((n, f) => n + f.bytes, 0);
  return html`<p><a id="result-zip" class="button secondary" href="/pdf/zip?${q.toString()}" download="${name}">Download all ${files.length} parts as one ZIP</a> <span class="hint">(${name}, about ${fileSize(bytes)})</span></p>`;
}

/**
 * The result: the tool's sentence (in the page's words), then what opening did to the inputs
 * (decrypted, repaired: the result's note, in the page's words), the files to download and the
 * tool's own details. `names` are the input files' names in the order of the call.
 */
export function pdfResultBlock(o: ToolSuccess, names: string[]): SafeHtml {
  const data = listedData(o);
  return html`<section class="notice" aria-labelledby="result-title" id="result">
<h2 id="result-title">Done</h2>
<p>${webSummary(o)}</p>
${o.note ? html`<p id="result-note">${webNote(o, names)}</p>` : ''}
${o.text !== undefined ? html`<pre id="result-text" tabindex="0" aria-label="The text of ${names[0] ?? 'your file'}">${o.text}</pre>` : ''}
${
  o.files.length
    ? html`<ul>${o.files.map((f) => {
        const from = sourcePages(f.extra);
        return html`<li><a href="/files/${f.file_id}" download="${f.filename}">Download ${f.filename}</a> (${plural(f.pages, 'page')}, ${fileSize(f.bytes)}${from ? `; ${from.length === 1 ? 'page' : 'pages'} ${describeValue(from)} of your file` : ''}; available until ${f.expires_at.slice(11, 16)} UTC)</li>`;
      })}</ul>`
    : ''
}
${o.tool === 'split_pdf' && o.files.length > 1 && o.files.length <= MAX_ZIP_FILES ? partsZip(o.files) : ''}
${Object.keys(data).length ? html`<dl class="pairs">${describeResult(webResultData(o.tool, data)).map(([k, v]) => html`<dt>${k}</dt><dd>${v}</dd>`)}</dl>` : ''}
</section>`;
}
