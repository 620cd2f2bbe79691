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
 *     `http` server that only counts the bytes, same run). Early (a client's first calls) and steady
 *     (a working session) figures from one series per operation.
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
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { InputFile } from '../../src/pdf-tools/core/pdf-open';
import { median } from '../common/median';
import { BACKGROUND_NICENESS } from '../../src/common/workers/background-pool';
import { PDF_TOOLS_BY_NAME } from '../../src/pdf-tools/tools';
import { imagePdf, linesPdf } from '../../test/pdf-tools/fixtures';
import { createTestApp } from '../../test/utils/test-app';
import type { Request as RoundTripRequest, UploadTiming } from './roundtrip-client';
import type { TimeCommand } from './time-command';

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

/** Round trips per operation in the round-trip part, and which of them make its two figures. */
const ROUND_TRIPS = 24;
const EARLY = { from: 2, to: 7 };
const STEADY = { from: 15, to: 24 };

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

/** Spawns bench/pdf/<name> (compiled when this runs from dist-bench, else from source under ts-node) with `args`. */
function spawnScript(name: string, args: string[]) {
  const compiled = __filename.endsWith('.js');
  const entry = join(__dirname, `${name}.${compiled ? 'js' : 'ts'}`);
  return spawn(process.execPath, [...(compiled ? [] : ['-r', 'ts-node/register/transpile-only']), entry, ...args], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
}

/**
 * Median time of `command` (median of 5 after 2 warm-ups), timed by bench/pdf/time-command.ts in a
 * small process of its own: started from this process, which holds the app, each run would also
 * pay the copy of this process's memory map (15-20 ms here), which a shell running qpdf does not.
 */
async function timeCommand(command: string[], runs = 5, warmup = 2): Promise<number> {
  const request: TimeCommand = { command, runs, warmup };
  const child = spawnScript('time-command', [JSON.stringify(request)]);
  child.stdin.end();
  let stdout = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`timing ${command.join(' ')} failed (exit code ${code})`);
  return Number(stdout.trim());
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
  ask(request: RoundTripRequest | { upload: string } | UploadTiming): Promise<string>;
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

/**
 * The whole MCP round trip an agent makes, against the qpdf CLI on the same file in the same run:
 * upload the PDF (POST /files, raw body), call the tool with its file_id (official SDK client over
 * Streamable HTTP), download every result through its link (GET /files/{id}). Also without the
 * upload (the input already stored, e.g. a result of an earlier call). The agent runs in its own
 * process, as qpdf does (bench/pdf/roundtrip-client.ts) and times itself. ROUND_TRIPS in a row
 * each, read at two points (EARLY, STEADY); qpdf: median of 5 after 2 warm-ups. Once per place
 * for the bytes of stored files: PostgreSQL (the default with DATABASE_URL, or PGlite in memory)
 * and a directory (PDF_FILE_DIR; the default of `npm start` on the embedded database), one app at
 * a time.
 */
async function roundTrip(dir: string): Promise<void> {
  out('\n### Whole MCP round trip vs the qpdf CLI, 200-page files (ms; qpdf: median of 5 after 2 warm-up runs)\n');
  out(
    `Machine load average at start: ${loadavg()
      .map((l) => l.toFixed(1))
      .join(
        ' / ',
      )} (${cpus().length} cores). Agent (official SDK client, its own process), app and PostgreSQL on this machine.\n`,
  );
  // Our PDF workers run at BACKGROUND_NICENESS (the event loop keeps the CPU first); on a loaded
  // machine that alone slows them, so qpdf is also timed at the same niceness.
  out(
    `Each operation: ${ROUND_TRIPS} round trips in a row. **Early**: median of round trips ${EARLY.from + 1}-${EARLY.to} (after ${EARLY.from} warm-ups, as a client's first calls); ` +
      `**steady**: median of round trips ${STEADY.from + 1}-${STEADY.to} (after ${STEADY.from}: the server's and the agent's code compiled, their heaps grown, as in a working session).\n`,
  );
  out(
    'The static upload peer: the same bytes POSTed by the same agent to a bare Node `http` server in this process that only counts them ' +
      `(${ROUND_TRIPS} uploads each, ours and the peer's interleaved, steady median).\n`,
  );
  out(
    `| bytes in | input | operation | upload + call + download, early / steady | call + download (input stored), early / steady | qpdf CLI | qpdf at nice ${BACKGROUND_NICENESS} | ratio with upload, early / **steady** | ratio without, early / **steady** | upload alone, ours / bare peer (steady) | with upload / (qpdf + peer upload), **steady** |`,
  );
  out('| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |');
  const docs = [
    { name: 'text 200 p', bytes: await textPdf(200) },
    { name: 'images 200 p', bytes: await imagePdf(200, 420, 92) },
  ];
  for (const store of [
    { name: process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite', fileDir: '' },
    { name: 'directory', fileDir: join(dir, 'files') },
  ]) {
    await roundTripWith(dir, docs, store);
  }
}

async function roundTripWith(
  dir: string,
  docs: { name: string; bytes: Uint8Array }[],
  store: { name: string; fileDir: string },
): Promise<void> {
  const t = await createTestApp({
    env: {
      MCP_RATE_LIMIT: '1000000',
      PDF_DAILY_LIMIT: '100000',
      PDF_MCP_DAILY_CAP: '100000',
      PDF_UPLOAD_RATE_LIMIT: '100000',
      PDF_DOWNLOAD_RATE_LIMIT: '100000',
      LOG_LEVEL: 'silent',
      PDF_FILE_DIR: store.fileDir,
    },
  });
  const agent = await startAgent(`http://127.0.0.1:${(t.server.address() as AddressInfo).port}/mcp`);
  const peer = await startUploadPeer();
  try {
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
    for (const doc of docs) {
      const inPath = join(dir, 'in.pdf');
      writeFileSync(inPath, doc.bytes);
      const stored = await agent.ask({ upload: inPath });
      const ours: number[] = [];
      const bare: number[] = [];
      for (let i = 0; i < ROUND_TRIPS; i++) {
        ours.push(Number(await agent.ask({ time_upload: inPath })));
        bare.push(Number(await agent.ask({ time_upload: inPath, peer: peer.url })));
      }
      const upload = {
        ours: median(ours.slice(STEADY.from, STEADY.to)),
        peer: median(bare.slice(STEADY.from, STEADY.to)),
      };
      for (const op of ops) {
        // The agent's own timing of each round trip (the request to it and its answer are not counted).
        const series = async (file_id?: string) => {
          const times: number[] = [];
          for (let i = 0; i < ROUND_TRIPS; i++)
            times.push(Number(await agent.ask({ path: inPath, file_id, tool: op.tool, args: op.args })));
          return {
            early: median(times.slice(EARLY.from, EARLY.to)),
            steady: median(times.slice(STEADY.from, STEADY.to)),
          };
        };
        const withUpload = await series();
        const withoutUpload = await series(stored);
        const qpdf = await timeCommand(['qpdf', ...op.qpdf(inPath)]);
        const niced = await timeCommand(['nice', '-n', String(BACKGROUND_NICENESS), 'qpdf', ...op.qpdf(inPath)]);
        const r = (a: number, b: number) => `${(a / b).toFixed(2)}x`;
        const both = (t: { early: number; steady: number }) => `${ms(t.early)} / ${ms(t.steady)}`;
        const ratios = (t: { early: number; steady: number }) => `${r(t.early, qpdf)} / **${r(t.steady, qpdf)}**`;
        out(
          `| ${store.name} | ${doc.name} (${kb(doc.bytes.length)}) | ${op.op} | ${both(withUpload)} | ${both(withoutUpload)} | ${ms(qpdf)} | ${ms(niced)} | ${ratios(withUpload)} | ${ratios(withoutUpload)} | ${ms(upload.ours)} / ${ms(upload.peer)} | **${r(withUpload.steady, qpdf + upload.peer)}** |`,
        );
      }
    }
  } finally {
    await agent.stop();
    await peer.close();
    await t.close();
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
