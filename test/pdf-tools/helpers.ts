import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { degrees, PDFDocument } from 'pdf-lib';
import request from 'supertest';
import { linesPdf } from './fixtures';

export { imagePdf, photoPagesPdf } from './fixtures';
import { createTestApp, TestApp, TestAppOptions } from '../utils/test-app';
import { bytes } from '../utils/body-parsers';

/** Settings for PDF e2e apps: trust loopback proxies so each test can be its own client IP. */
export const PDF_TEST_ENV = { TRUST_PROXY: 'loopback', MCP_RATE_LIMIT: '100000', PDF_WORKERS: '2' };

/** createTestApp with the PDF settings (the server's keep-alive, HTTP_KEEP_ALIVE_TIMEOUT_MS, stays above the client's). */
export async function createPdfTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  return createTestApp({ ...options, env: { ...PDF_TEST_ENV, ...options.env } });
}

let ipCounter = 0;
/** A fresh client IP (documentation range 198.51.100.0/24 and beyond), so quotas don't leak between tests. */
export function nextIp(): string {
  ipCounter++;
  return `198.51.${100 + Math.floor(ipCounter / 250)}.${(ipCounter % 250) + 1}`;
}

export function mcpUrl(t: TestApp): URL {
  return new URL(`http://127.0.0.1:${(t.server.address() as AddressInfo).port}/mcp`);
}

