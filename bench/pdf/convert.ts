/**
 * The website's conversions against their CLI peers (issue 23, "Measure"; npm run bench:pdf-convert),
 * each through the product's own path a visitor or an agent uses: the full app (createTestApp: real
 * PostgreSQL with DATABASE_URL, BullMQ with REDIS_URL, stored bytes in a directory) and a client in a
 * process of its own (bench/pdf/convert-client.ts: the website's forms over HTTP, /mcp with the
 * official SDK client), the peer on the same file in the same run, ours and the peer interleaved
 * round by round, medians of BENCH_ROUNDS (3) rounds:
 *  - images: PDF to images (POST /pdf/images, then the download) vs `pdftoppm`, 72/150/300 dpi, PNG
 *    and JPEG, pages/s; 200 text pages, PNG above 72 dpi on BENCH_PNG_PAGES (20) of them (poppler's
 *    PNG encoder draws ~1 s a page at 300 dpi here: 200 of them would pass the 180 s limit);
 *  - memory: the server's resident memory (this process and its children, the client excepted)
 *    during 200 pages at 300 dpi, with the shipped 40 MB result cap and with the cap lifted;
 *  - ocr: the OCR job (POST /pdf/ocr, its page polled, both results downloaded) vs the `ocrmypdf`
 *    CLI with the job's options and with its defaults (the slowest: first round only), on a scan of
 *    BENCH_OCR_PAGES (10) pages;
 *    character error rate of each searchable PDF's text layer (pdftotext) against the known text;
 *  - read: read_pdf over MCP, the whole 200 pages (following next_cursor) vs `pdftotext -layout`;
 *  - pdfjs: pdf.js drawing in headless Chromium (the browser option of item 1) vs `pdftoppm`, with
 *    its memory and a pixel comparison of page 1.
 * BENCH_ONLY=images | memory | ocr | read | pdfjs runs one part; BENCH_PAGES (200) for a quick try. One file: the parts share the
 * fixtures, the app and the client, and print one report.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { PDFDocument } from 'pdf-lib';
import sharp from 'sharp';
import { characterErrorRate } from '../../src/pdf-tools/ocr/ocr-languages';
import { linesPdf } from '../../test/pdf-tools/fixtures';
import { createTestApp, TestApp } from '../../test/utils/test-app';
import { median } from '../common/median';
import { spawnScript, timeCommand } from './child';
import type { ClientRequest, ImagesAnswer } from './convert-client';
import { startPdfJs } from './pdfjs-browser';

const out = (s: string) => process.stdout.write(`${s}\n`);
const PDFJS_VERSION = (
  JSON.parse(readFileSync(require.resolve('pdfjs-dist/package.json'), 'utf8')) as { version: string }
).version;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const PAGES = Number(process.env.BENCH_PAGES ?? 200);
const PNG_PAGES = Number(process.env.BENCH_PNG_PAGES ?? 20);
const OCR_PAGES = Number(process.env.BENCH_OCR_PAGES ?? 10);
/** read_pdf vs pdftotext: rounds after 2 warm-up ones (both are short). */
const READ_ROUNDS = 5;
/** The website's JPEG quality (pdf-images.service.ts). */
const JPEG_ARGS = ['-jpeg', '-jpegopt', 'quality=85'];
/** The OCR job's ocrmypdf options (ocr.service.ts), for the peer with the same work. */
const OCR_JOB_ARGS = ['--jobs', '1', '--output-type', 'pdf', '--optimize', '0', '--skip-text'];

