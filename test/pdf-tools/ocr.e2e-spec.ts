import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { characterErrorRate } from '../../src/pdf-tools/ocr/ocr-languages';
import { createTestApp, TestApp } from '../utils/test-app';
import { fileIdsOf, uploadThroughForm, WebClient } from '../web/web-client';

/** The known text of the scanned page. */
const LINES = [
  'Invoice 4521 was paid on 12 March 2024.',
  'The quick brown fox jumps over the lazy dog.',
  'Beacon makes scanned pages searchable.',
];

/** A "scan": the text drawn, rendered to a grey 200 dpi image, and that image alone on a page (no text layer). */
async function scannedPdf(dir: string): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const page = doc.addPage([500, 160]);
  LINES.forEach((line, i) => page.drawText(line, { x: 30, y: 120 - i * 34, size: 16, font }));
  writeFileSync(join(dir, 'text.pdf'), await doc.save());
  execFileSync('pdftoppm', ['-r', '200', '-gray', '-png', '-singlefile', join(dir, 'text.pdf'), join(dir, 'scan')]);
  const scan = await PDFDocument.create();
  const image = await scan.embedPng(readFileSync(join(dir, 'scan.png')));
  scan.addPage([500, 160]).drawImage(image, { x: 0, y: 0, width: 500, height: 160 });
  return scan.save();
}

const pdftotext = (dir: string, bytes: Uint8Array): string => {
  writeFileSync(join(dir, 'check.pdf'), bytes);
  return execFileSync('pdftotext', [join(dir, 'check.pdf'), '-'], { encoding: 'utf8' });
};
const summary = (text: string): string | undefined =>
  /<div class="error-summary"[\s\S]*?<a href="#[^"]+">([^<]*)<\/a>/.exec(text)?.[1];
const remaining = (text: string): number => Number(/<strong>(\d+) of/.exec(text)?.[1]);

/**
 * OCR on the website (issue 23 item 2), over HTTP: a scanned page of known text becomes a
 * searchable PDF whose text layer pdftotext reads back, and the plain text, both within a 2 %
 * character error rate; the job has its own page (progress, then the results); an unknown language
 * is refused before the quota. One small page: OCR is slow on shared cores.
 */
describe('OCR on the website (e2e)', () => {
  let t: TestApp;
  let dir: string;
  let scan: Uint8Array;

  beforeAll(async () => {
    t = await createTestApp();
    dir = mkdtempSync(join(tmpdir(), 'ocr-e2e-'));
    scan = await scannedPdf(dir);
  }, 60_000);

  afterAll(async () => {
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('refuses an unknown language before the quota', async () => {
    const c = WebClient.of(t.server);
    const up = await uploadThroughForm(c, 'ocr', scan, 'scan.pdf');
    const [id] = fileIdsOf(up.text);
    const r = await c.post('/pdf/ocr', { file_id: id, languages: 'ita' });
    expect(r.status).toBe(400);
    expect(summary(r.text)).toBe(
      'The language &quot;ita&quot; is not offered: choose English, German, French or Spanish, or &quot;Detect it&quot;.',
    );
    expect(remaining(r.text)).toBe(remaining(up.text));
  });

  /** Upload, start an OCR job, follow its page until done: the page and its two downloads' addresses. */
  async function ocrJob(c: WebClient, bytes: Uint8Array, pages: number) {
    const up = await uploadThroughForm(c, 'ocr', bytes, 'scan.pdf');
    const [id] = fileIdsOf(up.text);
    const started = await c.post('/pdf/ocr', { file_id: id, languages: 'auto' });
    expect(started.status).toBe(303);
    const jobUrl = started.location!;
    expect(jobUrl).toMatch(/^\/pdf\/ocr\/jobs\/[A-Za-z0-9_-]{22}$/);

    // The job's page: waiting or reading (it updates itself), until done.
    let page = await c.get(jobUrl);
    expect(page.status).toBe(200);
    const deadline = Date.now() + 80_000;
    while (/data-poll=/.test(page.text) && Date.now() < deadline) {
      expect(page.text).toMatch(new RegExp(`Waiting for its turn|Reading the pages: \\d of ${pages} done`));
      await new Promise((r) => setTimeout(r, 250));
      page = await c.get(jobUrl);
    }
    expect(page.text).toContain('<h2 id="result-title">Done</h2>');
    const pdfLink = /<a href="(\/files\/[^"]+)" id="ocr-pdf">/.exec(page.text)![1];
    const textLink = /<a href="(\/files\/[^"]+)" id="ocr-text">/.exec(page.text)![1];
    return { page, pdfLink, textLink };
  }

  it('makes a scanned page searchable (detected language): pdftotext reads it back, character error rate under 2 %', async () => {
    expect(pdftotext(dir, scan).trim()).toBe('');
    const c = WebClient.of(t.server);
    const { page, pdfLink, textLink } = await ocrJob(c, scan, 1);
    expect(page.text).toContain('language: English (detected)');
    // A link to start another OCR (the result page has no form of its own).
    expect(page.text).toContain('<a href="/pdf/ocr" id="ocr-again">Make another PDF searchable</a>');

    const text = await fetch(c.origin + textLink);
    expect(text.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    const plain = await text.text();
    expect(characterErrorRate(LINES.join(' '), plain)).toBeLessThan(0.02);

    const pdf = await fetch(c.origin + pdfLink);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    const layer = pdftotext(dir, new Uint8Array(await pdf.arrayBuffer()));
    expect(characterErrorRate(LINES.join(' '), layer)).toBeLessThan(0.02);
    // The page shows the text too.
    expect(page.text).toContain('The quick brown fox');
  }, 100_000);

  it('keeps the words of pages that already had text in the text file (no "OCR skipped" marker)', async () => {
    // Page 1 born digital, page 2 the scan: ocrmypdf reads only page 2 and marks page 1 as skipped.
    const mixed = await PDFDocument.create();
    const font = await mixed.embedFont(StandardFonts.Helvetica);
    mixed.addPage([500, 160]).drawText('Born digital cover page', { x: 30, y: 100, size: 16, font });
    const [scanned] = await mixed.copyPages(await PDFDocument.load(scan), [0]);
    mixed.addPage(scanned);
    const c = WebClient.of(t.server);
    const { textLink } = await ocrJob(c, await mixed.save(), 2);
    const plain = await (await fetch(c.origin + textLink)).text();
    expect(plain).not.toContain('OCR skipped');
    const [cover, rest] = plain.split('Born digital cover page');
    expect(cover.trim()).toBe('');
    expect(characterErrorRate(LINES.join(' '), rest)).toBeLessThan(0.02);
  }, 100_000);

  it('answers 404 for an unknown job', async () => {
    const c = WebClient.of(t.server);
    const r = await c.get('/pdf/ocr/jobs/AAAAAAAAAAAAAAAAAAAAAA');
    expect(r.status).toBe(404);
    expect(r.text).toContain('This OCR job is not known or no longer kept');
  });
});
