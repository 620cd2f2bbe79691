/**
 * Visibility API benchmark (npm run bench:visibility). In one run, on this machine:
 *  - ingest of one 10,000-answer scan (validation, derivation, one transaction of bulk inserts);
 *  - a workspace of 50 weekly scans x 2,000 answers (5 platforms x 400 prompts), imported first;
 *  - autocannon (its own process) at 50 connections, in BENCH_ROUNDS interleaved rounds (default 2), against: a bare
 *    NestJS route returning a constant (same app, same pipeline, @Public, no database), the authenticated summary, the
 *    500-row answers page, and two peers of that page: the code before issue #25 (its SQL, json_agg parsed by the
 *    driver, the rows serialized by Express) and rows stored without their JSON (built per request by PostgreSQL and
 *    compacted, as before the api_tail column);
 *  - the cost per row of each way of building the page (one request at a time, 500 rows minus 1 row).
 * Targets (#25): summary >= 70 % of the bare route's requests/s with p99 < 100 ms; the 500-row page >= 3x the code
 * before #25; ingest of 10,000 answers < 10 s. The per-key rate limit is raised by configuration for the run.
 *
 * Database: DATABASE_URL (a fresh database of its own) or the embedded PGlite in memory.
 * BENCH_DURATION_S (default 10) sets the length of each autocannon run. BENCH_VIS_ONLY=answers runs only the
 * answers page and its peers (no ingest of 10,000 answers, no bare route or summary).
 */
import { Controller, Get, Module, Query, Res } from '@nestjs/common';
import autocannon from 'autocannon';
import { execFile } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { promisify } from 'node:util';
import { AppModule } from '../../src/app.module';
import type { CoreOptions } from '../../src/common/core.module';
import { Public } from '../../src/common/decorators/public.decorator';
import { ApiKeysService } from '../../src/common/api-keys/api-keys.service';
import { DataSource } from 'typeorm';
import { demoImports } from '../../src/visibility/demo/demo-data';
import { VisibilityIngestService } from '../../src/visibility/visibility-ingest.service';
import { ANSWER_JSON } from '../../src/visibility/store/answers-sql';
import { VisibilityQueryService } from '../../src/visibility/visibility-query.service';
import { VisibilityReadStore } from '../../src/visibility/store/visibility-read.store';
import { answerJson } from '../../src/visibility/store/answer-json';
import { RawJson, stringifyWithRawJson } from '../../src/common/interceptors/raw-json';
import { encodeCursor } from '../../src/visibility/pagination';
import type { Response } from 'express';
import { median } from '../common/median';
import { createTestApp } from '../../test/utils/test-app';

/** The SQL of GET /answers before issue #25 (git show a4f4ac2^, same row expression): PostgreSQL builds the page, the driver parses it. */
const ANSWERS_BEFORE_25 = `SELECT coalesce(json_agg(r.j ORDER BY r.seq), '[]'::json) AS rows FROM (
  SELECT a.seq, ${ANSWER_JSON} AS j
    FROM vis_answers a LEFT JOIN vis_prompts pr ON pr.workspace_id = $2 AND pr.prompt_key = a.prompt_key
   WHERE a.scan_id = $1 ORDER BY a.seq LIMIT $3) r`;

/** The page's envelope around the rows (scan, total, next cursor), taken once from the route's own answer. */
const before25 = {
  workspaceId: '',
  envelope: {} as Record<string, unknown>,
  query: undefined as unknown as VisibilityQueryService,
  db: undefined as unknown as DataSource,
  store: undefined as unknown as VisibilityReadStore,
};

@Controller('bench')
@Public()
class BenchController {
  @Get('bare')
  bare(): { ok: true; value: number } {
    return { ok: true, value: 42 };
  }

  /** GET /answers?limit=n as the code before #25 built it (project pointers, the old SQL, Express's JSON.stringify). */
  @Get('answers-before-25')
  async answersBefore25(@Query('limit') limit: string): Promise<object> {
    const n = Number(limit);
    const p = await before25.query.project(before25.workspaceId);
    const { id } = await before25.query.scanOf(p, undefined);
    const [{ rows }] = await before25.db.query<Array<{ rows: unknown[] }>>(ANSWERS_BEFORE_25, [
      id,
      p.workspaceId,
      n + 1,
    ]);
    return { ...before25.envelope, answers: rows.slice(0, n) };
  }