const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' / ');
const rate = (pages: number, ms: number) => (pages / (ms / 1000)).toFixed(pages / (ms / 1000) < 1 ? 2 : 1);
const secs = (ms: number) => (ms < 10_000 ? (ms / 1000).toFixed(2) : (ms / 1000).toFixed(1));
const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MB`;

async function textPdf(pages: number): Promise<Uint8Array> {
  return (await linesPdf(pages, 45)).save();
}

/** A "scan", as test/pdf-tools/ocr.e2e-spec.ts makes one: each text page drawn to a 200 dpi grey image, the image alone on its page. */
async function scannedPdf(dir: string, textPath: string): Promise<Uint8Array> {
  const scans = join(dir, 'scan');
  mkdirSync(scans);
  execFileSync('pdftoppm', ['-r', '200', '-gray', '-png', textPath, join(scans, 's')]);
  const doc = await PDFDocument.create();
  for (const name of readdirSync(scans).sort()) {
    const image = await doc.embedPng(readFileSync(join(scans, name)));
    doc.addPage([595, 842]).drawImage(image, { x: 0, y: 0, width: 595, height: 842 });
  }
  rmSync(scans, { recursive: true });
  return doc.save();
}

/** Peak resident memory of `command` in MiB (GNU time's %M). */
function peakRssOf(command: string[]): number {
  const r = spawnSync('/usr/bin/time', ['-f', '%M', ...command], {
    encoding: 'utf8',
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  if (r.status !== 0) throw new Error(`${command.join(' ')}: ${r.stderr}`);
  return Number(r.stderr.trim().split('\n').pop()) / 1024;
}

interface ConvertClient {
  ask<T>(request: ClientRequest): Promise<T>;
  stop(): Promise<void>;
}

async function startClient(t: TestApp): Promise<ConvertClient> {
  const child = spawnScript('convert-client', [`http://127.0.0.1:${(t.server.address() as AddressInfo).port}`]);
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const next = async () => {
    const line = await lines.next();
    if (line.done) throw new Error('the convert client exited');
    if (line.value.startsWith('error ')) throw new Error(line.value);
    return line.value;
  };
  if ((await next()) !== 'ready') throw new Error('the convert client did not start');
  return {
    ask: async <T>(request: ClientRequest) => {
      child.stdin.write(`${JSON.stringify(request)}\n`);
      return JSON.parse(await next()) as T;
    },
    stop: async () => {
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.stdin.end();
      await exited;
    },
  };
}

/** The app as the bench runs it: quotas and rates out of the way; `env` adds or overrides. */
function benchApp(dir: string, env: Record<string, string> = {}): Promise<TestApp> {
  return createTestApp({
    env: {
      PDF_DAILY_LIMIT: '100000',
      PDF_MCP_DAILY_CAP: '100000',
      MCP_RATE_LIMIT: '1000000',
      PDF_UPLOAD_RATE_LIMIT: '100000',
      PDF_DOWNLOAD_RATE_LIMIT: '100000',
      LOG_LEVEL: 'silent',
      PDF_FILE_DIR: join(dir, 'files'),
      ...env,
    },
  });
}

interface Fixture {
  pages: number;
  path: string;
  fileId: string;
}

async function images(dir: string, client: ConvertClient, docs: Map<number, Fixture>): Promise<void> {
  out(`\n### PDF to images: ours (POST /pdf/images + download) vs pdftoppm, median of ${ROUNDS} interleaved rounds\n`);
  out(`Load average at start: ${load()}. Text pages (A4, 45 lines of Helvetica).\n`);
  const configs = [72, 150, 300].flatMap((dpi) =>
    (['png', 'jpeg'] as const).map((format) => {
      const doc = docs.get(format === 'png' && dpi > 72 ? PNG_PAGES : PAGES)!;
      const peer = ['pdftoppm', '-r', String(dpi), ...(format === 'png' ? ['-png'] : JPEG_ARGS), doc.path];
      return { dpi, format, doc, peer, ours: [] as ImagesAnswer[], plain: [] as number[], niced: [] as number[] };
    }),
  );
  const peerOut = join(dir, 'peer');
  const peerRun = async (command: string[]) => {
    mkdirSync(peerOut, { recursive: true });
    const ms = await timeCommand([...command, join(peerOut, 'p')], 1, 0);
    rmSync(peerOut, { recursive: true });
    return ms;
  };
  // One untimed run of each (the server's code compiled, the files in the page cache).
  const warm = configs[1];
  await client.ask({ op: 'images', file_id: warm.doc.fileId, dpi: warm.dpi, format: warm.format });
  await peerRun(warm.peer);
  for (let round = 0; round < ROUNDS; round++) {
    for (const c of configs) {
      c.ours.push(await client.ask({ op: 'images', file_id: c.doc.fileId, dpi: c.dpi, format: c.format }));
      c.plain.push(await peerRun(c.peer));
      c.niced.push(await peerRun(['nice', '-n', '10', ...c.peer]));
    }
  }
  out(
    '| dpi | format | pages | ours: s, **pages/s** | pdftoppm: s, **pages/s** | pdftoppm at nice 10 (as ours runs it): s, pages/s | time ours / pdftoppm | result |',
  );
  out('| ---: | --- | ---: | --- | --- | --- | ---: | --- |');
  for (const c of configs) {
    const ours = median(c.ours.map((a) => a.ms));
    const plain = median(c.plain);
    const niced = median(c.niced);
    const drawn = c.ours.map((a) => a.pages);
    if (drawn.some((n) => n !== c.doc.pages))
      out(`(left out: ${c.ours.find((a) => a.leftOut)?.leftOut ?? drawn.join()})`);
    out(
      `| ${c.dpi} | ${c.format.toUpperCase()} | ${c.doc.pages} | ${secs(ours)} s, **${rate(c.doc.pages, ours)}** | ${secs(plain)} s, **${rate(c.doc.pages, plain)}** | ${secs(niced)} s, ${rate(c.doc.pages, niced)} | ${(ours / plain).toFixed(2)}x (nice 10: ${(ours / niced).toFixed(2)}x) | ZIP ${mb(c.ours[0].bytes)} |`,
    );
  }
  out(`\nLoad average at end: ${load()}.`);
}

