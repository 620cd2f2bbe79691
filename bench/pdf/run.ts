/**
 * PDF tools benchmark (npm run bench:pdf). In one run, on this machine:
 *  1. every tool's run() (the code the workers execute) on generated text-only and image-heavy PDFs
 *     of 10, 100 and 200 pages, and on real-world PDFs found on the machine (Debian docs, pdfTeX);
 *  2. the same merge / split / rotate / lossless compression with `qpdf` (Debian), median of 5 runs
 *     each after 2 warm-up runs (our workers are long-lived, so their code is JIT-compiled), qpdf
 *     started from a small process of its own (bench/pdf/time-command.ts), as from a shell; our
 *     time / qpdf time is the ratio (target <= 3x for merge, split, rotate);
 *  3. sizes: lossy "recommended" compression on image-heavy PDFs (target >= 50 % smaller) and never
 *     larger on any input;
 *  4. 20 concurrent uploads and MCP calls (official SDK client in a child process, bench/pdf/mcp-load.ts:
 *     POST /files, then compress "recommended" by file_id) while autocannon (also in a child process) measures
 *     GET /healthz and GET /api/public-stats at a steady 100 requests/s; target: their p99 stays
 *     under 50 ms.
 *  5. the whole MCP round trip (upload via POST /files, call with the file_id, download every result
 *     through its link; the agent in its own process, bench/pdf/roundtrip-client.ts) against the qpdf
 *     CLI on 200-page files: merge, rotate, split every 10 pages; targets (#25): by file_id within 1.2x
 *     of qpdf, with the upload within 1.2x of qpdf + the same upload to a static peer (a bare Node
 *     `http` server that only counts the bytes), every figure interleaved round by round; with
 *     BENCH_PDF_BEFORE=<another dist-bench> also the app of that build, interleaved (an A/B in one run).
 *     Ends with the rows of the PDF table of docs/benchmarks.md.
 * BENCH_ONLY=tools | roundtrip | concurrency runs one part.
 * Database: DATABASE_URL (a fresh database of its own) or the embedded PGlite in memory.
 */
import autocannon from 'autocannon';
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import { monitorEventLoopDelay, performance, PerformanceObserver } from 'node:perf_hooks';
import { join, resolve as resolvePath } from 'node:path';
import { createInterface } from 'node:readline';
import type { InputFile } from '../../src/pdf-tools/core/pdf-open';
import { median } from '../common/median';
import { PDF_TOOLS_BY_NAME } from '../../src/pdf-tools/tools';
import { imagePdf, linesPdf } from '../../test/pdf-tools/fixtures';
import { createTestApp, type TestApp } from '../../test/utils/test-app';
import type { CommandTiming, Request as RoundTripRequest, UploadTiming } from './roundtrip-client';
import { spawnScript, timeCommand } from './child';

const out = (s: string) => process.stdout.write(`${s}\n`);
const LIMITS = { maxBytes: 64 * 1024 * 1024, maxPages: 10_000 };
const REAL_WORLD = [
  '/usr/share/doc/libtasn1-doc/libtasn1.pdf',
  '/usr/share/doc/shared-mime-info/shared-mime-info-spec.pdf',
];

async function textPdf(pages: number): Promise<Uint8Array> {
  return (await linesPdf(pages, 45)).save();
}

/** Median of `runs` results of `measure` (each returns its own time in ms) after `warmup` untimed ones. */
async function medianOf(measure: () => Promise<number>, runs = 5, warmup = 2): Promise<number> {
  for (let i = 0; i < warmup; i++) await measure();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) times.push(await measure());
  return median(times);
}

/** Median of `runs` timed runs after `warmup` untimed ones (workers are long-lived: code is hot). */
function timeIt(fn: () => Promise<unknown>, runs = 5, warmup = 2): Promise<number> {
  return medianOf(
    async () => {
      const t0 = process.hrtime.bigint();
      await fn();
      return Number(process.hrtime.bigint() - t0) / 1e6;
    },
    runs,
    warmup,
  );
}

async function runTool(name: string, args: Record<string, unknown>, files: Uint8Array[]) {
  const tool = PDF_TOOLS_BY_NAME.get(name)!;
  const parsed = tool.input.parse(args);
  const inputs: InputFile[] = files.map((bytes, i) => ({ label: `files[${i}]`, name: 'doc.pdf', bytes }));
  return tool.run(parsed, inputs, { limits: LIMITS });
}