  /**
   * GET /answers?limit=n as the first passes of #25 built it from the stored JSON: one row per answer from the
   * driver (seq, prompt, api_tail), each row's head written and the rows joined in Node, then the envelope.
   */
  @Get('answers-per-row')
  async answersPerRow(@Query('limit') limit: string, @Res({ passthrough: true }) res: Response): Promise<string> {
    const n = Number(limit);
    const p = await before25.query.project(before25.workspaceId);
    const { id, ref } = await before25.query.scanOf(p, undefined);
    const rows = await before25.store.answers(p.workspaceId, id, { limit: n }, n + 1, null);
    const kept = rows.slice(0, n);
    const json = kept.map((r) => answerJson(r.seq, r.prompt_key, r.prompt, r.api_tail ?? ''));
    const last = kept[kept.length - 1];
    res.type('application/json');
    return stringifyWithRawJson({
      ok: true,
      scan: ref,
      total: before25.envelope.total,
      answers: new RawJson(`[${json.join(',')}]`),
      next_cursor: rows.length > n ? encodeCursor(id, [last.seq]) : null,
    }) as string;
  }
}

@Module({ controllers: [BenchController] })
class BenchRoutesModule {}

const run = promisify(execFile);
const DURATION = Number(process.env.BENCH_DURATION_S ?? 10);
const CONNECTIONS = 50;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const ANSWERS_ONLY = process.env.BENCH_VIS_ONLY === 'answers';
const SINGLE_ROUNDS = Number(process.env.BENCH_SINGLE_ROUNDS ?? 3);
/** The app's DataSource, for its PostgreSQL backends. */
const app = { db: undefined as unknown as DataSource };
/** The app's PostgreSQL backends (a local server): their CPU time is read from /proc around each run. */
let dbPids: number[] = [];

/** Opens every connection of the app's pool (20) and lists their backends (the database is the app's own). */
async function poolBackends(db: DataSource): Promise<void> {
  await Promise.all(Array.from({ length: 20 }, () => db.query('SELECT pg_sleep(0.02)')));
  const rows = await db.query<Array<{ pid: number }>>(
    'SELECT pid FROM pg_stat_activity WHERE datname = current_database()',
  );
  dbPids = rows.map((r) => r.pid);
}

/** CPU time (user + system) of each of the processes `pids` that /proc shows, µs. */
function cpuOfPids(pids: number[]): Map<number, number> {
  const out = new Map<number, number>();
  for (const pid of pids) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      out.set(pid, ((Number(f[11]) + Number(f[12])) * 1e6) / CLOCK_TICKS); // utime, stime (fields 14 and 15)
    } catch {
      // gone (a backend that ended), or another host
    }
  }
  return out;
}

/** CPU time between two readings of the processes seen in both; null when none was (e.g. PostgreSQL on another host). */
function cpuBetween(before: Map<number, number>, after: Map<number, number>): number | null {
  let sum = 0;
  let seen = 0;
  for (const [pid, t] of after) {
    const t0 = before.get(pid);
    if (t0 === undefined) continue;
    sum += t - t0;
    seen++;
  }
  return seen === 0 ? null : sum;
}
/** USER_HZ of Linux (getconf CLK_TCK). */
const CLOCK_TICKS = 100;

interface Row {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  /** CPU time of this process (the server; autocannon runs in its own) per request, µs: a load-proof figure. */
  cpu: number;
  /** CPU time of the app's PostgreSQL backends per request, µs (null when they cannot be read). */
  dbCpu: number | null;
}

/**
 * autocannon in a child process, so the load generator does not share the server's event loop
 * (in one process it would queue behind the server's work and inflate every latency).
 */