async function memory(
  dir: string,
  doc: Fixture,
  lifted: { via: ConvertClient; fileId: string },
  shipped: { via: ConvertClient; fileId: string },
): Promise<void> {
  out(`\n### Memory at ${PAGES} pages, 300 dpi: the server's resident memory (app process + its poppler children)\n`);
  out(`Load average at start: ${load()}. Sampled every 50 ms by the client; the client's own process excluded.\n`);
  out('| result cap | format | pages in the result | time | server RSS before -> peak | pdftoppm peak RSS (alone) |');
  out('| --- | --- | --- | --- | --- | --- |');
  const peer = {
    png: peakRssOf(['pdftoppm', '-r', '300', '-png', '-f', '1', '-l', '10', doc.path, join(dir, 'm')]),
    jpeg: peakRssOf(['pdftoppm', '-r', '300', ...JPEG_ARGS, doc.path, join(dir, 'm')]),
  };
  rmSync(join(dir, 'm'), { force: true });
  for (const f of readdirSync(dir).filter((n) => /^m-\d+\./.test(n))) rmSync(join(dir, f));
  const cases: { cap: string; format: 'png' | 'jpeg'; via: ConvertClient; fileId: string }[] = [
    { cap: '40 MB (shipped)', format: 'png', ...shipped },
    { cap: '40 MB (shipped)', format: 'jpeg', ...shipped },
    { cap: 'lifted (1 GiB)', format: 'jpeg', ...lifted },
  ];
  for (const c of cases) {
    let a: ImagesAnswer;
    try {
      a = await c.via.ask<ImagesAnswer>({
        op: 'images',
        file_id: c.fileId,
        dpi: 300,
        format: c.format,
        sampleRss: true,
      });
    } catch (e) {
      // e.g. 503 timeout: on a loaded machine the first batch of pages may not be drawn within the time limit.
      out(
        `| ${c.cap} | ${c.format.toUpperCase()} | failed: ${(e as Error).message} | | | ${Math.round(peer[c.format])} MiB |`,
      );
      continue;
    }
    const pages =
      a.pages === PAGES ? `${a.pages}` : `${a.pages} (${a.leftOut?.trim().split(':')[0] ?? 'some left out'})`;
    out(
      `| ${c.cap} | ${c.format.toUpperCase()} | ${pages}, ZIP ${mb(a.bytes)} | ${secs(a.ms)} s | ${Math.round(a.rss!.before)} -> **${Math.round(a.rss!.peak)} MiB** (+${Math.round(a.rss!.peak - a.rss!.before)}) | ${Math.round(peer[c.format])} MiB |`,
    );
  }
  out(`\nLoad average at end: ${load()}.`);
}

/** pdftotext of page `page` of `path` (its text layer). */
const pageText = (path: string, page: number): string =>
  execFileSync('pdftotext', ['-f', String(page), '-l', String(page), path, '-'], { encoding: 'utf8' });