const F = { base64: 'x' };
const kb = (n: number) => `${Math.round(n / 1024)} KB`;
const ms = (n: number) => `${n < 10 ? n.toFixed(1) : Math.round(n)} ms`;

async function toolsVsQpdf(dir: string): Promise<void> {
  const corpus: { name: string; bytes: Uint8Array; images: boolean }[] = [];
  for (const n of [10, 100, 200]) corpus.push({ name: `text ${n} p`, bytes: await textPdf(n), images: false });
  for (const n of [10, 100, 200])
    corpus.push({ name: `images ${n} p`, bytes: await imagePdf(n, n === 10 ? 1200 : 420, 92), images: true });
  for (const path of REAL_WORLD) {
    if (existsSync(path))
      corpus.push({ name: `real: ${path.split('/').pop()}`, bytes: new Uint8Array(readFileSync(path)), images: false });
  }

  out('\n### Merge, split, rotate, lossless compression: ours vs qpdf (median of 5 after 2 warm-up runs, ms)\n');
  out(
    '| input | size | merge (x2) ours / qpdf | split every 10 p | rotate +90 | lossless compress | lossless size ours / qpdf |',
  );
  out('| --- | --- | --- | --- | --- | --- | --- |');
  for (const doc of corpus) {
    const inPath = join(dir, 'in.pdf');
    writeFileSync(inPath, doc.bytes);
    const qpdf = (...args: string[]) => timeCommand(['qpdf', ...args]);
    const merge = [
      await timeIt(() => runTool('merge_pdfs', { files: [F, F] }, [doc.bytes, doc.bytes])),
      await qpdf('--empty', '--pages', inPath, inPath, '--', join(dir, 'm.pdf')),
    ];
    const split = [
      await timeIt(() => runTool('split_pdf', { file: F, mode: 'every', every: 10 }, [doc.bytes])),
      await qpdf(inPath, '--split-pages=10', join(dir, 's-%d.pdf')),
    ];
    const rotate = [
      await timeIt(() => runTool('rotate_pages', { file: F, angle: 90 }, [doc.bytes])),
      await qpdf(inPath, join(dir, 'r.pdf'), '--rotate=+90'),
    ];
    let oursSize = 0;
    const lossless = [
      await timeIt(async () => {
        const r = await runTool('compress_pdf', { file: F, level: 'lossless' }, [doc.bytes]);
        oursSize = r.files[0].bytes.length;
      }),
      await qpdf(
        inPath,
        join(dir, 'c.pdf'),
        '--object-streams=generate',
        '--compress-streams=y',
        '--recompress-flate',
        '--compression-level=9',
      ),
    ];
    const qSize = readFileSync(join(dir, 'c.pdf')).length;
    const cell = ([a, b]: number[]) => `${ms(a)} / ${ms(b)} (**${(a / b).toFixed(1)}x**)`;
    out(
      `| ${doc.name} | ${kb(doc.bytes.length)} | ${cell(merge)} | ${cell(split)} | ${cell(rotate)} | ${cell(lossless)} | ${kb(oursSize)} / ${kb(qSize)} |`,
    );
  }

  out('\n### Every tool (median of 5 after 2 warm-up runs; compression: one run) and output size\n');
  out(
    '| input | remove odd | watermark | tiled watermark | page numbers | metadata read | metadata set | flatten | recommended | extreme |',
  );
  out('| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |');
  for (const doc of corpus) {
    const row: string[] = [];
    for (const [name, args] of [
      ['remove_pages', { file: F, pages: 'odd' }],
      ['add_watermark', { file: F, text: 'CONFIDENTIAL' }],
      ['add_watermark', { file: F, text: 'DRAFT', tiled: true, font_size: 24 }],
      ['add_page_numbers', { file: F, format: 'Page {n} of {total}' }],
      ['pdf_metadata', { file: F }],
      ['pdf_metadata', { file: F, set: { title: 'Benchmark', author: 'Beacon' } }],
      ['flatten_form', { file: F }],
    ] as const) {
      row.push(ms(await timeIt(() => runTool(name, args, [doc.bytes]))));
    }
    for (const level of ['recommended', 'extreme']) {
      let size = 0;
      const time = await timeIt(
        async () => {
          size = (await runTool('compress_pdf', { file: F, level }, [doc.bytes])).files[0].bytes.length;
        },
        1,
        0,
      );
      if (size > doc.bytes.length) throw new Error(`${level} grew ${doc.name}`);
      row.push(
        `${ms(time)}, ${kb(doc.bytes.length)} -> ${kb(size)} (**-${Math.round((1 - size / doc.bytes.length) * 100)} %**)`,
      );
    }
    out(`| ${doc.name} | ${row.join(' | ')} |`);
  }
}