async function cannon(
  name: string,
  url: string,
  headers: Record<string, string> = {},
  /** One request at a time, this many, instead of CONNECTIONS for DURATION. */
  oneByOne?: number,
): Promise<Row> {
  const args = oneByOne
    ? ['-c', '1', '-a', String(oneByOne), '-j']
    : ['-c', String(CONNECTIONS), '-d', String(DURATION), '-j'];
  for (const [k, v] of Object.entries(headers)) args.push('-H', `${k}=${v}`);
  await poolBackends(app.db);
  const cpu0 = process.cpuUsage();
  const db0 = cpuOfPids(dbPids);
  const { stdout } = await run(process.execPath, [require.resolve('autocannon/autocannon.js'), ...args, url], {
    maxBuffer: 64 * 1024 * 1024,
  });
  const r = JSON.parse(stdout) as autocannon.Result;
  const bad = r.non2xx + r.errors + r.timeouts;
  const cpu = process.cpuUsage(cpu0);
  const dbTime = cpuBetween(db0, cpuOfPids(dbPids));
  const perRequest = (cpu.user + cpu.system) / Math.max(1, r.requests.total);
  return {
    name,
    rps: Math.round(r.requests.average),
    p50: r.latency.p50,
    p99: r.latency.p99,
    errors: bad,
    cpu: perRequest,
    dbCpu: dbTime === null ? null : dbTime / Math.max(1, r.requests.total),
  };
}

