import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { getPriority, tmpdir } from 'node:os';
import { join } from 'node:path';
import { PDFDocument, PDFName } from 'pdf-lib';
import sharp from 'sharp';
import request from 'supertest';
import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import { expectedResponse, loggerParams } from '../../src/common/logging/logging';
import { QuotaService } from '../../src/pdf-tools/quota/quota.service';
import { PdfPoolService } from '../../src/pdf-tools/worker/pdf-pool.service';
import { METRICS_AUTH, type TestApp } from '../utils/test-app';
import {
  allStreams,
  b64,
  bookmarks,
  call,
  connect,
  download,
  formPdf,
  hex,
  imagePdf,
  listToolsRaw,
  mcpUrl,
  nextIp,
  NINE_TOOLS,
  createPdfTestApp,
  pageTexts,
  sc,
  textPdf,
  withBookmarks,
} from './helpers';

/** Fake timers that move only the clock (Date): the app's own timers and I/O keep running. */
const EVERYTHING_BUT_DATE: NonNullable<
  Extract<Parameters<typeof jest.useFakeTimers>[0], { doNotFake?: unknown }>['doNotFake']
> = [
  'hrtime',
  'nextTick',
  'performance',
  'queueMicrotask',
  'setImmediate',
  'clearImmediate',
  'setInterval',
  'clearInterval',
  'setTimeout',
  'clearTimeout',
];

/** The nine tools that make files, then read_pdf (issue #23: its own tests are in read-pdf.e2e-spec.ts). */
const TEN = [...NINE_TOOLS, 'read_pdf'];
/** What read_pdf adds to tools/list at most: the nine tools keep their 12 KB bound. */
const READ_PDF_LIST_BYTES = 1536;

