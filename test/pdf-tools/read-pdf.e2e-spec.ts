import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import fontkit from '@pdf-lib/fontkit';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PDFDocument, PDFFont, StandardFonts } from 'pdf-lib';
import request from 'supertest';
import { FONT_DIR } from '../../src/pdf-tools/core/fonts';
import type { TestApp } from '../utils/test-app';
import { fileIdsOf, uploadThroughForm, WebClient } from '../web/web-client';
import { linesPdf } from './fixtures';
import { b64, call, connect, createPdfTestApp, imagePdf, listToolsRaw, nextIp, NINE_TOOLS, sc } from './helpers';

/** The Markdown of a read_pdf result: its text content after the first blank line (summary, quota and note come first). */
const markdownOf = (r: CallToolResult): string => {
  const first = r.content[0];
  const text = first && first.type === 'text' ? first.text : '';
  return text.slice(text.indexOf('\n\n') + 2);
};

/** Writes `lines` from the top of a page, `size` points, each on its own baseline. */
function write(
  page: ReturnType<PDFDocument['addPage']>,
  font: PDFFont,
  lines: string[],
  x: number,
  top: number,
  size = 10,
  leading = 1.3,
): number {
  let y = top;
  for (const l of lines) {
    page.drawText(l, { x, y, size, font });
    y -= size * leading;
  }
  return y;
}

/** Two pages in two columns under a title across both (prose lines of about 45 characters). */
async function columnsPdf(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let p = 1; p <= 2; p++) {
    const page = doc.addPage([595, 842]);
    write(page, font, [`Field notes, part ${p}`], 56, 780, 22);
    const left = Array.from({ length: 12 }, (_, i) => `Alpha ${p}.${i + 1}: the left column reads first here.`);
    const right = Array.from({ length: 12 }, (_, i) => `Beta ${p}.${i + 1}: the right column comes after it.`);
    write(page, font, left, 56, 730);
    write(page, font, right, 316, 730);
  }
  return doc.save();
}

/** A heading, a paragraph, a grid of four rows and three columns, and a bulleted list. */
async function tablePdf(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const page = doc.addPage([595, 842]);
  write(page, font, ['Quarterly figures'], 56, 780, 20);
  write(page, font, ['The table below lists the figures of each region for the quarter.'], 56, 740);
  const rows = [
    ['Region', 'Revenue', 'Growth'],
    ['North', '1200', '4 %'],
    ['South', '980', '2 %'],
    ['West', '1430', '7 %'],
  ];
  rows.forEach((r, i) =>
    r.forEach((cell, j) => page.drawText(cell, { x: 56 + j * 140, y: 700 - i * 16, size: 10, font })),
  );
  write(page, font, ['• North grew less than West', '• South is behind plan'], 56, 600);
  return doc.save();
}

/** Russian and Greek text in Noto Sans (the stamps' font, subset-embedded). */
async function scriptsPdf(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.registerFontkit(fontkit);
  const font = await doc.embedFont(readFileSync(join(FONT_DIR, 'noto/NotoSans-Regular.ttf')), { subset: true });
  const page = doc.addPage([595, 842]);
  write(page, font, ['Отчёт за квартал'], 56, 780, 20);
  write(page, font, ['Выручка выросла на семь процентов.', 'Η αναφορά είναι έτοιμη για ανάγνωση.'], 56, 740);
  return doc.save();
}