/** Character error rate of each page of `read` against the same page of `truth`: mean and worst. */
function cer(truth: string, read: string, pages: number): string {
  const rates = Array.from({ length: pages }, (_, i) =>
    characterErrorRate(pageText(truth, i + 1), pageText(read, i + 1)),
  );
  const pct = (r: number) => `${(r * 100).toFixed(2)} %`;
  return `${pct(rates.reduce((s, r) => s + r, 0) / pages)} (worst page ${pct(Math.max(...rates))})`;
}

async function ocr(dir: string, client: ConvertClient, textPath: string, scan: Fixture): Promise<void> {
  out(
    `\n### OCR: ours (POST /pdf/ocr, job page polled every 100 ms, both results downloaded) vs the ocrmypdf CLI, median of ${ROUNDS} interleaved rounds\n`,
  );
  out(
    `Load average at start: ${load()}. A ${scan.pages}-page scan (200 dpi grey images of the text pages, no text layer), language English.\n`,
  );
  const ours: number[] = [];
  const same: number[] = [];
  const defaults: number[] = [];
  const paths = {
    ours: join(dir, 'ocr-ours.pdf'),
    same: join(dir, 'ocr-same.pdf'),
    defaults: join(dir, 'ocr-def.pdf'),
  };
  for (let round = 0; round < ROUNDS; round++) {
    ours.push(
      (await client.ask<{ ms: number }>({ op: 'ocr', file_id: scan.fileId, languages: 'eng', save: paths.ours })).ms,
    );
    same.push(
      await timeCommand(
        [
          'env',
          'OMP_THREAD_LIMIT=1',
          'ocrmypdf',
          '-l',
          'eng',
          ...OCR_JOB_ARGS,
          '--sidecar',
          join(dir, 's1.txt'),
          scan.path,
          paths.same,
        ],
        1,
        0,
      ),
    );
    if (round === 0)
      defaults.push(
        await timeCommand(['ocrmypdf', '-l', 'eng', '--sidecar', join(dir, 's2.txt'), scan.path, paths.defaults], 1, 0),
      );
  }
  const o = median(ours);
  const s = median(same);
  const d = median(defaults);
  const n = scan.pages;
  out(
    `Each round, s: ours ${ours.map(secs).join(', ')}; ocrmypdf with the job's options ${same.map(secs).join(', ')}.\n`,
  );
  out('| run | time | **pages/s** | time ours / this | character error rate, text layer (pdftotext) |');
  out('| --- | --- | ---: | ---: | --- |');
  out(
    `| ours: the job (\`--jobs 1\`, 1 tesseract thread, nice 10) | ${secs(o)} s | **${rate(n, o)}** | | ${cer(textPath, paths.ours, n)} |`,
  );
  out(
    `| \`ocrmypdf\` with the job's options (\`${OCR_JOB_ARGS.join(' ')}\`, OMP_THREAD_LIMIT=1) | ${secs(s)} s | **${rate(n, s)}** | ${(o / s).toFixed(2)}x | ${cer(textPath, paths.same, n)} |`,
  );
  out(
    `| \`ocrmypdf\` defaults (${cpus().length} jobs, PDF/A output, optimize 1; first round only) | ${secs(d)} s | **${rate(n, d)}** | ${(o / d).toFixed(2)}x | ${cer(textPath, paths.defaults, n)} |`,
  );
  out(`\nLoad average at end: ${load()}.`);
}

async function read(dir: string, client: ConvertClient, doc: Fixture): Promise<void> {
  out(
    `\n### read_pdf over MCP vs pdftotext -layout, ${doc.pages} pages (median of ${READ_ROUNDS} interleaved rounds after 2 warm-ups)\n`,
  );
  out(`Load average at start: ${load()}.\n`);
  const ours: { ms: number; chars: number; calls: number }[] = [];
  const peer: number[] = [];
  for (let round = 0; round < READ_ROUNDS + 2; round++) {
    const a = await client.ask<{ ms: number; chars: number; calls: number }>({ op: 'read', file_id: doc.fileId });
    const p = await timeCommand(['pdftotext', '-layout', doc.path, join(dir, 'read.txt')], 1, 0);
    if (round >= 2) {
      ours.push(a);
      peer.push(p);
    }
  }
  const o = median(ours.map((a) => a.ms));
  const p = median(peer);
  const size = readFileSync(join(dir, 'read.txt')).length;
  out(
    '| figure | read_pdf (official SDK client, file_id, max_chars 100,000, following next_cursor) | pdftotext -layout | ratio |',
  );
  out('| --- | --- | --- | ---: |');
  out(`| time | **${Math.round(o)} ms** (${ours[0].calls} calls) | **${Math.round(p)} ms** | ${(o / p).toFixed(2)}x |`);
  out(`| pages/s | ${rate(doc.pages, o)} | ${rate(doc.pages, p)} | |`);
  out(
    `| output | ${ours[0].chars.toLocaleString('en')} characters of Markdown | ${size.toLocaleString('en')} bytes of text | |`,
  );
  out(`\nLoad average at end: ${load()}.`);
}