async function main(): Promise<void> {
  const t = await createTestApp({
    checkApiResponses: false,
    env: {
      VISIBILITY_RATE_LIMIT: '1000000000',
      LOG_LEVEL: 'silent',
      DATABASE_POOL_SIZE: '20',
      // API_KEY_CACHE_MAX=0 measures the key path without its cache (every request reads its key).
      ...(process.env.API_KEY_CACHE_MAX ? { API_KEY_CACHE_MAX: process.env.API_KEY_CACHE_MAX } : {}),
    },
    module: (options: CoreOptions) => ({
      module: class BenchModule {},
      imports: [AppModule.forRoot(options), BenchRoutesModule],
    }),
  });
  app.db = t.dataSource;
  const db = process.env.DATABASE_URL ? 'PostgreSQL' : 'embedded PGlite';
  const out = (s: string) => process.stdout.write(`${s}\n`);
  try {
    const ingest = t.app.get(VisibilityIngestService);
    const base = `http://127.0.0.1:${(t.server.address() as AddressInfo).port}`;

    // Ingest: one scan of 10,000 answers.
    let ingestMs: number | null = null;
    if (!ANSWERS_ONLY) {
      const big = await t.createKey('ingest');
      const [tenK] = demoImports({
        scans: 1,
        prompts: 2000,
        platforms: ['chatgpt', 'perplexity', 'gemini', 'claude', 'copilot'],
        seed: 1,
      });
      const i0 = performance.now();
      const r = await ingest.importScan(big.workspace, tenK);
      ingestMs = performance.now() - i0;
      out(
        `ingest 10,000 answers: ${(ingestMs / 1000).toFixed(2)} s (${r.sources} sources, ${r.urls} urls, ${r.gaps} gaps)`,
      );
    }

    // The read workspace: 50 scans x 2,000 answers.
    const { key, workspace } = await t.createKey('bench');
    const w0 = performance.now();
    const scans = demoImports({
      scans: 50,
      prompts: 400,
      platforms: ['chatgpt', 'perplexity', 'gemini', 'claude', 'copilot'],
      seed: 2,
    });
    for (const f of scans) await ingest.importScan(workspace, f);
    const perScan = (performance.now() - w0) / scans.length;
    out(`loaded 50 scans x 2,000 answers: ${(perScan / 1000).toFixed(2)} s per scan`);

    const auth = { Authorization: `Bearer ${key}` };
    const page = `${base}/api/v1/answers?limit=500`;
    const text = async (url: string, headers: Record<string, string> = {}) => {
      const res = await fetch(url, { headers });
      if (!res.ok) throw new Error(`${url}: ${res.status}`);
      return res.text();
    };

    // Rows stored without their JSON (imported before the api_tail column): the latest scan in a workspace of its own.
    const noJson = await t.createKey('bench-stored-before');
    await ingest.importScan(noJson.workspace, scans[scans.length - 1]);
    const noJsonId = (await t.app.get(ApiKeysService).findWorkspace(noJson.workspace)).id;
    await t.dataSource.query(
      'UPDATE vis_answers SET api_tail = NULL WHERE scan_id IN (SELECT id FROM vis_scans WHERE workspace_id = $1)',
      [noJsonId],
    );
    const noJsonAuth = { Authorization: `Bearer ${noJson.key}` };

    // The code before #25 answers with the same envelope; all three must send the same rows, byte for byte.
    const ours = await text(page, auth);
    const { ok, scan, total, next_cursor } = JSON.parse(ours) as Record<string, unknown>;
    before25.workspaceId = (await t.app.get(ApiKeysService).findWorkspace(workspace)).id;
    before25.envelope = { ok, scan, total, answers: null, next_cursor };
    before25.query = t.app.get(VisibilityQueryService);
    before25.db = t.dataSource;
    before25.store = t.app.get(VisibilityReadStore);
    const old = await text(`${base}/bench/answers-before-25?limit=500`);
    const perRow = await text(`${base}/bench/answers-per-row?limit=500`);
    const rowsOf = (body: string) => body.slice(body.indexOf('"answers":'), body.indexOf(',"next_cursor":'));
    const rowsNoJson = rowsOf(await text(page, noJsonAuth));
    const same = old === ours && perRow === ours && rowsNoJson === rowsOf(ours);
    out(
      `500-row page: ${Buffer.byteLength(ours)} bytes; the same bytes as the code before #25: ${old === ours ? 'yes' : 'NO'}; ` +
        `as the rows joined in Node: ${perRow === ours ? 'yes' : 'NO'}; ` +
        `rows stored without their JSON give the same rows: ${rowsNoJson === rowsOf(ours) ? 'yes' : 'NO'}`,
    );
    if (!same) throw new Error('the answers page differs from the code before #25');

    // Cost per row: one request at a time (autocannon, 1 connection), 500 rows minus 1 row, each way interleaved.
    const ways = [
      { name: 'stored JSON (ours)', url: `${base}/api/v1/answers`, headers: auth },
      { name: 'stored JSON, rows joined in Node', url: `${base}/bench/answers-per-row`, headers: {} },
      { name: 'rows stored without their JSON', url: `${base}/api/v1/answers`, headers: noJsonAuth },
      { name: 'code before #25', url: `${base}/bench/answers-before-25`, headers: {} },
    ];
    const single = ways.map(() => ({ 1: [] as Row[], 500: [] as Row[] }));
    for (let i = 0; i < SINGLE_ROUNDS; i++) {
      for (const [w, way] of ways.entries()) {
        for (const n of [1, 500] as const) {
          single[w][n].push(await cannon(way.name, `${way.url}?limit=${n}`, way.headers, n === 1 ? 300 : 100));
        }
      }
    }

    // Warm-up.
    await autocannon({ url: `${base}/api/v1/visibility`, connections: 10, amount: 500, headers: auth });
    const BARE = 'bare NestJS route (constant)';
    const SUMMARY = 'GET /api/v1/visibility (summary)';
    const PAGE = 'GET /api/v1/answers?limit=500';
    const BEFORE = '500-row page, code before #25';
    const PER_ROW = '500-row page, stored JSON, rows joined in Node';
    const NO_JSON = '500-row page, rows stored without their JSON';
    const rounds: Array<Map<string, Row>> = [];
    for (let r = 0; r < ROUNDS; r++) {
      const round = new Map<string, Row>();
      const add = async (name: string, url: string, headers: Record<string, string> = {}) => {
        round.set(name, await cannon(name, url, headers));
      };
      if (!ANSWERS_ONLY) {
        await add(BARE, `${base}/bench/bare`);
        await add(SUMMARY, `${base}/api/v1/visibility`, auth);
      }
      await add(PAGE, page, auth);
      await add(BEFORE, `${base}/bench/answers-before-25?limit=500`);
      await add(PER_ROW, `${base}/bench/answers-per-row?limit=500`);
      await add(NO_JSON, page, noJsonAuth);
      rounds.push(round);
    }
    out('');
    out(
      `Database: ${db}; ${CONNECTIONS} connections, ${DURATION} s per run, ${ROUNDS} rounds; Redis: ${process.env.REDIS_URL ? 'yes' : 'no'}; ` +
        `key cache: ${t.config.API_KEY_CACHE_MAX > 0 ? `on (${t.config.API_KEY_CACHE_MAX})` : 'off'}; load average ${loadavg()
          .map((l) => l.toFixed(1))
          .join(' ')}; database CPU: the ${dbPids.length} backends of the app's pool`,
    );
    out('');
    out(
      '| Round | Route | req/s | vs bare | p50 ms | p99 ms | non-2xx/errors | server CPU per request, µs | database CPU per request, µs |',
    );
    out('| ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
    for (const [r, round] of rounds.entries()) {
      const bare = round.get(BARE);
      for (const x of round.values()) {
        const vsBare = bare ? `${Math.round((x.rps / bare.rps) * 100)} %` : '';
        const line = `| ${r + 1} | ${x.name} | ${x.rps} | ${vsBare} | ${x.p50} | ${x.p99} | ${x.errors} | ${Math.round(x.cpu)} | ${x.dbCpu === null ? '' : Math.round(x.dbCpu)} |`;
        out(line);
      }
    }
    out('');
    const each = (f: (x: (name: string) => Row) => string) =>
      rounds.map((round) => f((name) => round.get(name)!)).join(' / ');
    if (!ANSWERS_ONLY) {
      out(
        `summary vs bare, per round: ${each((x) => `${Math.round((x(SUMMARY).rps / x(BARE).rps) * 100)} %`)} (target >= 70 %)`,
      );
      out(
        `summary vs bare by the server's CPU per request (bare / summary), per round: ${each((x) => `${Math.round((x(BARE).cpu / x(SUMMARY).cpu) * 100)} %`)}`,
      );
      out(`summary p99, per round: ${each((x) => `${x(SUMMARY).p99} ms`)} (target < 100 ms)`);
    }
    const ratio = (a: string, b: string, f: (r: Row) => number) => each((x) => `${(f(x(a)) / f(x(b))).toFixed(2)}x`);
    const cpuOf = (r: Row) => 1 / (r.cpu + (r.dbCpu ?? 0));
    out(`500-row page vs the code before #25, per round: ${ratio(PAGE, BEFORE, (r) => r.rps)} (target >= 3x)`);
    out(
      `500-row page vs the code before #25 by the server's CPU per request, per round: ${ratio(PAGE, BEFORE, (r) => 1 / r.cpu)}`,
    );
    out(
      `500-row page vs the code before #25 by server + database CPU per request, per round: ${ratio(PAGE, BEFORE, cpuOf)}`,
    );
    out(`500-row page vs rows joined in Node, per round: ${ratio(PAGE, PER_ROW, (r) => r.rps)}`);
    out(
      `500-row page vs rows joined in Node by server + database CPU per request, per round: ${ratio(PAGE, PER_ROW, cpuOf)}`,
    );
    out(`500-row page vs rows stored without their JSON, per round: ${ratio(PAGE, NO_JSON, (r) => r.rps)}`);
    out('');
    out('');
    out(
      `One request at a time (autocannon, 1 connection; 100 pages of 500 rows, 300 of 1 row; median of ${SINGLE_ROUNDS} interleaved rounds); per row = (500 rows - 1 row) / 499:`,
    );
    out('');
    out(
      '| 500-row page, one request at a time | p50, 500 rows / 1 row, ms | server CPU, 500 rows / 1 row, µs | database CPU, 500 rows / 1 row, µs | per row: p50 / server / database, µs |',
    );
    out('| --- | ---: | ---: | ---: | ---: |');
    for (const [w, way] of ways.entries()) {
      const m = (n: 1 | 500, f: (r: Row) => number) => median(single[w][n].map(f));
      const fig = (f: (r: Row) => number) => [m(500, f), m(1, f), (m(500, f) - m(1, f)) / 499];
      const [l500, l1, lRow] = fig((r) => r.p50);
      const [c500, c1, cRow] = fig((r) => r.cpu);
      const [d500, d1, dRow] = fig((r) => r.dbCpu ?? NaN);
      out(
        `| ${way.name} | ${l500.toFixed(2)} / ${l1.toFixed(2)} | ${Math.round(c500)} / ${Math.round(c1)} | ${Math.round(d500)} / ${Math.round(d1)} | ${(lRow * 1000).toFixed(1)} / ${cRow.toFixed(1)} / ${dRow.toFixed(1)} |`,
      );
    }
    if (ingestMs !== null) out(`| ingest of a 10,000-answer scan | ${(ingestMs / 1000).toFixed(2)} s | | |`);
  } finally {
    await t.close();
  }
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});
