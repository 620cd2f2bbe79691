import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { TestApp } from '../utils/test-app';
import { PDFDocument } from 'pdf-lib';
import { PDF_TOOLS_BY_NAME } from '../../src/pdf-tools/tools';
import runTask from '../../src/pdf-tools/worker/pdf.worker';
import { ACROFORM_MISSING, damagedCorpus } from './damaged';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { b64, connect, createPdfTestApp, download, sc, checkValid } from './helpers';

/** Arguments of each tool for one input `f` (merge takes it twice). */
const TOOL_ARGS: Record<string, (f: object) => Record<string, unknown>> = {
  merge_pdfs: (f) => ({ files: [f, f] }),
  split_pdf: (f) => ({ file: f, mode: 'every', every: 1 }),
  rotate_pages: (f) => ({ file: f, angle: 90 }),
  remove_pages: (f) => ({ file: f, pages: '1' }),
  compress_pdf: (f) => ({ file: f, level: 'lossless' }),
  add_watermark: (f) => ({ file: f, text: 'DRAFT' }),
  add_page_numbers: (f) => ({ file: f }),
  pdf_metadata: (f) => ({ file: f }),
  flatten_form: (f) => ({ file: f }),
};

const LIMITS = { maxBytes: 20 * 1024 * 1024, maxPages: 200 };

/** The page count a tool's result must have for an input of `pages` pages. */
function expectedPages(tool: string, pages: number): number[] {
  if (tool === 'merge_pdfs') return [pages * 2];
  if (tool === 'split_pdf') return Array.from({ length: pages }, () => 1);
  if (tool === 'remove_pages') return [pages - 1];
  return [pages];
}

/**
 * The whole corpus through every tool, in the PDF worker's entry (the code each pool thread runs:
 * opening, repair, the tool, the retry on qpdf's repair), without the HTTP round trips: 30 files x
 * 9 tools stay affordable on a loaded machine. The MCP path (refunds, stored results, text) is
 * checked below on the cases that matter.
 */
describe('PDF tools over a corpus of damaged files (the worker entry)', () => {
  it('every tool either processes each file (saying what was repaired or ignored) or refuses it with a clear code; outputs are valid', async () => {
    const wrong: string[] = [];
    for (const file of damagedCorpus()) {
      for (const [tool, args] of Object.entries(TOOL_ARGS)) {
        const inputs = (tool === 'merge_pdfs' ? ['files[0]', 'files[1]'] : ['file']).map((label) => ({
          label,
          name: 'damaged.pdf',
          bytes: new Uint8Array(file.bytes),
        }));
        const r = await runTask({
          tool,
          args: PDF_TOOLS_BY_NAME.get(tool)!.input.parse(args({ base64: '' })),
          inputs,
          limits: LIMITS,
        });
        const where = `${file.name} / ${tool}`;
        const { expect: want } = file;
        if (!r.ok) {
          if (want.ok === false ? r.code !== want.code : want.ok !== 'or corrupt_pdf' || r.code !== 'corrupt_pdf')
            wrong.push(`${where}: refused (${r.code}: ${r.message})`);
          continue;
        }
        if (want.ok === false) {
          wrong.push(`${where}: expected ${want.code}, got a result`);
          continue;
        }
        const note = typeof r.data.note === 'string' ? r.data.note : '';
        // Nothing compress_pdf makes is larger than the file sent: then that file comes back as sent.
        if (tool === 'compress_pdf' && r.data.unchanged) {
          if (!Buffer.from(r.files[0].bytes).equals(file.bytes) || !/returned (exactly as sent|unchanged)/.test(note))
            wrong.push(`${where}: unchanged, but not the file sent (${note})`);
          continue;
        }
        if (want.ok === true && want.note && !want.note.test(note))
          wrong.push(`${where}: note ${JSON.stringify(note)} does not match ${want.note}`);
        if (tool === 'pdf_metadata') {
          if (r.data.pages !== want.pages) wrong.push(`${where}: ${String(r.data.pages)} pages, not ${want.pages}`);
          continue;
        }
        const pages = r.files.map((f) => f.pages);
        if (JSON.stringify(pages) !== JSON.stringify(expectedPages(tool, want.pages)))
          wrong.push(`${where}: pages ${pages.join(',')}`);
        for (const out of r.files) {
          const problem = checkValid(out.bytes);
          if (problem) wrong.push(`${where}: invalid output ${problem}`);
          if ((await PDFDocument.load(out.bytes)).getPageCount() !== out.pages)
            wrong.push(`${where}: the output has not ${out.pages} pages`);
          if (tool === 'compress_pdf' && out.bytes.length > file.bytes.length)
            wrong.push(`${where}: ${out.bytes.length} bytes returned for ${file.bytes.length} sent`);
        }
      }
    }
    expect(wrong).toEqual([]);
  }, 900_000);
});

