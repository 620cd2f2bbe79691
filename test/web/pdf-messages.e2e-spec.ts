import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PDFDocument } from 'pdf-lib';
import type { Browser } from 'puppeteer-core';
import { ToolRunnerService } from '../../src/pdf-tools/run/tool-runner.service';
import { mcpResult } from '../../src/pdf-tools/mcp/mcp-result';
import { PDF_TOOLS_BY_NAME } from '../../src/pdf-tools/tools';
import { launchChromium } from '../utils/chromium';
import { createTestApp, TestApp } from '../utils/test-app';
import { fileIdsOf, uploadThroughForm, WebClient } from './web-client';

const MAX_BYTES = 300_000;
const MAX_PAGES = 8;

async function samplePdf(pages: number): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  for (let i = 0; i < pages; i++) doc.addPage([300, 400]).drawText(`Page ${i + 1}`, { x: 40, y: 300, size: 24 });
  return doc.save();
}

/** The error summary's text and the field it links to (HTML entities of quotes read back). */
const summary = (text: string): { field?: string; message?: string } => {
  const m = /<div class="error-summary"[\s\S]*?<a href="#([^"]+)">([^<]*)<\/a>/.exec(text);
  return {
    field: m?.[1],
    message: m?.[2]
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'")
      .replace(/&amp;/g, '&'),
  };
};
/** Program text that a person should never read on the page. */
const PROGRAM_TEXT =
  /Invalid arguments|merge_pdfs|split_pdf|add_watermark|Too (big|small)|expected (array|number)|qpdf|%PDF-|\d{4,} bytes|\bbytes\b|file_id|`|ERR_/;

/**
 * The PDF pages speak to people (issue #20, items 9 and 10): every refusal through the website is a
 * plain sentence from the web's own wording (by error code and typed details), never the program
 * text MCP clients get (which stays as it is); sizes, positions, dates and colours are shown for
 * people; a reversed page range is refused with a clear message, and counts are pluralised.
 */
describe('PDF tools on the website: messages and values for people (e2e)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({
      env: { PDF_DAILY_LIMIT: '50', PDF_MAX_FILE_BYTES: String(MAX_BYTES), PDF_MAX_PAGES: String(MAX_PAGES) },
    });
  }, 60_000);

  afterAll(async () => {
    await t?.close();
  });

  const upload = uploadThroughForm;
  const uploaded = async (c: WebClient, slug: string, pages: number, name = 'doc.pdf'): Promise<string> => {
    const up = await upload(c, slug, await samplePdf(pages), name);
    expect(up.status).toBe(200);
    return fileIdsOf(up.text)[0];
  };
  /** The result block's text, tags dropped. */
  const resultText = (text: string): string =>
    (/<section class="notice"[^>]*id="result">([\s\S]*?)<\/section>/.exec(text)?.[1] ?? '')
      .replace(/<[^>]+>/g, ' ')
      .replace(/\s+/g, ' ');

  it('merge with one file: "Choose at least two PDFs to merge", while MCP keeps its message', async () => {
    const c = WebClient.of(t.server);
    const id = await uploaded(c, 'merge-pdfs', 1);
    const r = await c.post('/pdf/merge-pdfs', { file_id: id });
    expect(r.status).toBe(400);
    expect(summary(r.text)).toEqual({ field: 'file', message: 'Choose at least two PDFs to merge.' });
    expect(summary(r.text).message).not.toMatch(PROGRAM_TEXT);
    // The MCP answer to the same arguments is unchanged.
    const mcp = mcpResult(
      await t.app
        .get(ToolRunnerService)
        .run(PDF_TOOLS_BY_NAME.get('merge_pdfs')!, { files: [{ file_id: id }] }, { ip: '127.0.0.9' }),
      0,
    );
    expect((mcp.structuredContent as { message: string }).message).toBe(
      'Invalid arguments for merge_pdfs: files: Too small: expected array to have >=2 items.',
    );
  }, 60_000);

  it('watermark: opacity in per cent, out of range is "Opacity must be between 5 and 100 %"; positions and colour for people', async () => {
    const c = WebClient.of(t.server);
    const page = await c.get('/pdf/add-watermark');
    // The options: positions in words (the tool's token is the value), a colour picker with its label, opacity in per cent.
    expect(page.text).toContain('<option value="bottom-right">Bottom right</option>');
    expect(page.text).not.toMatch(/>bottom-right</);
    expect(page.text).toMatch(
      /<label for="opt-color">Colour[\s\S]*?<\/label><br><input type="color" id="opt-color" name="opt.color" value="#808080"/,
    );
    expect(page.text).toMatch(/<input type="number" id="opt-opacity" name="opt.opacity" value="30" min="5" max="100"/);
    const id = await uploaded(c, 'add-watermark', 2);
    const tooBig = await c.post('/pdf/add-watermark', { file_id: id, 'opt.text': 'Draft', 'opt.opacity': '150' });
    expect(tooBig.status).toBe(400);
    expect(summary(tooBig.text)).toEqual({ field: 'opt-opacity', message: 'Opacity must be between 5 and 100 %.' });
    expect(tooBig.text).toMatch(/id="opt-opacity"[^>]*aria-invalid="true"/);
    const colour = await c.post('/pdf/add-watermark', { file_id: id, 'opt.text': 'Draft', 'opt.color': 'grey' });
    expect(summary(colour.text)).toEqual({
      field: 'opt-color',
      message: 'Colour must be a colour code such as #808080, or pick the colour.',
    });
    const fontSize = await c.post('/pdf/add-watermark', { file_id: id, 'opt.text': 'Draft', 'opt.font_size': 'big' });
    expect(summary(fontSize.text)).toEqual({ field: 'opt-font_size', message: 'Font size must be between 4 and 300.' });
    // 50 % reaches the tool as 0.5: the run works.
    const ok = await c.post('/pdf/add-watermark', {
      file_id: id,
      'opt.text': 'Draft',
      'opt.opacity': '50',
      'opt.color': '#ff0000',
      'opt.position': 'bottom-right',
    });
    expect(ok.status).toBe(200);
    expect(resultText(ok.text)).toContain('Watermarked 2 pages.');
    // The MCP message of the same mistake stays the program's.
    const mcp = mcpResult(
      await t.app
        .get(ToolRunnerService)
        .run(
          PDF_TOOLS_BY_NAME.get('add_watermark')!,
          { file: { file_id: id }, text: 'Draft', opacity: 1.5 },
          { ip: '127.0.0.9' },
        ),
      0,
    );
    expect((mcp.structuredContent as { message: string }).message).toMatch(
      /^Invalid arguments for add_watermark: opacity: Too big/,
    );
  }, 60_000);

  it('uploads refused in words: too large in MB/KB, not a PDF, too many pages; no byte counts, headers or commands', async () => {
    const c = WebClient.of(t.server);
    const cases: Array<[Uint8Array, number, string]> = [
      [new Uint8Array(MAX_BYTES + 100_000), 413, 'Your file is larger than 293 KB, the most a file may be here.'],
      [Buffer.from('hello, not a PDF'), 415, 'Your file is not a PDF file: choose a PDF.'],
      [
        await samplePdf(MAX_PAGES + 1),
        400,
        `Your file has more than ${MAX_PAGES} pages, the most a file may have here: split it into smaller files first.`,
      ],
      [
        Buffer.from('%PDF-1.7 but nothing else'),
        400,
        'Your file is damaged and cannot be read, even after an attempt to repair it.',
      ],
    ];
    for (const [bytes, status, message] of cases) {
      const r = await upload(c, 'compress-pdf', bytes, 'x.pdf');
      expect({ status: r.status, ...summary(r.text) }).toEqual({ status, field: 'file', message });
      expect(summary(r.text).message).not.toMatch(PROGRAM_TEXT);
    }
    // The agent's answer (POST /files) keeps its message.
    const form = new FormData();
    form.set('file', new Blob([Buffer.from('hello, not a PDF')]), 'x.pdf');
    const agent = (await (await fetch(`${c.origin}/files`, { method: 'POST', body: form })).json()) as {
      message: string;
    };
    expect(agent.message).toBe('The upload is not a PDF (no %PDF- header).');
  }, 60_000);

  it('split: a reversed range is refused with a clear message; one range makes "1 document"', async () => {
    const c = WebClient.of(t.server);
    const id = await uploaded(c, 'split-pdf', 6, 'six.pdf');
    const reversed = await c.post('/pdf/split-pdf', { file_id: id, 'opt.mode': 'ranges', 'opt.ranges': '1-2, 5-3' });
    expect(reversed.status).toBe(400);
    expect(summary(reversed.text)).toEqual({
      field: 'opt-ranges',
      message: 'The range "5-3" in "Page ranges" runs backwards: write its lower page first, "3-5".',
    });
    const outside = await c.post('/pdf/split-pdf', { file_id: id, 'opt.mode': 'ranges', 'opt.ranges': '1-9' });
    expect(summary(outside.text)).toEqual({
      field: 'opt-ranges',
      message: 'There is no page 9 in six.pdf: it has 6 pages.',
    });
    const count = await c.post('/pdf/split-pdf', { file_id: id, 'opt.mode': 'count', 'opt.count': '7' });
    expect(summary(count.text)).toEqual({
      field: 'opt-count',
      message: 'six.pdf has 6 pages: it cannot be split into 7 parts.',
    });
    const one = await c.post('/pdf/split-pdf', { file_id: id, 'opt.mode': 'ranges', 'opt.ranges': '3-5' });
    expect(one.status).toBe(200);
    expect(resultText(one.text)).toContain('Split into 1 document.');
    expect(resultText(one.text)).not.toContain('1 documents');
    expect(resultText(one.text)).toContain('pages 3-5 of your file');
    const two = await c.post('/pdf/split-pdf', { file_id: id, 'opt.mode': 'ranges', 'opt.ranges': '1, 2-last' });
    expect(resultText(two.text)).toContain('Split into 2 documents.');
  }, 60_000);

  it("the field a choice needs, the page numbers' format and removing every page are refused in the page's words", async () => {
    const c = WebClient.of(t.server);
    const split = await uploaded(c, 'split-pdf', 3, 'three.pdf');
    const cases: Array<[string, Record<string, string>, string, string]> = [
      ['split-pdf', { 'opt.mode': 'ranges' }, 'opt-ranges', 'You chose "By page ranges": fill in "Page ranges".'],
      [
        'split-pdf',
        { 'opt.mode': 'every' },
        'opt-every',
        'You chose "Every so many pages": fill in "Pages per document".',
      ],
      [
        'split-pdf',
        { 'opt.mode': 'count' },
        'opt-count',
        'You chose "Into a number of equal parts": fill in "Number of documents".',
      ],
    ];
    for (const [slug, fields, field, message] of cases) {
      const r = await c.post(`/pdf/${slug}`, { file_id: split, ...fields });
      expect({ status: r.status, ...summary(r.text) }).toEqual({ status: 400, field, message });
    }
    const numbers = await uploaded(c, 'add-page-numbers', 2, 'two.pdf');
    const format = await c.post('/pdf/add-page-numbers', { file_id: numbers, 'opt.format': 'Page' });
    expect({ status: format.status, ...summary(format.text) }).toEqual({
      status: 400,
      field: 'opt-format',
      message: 'Format needs {n} where the page number goes, e.g. "Page {n} of {total}".',
    });
    const remove = await uploaded(c, 'remove-pages', 2, 'two.pdf');
    for (const pages of ['all', '1-2', 'odd, even']) {
      const every = await c.post('/pdf/remove-pages', { file_id: remove, 'opt.pages': pages });
      expect({ status: every.status, ...summary(every.text) }).toEqual({
        status: 400,
        field: 'opt-pages',
        message: `"${pages}" selects every page of two.pdf: at least one page must remain.`,
      });
    }
    const kept = await c.post('/pdf/remove-pages', { file_id: remove, 'opt.pages': 'last' });
    expect(kept.status).toBe(200);
  }, 60_000);

  it('compress and metadata results: sizes with KB/MB, dates in words, date fields for people', async () => {
    const c = WebClient.of(t.server);
    const id = await uploaded(c, 'compress-pdf', 3);
    const compressed = await c.post('/pdf/compress-pdf', { file_id: id });
    expect(compressed.status).toBe(200);
    const text = resultText(compressed.text);
    expect(text).toMatch(
      /Compressed (from \d+ KB to \d+ KB|a little) \([\d.]+ % smaller\)|Your file could not be made smaller: you get it back unchanged\./,
    );
    expect(text).not.toMatch(/\d+ bytes|\brecommended\b/);
    expect(text).toContain('Level Recommended');

    const page = await c.get('/pdf/pdf-metadata');
    expect(page.text).toMatch(/<input type="datetime-local" id="opt-set-creation_date" name="opt.set.creation_date"/);
    expect(page.text).not.toContain('2024-05-01T12:00:00Z');
    const meta = await uploaded(c, 'pdf-metadata', 1);
    const bad = await c.post('/pdf/pdf-metadata', { file_id: meta, 'opt.set.creation_date': 'yesterday' });
    expect(summary(bad.text)).toEqual({
      field: 'opt-set-creation_date',
      message: 'New creation date (UTC) must be a date and a time of day.',
    });
    const set = await c.post('/pdf/pdf-metadata', {
      file_id: meta,
      'opt.set.title': 'Report',
      'opt.set.creation_date': '2024-05-01T12:00',
    });
    expect(set.status).toBe(200);
    const result = resultText(set.text);
    // One line per field (a dt and its dd), not one long line.
    expect(result).toContain('Creation date 1 May 2024, 12:00 UTC');
    expect(set.text).toContain('<dt>Title</dt><dd>Report</dd>');
    expect(result).not.toMatch(/\d{4}-\d\d-\d\dT/);
  }, 60_000);

  describe('in Chromium, with the page script', () => {
    let browser: Browser;
    beforeAll(async () => {
      browser = await launchChromium(t);
    }, 60_000);
    afterAll(async () => {
      await browser?.close();
    });

    it("an upload refused by POST /files is told in the page's words; the colour picker has a code field kept in step", async () => {
      const page = await (await browser.createBrowserContext()).newPage();
      const origin = WebClient.of(t.server).origin;
      await page.goto(`${origin}/pdf/add-watermark`);
      const dir = join(__dirname, '..', '..', 'node_modules', '.cache', 'web-messages');
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, 'notes.pdf'), 'hello, not a PDF');
      const input = await page.$('#file');
      await (input as unknown as { uploadFile: (p: string) => Promise<void> }).uploadFile(join(dir, 'notes.pdf'));
      await page.waitForSelector('#upload-status.bad', { timeout: 30_000 });
      expect(await page.$eval('#upload-status', (e) => e.textContent)).toBe(
        'notes.pdf is not a PDF file: choose a PDF.',
      );
      expect(await page.$$eval('#chosen li', (l) => l.length)).toBe(0);
      // The colour: a picker, and its code beside it (labelled), kept in step both ways.
      expect(await page.$eval('#opt-color', (e) => e.getAttribute('type'))).toBe('color');
      expect(await page.$eval('[data-colour-code]', (e) => (e as unknown as { hidden: boolean }).hidden)).toBe(false);
      expect(await page.$eval('label[for="opt-color-code"]', (e) => e.textContent)).toBe('Colour code');
      await page.click('#opt-color-code', { count: 3 });
      await page.keyboard.type('#ff0000');
      expect(await page.$eval('#opt-color', (e) => (e as unknown as { value: string }).value)).toBe('#ff0000');
      await page.evaluate(
        "(function (e) { e.value = '#00ff00'; e.dispatchEvent(new Event('input')); })(document.getElementById('opt-color'))",
      );
      expect(await page.$eval('#opt-color-code', (e) => (e as unknown as { value: string }).value)).toBe('#00ff00');
      await page.browserContext().close();
    }, 60_000);
  });
});

describe('PDF tools on the website: the daily quota in words (e2e)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { PDF_DAILY_LIMIT: '1' } });
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });

  it("a run over the quota says so without the tool's name or ISO times", async () => {
    const c = WebClient.of(t.server);
    await c.get('/pdf/flatten-form');
    const form = new FormData();
    form.set('file', new Blob([Buffer.from(await samplePdf(1))], { type: 'application/pdf' }), 'a.pdf');
    const up = await c.request('POST', `/pdf/flatten-form/upload?_csrf=${encodeURIComponent(c.csrf())}`, {
      body: form,
    });
    const id = /name="file_id" value="([^"]+)"/.exec(up.text)![1];
    expect((await c.post('/pdf/flatten-form', { file_id: id })).status).toBe(200);
    const over = await c.post('/pdf/flatten-form', { file_id: id });
    expect(over.status).toBe(429);
    expect(summary(over.text).message).toMatch(
      /^You have used all 1 run of this tool for today on this device\. It resets at \d\d:\d\d UTC\.$/,
    );
    expect(summary(over.text).message).not.toMatch(/flatten_form|\d{4}-\d\d-\d\dT/);
  }, 60_000);
});