describe('PDF tools over MCP (e2e, official SDK client)', () => {
  let t: TestApp;
  let client: Client;
  let three: Uint8Array;
  let nearlyTenMb: Uint8Array;
  const ip = nextIp();

  beforeAll(async () => {
    // A refund allowance that the error tests below cannot exhaust (quota.e2e-spec tests the allowance).
    t = await createPdfTestApp({ env: { PDF_DAILY_REFUNDS: '1000' } });
    client = await connect(t, ip);
    three = await textPdf(3, { name: 'three' });
    // Made up front: generating it takes seconds, and a keep-alive connection idle for longer than
    // the server's keep-alive timeout would be reset under the client's next POST.
    const doc = await PDFDocument.load(three);
    await doc.attach(randomBytes(10 * 1024 * 1024 - 20_000), 'data.bin', { mimeType: 'application/octet-stream' });
    nearlyTenMb = await doc.save();
  });
  afterAll(async () => {
    await client.close();
    await t.close();
  });

  describe('protocol', () => {
    it('tools/list is under 12 KB in total: the nine tools, compact schemas, the inline argument, annotations that differ from the defaults', async () => {
      const res = await listToolsRaw(t);
      expect(Buffer.byteLength(res.text)).toBeLessThan(12 * 1024 + READ_PDF_LIST_BYTES);
      const listed = (
        res.body as { result: { tools: { name: string; inputSchema: { properties: Record<string, unknown> } }[] } }
      ).result.tools;
      expect(listed.map((x) => x.name)).toEqual(TEN);
      expect(Buffer.byteLength(JSON.stringify(listed.slice(0, 9)))).toBeLessThan(12 * 1024);
      for (const tool of listed) expect(tool.inputSchema.properties.inline).toMatchObject({ type: 'boolean' });
      // nothing said twice: the title is not repeated in the annotations, the page grammar in full is in the instructions only
      expect(res.text).not.toMatch(/"annotations":\{"title"/);
      expect(res.text).not.toContain('"N-last"');
    });

    it('tools/list shows the nine tools with input and output schemas and annotations', async () => {
      const { tools } = await client.listTools();
      expect(tools.map((x) => x.name)).toEqual(TEN);
      for (const tool of tools.filter((x) => NINE_TOOLS.includes(x.name))) {
        expect(tool.description!.length).toBeGreaterThan(40);
        expect(tool.inputSchema.type).toBe('object');
        expect(Object.keys(tool.inputSchema.properties ?? {}).length).toBeGreaterThan(0);
        expect(tool.outputSchema?.type).toBe('object');
        expect(tool.annotations?.readOnlyHint ?? false).toBe(false);
        expect(tool.annotations?.idempotentHint).toBe(true);
        expect(tool.annotations?.destructiveHint).toBe(false);
      }
      const rotate = tools.find((x) => x.name === 'rotate_pages')!;
      expect(rotate.inputSchema.required).toEqual(['file', 'angle']);
      expect(rotate.inputSchema.properties!.angle).toMatchObject({ type: 'number', enum: [90, 180, 270] });
    });

    it('every argument says its type, also the fields of an input file (clients such as the MCP Inspector CLI convert text by it)', async () => {
      const { tools } = await client.listTools();
      for (const tool of tools) {
        for (const [name, schema] of Object.entries(tool.inputSchema.properties ?? {}) as [
          string,
          { type?: string },
        ][]) {
          expect({ tool: tool.name, name, type: schema.type }).toEqual({
            tool: tool.name,
            name,
            type: expect.any(String),
          });
        }
      }
      const file = (
        tools.find((x) => x.name === 'rotate_pages')!.inputSchema.properties as Record<string, { properties: object }>
      ).file;
      expect(file.properties).toEqual({
        file_id: { type: 'string' },
        url: { type: 'string' },
        base64: { type: 'string' },
        filename: { type: 'string' },
        password: { type: 'string' },
      });
    });

    it('an unknown tool is a JSON-RPC error, not a tool result', async () => {
      await expect(client.callTool({ name: 'no_such_tool', arguments: {} })).rejects.toThrow(
        /Unknown tool "no_such_tool"/,
      );
    });

    it('GET and DELETE /mcp answer 405 with a JSON-RPC error body: expected (every SDK client probes GET), so no rate limit unit and a debug log line', async () => {
      for (const method of ['get', 'delete'] as const) {
        const res = await request(t.server)[method]('/mcp').expect(405);
        expect(res.headers.allow).toBe('POST');
        expect(res.body).toMatchObject({ jsonrpc: '2.0', error: { code: -32000 }, id: null });
        expect(res.headers['ratelimit-limit']).toBeUndefined();
      }
      const post = await request(t.server)
        .post('/mcp')
        .set('Accept', 'application/json, text/event-stream')
        .send({ jsonrpc: '2.0', id: 1, method: 'tools/list' })
        .expect(200);
      expect(post.headers['ratelimit-limit']).toBeDefined();
      const level = (
        loggerParams(t.config).pinoHttp as {
          customLogLevel: (req: unknown, res: ServerResponse, err?: Error) => string;
        }
      ).customLogLevel;
      const answer = (status: number, expected: boolean) => {
        const res = new ServerResponse(new IncomingMessage(new Socket()));
        res.statusCode = status;
        if (expected) expectedResponse(res);
        return res;
      };
      expect([level({}, answer(405, true)), level({}, answer(405, false)), level({}, answer(500, true))]).toEqual([
        'debug',
        'warn',
        'error',
      ]);
    });

    it('CORS: preflight and responses allow any origin (anonymous endpoint, no cookies)', async () => {
      const pre = await request(t.server)
        .options('/mcp')
        .set('Origin', 'https://inspector.example')
        .set('Access-Control-Request-Method', 'POST')
        .expect(204);
      expect(pre.headers['access-control-allow-origin']).toBe('*');
      expect(pre.headers['access-control-allow-methods']).toContain('POST');
      expect(pre.headers['access-control-allow-headers']).toContain('Mcp-Protocol-Version');
      const post = await request(t.server)
        .post('/mcp')
        .set('Accept', 'application/json, text/event-stream')
        .send({ jsonrpc: '2.0', id: 7, method: 'ping' })
        .expect(200);
      expect(post.body).toEqual({ jsonrpc: '2.0', id: 7, result: {} });
      expect(post.headers['access-control-allow-origin']).toBe('*');
      expect(post.headers['access-control-expose-headers']).toContain('RateLimit-Remaining');
    });

    it('a body over MCP_BODY_LIMIT is a clear 413 JSON error, not a dropped connection', async () => {
      const big = JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'rotate_pages', arguments: { pad: 'x'.repeat(31 * 1024 * 1024) } },
      });
      const res = await request(t.server)
        .post('/mcp')
        .set('Content-Type', 'application/json')
        .set('Accept', 'application/json, text/event-stream')
        .send(big);
      expect(res.status).toBe(413);
      expect(res.body).toMatchObject({ ok: false, error: 'payload_too_large' });
    });

    it('a 10 MB PDF in base64 fits the body limit (reaches the tool)', async () => {
      const bytes = nearlyTenMb;
      expect(bytes.length).toBeGreaterThan(10 * 1024 * 1024 - 20_000);
      expect(bytes.length).toBeLessThanOrEqual(10 * 1024 * 1024);
      const r = await call(client, 'pdf_metadata', { file: { base64: b64(bytes) } });
      expect(r.isError).toBeFalsy();
      expect(sc(r).pages).toBe(3);
    });
  });

  describe('tools', () => {
    it('merge_pdfs: ranges per input, order, bookmarks kept, pages echoed', async () => {
      const a = await withBookmarks(await textPdf(3, { name: 'A' }), ['A1', 'A2', 'A3']);
      const b = await withBookmarks(await textPdf(2, { name: 'B' }), ['B1', 'B2']);
      const r = await call(client, 'merge_pdfs', {
        files: [
          { base64: b64(a), filename: 'a.pdf', pages: '2-' },
          { base64: b64(b), pages: 'last,1' },
        ],
      });
      expect(r.isError).toBeFalsy();
      const s = sc(r);
      expect(s.pages).toBe(4);
      expect(s.inputs).toEqual([
        { input: 'files[0] (a.pdf)', pages: [2, 3] },
        { input: 'files[1]', pages: [2, 1] },
      ]);
      expect(s.filename).toBe('a-merged.pdf');
      const out = await download(t, s as { download_url: string });
      expect(await pageTexts(out)).toEqual(['Page 2 of A\n', 'Page 3 of A\n', 'Page 2 of B\n', 'Page 1 of B\n']);
      expect(await bookmarks(out)).toEqual([
        { title: 'A2', page: 1 },
        { title: 'A3', page: 2 },
        { title: 'B1', page: 4 },
        { title: 'B2', page: 3 },
      ]);
    });

    it('merge_pdfs needs 2-20 inputs', async () => {
      const r = await call(client, 'merge_pdfs', { files: [{ base64: b64(three) }] });
      expect(r.isError).toBe(true);
      expect(sc(r).error).toBe('invalid_arguments');
      expect(sc(r).message).toMatch(/files/);
    });

    it('split_pdf: by ranges, every N pages, into N parts', async () => {
      const five = await textPdf(5, { name: 'five' });
      const byRanges = sc(
        await call(client, 'split_pdf', {
          file: { base64: b64(five) },
          mode: 'ranges',
          ranges: ['1-2', 'odd', 'last'],
        }),
      );
      expect(byRanges.files.map((f: { pages: number }) => f.pages)).toEqual([2, 3, 1]);
      expect(byRanges.files.map((f: { source_pages: number[] }) => f.source_pages)).toEqual([[1, 2], [1, 3, 5], [5]]);
      expect(await pageTexts(await download(t, byRanges.files[1]))).toEqual([
        'Page 1 of five\n',
        'Page 3 of five\n',
        'Page 5 of five\n',
      ]);
      const every = sc(await call(client, 'split_pdf', { file: { base64: b64(five) }, mode: 'every', every: 2 }));
      expect(every.files.map((f: { pages: number }) => f.pages)).toEqual([2, 2, 1]);
      const count = sc(await call(client, 'split_pdf', { file: { base64: b64(five) }, mode: 'count', count: 2 }));
      expect(count.files.map((f: { source_pages: number[] }) => f.source_pages)).toEqual([
        [1, 2, 3],
        [4, 5],
      ]);
      expect(new Set(count.files.map((f: { file_id: string }) => f.file_id)).size).toBe(2);
      // Three parts fit in the text: each with its link and file_id.
      const r = await call(client, 'split_pdf', { file: { base64: b64(five) }, mode: 'every', every: 2 });
      const text = (r.content[0] as { text: string }).text;
      sc(r).files.forEach((f: { filename: string; download_url: string; file_id: string }, i: number) =>
        expect(text).toContain(
          `${i + 1}. ${f.filename}: ${f.download_url} (file_id ${f.file_id}, ${i < 2 ? '2 pages' : '1 page'})`,
        ),
      );
    });

    it('rotate_pages adds to the existing rotation of the chosen pages', async () => {
      const pdf = await textPdf(3, { rotate: { 1: 90 } });
      const r = await call(client, 'rotate_pages', { file: { base64: b64(pdf) }, angle: 90, pages: '1,last' });
      const s = sc(r);
      expect(s.rotated_pages).toEqual([1, 3]);
      expect(s.rotations).toEqual([180, 0, 90]);
      const doc = await PDFDocument.load(await download(t, s as { download_url: string }));
      expect(doc.getPages().map((p) => p.getRotation().angle)).toEqual([180, 0, 90]);
    });

    it('remove_pages removes the chosen pages and refuses to remove them all', async () => {
      const s = sc(await call(client, 'remove_pages', { file: { base64: b64(three) }, pages: 'even' }));
      expect(s.removed_pages).toEqual([2]);
      expect(s.kept_pages).toEqual([1, 3]);
      expect(await pageTexts(await download(t, s as { download_url: string }))).toEqual([
        'Page 1 of three\n',
        'Page 3 of three\n',
      ]);
      const all = await call(client, 'remove_pages', { file: { base64: b64(three) }, pages: '1-' });
      expect(all.isError).toBe(true);
      expect(sc(all)).toMatchObject({ error: 'invalid_page_range', refunded: true });
    });

    it('compress_pdf recommended: an image-heavy PDF gets at least 50% smaller and keeps its pages', async () => {
      const pdf = await imagePdf(2);
      const s = sc(await call(client, 'compress_pdf', { file: { base64: b64(pdf) }, level: 'recommended' }));
      expect(s.unchanged).toBe(false);
      expect(s.images_recompressed).toBe(2);
      expect(s.bytes).toBeLessThan(pdf.length * 0.5);
      expect(s.original_bytes).toBe(pdf.length);
      const out = await download(t, s as { download_url: string });
      expect(out.length).toBe(s.bytes);
      expect((await PDFDocument.load(out)).getPageCount()).toBe(2);
    });

    it('image work runs below the event loop: after a run, libvips threads are lowered to nice 10', async () => {
      if (process.platform !== 'linux') return;
      await call(client, 'compress_pdf', { file: { base64: b64(await imagePdf(1)) }, level: 'extreme' });
      const vips = readdirSync('/proc/self/task').filter((tid) =>
        readFileSync(`/proc/self/task/${tid}/comm`, 'utf8').startsWith('libvips'),
      );
      expect(vips.length).toBeGreaterThan(0);
      const lowered = t.app.get(PdfPoolService).nativeThreads;
      for (let i = 0; i < 100 && !vips.every((tid) => lowered.threads.includes(Number(tid))); i++)
        await new Promise((r) => setTimeout(r, 20));
      expect(lowered.threads).toEqual(expect.arrayContaining(vips.map(Number)));
      for (const tid of vips) expect(getPriority(Number(tid))).toBeGreaterThanOrEqual(10);
      expect(getPriority(process.pid)).toBeLessThan(10);
    });

    it('compress_pdf lossless never grows a file; with nothing to gain it returns the input and says so', async () => {
      const pdf = await textPdf(20);
      const s = sc(await call(client, 'compress_pdf', { file: { base64: b64(pdf) }, level: 'lossless' }));
      expect(s.bytes).toBeLessThanOrEqual(pdf.length);
      const again = sc(await call(client, 'compress_pdf', { file: { file_id: s.file_id }, level: 'extreme' }));
      expect(again.bytes).toBeLessThanOrEqual(s.bytes);
      if (again.unchanged) {
        expect(again.sha256).toBe(s.sha256);
        expect(again.note).toMatch(/unchanged/);
      }
    });

    it('add_watermark: text is drawn, upright on a rotated page', async () => {
      const pdf = await textPdf(2, { rotate: { 2: 90 } });
      const s = sc(
        await call(client, 'add_watermark', {
          file: { base64: b64(pdf) },
          text: 'CONFIDENTIAL',
          rotation: 0,
          opacity: 0.5,
        }),
      );
      expect(s.watermarked_pages).toEqual([1, 2]);
      const out = await download(t, s as { download_url: string });
      const texts = await pageTexts(out);
      expect(texts[0]).toContain('CONFIDENTIAL');
      expect(texts[1]).toContain('CONFIDENTIAL');
      // On the page rotated by 90, the text is drawn at 90 degrees in page space: upright as seen.
      const streams = await allStreams(out);
      expect(streams).toMatch(/\n(0\.0+6\d*|0) 1 -1 (0\.0+6\d*|0) [\d.]+ [\d.]+ Tm\n<434F4E464944454E5449414C> Tj/);
    });

    it('add_watermark: tiled text and PNG images', async () => {
      const tiled = sc(
        await call(client, 'add_watermark', {
          file: { base64: b64(three) },
          text: 'DRAFT',
          tiled: true,
          font_size: 24,
          pages: '1',
        }),
      );
      const texts = await pageTexts(await download(t, tiled as { download_url: string }));
      expect(texts[0].match(/DRAFT/g)!.length).toBeGreaterThan(4);
      expect(texts[1]).not.toContain('DRAFT');
      const png = await sharp({
        create: { width: 64, height: 32, channels: 4, background: { r: 255, g: 0, b: 0, alpha: 0.5 } },
      })
        .png()
        .toBuffer();
      const img = sc(
        await call(client, 'add_watermark', {
          file: { base64: b64(three) },
          image_base64: png.toString('base64'),
          position: 'top-right',
        }),
      );
      const doc = await PDFDocument.load(await download(t, img as { download_url: string }));
      const xobjects = doc.getPages()[0].node.Resources()!.lookup(PDFName.of('XObject'));
      expect(xobjects).toBeDefined();
      const bad = await call(client, 'add_watermark', {
        file: { base64: b64(three) },
        image_base64: Buffer.from('not an image').toString('base64'),
      });
      expect(sc(bad).error).toBe('invalid_image');
      const neither = await call(client, 'add_watermark', { file: { base64: b64(three) } });
      expect(sc(neither).error).toBe('invalid_arguments');
      // Any script is drawn (scripts.e2e-spec.ts); a character no stamp font has is refused, before the quota.
      const emoji = await call(client, 'add_watermark', { file: { base64: b64(three) }, text: 'Draft \u{1F642}' });
      expect(sc(emoji)).toMatchObject({ error: 'invalid_arguments' });
      expect(sc(emoji).refunded).toBeUndefined();
      expect(sc(emoji).message).toMatch(/`text` has the character .* \(U\+1F642\), which no stamp font can draw/);
    });

    it('add_page_numbers: format with {n} and {total}, start number, chosen pages', async () => {
      const s = sc(
        await call(client, 'add_page_numbers', {
          file: { base64: b64(three) },
          format: 'Page {n} of {total}',
          pages: '2-',
          start: 1,
          position: 'top-right',
        }),
      );
      expect(s).toMatchObject({ numbered_pages: [2, 3], first_number: 1, last_number: 2 });
      const texts = await pageTexts(await download(t, s as { download_url: string }));
      expect(texts[0]).not.toContain('of 2');
      expect(texts[1]).toContain('Page 1 of 2');
      expect(texts[2]).toContain('Page 2 of 2');
    });

    it('pdf_metadata: read (file unchanged, no new file), set, custom keys, clear', async () => {
      const src = await textPdf(1, { title: 'Original' });
      const read = await call(client, 'pdf_metadata', { file: { base64: b64(src) } });
      expect(sc(read)).toMatchObject({ changed: false, pages: 1, metadata: { title: 'Original' } });
      expect(sc(read).file_id).toBeUndefined();
      expect(read.content.some((c) => c.type === 'resource_link')).toBe(false);
      // Clients that show only the text get the values too.
      expect((read.content[0] as { text: string }).text.split('\n')[0]).toMatch(
        /^Metadata \(the file is unchanged\): 1 page; title "Original"; .*no author/,
      );

      const set = sc(
        await call(client, 'pdf_metadata', {
          file: { base64: b64(src) },
          set: {
            title: 'Quarterly report',
            author: 'Ada',
            keywords: ['finance', 'q3'],
            creation_date: '2024-05-01T12:00:00Z',
            custom: { Department: 'Legal' },
          },
        }),
      );
      expect(set.changed).toBe(true);
      expect(set.note).toBeUndefined();
      expect(set.metadata).toMatchObject({
        title: 'Quarterly report',
        author: 'Ada',
        keywords: 'finance, q3',
        creation_date: '2024-05-01T12:00:00.000Z',
        custom: { Department: 'Legal' },
      });
      const doc = await PDFDocument.load(await download(t, set as { download_url: string }), { updateMetadata: false });
      expect(doc.getTitle()).toBe('Quarterly report');
      expect(doc.getAuthor()).toBe('Ada');
      expect(doc.getCreationDate()?.toISOString()).toBe('2024-05-01T12:00:00.000Z');

      const cleared = sc(
        await call(client, 'pdf_metadata', { file: { file_id: set.file_id }, clear: ['author', 'Department'] }),
      );
      expect(cleared.metadata.author).toBeNull();
      expect(cleared.metadata.custom).toEqual({});
      expect(cleared.metadata.title).toBe('Quarterly report');
    });

    it('flatten_form: values stay visible, no form fields left', async () => {
      const pdf = await formPdf();
      expect((await PDFDocument.load(pdf)).getForm().getFields()).toHaveLength(3);
      const s = sc(await call(client, 'flatten_form', { file: { base64: b64(pdf) } }));
      expect(s.fields_flattened).toBe(3);
      expect(s.field_names).toEqual(['applicant.name', 'agree', 'country']);
      const out = await download(t, s as { download_url: string });
      const doc = await PDFDocument.load(out);
      expect(doc.catalog.get(PDFName.of('AcroForm'))).toBeUndefined();
      expect(doc.getForm().getFields()).toHaveLength(0);
      expect(doc.getPages()[0].node.Annots()?.size() ?? 0).toBe(0);
      const streams = await allStreams(out);
      expect(streams.includes('Ada Lovelace') || streams.includes(hex('Ada Lovelace'))).toBe(true);
      expect(streams.includes('France') || streams.includes(hex('France'))).toBe(true);
    });
  });

  describe('files in and out', () => {
    it('chains by file_id: rotate -> number -> compress, each result downloadable', async () => {
      const one = sc(
        await call(client, 'rotate_pages', { file: { base64: b64(three), filename: 'report.pdf' }, angle: 180 }),
      );
      expect(one.filename).toBe('report-rotated.pdf');
      expect(one.file_id).toMatch(/^[A-Za-z0-9_-]{43}$/);
      const two = sc(await call(client, 'add_page_numbers', { file: { file_id: one.file_id } }));
      const three_ = sc(await call(client, 'compress_pdf', { file: { file_id: two.file_id }, level: 'lossless' }));
      const out = await download(t, three_ as { download_url: string });
      const doc = await PDFDocument.load(out);
      expect(doc.getPages().map((p) => p.getRotation().angle)).toEqual([180, 180, 180]);
      expect((await pageTexts(out))[2]).toContain('3');
    });

    it('results carry {file_id, download_url, expires_at, bytes, pages, sha256}, a resource_link and one short text; bytes only with inline: true', async () => {
      const linkOnly = await call(client, 'rotate_pages', { file: { base64: b64(three) }, angle: 90 });
      expect(linkOnly.content.map((c) => c.type)).toEqual(['text', 'resource_link']);
      const r = await call(client, 'rotate_pages', { file: { base64: b64(three) }, angle: 90, inline: true });
      expect(r.content.map((c) => c.type)).toEqual(['text', 'resource_link', 'resource']);
      const s = sc(r);
      expect(Object.keys(s)).toEqual(
        expect.arrayContaining(['file_id', 'download_url', 'expires_at', 'bytes', 'pages', 'sha256', 'quota']),
      );
      expect(s.download_url).toBe(`${t.config.publicBaseUrl()}/files/${s.file_id}`);
      const ttl = new Date(s.expires_at).getTime() - Date.now();
      expect(ttl).toBeGreaterThan(3500_000);
      expect(ttl).toBeLessThanOrEqual(3600_000);
      const link = r.content.find((c) => c.type === 'resource_link');
      expect(link).toMatchObject({ uri: s.download_url, mimeType: 'application/pdf' });
      const inline = r.content.find((c) => c.type === 'resource') as { resource: { blob: string } } | undefined;
      const bytes = await download(t, s as { download_url: string });
      expect(Buffer.from(inline!.resource.blob, 'base64').equals(Buffer.from(bytes))).toBe(true);
      const { createHash } = await import('node:crypto');
      expect(createHash('sha256').update(bytes).digest('hex')).toBe(s.sha256);
      const big = await call(client, 'compress_pdf', {
        file: { base64: b64(await imagePdf(3, 900)) },
        level: 'lossless',
        inline: true,
      });
      expect(sc(big).bytes).toBeGreaterThan(t.config.PDF_INLINE_MAX_BYTES);
      expect(big.content.some((c) => c.type === 'resource')).toBe(false);
      // ... and says why, in the text and the note.
      const why = `Not embedded (inline): ${sc(big).filename} is ${sc(big).bytes} bytes, over the inline limit of ${t.config.PDF_INLINE_MAX_BYTES} bytes; download it from its link.`;
      expect((big.content[0] as { text: string }).text).toContain(why);
      expect(sc(big).note).toContain(why);
      const bad = await call(client, 'rotate_pages', { file: { base64: b64(three) }, angle: 90, inline: 'yes' });
      expect(sc(bad)).toMatchObject({
        error: 'invalid_arguments',
        message: expect.stringMatching(/inline: expected a boolean/),
      });
    });

    it('the text content stays under 1 KB whatever the number of files (a split into 60 parts)', async () => {
      const r = await call(client, 'split_pdf', { file: { base64: b64(await textPdf(60)) }, mode: 'every', every: 1 });
      expect(sc(r).files).toHaveLength(60);
      const texts = r.content.filter((c) => c.type === 'text') as { text: string }[];
      expect(texts).toHaveLength(1);
      expect(Buffer.byteLength(texts[0].text)).toBeLessThan(1024);
      expect(r.content.filter((c) => c.type === 'resource_link')).toHaveLength(60);
      // As many links as fit, then how many more.
      const shown = texts[0].text.split('\n').filter((l) => /^\d+\. .*file_id /.test(l)).length;
      expect(shown).toBeGreaterThan(2);
      expect(texts[0].text).toContain(`…and ${60 - shown} more files: see structuredContent.files.`);
    });

    it('unknown and expired file ids: file_not_found, as tool error and on GET /files/{id}', async () => {
      const unknown = await call(client, 'rotate_pages', { file: { file_id: 'A'.repeat(43) }, angle: 90 });
      expect(sc(unknown)).toMatchObject({ error: 'file_not_found', input: 'file' });
      await request(t.server)
        .get(`/files/${'A'.repeat(43)}`)
        .expect(404)
        .expect((res) => expect(res.body.error).toBe('file_not_found'));
      const s = sc(await call(client, 'rotate_pages', { file: { base64: b64(three) }, angle: 90 }));
      // The result's lifetime passes (only the clock moves: the instance still holds the file in memory).
      jest.useFakeTimers({ now: Date.now() + (t.config.PDF_RESULT_TTL_S + 1) * 1000, doNotFake: EVERYTHING_BUT_DATE });
      try {
        const expired = await call(client, 'rotate_pages', { file: { file_id: s.file_id }, angle: 90 });
        expect(sc(expired).error).toBe('file_not_found');
        expect(sc(expired).message).toMatch(/expired/);
        const res = await request(t.server).get(new URL(s.download_url).pathname).expect(404);
        expect(res.body).toMatchObject({ ok: false, error: 'file_not_found', expired: true });
        const { FileStoreService } = await import('../../src/pdf-tools/files/file-store.service');
        expect(await t.app.get(FileStoreService).cleanup()).toBeGreaterThanOrEqual(1);
      } finally {
        jest.useRealTimers();
      }
      const rows: unknown[] = await t.dataSource.query(`SELECT id FROM pdf_files WHERE id = $1`, [s.file_id]);
      expect(rows).toHaveLength(0);
    });
  });

  describe('limits and errors (each failed call refunded)', () => {
    async function expectError(
      args: Record<string, unknown>,
      tool: string,
      code: string,
      refunded: boolean | undefined,
      message?: RegExp,
    ): Promise<void> {
      const quota = t.app.get(QuotaService);
      const before = await quota.status('mcp', tool, ip);
      const r = await call(client, tool, args);
      expect(r.isError).toBe(true);
      const s = sc(r);
      expect(s.error).toBe(code);
      if (message) expect(s.message).toMatch(message);
      expect(s.refunded).toBe(refunded);
      expect(r.content[0]).toMatchObject({ type: 'text' });
      expect((r.content[0] as { text: string }).text).toContain(code);
      // the quota was not used (refunded, or never reserved)
      expect(s.quota).toEqual(before);
      expect(await quota.status('mcp', tool, ip)).toEqual(before);
    }

    it('file over 10 MB: file_too_large naming the input (checked before the quota)', async () => {
      const big = Buffer.alloc(10 * 1024 * 1024 + 1, 0x20);
      big.write('%PDF-1.7\n');
      await expectError(
        { files: [{ base64: b64(three) }, { base64: big.toString('base64') }] },
        'merge_pdfs',
        'file_too_large',
        undefined,
        /files\[1\].*10485761 bytes/,
      );
    });

    it('more than 200 pages: too_many_pages', async () => {
      await expectError(
        { file: { base64: b64(await textPdf(201)) }, angle: 90 },
        'rotate_pages',
        'too_many_pages',
        true,
        /201 pages; every tool \(split_pdf too\) takes at most 200 pages per file\. Split it on your side first, e\.g\. `qpdf in\.pdf --pages \. 1-200 -- part-1\.pdf`/,
      );
    });

    it('encrypted (qpdf --encrypt): encrypted', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'pdf-enc-'));
      try {
        writeFileSync(join(dir, 'in.pdf'), three);
        execFileSync('qpdf', ['--encrypt', 'user', 'owner', '256', '--', join(dir, 'in.pdf'), join(dir, 'out.pdf')]);
        const enc = readFileSync(join(dir, 'out.pdf'));
        await expectError(
          { file: { base64: enc.toString('base64') }, angle: 90 },
          'rotate_pages',
          'encrypted',
          true,
          /password/,
        );
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });

    it('zero-byte, non-PDF, corrupt and truncated inputs each get their error', async () => {
      await expectError({ file: { base64: '' }, angle: 90 }, 'rotate_pages', 'not_a_pdf', true, /empty/);
      await expectError(
        { file: { base64: Buffer.from('hello, this is text').toString('base64') }, angle: 90 },
        'rotate_pages',
        'not_a_pdf',
        true,
        /not a PDF/,
      );
      const corrupt = Buffer.concat([
        Buffer.from('%PDF-1.7\n1 0 obj << /Type /Catalog /Pages 2 0 R >>\n'),
        Buffer.alloc(500, 0x7b),
      ]);
      await expectError(
        { file: { base64: corrupt.toString('base64') }, angle: 90 },
        'rotate_pages',
        'corrupt_pdf',
        true,
      );
      const truncated = three.subarray(0, Math.floor(three.length * 0.6));
      await expectError(
        { file: { base64: b64(truncated) }, angle: 90 },
        'rotate_pages',
        'corrupt_pdf',
        true,
        /damaged/,
      );
    });

    it('invalid page ranges name the page count; bad base64 and both/neither inputs are argument errors', async () => {
      await expectError(
        { file: { base64: b64(three) }, angle: 90, pages: '2-7' },
        'rotate_pages',
        'invalid_page_range',
        true,
        /3 pages/,
      );
      // A syntax error needs no page count: answered before the quota.
      await expectError(
        { file: { base64: b64(three) }, angle: 90, pages: 'first' },
        'rotate_pages',
        'invalid_page_range',
        undefined,
        /Cannot read "first"/,
      );
      await expectError(
        { file: { base64: '%%%' }, angle: 90 },
        'rotate_pages',
        'invalid_arguments',
        undefined,
        /base64/,
      );
      await expectError(
        { file: { base64: b64(three), file_id: 'A'.repeat(43) }, angle: 90 },
        'rotate_pages',
        'invalid_arguments',
        undefined,
        /exactly one/,
      );
      await expectError(
        { file: {}, angle: 45 },
        'rotate_pages',
        'invalid_arguments',
        undefined,
        /angle: must be 90, 180 or 270 \(received 45\)/,
      );
      await expectError(
        { file: 'A'.repeat(43), angle: 90 },
        'rotate_pages',
        'invalid_arguments',
        undefined,
        /file: .*give an object: \{"file_id": "\.\.\."\}, \{"url": "https:\/\/\.\.\."\} or \{"base64": "\.\.\."\}/,
      );
    });

    it('large base64 (decoded off the event loop) gives the same errors, in argument order, before the quota', async () => {
      const bad = `${'A'.repeat(200_000)}$$AA`;
      const cases: Array<[unknown[], string, RegExp]> = [
        [[{ base64: b64(three) }, { base64: bad }], 'invalid_arguments', /^files\[1\]: base64 is not valid base64/],
        // an earlier argument's error wins over a later one's, whatever each costs to check
        [[{ file_id: 'B'.repeat(43) }, { base64: bad }], 'file_not_found', /^files\[0\]: file_id/],
        [[{ base64: bad }, { file_id: 'B'.repeat(43) }], 'invalid_arguments', /^files\[0\]: base64/],
        [[{ base64: bad }, { base64: 'A'.repeat(15_000_000) }], 'invalid_arguments', /^files\[0\]: base64/],
      ];
      for (const [files, code, message] of cases) await expectError({ files }, 'merge_pdfs', code, undefined, message);
      const photo = b64(await imagePdf(1, 1000));
      expect(photo.length).toBeGreaterThan(100_000);
      const r = sc(
        await call(client, 'merge_pdfs', {
          files: [
            { base64: b64(three) },
            { base64: `data:application/pdf;base64,${photo.replace(/(.{76})/g, '$1\r\n')}` },
          ],
        }),
      );
      expect(r.pages).toBe(4);
    });
  });

  describe('public stats and llms.txt', () => {
    it('GET /api/public-stats counts successful runs anonymously over 30 days', async () => {
      const { StatsService } = await import('../../src/pdf-tools/stats/stats.service');
      t.app.get(StatsService).invalidate();
      const res = await request(t.server).get('/api/public-stats').expect(200);
      expect(Object.keys(res.body).sort()).toEqual(['success', 'window_days']);
      expect(res.body.window_days).toBe(30);
      expect(res.body.success).toBeGreaterThan(10);
      const rows: Record<string, unknown>[] = await t.dataSource.query('SELECT * FROM pdf_daily_stats');
      expect(Object.keys(rows[0]).sort()).toEqual(['day', 'success', 'tool']);
      const failures = await t.dataSource.query(`SELECT SUM(success)::int AS n FROM pdf_daily_stats`);
      expect(failures[0].n).toBe(res.body.success);
    });

    it('GET /llms.txt: title, summary, endpoint, client config, the nine tools, limits, links', async () => {
      const res = await request(t.server).get('/llms.txt').expect(200);
      expect(res.headers['content-type']).toMatch(/^text\/plain/);
      const text = res.text;
      expect(text.startsWith('# ')).toBe(true);
      expect(text).toMatch(/\n> .+/);
      expect(text).toContain(`"url": "${t.config.publicBaseUrl()}/mcp"`);
      expect(text).toContain('"type": "http"');
      expect(text).toContain('"mcpServers"');
      for (const name of NINE_TOOLS) expect(text).toContain(`**${name}**`);
      expect(text).toContain('`level`');
      expect(text).toMatch(/10 MB and 200 pages/);
      expect(text).toMatch(/00:00 UTC/);
      expect(text).toContain('/api/v1/openapi.json');
      expect(mcpUrl(t).pathname).toBe('/mcp');
    });

    it('GET /metrics counts tool calls by tool and outcome', async () => {
      const res = await request(t.server).get('/metrics').set(METRICS_AUTH).expect(200);
      expect(res.text).toMatch(/pdf_tool_calls_total\{tool="rotate_pages",outcome="success"\} [1-9]/);
      expect(res.text).toMatch(/pdf_tool_calls_total\{tool="rotate_pages",outcome="encrypted"\} 1/);
      expect(res.text).toMatch(/pdf_tool_duration_seconds_count\{tool="merge_pdfs"\} [1-9]/);
    });
  });
});