/**
 * Records the event loop's stalls (a 5 ms timer firing over 20 ms late) and this thread's
 * garbage-collection pauses, to tell how much of the stall time was GC.
 */
function stallRecorder(): { stop(): string } {
  const gc: { start: number; end: number }[] = [];
  const observer = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) gc.push({ start: e.startTime, end: e.startTime + e.duration });
  });
  observer.observe({ entryTypes: ['gc'] });
  const stalls: { start: number; end: number }[] = [];
  let last = performance.now();
  const timer = setInterval(() => {
    const now = performance.now();
    if (now - last > 25) stalls.push({ start: last, end: now });
    last = now;
  }, 5);
  return {
    stop() {
      clearInterval(timer);
      observer.disconnect();
      if (!stalls.length) return 'none';
      const total = stalls.reduce((sum, s) => sum + s.end - s.start - 5, 0);
      const inGc = stalls.reduce(
        (sum, s) => sum + gc.reduce((g, p) => g + Math.max(0, Math.min(s.end, p.end) - Math.max(s.start, p.start)), 0),
        0,
      );
      const longest = Math.max(...stalls.map((s) => s.end - s.start - 5));
      return `${stalls.length}, longest ${Math.round(longest)} ms; GC ${Math.round((inGc / total) * 100)} % of their time`;
    },
  };
}

/** autocannon (its CLI) in a child process: 5 connections, 100 requests/s overall, for `seconds`. */
async function probeProcess(url: string, seconds: number): Promise<autocannon.Result> {
  const cli = require.resolve('autocannon/autocannon.js');
  const child = spawn(process.execPath, [cli, '--json', '-c', '5', '-R', '100', '-d', String(seconds), url], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`autocannon exited with ${code}: ${stderr}`);
  return JSON.parse(stdout.trim().split('\n').pop()!) as autocannon.Result;
}

/** Starts bench/pdf/mcp-load.ts against `url` in a child process; resolves once it is warmed up. */
async function startLoad(url: string): Promise<{ stop(): Promise<string> }> {
  const child = spawnScript('mcp-load', [url]);
  let output = '';
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => {
      output += d.toString();
      if (output.includes('ready')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`load generator exited with ${code}`)));
  });
  return {
    stop: async () => {
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.kill('SIGTERM');
      await exited;
      return /calls (\d+) failed (\d+)/.exec(output)?.slice(1).join(' calls, ') ?? '?';
    },
  };
}

/** The agent of the round trip (bench/pdf/roundtrip-client.ts) in its own process: one request, one answer line. */
async function startAgent(url: string): Promise<{
  ask(request: RoundTripRequest | { upload: string } | UploadTiming | CommandTiming): Promise<string>;
  stop(): Promise<void>;
}> {
  const child = spawnScript('roundtrip-client', [url]);
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const next = async () => {
    const line = await lines.next();
    if (line.done) throw new Error('the round-trip client exited');
    if (line.value.startsWith('error ')) throw new Error(line.value);
    return line.value;
  };
  if ((await next()) !== 'ready') throw new Error('the round-trip client did not start');
  return {
    ask: (request) => {
      child.stdin.write(`${JSON.stringify(request)}\n`);
      return next();
    },
    stop: async () => {
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.stdin.end();
      await exited;
    },
  };
}