/** The official SDK client over Streamable HTTP, sending as client IP `ip`. */
export async function connect(t: TestApp, ip = nextIp()): Promise<Client> {
  const client = new Client({ name: 'beacon-e2e', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(mcpUrl(t), { requestInit: { headers: { 'X-Forwarded-For': ip } } }),
  );
  await client.listTools(); // caches output schemas: every later result is validated by the client
  return client;
}

/** The nine tools that make files, in the order tools/list lists them (read_pdf comes tenth). */
export const NINE_TOOLS = [
  'merge_pdfs',
  'split_pdf',
  'rotate_pages',
  'remove_pages',
  'compress_pdf',
  'add_watermark',
  'add_page_numbers',
  'pdf_metadata',
  'flatten_form',
];

/** tools/list as one plain JSON-RPC POST (no SDK, no session), from a fresh client IP; answers 200. */
export function listToolsRaw(t: TestApp): request.Test {
  return request(t.server)
    .post('/mcp')
    .set('X-Forwarded-For', nextIp())
    .set('Accept', 'application/json, text/event-stream')
    .send({ jsonrpc: '2.0', id: 1, method: 'tools/list' })
    .expect(200);
}

export async function call(client: Client, name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read structuredContent fields freely
export type Structured = Record<string, any>;
export const sc = (r: CallToolResult): Structured => r.structuredContent as Structured;

export const b64 = (bytes: Uint8Array): string => Buffer.from(bytes).toString('base64');

/** A text PDF: page i says "Page i of <name>"; optional rotations and a title. */
export async function textPdf(
  pages: number,
  opts: { name?: string; rotate?: Record<number, number>; title?: string } = {},
): Promise<Uint8Array> {
  const doc = await linesPdf(pages, 1, opts.name);
  doc.getPages().forEach((page, i) => {
    if (opts.rotate?.[i + 1]) page.setRotation(degrees(opts.rotate[i + 1]));
  });
  if (opts.title) doc.setTitle(opts.title);
  return doc.save();
}

/** A PDF with a text field, a checkbox and a dropdown, filled in. */
export async function formPdf(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const page = doc.addPage([595, 842]);
  const form = doc.getForm();
  const name = form.createTextField('applicant.name');
  name.setText('Ada Lovelace');
  name.addToPage(page, { x: 72, y: 700, width: 300, height: 24 });
  const agree = form.createCheckBox('agree');
  agree.check();
  agree.addToPage(page, { x: 72, y: 650, width: 16, height: 16 });
  const country = form.createDropdown('country');
  country.addOptions(['France', 'Germany']);
  country.select('France');
  country.addToPage(page, { x: 72, y: 600, width: 200, height: 24 });
  return doc.save();
}

/** Texts drawn on each page (Tj strings of the content streams, decoded from pdf-lib's hex). */
export async function pageTexts(bytes: Uint8Array): Promise<string[]> {
  const { inflateSync } = await import('node:zlib');
  const doc = await PDFDocument.load(bytes);
  const { PDFArray, PDFRawStream, PDFName } = await import('pdf-lib');
  return doc.getPages().map((page) => {
    const contents = page.node.Contents();
    const streams = contents instanceof PDFArray ? contents.asArray().map((r) => doc.context.lookup(r)) : [contents];
    let text = '';
    for (const s of streams) {
      if (!(s instanceof PDFRawStream)) continue;
      const raw = s.dict.lookup(PDFName.of('Filter')) ? inflateSync(s.contents) : Buffer.from(s.contents);
      const src = raw.toString('latin1');
      for (const m of src.matchAll(/<([0-9A-Fa-f]*)>\s*Tj/g))
        text += Buffer.from(m[1], 'hex').toString('latin1') + '\n';
      for (const m of src.matchAll(/\(((?:[^()\\]|\\.)*)\)\s*Tj/g)) text += m[1] + '\n';
    }
    return text;
  });
}

/** Adds a two-level outline (bookmarks) with explicit destinations to `bytes`: one entry per page. */
export async function withBookmarks(bytes: Uint8Array, titles: string[]): Promise<Uint8Array> {
  const { PDFName, PDFHexString, PDFNumber } = await import('pdf-lib');
  const doc = await PDFDocument.load(bytes);
  const ctx = doc.context;
  const pages = doc.getPages();
  const root = ctx.nextRef();
  const refs = titles.map(() => ctx.nextRef());
  titles.forEach((title, i) => {
    const dict = ctx.obj({ Title: PDFHexString.fromText(title), Parent: root, Dest: [pages[i].ref, 'Fit'] });
    if (i > 0) dict.set(PDFName.of('Prev'), refs[i - 1]);
    if (i < titles.length - 1) dict.set(PDFName.of('Next'), refs[i + 1]);
    ctx.assign(refs[i], dict);
  });
  ctx.assign(
    root,
    ctx.obj({ Type: 'Outlines', First: refs[0], Last: refs[refs.length - 1], Count: PDFNumber.of(titles.length) }),
  );
  doc.catalog.set(PDFName.of('Outlines'), root);
  return doc.save();
}

/** Titles of the top-level bookmarks of a PDF, with the 1-based page each points to. */
export async function bookmarks(bytes: Uint8Array): Promise<{ title: string; page: number }[]> {
  const { PDFDict, PDFName, PDFArray, PDFHexString, PDFString, PDFRef } = await import('pdf-lib');
  const doc = await PDFDocument.load(bytes);
  const pageIndex = new Map(doc.getPages().map((p, i) => [p.ref.toString(), i + 1]));
  const out: { title: string; page: number }[] = [];
  let item = doc.catalog.lookupMaybe(PDFName.of('Outlines'), PDFDict)?.lookupMaybe(PDFName.of('First'), PDFDict);
  while (item) {
    const title = item.lookup(PDFName.of('Title'));
    const dest = item.lookupMaybe(PDFName.of('Dest'), PDFArray);
    const page = dest?.get(0);
    out.push({
      title: title instanceof PDFHexString || title instanceof PDFString ? title.decodeText() : '?',
      page: page instanceof PDFRef ? (pageIndex.get(page.toString()) ?? -1) : -1,
    });
    item = item.lookupMaybe(PDFName.of('Next'), PDFDict);
  }
  return out;
}

/** Every decoded stream of a PDF as latin1 text (to look for drawn strings anywhere, e.g. in form XObjects). */
export async function allStreams(bytes: Uint8Array): Promise<string> {
  const { inflateSync } = await import('node:zlib');
  const { PDFRawStream, PDFName } = await import('pdf-lib');
  const doc = await PDFDocument.load(bytes);
  let all = '';
  for (const [, obj] of doc.context.enumerateIndirectObjects()) {
    if (!(obj instanceof PDFRawStream)) continue;
    try {
      const raw =
        obj.dict.lookup(PDFName.of('Filter')) === PDFName.of('FlateDecode')
          ? inflateSync(obj.contents)
          : Buffer.from(obj.contents);
      all += raw.toString('latin1') + '\n';
    } catch {
      /* not inflatable: skip */
    }
  }
  return all;
}

export const hex = (s: string): string => Buffer.from(s, 'latin1').toString('hex').toUpperCase();

/** Downloads a stored result through GET /files/{id} (its download_url's path). */
export async function download(t: TestApp, file: { download_url: string }): Promise<Uint8Array> {
  const { default: request } = await import('supertest');
  const res = await request(t.server)
    .get(new URL(file.download_url).pathname)
    .buffer(true)
    .parse(bytes)
    .expect(200)
    .expect('Content-Type', 'application/pdf');
  return new Uint8Array(res.body as Buffer);
}

/** qpdf --check of an output: '' for a valid PDF without errors or warnings, else qpdf's complaint. */
export function checkValid(bytes: Uint8Array): string {
  const dir = mkdtempSync(join(tmpdir(), 'beacon-check-'));
  try {
    writeFileSync(join(dir, 'out.pdf'), bytes);
    const out = execFileSync('qpdf', ['--check', join(dir, 'out.pdf')], { stdio: 'pipe' }).toString();
    return /No syntax or stream encoding errors found/.test(out) ? '' : out.slice(0, 300);
  } catch (e) {
    return String((e as { stderr?: Buffer }).stderr ?? e).slice(0, 300);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
