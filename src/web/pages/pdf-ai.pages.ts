import type { UserView } from '../../accounts/accounts.service';
import { html, SafeHtml } from '../../common/html/html';
import { fileSize } from '../../common/text/file-size';
import { plural } from '../../common/text/plural';
import type { ChatResult, SummaryResult } from '../../pdf-tools/ai/pdf-ai.service';
import { LANGUAGES, MAX_QUESTION_CHARS } from '../../pdf-tools/ai/pdf-ai.service';
import { page } from '../../common/html/page';
import { errorSummary } from '../render/layout';
import { CSRF_FIELD } from '../web-context';

export interface AiFile {
  file_id: string;
  filename: string;
  bytes: number;
}

/** A request as the page's forms send it. */
export interface AiAsk {
  action: 'summarize' | 'chat' | 'translate';
  question?: string;
  language?: string;
}

/** What "then" does after the OCR, in the page's words. */
const THEN_WORDS: Record<AiAsk['action'], string> = {
  summarize: 'summarise it',
  chat: 'answer your question',
  translate: 'translate it',
};

/** How often the page asks again while the OCR runs (ms). */
const OCR_POLL_MS = 2000;

export interface TranslationView {
  language: string;
  text: string;
  pageCount: number;
  /** Download addresses (without extension). */
  download: string;
}

export interface PdfAiPageState {
  /** Null: no AI platform configured (the message says which setting enables one). */
  notConfigured?: string;
  file?: AiFile;
  error?: { message: string; field?: string };
  summary?: SummaryResult;
  chat?: ChatResult & { question: string };
  translation?: TranslationView;
  usage: { calls: number; tokens: number; maxCalls: number; maxTokens: number };
  question?: string;
  language?: string;
  /** A scan refused for its missing text layer: the page offers "Run OCR, then ..." for the same request. */
  offerOcr?: AiAsk;
  /** The OCR of the scan is running; the request follows on the searchable PDF. */
  ocr?: { pollUrl: string; pages: number; pagesDone: number; queued: boolean; ask: AiAsk['action'] };
  /** The answer is on the OCR'd copy of this file. */
  ocrDone?: string;
}

/** "Run OCR, then summarise it": the same request, on the scan once OCR gave it a text layer. */
function ocrOffer(csrf: string, file: AiFile, a: AiAsk): SafeHtml {
  return html`<form method="post" action="/pdf/ai/ocr" class="notice" id="ocr-offer">${hidden(csrf, file)}<input type="hidden" name="then" value="${a.action}">${a.question !== undefined ? html`<input type="hidden" name="question" value="${a.question}">` : ''}${a.language !== undefined ? html`<input type="hidden" name="language" value="${a.language}">` : ''}
<p>OCR reads the text of the scanned pages (it uses one OCR run of today's quota); then the AI will ${THEN_WORDS[a.action]}.</p>
<button type="submit">Run OCR, then ${THEN_WORDS[a.action]}</button></form>`;
}

/** The OCR's progress while the request waits for it (the page script asks again; without it, reload). */
function ocrProgress(o: NonNullable<PdfAiPageState['ocr']>): SafeHtml {
  return html`<div id="ocr-job" data-poll="${OCR_POLL_MS}" data-poll-url="${o.pollUrl}" role="status" aria-live="polite">
<p>${o.queued ? 'The scan waits for its turn at the OCR…' : `Reading the scanned pages (OCR): ${o.pagesDone} of ${o.pages} done.`} Then the AI will ${THEN_WORDS[o.ask]}.</p>
${o.queued ? html`<progress aria-label="OCR progress"></progress>` : html`<progress max="${o.pages}" value="${o.pagesDone}" aria-label="OCR progress">${o.pagesDone} of ${o.pages}</progress>`}
<p class="hint">This page updates itself; without JavaScript, <a href="${o.pollUrl}">reload it</a>.</p></div>`;
}

const hidden = (csrf: string, file: AiFile): SafeHtml =>
  html`<input type="hidden" name="${CSRF_FIELD}" value="${csrf}"><input type="hidden" name="file_id" value="${file.file_id}">`;

/** Model text shown as paragraphs (escaped; line breaks kept). */
const prose = (text: string): SafeHtml =>
  html`<div class="ai-text">${text.split(/\n{2,}/).map((p) => html`<p>${p.split('\n').map((l, i) => html`${i ? html`<br>` : ''}${l}`)}</p>`)}</div>`;

const pagesNote = (cited: number[]): string =>
  cited.length ? `Pages cited: ${cited.join(', ')}.` : 'The answer cites no page.';