describe('PDF tools on damaged files (e2e, official SDK client)', () => {
  let t: TestApp;
  let client: Client;
  beforeAll(async () => {
    // A loaded machine: the tools' own time limit out of the way (its test is timeout.e2e-spec.ts).
    t = await createPdfTestApp({
      env: {
        PDF_DAILY_REFUNDS: '100000',
        PDF_DAILY_LIMIT: '100000',
        PDF_MCP_DAILY_CAP: '100000',
        PDF_TOOL_TIMEOUT_MS: '600000',
      },
    });
    client = await connect(t);
  }, 120_000);
  /** A call with room for a loaded machine (the SDK's default request timeout is 60 s). */
  const slowCall = async (name: string, args: Record<string, unknown>): Promise<CallToolResult> =>
    (await client.callTool({ name, arguments: args }, undefined, { timeout: 300_000 })) as CallToolResult;
  afterAll(async () => {
    await client.close();
    await t.close();
  });

  it('compress_pdf is never larger than the file sent, and measures against it (a damaged file that grows when repaired)', async () => {
    // Without its cross-reference table the file is smaller than qpdf's repair of it.
    const file = damagedCorpus().find((f) => f.name === 'no xref table at all')!.bytes;
    const r = await slowCall('compress_pdf', { file: { base64: b64(file) }, level: 'lossless' });
    expect(r.isError).toBeFalsy();
    const s = sc(r);
    const out = await download(t, s as { download_url: string });
    expect(out.length).toBeLessThanOrEqual(file.length);
    expect(s).toMatchObject({
      original_bytes: file.length,
      bytes: out.length,
      saved_bytes: file.length - out.length,
      unchanged: true,
    });
    expect(Buffer.from(out).equals(file)).toBe(true);
    expect(s.note).toBe(
      `Compression would not make the PDF smaller than the ${file.length} bytes sent, so the file is returned exactly as sent (not repaired, decrypted or otherwise changed).`,
    );
    expect((r.content[0] as { text: string }).text).toMatch(/^Returned the input unchanged\./);

    // Junk before the header: compressed, it is measured against the bytes sent, junk included.
    const junk = Buffer.concat([Buffer.alloc(400, 'x'), damagedCorpus()[0].bytes]);
    const j = await slowCall('compress_pdf', { file: { base64: b64(junk) }, level: 'lossless' });
    expect(sc(j).original_bytes).toBe(junk.length);
    expect(sc(j).bytes).toBeLessThan(junk.length);
    expect((j.content[0] as { text: string }).text).toMatch(
      new RegExp(`^Compressed from ${junk.length} to ${sc(j).bytes} bytes`),
    );
  }, 300_000);

  it("a tool that fails on a file as pdf-lib reads it runs again on qpdf's repair of it, and the note says so", async () => {
    const r = await slowCall('flatten_form', { file: { base64: b64(ACROFORM_MISSING) } });
    expect(r.isError).toBeFalsy();
    expect(sc(r).pages).toBe(2);
    expect(sc(r).note).toMatch(
      /^File could not be processed as sent \(.+\) and was repaired \(with qpdf, its page tree rebuilt\) before processing; check the result\./,
    );
    expect(checkValid(await download(t, sc(r) as { download_url: string }))).toBe('');
  }, 300_000);

  it('a PDF without pages is refused with no_pages by every tool, refunded, in plain words', async () => {
    const empty = damagedCorpus().find((f) => f.name === 'zero pages (/Kids [] /Count 0)')!.bytes;
    for (const [tool, args] of Object.entries(TOOL_ARGS)) {
      const r = await slowCall(tool, args({ base64: b64(empty) }));
      expect(r.isError).toBe(true);
      expect(sc(r)).toMatchObject({ error: 'no_pages', refunded: true });
      expect(sc(r).message).toMatch(
        /^(File|Files\[0\]) has no pages: there is nothing to process\. Send a PDF with at least one page\./,
      );
    }
  }, 300_000);
});