function qpdfEncrypt(bytes: Uint8Array, user: string): Buffer {
  const dir = mkdtempSync(join(tmpdir(), 'read-pdf-'));
  try {
    writeFileSync(join(dir, 'in.pdf'), bytes);
    execFileSync('qpdf', ['--encrypt', user, 'owner', '256', '--', join(dir, 'in.pdf'), join(dir, 'out.pdf')], {
      stdio: 'pipe',
    });
    return readFileSync(join(dir, 'out.pdf'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * read_pdf, the tenth tool, through the official MCP client (which validates every result against
 * the tool's output schema), on PDFs made here; and its website page, /pdf/read-pdf.
 */
describe("read_pdf: a PDF's text as Markdown (e2e)", () => {
  let t: TestApp;
  let client: Client;

  beforeAll(async () => {
    t = await createPdfTestApp({ env: { PDF_DAILY_REFUNDS: '1000' } });
    client = await connect(t, nextIp());
  });
  afterAll(async () => {
    await client.close();
    await t.close();
  });

  it('is listed tenth, after the nine tools, which are listed as before; tools/list stays compact', async () => {
    const res = await listToolsRaw(t);
    const tools = (res.body as { result: { tools: { name: string; annotations?: Record<string, boolean> }[] } }).result
      .tools;
    expect(tools.map((x) => x.name)).toEqual([...NINE_TOOLS, 'read_pdf']);
    const nine = JSON.stringify(tools.slice(0, 9));
    // The nine tools' part is what the 12 KB bound of mcp-tools.e2e-spec was about; read_pdf adds under 1.5 KB.
    expect(Buffer.byteLength(nine)).toBeLessThan(12 * 1024);
    expect(Buffer.byteLength(JSON.stringify(tools[9]))).toBeLessThan(1536);
    expect(tools[9].annotations).toEqual({ readOnlyHint: true, destructiveHint: false, idempotentHint: true });
  });

  it('reads columns in order, under their title, with a marker per page; page ranges choose the pages', async () => {
    const r = await call(client, 'read_pdf', { file: { base64: b64(await columnsPdf()) } });
    expect(r.isError).toBeFalsy();
    const md = markdownOf(r);
    expect(md.startsWith('<!-- page 1 -->\n\n# Field notes, part 1\n\n')).toBe(true);
    const order = [
      'Alpha 1.1:',
      'Alpha 1.12:',
      'Beta 1.1:',
      'Beta 1.12:',
      '<!-- page 2 -->',
      '# Field notes, part 2',
      'Alpha 2.1:',
      'Beta 2.12:',
    ].map((s) => md.indexOf(s));
    expect(order.every((at) => at >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(md).not.toMatch(/reads first here\. Beta/);
    expect(sc(r)).toMatchObject({ pages_read: [1, 2], page_count: 2, next_cursor: null, characters: md.length });
    expect(sc(r)).not.toHaveProperty('text');
    const second = await call(client, 'read_pdf', { file: { base64: b64(await columnsPdf()) }, pages: '2' });
    expect(markdownOf(second).startsWith('<!-- page 2 -->\n\n# Field notes, part 2')).toBe(true);
    expect(markdownOf(second)).not.toContain('part 1');
  }, 60_000);

  it('writes a plain grid as a Markdown table and bullets as a list; reads Cyrillic and Greek', async () => {
    const md = markdownOf(await call(client, 'read_pdf', { file: { base64: b64(await tablePdf()) } }));
    expect(md).toContain('# Quarterly figures');
    expect(md).toContain(
      '| Region | Revenue | Growth |\n| --- | --- | --- |\n| North | 1200 | 4 % |\n| South | 980 | 2 % |\n| West | 1430 | 7 % |',
    );
    expect(md).toContain('- North grew less than West\n- South is behind plan');
    const scripts = markdownOf(await call(client, 'read_pdf', { file: { base64: b64(await scriptsPdf()) } }));
    expect(scripts).toContain('# Отчёт за квартал');
    expect(scripts).toContain('Выручка выросла на семь процентов.');
    expect(scripts).toContain('Η αναφορά είναι έτοιμη για ανάγνωση.');
  }, 60_000);

  it('keeps to the character budget and continues with the cursor until every line was read once', async () => {
    const doc = await linesPdf(4, 40, 'long');
    const up = await request(t.server)
      .post('/files?filename=long.pdf')
      .set('Content-Type', 'application/pdf')
      .send(Buffer.from(await doc.save()))
      .expect(201);
    const file = { file_id: (up.body as { file_id: string }).file_id };
    let cursor: string | undefined;
    let all = '';
    let calls = 0;
    do {
      const r = await call(client, 'read_pdf', { file, max_chars: 2500, ...(cursor ? { cursor } : {}) });
      expect(r.isError).toBeFalsy();
      const s = sc(r);
      expect(s.characters).toBeLessThanOrEqual(2500);
      cursor = s.next_cursor ?? undefined;
      if (cursor) expect((r.content[0] as { text: string }).text.split('\n')[0]).toContain(`cursor "${cursor}"`);
      all += `${markdownOf(r)}\n`;
      calls++;
    } while (cursor && calls < 20);
    expect(calls).toBeGreaterThan(3);
    expect(cursor).toBeUndefined();
    // A call may stop inside a paragraph (at a word): the next one goes on under "(continued)".
    expect(all.match(/<!-- page \d+ -->/g)).toEqual([
      '<!-- page 1 -->',
      '<!-- page 2 -->',
      '<!-- page 3 -->',
      '<!-- page 4 -->',
    ]);
    all = all.replace(/\s*<!-- page \d+ \(continued\) -->\s*/g, ' ');
    for (let p = 1; p <= 4; p++) {
      for (let line = 1; line < 40; line++) {
        const found = all.split(`Page ${p}, line ${line}: `).length - 1;
        expect({ p, line, found }).toEqual({ p, line, found: 1 });
      }
    }
    // A cursor of another file is refused before the quota.
    const other = await call(client, 'read_pdf', {
      file: { base64: b64(await tablePdf()) },
      cursor: Buffer.from('0123456789abcdef.1.10').toString('base64url'),
    });
    expect(sc(other)).toMatchObject({ error: 'invalid_arguments' });
    const bad = await call(client, 'read_pdf', { file, cursor: 'nonsense' });
    expect(sc(bad).message).toMatch(/^cursor: not a cursor of read_pdf/);
  }, 60_000);

  it('reads an encrypted PDF with its password; a scan is no_text_layer, refunded', async () => {
    const locked = qpdfEncrypt(await tablePdf(), 'secret');
    const without = await call(client, 'read_pdf', { file: { base64: locked.toString('base64') } });
    expect(sc(without)).toMatchObject({ error: 'encrypted', password_given: false });
    const withPassword = await call(client, 'read_pdf', {
      file: { base64: locked.toString('base64'), password: 'secret' },
    });
    expect(markdownOf(withPassword)).toContain('| North | 1200 | 4 % |');
    const scan = await call(client, 'read_pdf', { file: { base64: b64(await imagePdf(2, 64)) } });
    expect(scan.isError).toBe(true);
    expect(sc(scan)).toMatchObject({ error: 'no_text_layer', refunded: true, pages: [1, 2] });
    expect(sc(scan).message).toMatch(/^No text layer: run OCR on the website\./);
  }, 60_000);

  it('the website\'s "PDF to text" page runs the same tool and shows the text; a scan is refused in the page\'s words', async () => {
    const c = WebClient.of(t.server);
    const page = await c.get('/pdf/read-pdf');
    expect(page.status).toBe(200);
    expect(page.text).toContain('<h1>PDF to text</h1>');
    expect(page.text).not.toMatch(/opt\.max_chars|opt\.cursor/);
    expect((await c.get('/pdf/pdf-to-text')).status).toBe(301);
    const up = await uploadThroughForm(c, 'read-pdf', await tablePdf(), 'figures.pdf');
    const [id] = fileIdsOf(up.text);
    const run = await c.post('/pdf/read-pdf', { file_id: id });
    expect(run.status).toBe(200);
    expect(run.text).toContain('The text of your file (1 page).');
    expect(/<pre id="result-text"[^>]*>([\s\S]*?)<\/pre>/.exec(run.text)?.[1]).toContain('| North | 1200 | 4 % |');
    expect(run.text).not.toMatch(/next_cursor|Next cursor/);
    const scan = await uploadThroughForm(c, 'read-pdf', await imagePdf(1, 64), 'scan.pdf');
    const refused = await c.post('/pdf/read-pdf', { file_id: fileIdsOf(scan.text)[0] });
    expect(refused.status).toBe(422);
    expect(refused.text).toContain(
      'scan.pdf has no text to read: its pages are images (a scan, for example). Run OCR on it first. This try did not use your quota.',
    );
  }, 60_000);
});