/** Mean absolute difference (0-255) and share of pixels differing by more than 64, of two images in grey at the size of `b`. */
async function pixelDiff(a: Buffer, b: Buffer): Promise<string> {
  const meta = await sharp(b).metadata();
  const grey = (img: Buffer) =>
    sharp(img)
      .flatten({ background: '#ffffff' })
      .greyscale()
      .resize(meta.width, meta.height, { fit: 'fill' })
      .raw()
      .toBuffer();
  const [x, y] = await Promise.all([grey(a), grey(b)]);
  let sum = 0;
  let far = 0;
  for (let i = 0; i < x.length; i++) {
    const d = Math.abs(x[i] - y[i]);
    sum += d;
    if (d > 64) far++;
  }
  return `mean |difference| ${(sum / x.length).toFixed(2)} of 255; ${((far / x.length) * 100).toFixed(2)} % of pixels differ by more than 64`;
}

async function pdfjs(dir: string, docs: Map<number, Fixture>): Promise<void> {
  out(`\n### pdf.js ${PDFJS_VERSION} in headless Chromium vs pdftoppm (median of ${ROUNDS} interleaved rounds)\n`);
  out(
    `Load average at start: ${load()}. pdf.js draws on a canvas in a tab and encodes each page (canvas.toBlob), timing itself; the time includes opening the document, not starting the browser.\n`,
  );
  const renderer = await startPdfJs();
  try {
    const configs = [
      { dpi: 150, format: 'jpeg' as const, doc: docs.get(PAGES)! },
      { dpi: 300, format: 'jpeg' as const, doc: docs.get(PAGES)! },
      { dpi: 150, format: 'png' as const, doc: docs.get(PNG_PAGES)! },
    ].map((c) => ({
      ...c,
      js: [] as { ms: number; drawMs: number; rss: number; bytes: number }[],
      peer: [] as number[],
    }));
    let first = Buffer.alloc(0);
    for (let round = 0; round < ROUNDS; round++) {
      for (const c of configs) {
        renderer.use(new Uint8Array(readFileSync(c.doc.path)));
        const r = await renderer.render(c.dpi, c.format);
        if (r.pages !== c.doc.pages) throw new Error(`pdf.js drew ${r.pages} pages`);
        if (c.format === 'png') first = Buffer.from(r.first.split(',')[1], 'base64');
        c.js.push({ ms: r.ms, drawMs: r.drawMs, rss: r.peakRssMiB, bytes: r.bytes });
        const peerOut = join(dir, 'pj');
        mkdirSync(peerOut, { recursive: true });
        const args = [
          '-r',
          String(c.dpi),
          ...(c.format === 'png' ? ['-png'] : JPEG_ARGS),
          c.doc.path,
          join(peerOut, 'p'),
        ];
        c.peer.push(await timeCommand(['pdftoppm', ...args], 1, 0));
        rmSync(peerOut, { recursive: true });
      }
    }
    out(
      '| dpi | format | pages | pdf.js in Chromium: s, **pages/s** (drawing alone) | Chromium peak RSS | pdftoppm: s, **pages/s** | pdftoppm peak RSS | time pdf.js / pdftoppm |',
    );
    out('| ---: | --- | ---: | --- | --- | --- | --- | ---: |');
    for (const c of configs) {
      const js = median(c.js.map((r) => r.ms));
      const draw = median(c.js.map((r) => r.drawMs));
      const peer = median(c.peer);
      const peerRss = peakRssOf([
        'pdftoppm',
        '-r',
        String(c.dpi),
        ...(c.format === 'png' ? ['-png'] : JPEG_ARGS),
        '-f',
        '1',
        '-l',
        '5',
        c.doc.path,
        join(dir, 'rss'),
      ]);
      out(
        `| ${c.dpi} | ${c.format.toUpperCase()} | ${c.doc.pages} | ${secs(js)} s, **${rate(c.doc.pages, js)}** (${rate(c.doc.pages, draw)}) | ${Math.round(Math.max(...c.js.map((r) => r.rss)))} MiB | ${secs(peer)} s, **${rate(c.doc.pages, peer)}** | ${Math.round(peerRss)} MiB | ${(js / peer).toFixed(2)}x |`,
      );
    }
    execFileSync('pdftoppm', [
      '-r',
      '150',
      '-png',
      '-f',
      '1',
      '-l',
      '1',
      '-singlefile',
      docs.get(PNG_PAGES)!.path,
      join(dir, 'pp'),
    ]);
    out(`\nPage 1 at 150 dpi, pdf.js vs poppler: ${await pixelDiff(first, readFileSync(join(dir, 'pp.png')))}.`);
  } finally {
    await renderer.close();
  }
  out(`\nLoad average at end: ${load()}.`);
}

