import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PDFDocument } from 'pdf-lib';
import { createTestApp, TestApp } from '../utils/test-app';
import { fileIdsOf, uploadThroughForm, WebClient } from './web-client';

const USER_PASSWORD = 'user';

async function samplePdf(pages: number): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  for (let i = 0; i < pages; i++) doc.addPage([300, 400]).drawText(`Page ${i + 1}`, { x: 40, y: 300, size: 24 });
  return doc.save();
}

/** Runs qpdf on `bytes` (in.pdf -> out.pdf with `args` between) and returns out.pdf, or qpdf's stdout with `out: false`. */
function qpdf(bytes: Uint8Array, args: string[], out = true): Buffer {
  const dir = mkdtempSync(join(tmpdir(), 'web-pdf-password-'));
  try {
    writeFileSync(join(dir, 'in.pdf'), bytes);
    if (!out) return execFileSync('qpdf', [...args, join(dir, 'in.pdf')], { stdio: 'pipe' });
    execFileSync('qpdf', [...args, join(dir, 'in.pdf'), join(dir, 'out.pdf')], { stdio: 'pipe' });
    return readFileSync(join(dir, 'out.pdf'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The error summary's text and the field it links to. */
const summary = (text: string): { field?: string; message?: string } => {
  const m = /<div class="error-summary"[\s\S]*?<a href="#([^"]+)">([^<]*)<\/a>/.exec(text);
  return { field: m?.[1], message: m?.[2] };
};

/**
 * PDFs with a user password on the website, at the HTTP level (the no-JavaScript path): the upload
 * says the file is password-protected and the form asks for its password; a missing or wrong one
 * is an error naming the field; the right one runs the tool, and the result says it was decrypted.
 * The password is never written back into a page. (In Chromium, with the script, and graded by the
 * scanner: browser.e2e-spec.ts.)
 */
describe('PDF tools on the website: password-protected PDFs (e2e)', () => {
  let t: TestApp;
  let locked: Buffer;
  let plain: Uint8Array;

  beforeAll(async () => {
    t = await createTestApp({ env: { PDF_DAILY_LIMIT: '20' } });
    plain = await samplePdf(3);
    locked = qpdf(plain, ['--encrypt', USER_PASSWORD, 'owner', '256', '--']);
  }, 60_000);

  afterAll(async () => {
    await t?.close();
  });

  const upload = uploadThroughForm;

  it('asks for the password of a protected upload; missing and wrong are errors naming its field; the right one decrypts', async () => {
    const c = WebClient.of(t.server);
    const up = await upload(c, 'rotate-pages', locked, 'report.pdf');
    expect(up.status).toBe(200);
    const [id] = fileIdsOf(up.text);
    // The chosen file is password-protected, not "null pages" or "0 pages"; the form has its password field.
    expect(up.text).toContain('report.pdf <span class="hint">(password-protected, ');
    expect(up.text).not.toMatch(/\bnull pages|\b0 pages/);
    const field = /<input type="password" id="password-1" name="([^"]+)" autocomplete="off"[^>]*>/.exec(up.text);
    expect(field?.[1]).toBe(`password.${id}`);
    expect(up.text).toContain('<label for="password-1">Password of report.pdf</label>');

    // No password: the form says which field, before any quota is spent.
    const quotaBefore = /<strong>(\d+) of/.exec(up.text)?.[1];
    const none = await c.post('/pdf/rotate-pages', { file_id: id, 'opt.angle': '90' });
    expect(none.status).toBe(400);
    expect(summary(none.text)).toEqual({
      field: 'password-1',
      message: 'report.pdf is protected by a password: enter it in &quot;Password of report.pdf&quot;.',
    });
    expect(none.text).toMatch(/id="password-1" [^>]*aria-invalid="true"/);
    expect(/<strong>(\d+) of/.exec(none.text)?.[1]).toBe(quotaBefore);

    // A wrong password: the tool's `encrypted` error, in the page's words, linked to the field; the password is not echoed.
    const wrongPassword = 'not-the-password-3f9a';
    const wrong = await c.post('/pdf/rotate-pages', {
      file_id: id,
      [`password.${id}`]: wrongPassword,
      'opt.angle': '90',
    });
    expect(wrong.status).toBe(422);
    expect(summary(wrong.text).field).toBe('password-1');
    expect(summary(wrong.text).message).toMatch(
      /^The password of report\.pdf is not correct: type it again in &quot;Password of report\.pdf&quot;\./,
    );
    expect(wrong.text).not.toContain(wrongPassword);
    expect(/<div class="error-summary"[\s\S]*?<\/div>/.exec(wrong.text)?.[0]).not.toMatch(/`password`|file_id|\{"|MCP/);

    // The right password: the tool runs, the result says the file was decrypted, the download is a clean, unencrypted PDF.
    const right = await c.post('/pdf/rotate-pages', {
      file_id: id,
      [`password.${id}`]: USER_PASSWORD,
      'opt.angle': '90',
    });
    expect(right.status).toBe(200);
    expect(right.text).not.toContain(`value="${USER_PASSWORD}"`);
    expect(/<p id="result-note">([^<]*)<\/p>/.exec(right.text)?.[1]).toBe(
      'report.pdf was decrypted with your password: the result has no password.',
    );
    // The password field is offered again, empty, for another run.
    expect(right.text).toMatch(
      /<input type="password" id="password-1" name="password\.[^"]+" autocomplete="off" maxlength="1024" aria-describedby="password-1-hint">/,
    );
    const href = /href="(\/files\/[^"]+)" download/.exec(right.text)?.[1];
    const res = await fetch(`${c.origin}${href}`);
    expect(res.status).toBe(200);
    const out = new Uint8Array(await res.arrayBuffer());
    expect(qpdf(out, ['--check'], false).toString()).toMatch(/No syntax or stream encoding errors found/);
    expect(qpdf(out, ['--show-encryption'], false).toString()).toMatch(/File is not encrypted/);
    const doc = await PDFDocument.load(out);
    expect(doc.getPageCount()).toBe(3);
    expect(doc.getPage(0).getRotation().angle).toBe(90);
  }, 60_000);

  it('merge: each protected file has its own password field, sent with its file_id; an error names the right one', async () => {
    const c = WebClient.of(t.server);
    const first = await upload(c, 'merge-pdfs', plain, 'plain.pdf');
    const second = await upload(c, 'merge-pdfs', locked, 'secret.pdf', fileIdsOf(first.text));
    const ids = fileIdsOf(second.text);
    expect(ids).toHaveLength(2);
    expect(second.text).toContain('plain.pdf <span class="hint">(3 pages, ');
    expect(second.text).toContain('secret.pdf <span class="hint">(password-protected, ');
    expect(second.text).not.toContain('id="password-1"');
    expect(second.text).toContain('<label for="password-2">Password of secret.pdf</label>');
    const body = (password: string) =>
      new URLSearchParams([
        ['_csrf', c.csrf()],
        ['file_id', ids[0]],
        ['file_id', ids[1]],
        [`password.${ids[1]}`, password],
      ]).toString();
    const post = (password: string) =>
      c.request('POST', '/pdf/merge-pdfs', {
        body: body(password),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
    const wrong = await post('wrong');
    expect(wrong.status).toBe(422);
    expect(summary(wrong.text).field).toBe('password-2');
    expect(summary(wrong.text).message).toMatch(/^The password of secret\.pdf is not correct/);
    const right = await post(USER_PASSWORD);
    expect(right.status).toBe(200);
    expect(/<p id="result-note">([^<]*)<\/p>/.exec(right.text)?.[1]).toBe(
      'secret.pdf was decrypted with your password: the result has no password.',
    );
    const href = /href="(\/files\/[^"]+)" download/.exec(right.text)?.[1];
    const out = new Uint8Array(await (await fetch(`${c.origin}${href}`)).arrayBuffer());
    expect((await PDFDocument.load(out)).getPageCount()).toBe(6);
  }, 60_000);

  it('says what opening repaired in the result (the note that used to lead the summary)', async () => {
    const c = WebClient.of(t.server);
    // Bytes before the %PDF- header: opened anyway, and the result says so.
    const up = await upload(
      c,
      'flatten-form',
      Buffer.concat([Buffer.from('From: mail\r\n\r\n'), Buffer.from(plain)]),
      'mail.pdf',
    );
    const [id] = fileIdsOf(up.text);
    const run = await c.post('/pdf/flatten-form', { file_id: id });
    expect(run.status).toBe(200);
    expect(/<p id="result-note">([^<]*)<\/p>/.exec(run.text)?.[1]).toMatch(
      /^mail\.pdf had \d+ bytes before its %PDF- header; they were ignored\./,
    );
  }, 60_000);
});