function forms(csrf: string, s: PdfAiPageState, file: AiFile): SafeHtml {
  const invalid = (f: string): SafeHtml | string =>
    s.error?.field === f ? html` aria-invalid="true" aria-describedby="error-title"` : '';
  return html`<section aria-labelledby="summary-h"><h2 id="summary-h">Summary</h2>
<form method="post" action="/pdf/ai/summarize">${hidden(csrf, file)}<button type="submit">Summarise ${file.filename}</button></form></section>
<section aria-labelledby="chat-h"><h2 id="chat-h">Ask the document</h2>
<form method="post" action="/pdf/ai/chat">${hidden(csrf, file)}
<div class="field"><label for="question">Your question <span class="hint">(at most ${MAX_QUESTION_CHARS.toLocaleString('en')} characters)</span></label><br>
<textarea id="question" name="question" rows="3" maxlength="${MAX_QUESTION_CHARS}" required${invalid('question')}>${s.question ?? ''}</textarea></div>
<button type="submit">Ask</button></form></section>
<section aria-labelledby="translate-h"><h2 id="translate-h">Translate</h2>
<form method="post" action="/pdf/ai/translate">${hidden(csrf, file)}
<div class="field"><label for="language">Into</label> <select id="language" name="language"${invalid('language')}>${LANGUAGES.map((l) => html`<option${l === s.language ? html` selected` : ''}>${l}</option>`)}</select></div>
<button type="submit">Translate</button></form></section>`;
}

function results(s: PdfAiPageState): SafeHtml | string {
  if (s.summary) {
    const r = s.summary;
    return html`<section class="result" aria-labelledby="result-h"><h2 id="result-h" tabindex="-1" autofocus>Summary of ${plural(r.pageCount, 'page')}</h2>${prose(r.summary)}<p class="hint">${pagesNote(r.cited)} ${plural(r.calls, 'model call')}, ${r.tokens.toLocaleString('en')} tokens (${r.model}).</p></section>`;
  }
  if (s.chat) {
    const r = s.chat;
    return html`<section class="result" aria-labelledby="result-h"><h2 id="result-h" tabindex="-1" autofocus>Answer</h2><p class="hint">Question: ${r.question}</p>${prose(r.answer)}<p class="hint">${r.answered ? pagesNote(r.cited) : `The pages read (${r.pagesRead.join(', ')} of ${r.pageCount}) do not answer it.`} ${r.tokens.toLocaleString('en')} tokens (${r.model}).</p></section>`;
  }
  if (s.translation) {
    const t = s.translation;
    return html`<section class="result" aria-labelledby="result-h"><h2 id="result-h" tabindex="-1" autofocus>Translation into ${t.language}</h2>
<ul><li><a href="${t.download}.pdf" download>Download the translation as PDF</a></li><li><a href="${t.download}.txt" download>Download the translation as text</a></li></ul>
<p class="hint">The downloads are kept for an hour, for you only.</p>${prose(t.text)}</section>`;
  }
  return '';
}

/**
 * PDF tools > AI (issue #23 item 4): upload a PDF, then summarise it, ask it a question or
 * translate it; answers cite pages as [p. N]. Signed-in users only; without a configured AI
 * platform the page says which setting enables one.
 */
export function pdfAiPage(user: UserView, csrf: string, s: PdfAiPageState, address?: string): string {
  const u = s.usage;
  const body = s.notConfigured
    ? html`<p class="notice" role="status">${s.notConfigured}</p>`
    : s.ocr
      ? ocrProgress(s.ocr)
      : html`${errorSummary(s.error?.message, s.error?.field)}
${s.offerOcr && s.file ? ocrOffer(csrf, s.file, s.offerOcr) : ''}
${s.ocrDone ? html`<p class="hint" id="ocr-done">${s.ocrDone} is a scan: OCR read its pages first, and the AI worked on that text.</p>` : ''}
<p>Upload a PDF with a text layer (a scan needs OCR first). Its text is sent to this workspace's AI platform for your request only. Today you have used ${plural(u.calls, 'model call')} of ${u.maxCalls} and ${u.tokens.toLocaleString('en')} tokens of ${u.maxTokens.toLocaleString('en')}.</p>
${
  s.file
    ? html`<p>File: <strong>${s.file.filename}</strong> (${fileSize(s.file.bytes)}). <a href="/pdf/ai">Choose another file</a></p>${results(s)}${forms(csrf, s, s.file)}`
    : html`<form method="post" action="/pdf/ai/upload?${CSRF_FIELD}=${encodeURIComponent(csrf)}" enctype="multipart/form-data">
<div class="field"><label for="file">PDF file</label><br><input type="file" id="file" name="file" accept="application/pdf,.pdf" required${s.error?.field === 'file' ? html` aria-invalid="true"` : ''}></div>
<button type="submit">Upload</button></form>`
}`;
  return page({
    title: 'AI summary, chat and translation',
    section: 'pdf',
    user,
    csrf,
    body: html`<h1>AI summary, chat and translation</h1>${body}`,
    address,
  });
}