async function main(): Promise<void> {
  const only = process.env.BENCH_ONLY;
  const part = (name: string) => !only || only === name;
  const dir = mkdtempSync(join(tmpdir(), 'bench-convert-'));
  const version = (cmd: string, args: string[]) =>
    execFileSync(cmd, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })
      .trim()
      .split('\n')[0];
  out(
    `${version('sh', ['-c', 'pdftoppm -v 2>&1'])}; ocrmypdf ${version('ocrmypdf', ['--version'])}; ${version('sh', ['-c', 'tesseract --version 2>&1'])}; ${cpus().length} cores; load average ${load()} at ${new Date().toISOString()}`,
  );
  let t: TestApp | undefined;
  let shipped: TestApp | undefined;
  const clients: ConvertClient[] = [];
  try {
    const docs = new Map<number, Fixture>();
    for (const pages of [...new Set([PAGES, PNG_PAGES])]) {
      const path = join(dir, `text-${pages}.pdf`);
      writeFileSync(path, await textPdf(pages));
      docs.set(pages, { pages, path, fileId: '' });
    }
    const ocrText = join(dir, `text-${OCR_PAGES}.pdf`);
    writeFileSync(ocrText, await textPdf(OCR_PAGES));
    const scanPath = join(dir, 'scan.pdf');
    writeFileSync(scanPath, await scannedPdf(dir, ocrText));
    // PDF to images results can pass the shipped 40 MB cap here (200 pages at 300 dpi): lifted, so
    // each run draws every page; the memory part also runs the shipped setting.
    t = await benchApp(dir, { PDF_MAX_CALL_OUTPUT_BYTES: String(2 ** 30) });
    const client = await startClient(t);
    clients.push(client);
    for (const doc of docs.values())
      doc.fileId = (await client.ask<{ file_id: string }>({ op: 'upload', path: doc.path, slug: 'images' })).file_id;
    const scan: Fixture = {
      pages: OCR_PAGES,
      path: scanPath,
      fileId: (await client.ask<{ file_id: string }>({ op: 'upload', path: scanPath, slug: 'ocr' })).file_id,
    };
    if (part('images')) await images(dir, client, docs);
    if (part('memory')) {
      shipped = await benchApp(dir, { PDF_FILE_DIR: join(dir, 'files-shipped') });
      const other = await startClient(shipped);
      clients.push(other);
      const doc = docs.get(PAGES)!;
      const id = (await other.ask<{ file_id: string }>({ op: 'upload', path: doc.path, slug: 'images' })).file_id;
      await memory(dir, doc, { via: client, fileId: doc.fileId }, { via: other, fileId: id });
    }
    if (part('ocr')) await ocr(dir, client, ocrText, scan);
    if (part('read')) await read(dir, client, docs.get(PAGES)!);
    if (part('pdfjs')) await pdfjs(dir, docs);
  } finally {
    for (const c of clients) await c.stop();
    await shipped?.close();
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((e) => {
  process.stderr.write(`${e instanceof Error ? e.stack : String(e)}\n`);
  process.exit(1);
});