async function concurrency(): Promise<void> {
  const t = await createTestApp({
    env: {
      MCP_RATE_LIMIT: '1000000',
      PDF_DAILY_LIMIT: '100000',
      PDF_MCP_DAILY_CAP: '100000',
      PDF_UPLOAD_RATE_LIMIT: '1000000',
      LOG_LEVEL: 'silent',
    },
  });
  try {
    const base = `http://127.0.0.1:${(t.server.address() as AddressInfo).port}`;
    const probe = async (path: string, seconds: number) => {
      // Event-loop delay of this process (the app's main thread): blocking, independent of HTTP.
      const loop = monitorEventLoopDelay({ resolution: 5 });
      loop.enable();
      const stalls = stallRecorder();
      // A steady 100 requests/s (latency of ordinary traffic), not a saturating flood, sent from a
      // child process: in this process a blocked event loop would also hold back the sender, and the
      // slow requests would go unmeasured.
      const r = await probeProcess(`${base}${path}`, seconds);
      loop.disable();
      const stallSummary = stalls.stop();
      return {
        stalls: stallSummary,
        p50: r.latency.p50,
        p99: r.latency.p99,
        errors: r.non2xx + r.errors + r.timeouts,
        loop: `${Math.round(loop.percentile(99) / 1e6)} / ${Math.round(loop.max / 1e6)} ms`,
      };
    };
    out(
      '\n### 20 concurrent uploads + MCP calls (POST /files, then compress "recommended" by file_id, 10 image pages each) vs other endpoints\n',
    );
    out(
      `Machine load average at start: ${loadavg()
        .map((l) => l.toFixed(1))
        .join(' / ')} (${cpus().length} cores). The MCP client runs in a child process.\n`,
    );
    out(
      '| endpoint (100 requests/s) | idle p50 / p99 | under MCP load p50 / p99 | event-loop delay p99 / max, idle -> loaded | stalls > 20 ms under load | MCP calls during the run |',
    );
    out('| --- | --- | --- | --- | --- | --- |');
    for (const path of ['/healthz', '/api/public-stats']) {
      const idle = await probe(path, 5);
      const load = await startLoad(`${base}/mcp`);
      const loaded = await probe(path, 10);
      const calls = await load.stop();
      out(
        `| GET ${path} | ${idle.p50} / ${idle.p99} ms | ${loaded.p50} / **${loaded.p99} ms** | ${idle.loop} -> ${loaded.loop} | ${loaded.stalls} | ${calls} failed; ${loaded.errors} HTTP errors |`,
      );
    }
  } finally {
    await t.close();
  }
}

/** Rounds of the round-trip part: the first ROUND_WARMUPS are not counted (code compiled, heaps grown, as in a working session). */
const ROUNDS = 20;
const ROUND_WARMUPS = 5;

/** The code a round trip runs against: this tree's, and with BENCH_PDF_BEFORE another build's (the "before" of an A/B). */
interface Code {
  label: string;
  createApp: typeof createTestApp;
}

function codes(): Code[] {
  const before = process.env.BENCH_PDF_BEFORE;
  const own: Code = { label: 'this tree', createApp: createTestApp };
  if (!before) return [own];
  // Another compiled dist-bench (e.g. of main): its own modules, loaded beside ours in this process.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const other = require(join(resolvePath(before), 'test/utils/test-app.js')) as { createTestApp: typeof createTestApp };
  return [own, { label: 'before', createApp: other.createTestApp }];
}

const loadNow = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' / ');
const utc = () => new Date().toISOString().slice(11, 16);

/**
 * The whole MCP round trip an agent makes, against the qpdf CLI on the same file in the same run:
 * upload the PDF (POST /files, raw body), call the tool with its file_id (official SDK client over
 * Streamable HTTP), download every result through its link (GET /files/{id}); and without the
 * upload (the input already stored, e.g. a result of an earlier call). The agent runs in its own
 * process and times itself, and qpdf (one run, from the agent's small process, as a shell starts it)
 * and the static upload peer (the same bytes POSTed to a bare Node `http` server that only counts
 * them). Every figure is interleaved in each round: for each operation ours with the upload, ours
 * by file_id, qpdf; per round one upload alone to ours and one to the peer. With BENCH_PDF_BEFORE
 * (the path of another dist-bench) the same rounds also run against that build's app, interleaved:
 * an A/B in one run. Once per place for the bytes of stored files: PostgreSQL and a directory.
 * Prints the rows of the PDF table of docs/benchmarks.md.
 */
