import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PDFDocument } from 'pdf-lib';
import PDFKit from 'pdfkit';
import type { TestApp } from '../utils/test-app';
import { pdftotext, qpdf, qpdfProcesses, zeroPagePdf } from './corpus';
import { b64, call, connect, createPdfTestApp, download, sc, textPdf, checkValid } from './helpers';

/** A pdfkit PDF of `pages` pages, page i saying "pdfkit page i". */
async function pdfkitPdf(pages: number): Promise<Buffer> {
  const doc = new PDFKit({ autoFirstPage: false, compress: true });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<void>((resolve) => doc.on('end', resolve));
  for (let i = 1; i <= pages; i++) doc.addPage({ size: 'A4' }).fontSize(20).text(`pdfkit page ${i}`);
  doc.end();
  await done;
  return Buffer.concat(chunks);
}

/** Page count of a file as qpdf sees it (after its own repair), or -1 when qpdf refuses it. */
function qpdfPages(bytes: Uint8Array): number {
  const dir = mkdtempSync(join(tmpdir(), 'beacon-npages-'));
  try {
    writeFileSync(join(dir, 'in.pdf'), bytes);
    try {
      return Number(
        execFileSync('qpdf', ['--warning-exit-0', '--show-npages', join(dir, 'in.pdf')], { stdio: 'pipe' })
          .toString()
          .trim(),
      );
    } catch {
      return -1;
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function expectValid(bytes: Uint8Array): void {
  expect(checkValid(bytes)).toBe('');
}

const withJunk = (b: Uint8Array): Buffer =>
  Buffer.concat([Buffer.from('Content-Type: application/pdf\r\nX-Junk: 1\r\n\r\n'), Buffer.from(b)]);
const latin1 = (b: Uint8Array): string => Buffer.from(b).toString('latin1');

/** The file with its cross-reference offsets scrambled (same length), as a broken writer leaves it. */
function scrambledXref(b: Uint8Array): Buffer {
  const text = latin1(b);
  const at = text.lastIndexOf('\nxref');
  if (at < 0) throw new Error('no xref table');
  const scrambled = text
    .slice(at)
    .replace(/(\d{10}) (\d{5}) n/g, (_m, _o, g) => `0000000${Math.floor(Math.random() * 900) + 100} ${g} n`);
  return Buffer.from(
    text.slice(0, at) +
      scrambled.replace(
        /startxref\s+(\d+)/,
        (_m, n: string) => `startxref\n${String(Number(n) + 7).padStart(n.length, '0')}`,
      ),
    'latin1',
  );
}

/** The file with its cross-reference table removed and `startxref` pointing nowhere (the trailer kept). */
function withoutXref(b: Uint8Array): Buffer {
  const text = latin1(b);
  const from = text.lastIndexOf('\nxref');
  const to = text.lastIndexOf('trailer');
  if (from < 0 || to < from) throw new Error('no xref table');
  return Buffer.from(
    `${text.slice(0, from)}\n${text.slice(to).replace(/startxref\s+\d+/, 'startxref\n999999')}`,
    'latin1',
  );
}

describe('PDF engine: real-world PDFs (e2e, official SDK client)', () => {
  let t: TestApp;
  let client: Client;
  let plain: Uint8Array;

  beforeAll(async () => {
    t = await createPdfTestApp({
      env: { PDF_DAILY_REFUNDS: '1000', PDF_DAILY_LIMIT: '100000', PDF_MCP_DAILY_CAP: '100000' },
    });
    client = await connect(t);
    plain = await textPdf(3, { name: 'real' });
  });
  afterAll(async () => {
    await client.close();
    await t.close();
  });

  async function rotate(file: Uint8Array, extra: Record<string, unknown> = {}) {
    return call(client, 'rotate_pages', { file: { base64: b64(file), ...extra }, angle: 90 });
  }

  describe('encryption', () => {
    it('owner-password-only PDFs (empty user password) are processed; the result is not encrypted and says so', async () => {
      for (const algo of [['256'], ['128', '--use-aes=y'], ['128', '--use-aes=n'], ['40']]) {
        const weak = algo[0] === '40' || algo[1] === '--use-aes=n' ? ['--allow-weak-crypto'] : [];
        const restrict =
          algo[0] === '40'
            ? ['--print=n', '--modify=n', '--extract=n']
            : ['--print=none', '--modify=none', '--extract=n'];
        const enc = qpdf(plain, [
          ...weak,
          '--encrypt',
          '',
          'owner-secret',
          algo[0],
          ...algo.slice(1),
          ...restrict,
          '--',
        ]);
        expect(latin1(enc)).toContain('/Encrypt');
        const r = await rotate(enc);
        expect(r.isError).toBeFalsy();
        expect(sc(r).note).toMatch(
          /^File was encrypted with an owner password only.*not encrypted.*restrictions \(printing, copying, editing\) were removed\.$/,
        );
        // A clean encrypted file is not "damaged": only the decryption is noted.
        expect(sc(r).note).not.toMatch(/damaged|repaired/);
        expect((r.content[0] as { text: string }).text).toMatch(/restrictions .* were removed/);
        const out = await download(t, sc(r) as { download_url: string });
        const doc = await PDFDocument.load(out);
        expect(doc.isEncrypted).toBe(false);
        expect(doc.getPageCount()).toBe(3);
        expect(doc.getPage(0).getRotation().angle).toBe(90);
        expect(pdftotext(out)).toContain('Page 2 of real');
        expectValid(out);
      }
    });

    it('a user-password PDF: no password and a wrong one are clear `encrypted` errors; the right one opens it', async () => {
      const enc = qpdf(plain, ['--encrypt', 'open sesame', 'owner', '256', '--']);
      const none = await rotate(enc);
      expect(sc(none)).toMatchObject({ error: 'encrypted', input: 'file', password_given: false });
      expect(sc(none).message).toMatch(/encrypted with a password .* Pass it as `password`/);
      const wrong = await rotate(enc, { password: 'open sesame!' });
      expect(sc(wrong)).toMatchObject({ error: 'encrypted', password_given: true, refunded: true });
      expect(sc(wrong).message).toMatch(/the given password is not correct/);
      const right = await rotate(enc, { password: 'open sesame' });
      expect(right.isError).toBeFalsy();
      expect(sc(right).note).toBe('File was opened with the given password; the result is not encrypted.');
      const out = await download(t, sc(right) as { download_url: string });
      expect((await PDFDocument.load(out)).isEncrypted).toBe(false);
      expect(pdftotext(out)).toContain('Page 3 of real');
      expectValid(out);
    });

    it('merge takes a password per input', async () => {
      const a = qpdf(plain, ['--encrypt', 'a-pass', 'owner', '256', '--']);
      const b = qpdf(await textPdf(2, { name: 'other' }), ['--encrypt', '', 'owner', '256', '--']);
      const r = await call(client, 'merge_pdfs', {
        files: [{ base64: b64(a), password: 'a-pass' }, { base64: b64(b) }],
      });
      expect(r.isError).toBeFalsy();
      expect(sc(r).pages).toBe(5);
      expect(sc(r).note).toMatch(
        /^Files\[0\] was opened with the given password.*Files\[1\] was encrypted with an owner password only/,
      );
      expect(sc(r).note).not.toMatch(/damaged/);
    });

    it('20 encrypted inputs: the text leads with the link and file_id, the note said once for all, under 1 KB', async () => {
      const owner = qpdf(plain, ['--encrypt', '', 'owner', '256', '--']);
      const r = await call(client, 'merge_pdfs', { files: Array.from({ length: 20 }, () => ({ base64: b64(owner) })) });
      expect(r.isError).toBeFalsy();
      const text = (r.content[0] as { text: string }).text;
      expect(Buffer.byteLength(text)).toBeLessThan(1024);
      const lines = text.split('\n');
      expect(lines[0]).toBe('Merged 20 PDFs into 60 pages.');
      expect(lines[1]).toBe(
        `${sc(r).filename}: ${sc(r).download_url} (file_id ${sc(r).file_id}, 60 pages, ${sc(r).bytes} bytes, until ${sc(r).expires_at})`,
      );
      expect(lines[2]).toMatch(/^Quota: /);
      expect(lines[3]).toMatch(
        /^Files\[0\.\.19\] were encrypted with an owner password only \(they open without a password\)/,
      );
      expect(text.match(/encrypted/g)).toHaveLength(2);
      expect(sc(r).note).toBe(lines[3]);
    });
  });

  describe('damage', () => {
    it('a file with a scrambled cross-reference table is repaired first, and the result says so', async () => {
      const classic = await (await PDFDocument.load(plain)).save({ useObjectStreams: false });
      const r = await rotate(scrambledXref(classic));
      expect(r.isError).toBeFalsy();
      expect(sc(r).pages).toBe(3);
      expect(sc(r).note).toMatch(/repaired \(with qpdf\)/);
      expectValid(await download(t, sc(r) as { download_url: string }));
    });

    it('a file without its cross-reference table, or truncated at the end, is repaired (pdfkit and pdf-lib files)', async () => {
      const sources = [
        await pdfkitPdf(4),
        await (await PDFDocument.load(await textPdf(4))).save({ useObjectStreams: false }),
      ];
      for (const cut of [...sources.map(withoutXref), ...sources.map((s) => s.subarray(0, s.length - 12))]) {
        const r = await rotate(cut);
        expect(r.isError).toBeFalsy();
        expect(sc(r).pages).toBe(4);
        expect(sc(r).note).toMatch(/repaired \(with qpdf\)/);
        expectValid(await download(t, sc(r) as { download_url: string }));
      }
    });

    it('bytes before the %PDF- header are ignored, and the result says so', async () => {
      const r = await rotate(withJunk(plain));
      expect(r.isError).toBeFalsy();
      expect(sc(r).pages).toBe(3);
      expect(sc(r).note).toBe('File had 44 bytes before its %PDF- header; they were ignored.');
      const out = await download(t, sc(r) as { download_url: string });
      expect(latin1(out.subarray(0, 5))).toBe('%PDF-');
      expectValid(out);
    });

    it('a PDF whose page tree has no pages is a clear error (not a one-page result)', async () => {
      for (const tool of ['rotate_pages', 'pdf_metadata', 'compress_pdf']) {
        const r = await call(client, tool, {
          file: { base64: b64(zeroPagePdf()) },
          ...(tool === 'rotate_pages' ? { angle: 90 } : {}),
        });
        expect(r.isError).toBe(true);
        expect(sc(r)).toMatchObject({ error: 'no_pages', input: 'file' });
        expect(sc(r).message).toMatch(/has no pages: there is nothing to process/);
      }
    });

    it('what qpdf cannot repair either stays a clear corrupt_pdf error', async () => {
      const r = await rotate(Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(2000, 0x7b)]));
      expect(sc(r)).toMatchObject({ error: 'corrupt_pdf', input: 'file' });
      expect(sc(r).message).toMatch(/damaged/);
      // A file cut short: qpdf's reason, not its first warning ("file is damaged").
      const cut = await rotate(plain.subarray(0, Math.floor(plain.length * 0.6)));
      expect(sc(cut)).toMatchObject({ error: 'corrupt_pdf', input: 'file' });
      expect(sc(cut).message).toMatch(
        /cannot be repaired \(unable to find trailer dictionary while recovering damaged file\)/,
      );
    });
  });

  /**
   * The corpus: pdf-lib and pdfkit files, each as is and rewritten by qpdf (object streams,
   * linearized, QDF), encrypted with an owner password, with junk before the header, with a
   * scrambled xref, and truncated at several points. Every file the qpdf CLI processes with pages is
   * processed (and the output is valid); the others get a clear error; nothing is an internal error.
   */
  it('corpus: no file that qpdf processes is refused; 0 internal errors; every output valid', async () => {
    const sources: [string, Uint8Array][] = [
      ['pdf-lib', plain],
      ['pdf-lib classic xref', await (await PDFDocument.load(plain)).save({ useObjectStreams: false })],
      ['pdfkit', await pdfkitPdf(3)],
    ];
    const corpus: [string, Uint8Array][] = [];
    for (const [name, bytes] of sources) {
      const variants: [string, Uint8Array][] = [
        ['as is', bytes],
        ['object streams', qpdf(bytes, ['--object-streams=generate'])],
        ['linearized', qpdf(bytes, ['--linearize'])],
        ['qdf', qpdf(bytes, ['--qdf'])],
      ];
      for (const [v, b] of variants) {
        corpus.push([`${name}, ${v}`, b]);
        corpus.push([`${name}, ${v}, owner-encrypted`, qpdf(b, ['--encrypt', '', 'o', '256', '--'])]);
        corpus.push([`${name}, ${v}, junk prefix`, withJunk(b)]);
        for (const keep of [0.97, 0.85, 0.6])
          corpus.push([`${name}, ${v}, truncated ${keep}`, Buffer.from(b).subarray(0, Math.floor(b.length * keep))]);
      }
      corpus.push([
        `${name}, scrambled xref`,
        scrambledXref(await (await PDFDocument.load(bytes)).save({ useObjectStreams: false })),
      ]);
    }
    corpus.push(['zero pages', zeroPagePdf()]);
    const refused: string[] = [];
    const internal: string[] = [];
    const invalid: string[] = [];
    let processed = 0;
    for (const [name, bytes] of corpus) {
      const qpdfOk = qpdfProcesses(bytes);
      const pages = qpdfOk ? qpdfPages(bytes) : -1;
      const r = await rotate(bytes);
      if (r.isError) {
        if (sc(r).error === 'internal_error') internal.push(name);
        if (pages > 0) refused.push(`${name}: ${sc(r).message}`);
        else expect(['corrupt_pdf', 'not_a_pdf', 'no_pages']).toContain(sc(r).error);
        continue;
      }
      processed++;
      const problem = checkValid(await download(t, sc(r) as { download_url: string }));
      if (problem) invalid.push(`${name}: ${problem}`);
      expect(sc(r).pages).toBeGreaterThan(0);
    }
    expect(invalid).toEqual([]);
    expect(internal).toEqual([]);
    expect(refused).toEqual([]);
    expect(processed).toBeGreaterThan(corpus.length / 2);
  }, 240_000);
});