async function roundTrip(dir: string): Promise<void> {
  const start = { at: utc(), load: loadNow() };
  out('\n### Whole MCP round trip vs the qpdf CLI, 200-page files (ms)\n');
  out(
    `Load average at start: ${start.load} (${cpus().length} cores), ${start.at} UTC. Agent (official SDK client, its own process), app and PostgreSQL on this machine. ` +
      `${ROUNDS} rounds, the first ${ROUND_WARMUPS} not counted; medians of the other ${ROUNDS - ROUND_WARMUPS}, every figure interleaved in each round.\n`,
  );
  const docs = [
    { name: 'text', bytes: await textPdf(200) },
    { name: 'images', bytes: await imagePdf(200, 420, 92) },
  ];
  const rows: RoundTripRow[] = [];
  for (const store of [
    { name: process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite', fileDir: '' },
    { name: 'directory', fileDir: join(dir, 'files') },
  ]) {
    rows.push(...(await roundTripWith(dir, docs, store)));
  }
  out(
    '| bytes in | input | operation | code | by `file_id` | qpdf | by `file_id` / qpdf | with upload | qpdf + peer upload | with upload / (qpdf + peer) | POST /files alone, ours / peer |',
  );
  out('| --- | --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |');
  const x = (a: number, b: number) => `${(a / b).toFixed(2)}x`;
  for (const r of rows)
    out(
      `| ${r.store} | ${r.doc} (${r.size}) | ${r.op} | ${r.code} | ${ms(r.byId)} | ${ms(r.qpdf)} | **${x(r.byId, r.qpdf)}** | ${ms(r.withUpload)} | ${ms(r.qpdf + r.peer)} | **${x(r.withUpload, r.qpdf + r.peer)}** | ${ms(r.upload)} / ${ms(r.peer)} |`,
    );
  const end = { at: utc(), load: loadNow() };
  out(`\nLoad average at the end: ${end.load}, ${end.at} UTC.\n`);
  // The rows of the table "PDF tools" in docs/benchmarks.md (this tree's code).
  const when = `${new Date().toISOString().slice(0, 10)} ${start.at}-${end.at}`;
  const load = `${start.load.split(' / ')[0]}-${end.load.split(' / ')[0]}`;
  const range = (v: number[], f: (n: number) => string) => {
    const [lo, hi] = [Math.min(...v), Math.max(...v)];
    return lo === hi ? f(lo) : `${f(lo).replace(/ ms$|x$/, '')}-${f(hi)}`;
  };
  const mine = rows.filter((r) => r.code === 'this tree');
  const per = (store: string, doc: string) => mine.filter((r) => r.store === store && r.doc === doc);
  out('| figure | ours | peer (same run) | ratio | target | date (UTC) | load |');
  out('| --- | --- | --- | ---: | ---: | --- | --- |');
  for (const store of [...new Set(mine.map((r) => r.store))]) {
    const cells = (time: (r: RoundTripRow) => number, peer: (r: RoundTripRow) => number) =>
      docs
        .map((d) => per(store, d.name))
        .map((rs, i) => ({
          time: `${docs[i].name} ${range(rs.map(time), ms)}`,
          ratio: `${range(
            rs.map((r) => time(r) / peer(r)),
            (n) => `${n.toFixed(2)}x`,
          )} ${docs[i].name}`,
        }));
    const byId = cells(
      (r) => r.byId,
      (r) => r.qpdf,
    );
    const withUpload = cells(
      (r) => r.withUpload,
      (r) => r.qpdf + r.peer,
    );
    const tail = `| 1.2x | ${when} | ${load} |`;
    out(
      `| round trip by \`file_id\`, bytes in ${store} | ${byId.map((c) => c.time).join(', ')} | qpdf CLI, same rounds | ${byId.map((c) => c.ratio).join(', ')} ${tail}`,
    );
    out(
      `| round trip with the upload, ${store} | ${withUpload.map((c) => c.time).join(', ')} | qpdf + the static upload peer, same rounds | ${withUpload.map((c) => c.ratio).join(', ')} ${tail}`,
    );
    for (const d of docs) {
      const r = per(store, d.name)[0];
      out(
        `| POST /files alone, ${kb(d.bytes.length)}, ${store} | ${ms(r.upload)} | bare Node \`http\` peer counting the bytes: ${ms(r.peer)} | ${x(r.upload, r.peer)} | | ${when} | ${load} |`,
      );
    }
  }
}

interface RoundTripRow {
  store: string;
  doc: string;
  size: string;
  op: string;
  code: string;
  byId: number;
  withUpload: number;
  qpdf: number;
  upload: number;
  peer: number;
}

async function roundTripWith(
  dir: string,
  docs: { name: string; bytes: Uint8Array }[],
  store: { name: string; fileDir: string },
): Promise<RoundTripRow[]> {
  const apps: { code: string; t: TestApp; agent: Awaited<ReturnType<typeof startAgent>> }[] = [];
  const peer = await startUploadPeer();
  try {
    for (const code of codes()) {
      const t = await code.createApp({
        env: {
          MCP_RATE_LIMIT: '1000000',
          PDF_DAILY_LIMIT: '100000',
          PDF_MCP_DAILY_CAP: '100000',
          PDF_UPLOAD_RATE_LIMIT: '100000',
          PDF_DOWNLOAD_RATE_LIMIT: '100000',
          LOG_LEVEL: 'silent',
          PDF_FILE_DIR: store.fileDir && join(store.fileDir, String(apps.length)),
        },
      });
      apps.push({
        code: code.label,
        t,
        agent: await startAgent(`http://127.0.0.1:${(t.server.address() as AddressInfo).port}/mcp`),
      });
    }
    const ops: { op: string; tool: string; args: Record<string, unknown>; qpdf: (inPath: string) => string[] }[] = [
      {
        op: 'merge (x2)',
        tool: 'merge_pdfs',
        args: { files: [{ file_id: '$FILE' }, { file_id: '$FILE' }] },
        qpdf: (p) => ['--empty', '--pages', p, p, '--', join(dir, 'm.pdf')],
      },
      {
        op: 'rotate +90',
        tool: 'rotate_pages',
        args: { file: { file_id: '$FILE' }, angle: 90 },
        qpdf: (p) => [p, join(dir, 'r.pdf'), '--rotate=+90'],
      },
      {
        op: 'split every 10 p',
        tool: 'split_pdf',
        args: { file: { file_id: '$FILE' }, mode: 'every', every: 10 },
        qpdf: (p) => [p, '--split-pages=10', join(dir, 's-%d.pdf')],
      },
    ];
    const rows: RoundTripRow[] = [];
    for (const doc of docs) {
      const inPath = join(dir, 'in.pdf');
      writeFileSync(inPath, doc.bytes);
      const stored = await Promise.all(apps.map((a) => a.agent.ask({ upload: inPath })));
      const series = new Map<string, number[]>();
      const add = (key: string, value: string) => {
        if (!series.has(key)) series.set(key, []);
        series.get(key)!.push(Number(value));
      };
      const ask = apps[0].agent.ask;
      for (let round = 0; round < ROUNDS; round++) {
        // The builds take turns at going first: the first in a round was measured slower (its
        // uploads 1.02-2.24x in 12 of 12 pairs, whichever build it was: #25 item 3, fourth pass).
        const turn = apps.map((a, i) => ({ a, id: stored[i] }));
        if (round % 2) turn.reverse();
        for (const { a } of turn) add(`upload ${a.code}`, await a.agent.ask({ time_upload: inPath }));
        add('peer', await ask({ time_upload: inPath, peer: peer.url }));
        for (const op of ops) {
          for (const { a, id } of turn) {
            const call = { path: inPath, tool: op.tool, args: op.args };
            add(`${op.op} upload ${a.code}`, await a.agent.ask(call));
            add(`${op.op} id ${a.code}`, await a.agent.ask({ ...call, file_id: id }));
          }
          add(`${op.op} qpdf`, await ask({ time_command: ['qpdf', ...op.qpdf(inPath)] }));
        }
      }
      process.stderr.write(`round trip: ${store.name}, ${doc.name} done (${utc()} UTC)\n`);
      const steady = (key: string) => median(series.get(key)!.slice(ROUND_WARMUPS));
      for (const op of ops)
        for (const a of apps)
          rows.push({
            store: store.name,
            doc: doc.name,
            size: kb(doc.bytes.length),
            op: op.op,
            code: a.code,
            byId: steady(`${op.op} id ${a.code}`),
            withUpload: steady(`${op.op} upload ${a.code}`),
            qpdf: steady(`${op.op} qpdf`),
            upload: steady(`upload ${a.code}`),
            peer: steady('peer'),
          });
    }
    return rows;
  } finally {
    for (const a of apps) {
      await a.agent.stop();
      await a.t.close();
    }
    await peer.close();
  }
}

/**
 * The static upload peer of the round trip: a bare Node `http` server (in this process, as the app is)
 * that reads a POST's body, only counts its bytes and answers 201 with the count.
 */
async function startUploadPeer(): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    let bytes = 0;
    req.on('data', (chunk: Buffer) => (bytes += chunk.length));
    req.on('end', () => {
      res.writeHead(201, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ bytes }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-pdf-'));
  try {
    out(`qpdf: ${execFileSync('qpdf', ['--version']).toString().split('\n')[0]}`);
    const only = process.env.BENCH_ONLY;
    if (!only || only === 'tools') await toolsVsQpdf(dir);
    if (!only || only === 'roundtrip') await roundTrip(dir);
    if (!only || only === 'concurrency') await concurrency();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((e) => {
  process.stderr.write(`${e instanceof Error ? e.stack : String(e)}\n`);
  process.exit(1);
});
