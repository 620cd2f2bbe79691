/**
 * Visibility API benchmark (npm run bench:visibility). In one run, on this machine:
 *  - ingest of one 10,000-answer scan (validation, derivation, one transaction of bulk inserts);
 *  - a workspace of 50 weekly scans x 2,000 answers (5 platforms x 400 prompts), imported first;
 *  - autocannon (its own process) at 50 connections against a bare NestJS route returning a constant (same app, same
 *    pipeline, @Public, no database), the authenticated summary, and a 500-row answers page.
 * Targets: summary >= 70 % of the bare route's requests/s (#13; was 50 %) and p99 < 20 ms; answers page p99 < 50 ms;
 * ingest of 10,000 answers < 10 s. The per-key rate limit is raised by configuration for the run.
 *
 * Database: DATABASE_URL (a fresh database of its own) or the embedded PGlite in memory.
 * BENCH_DURATION_S (default 10) sets the length of each autocannon run.
 */
import { Controller, Get, Module } from '@nestjs/common';
import autocannon from 'autocannon';
import { execFile } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { loadavg } from 'node:os';
import { promisify } from 'node:util';
import { AppModule } from '../../src/app.module';
import type { CoreOptions } from '../../src/common/core.module';
import { Public } from '../../src/common/decorators/public.decorator';
import { demoImports } from '../../src/visibility/demo/demo-data';
import { VisibilityIngestService } from '../../src/visibility/visibility-ingest.service';
import { createTestApp } from '../../test/utils/test-app';

@Controller('bench')
@Public()
class BareController {
  @Get('bare')
  bare(): { ok: true; value: number } {
    return { ok: true, value: 42 };
  }
}

@Module({ controllers: [BareController] })
class BareModule {}

const run = promisify(execFile);
const DURATION = Number(process.env.BENCH_DURATION_S ?? 10);
const CONNECTIONS = 50;

interface Row {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
}

/**
 * autocannon in a child process, so the load generator does not share the server's event loop
 * (in one process it would queue behind the server's work and inflate every latency).
 */
async function cannon(name: string, url: string, headers: Record<string, string> = {}): Promise<Row> {
  const args = ['-c', String(CONNECTIONS), '-d', String(DURATION), '-j'];
  for (const [k, v] of Object.entries(headers)) args.push('-H', `${k}=${v}`);
  const { stdout } = await run(process.execPath, [require.resolve('autocannon/autocannon.js'), ...args, url], {
    maxBuffer: 64 * 1024 * 1024,
  });
  const r = JSON.parse(stdout) as autocannon.Result;
  const bad = r.non2xx + r.errors + r.timeouts;
  return { name, rps: Math.round(r.requests.average), p50: r.latency.p50, p99: r.latency.p99, errors: bad };
}

async function main(): Promise<void> {
  const t = await createTestApp({
    env: {
      VISIBILITY_RATE_LIMIT: '1000000000',
      LOG_LEVEL: 'silent',
      DATABASE_POOL_SIZE: '20',
      // API_KEY_CACHE_MAX=0 measures the key path without its cache (every request reads its key).
      ...(process.env.API_KEY_CACHE_MAX ? { API_KEY_CACHE_MAX: process.env.API_KEY_CACHE_MAX } : {}),
    },
    module: (options: CoreOptions) => ({
      module: class BenchModule {},
      imports: [AppModule.forRoot(options), BareModule],
    }),
  });
  const db = process.env.DATABASE_URL ? 'PostgreSQL' : 'embedded PGlite';
  const out = (s: string) => process.stdout.write(`${s}\n`);
  try {
    const ingest = t.app.get(VisibilityIngestService);
    const base = `http://127.0.0.1:${(t.server.address() as AddressInfo).port}`;

    // Ingest: one scan of 10,000 answers.
    const big = await t.createKey('ingest');
    const [tenK] = demoImports({
      scans: 1,
      prompts: 2000,
      platforms: ['chatgpt', 'perplexity', 'gemini', 'claude', 'copilot'],
      seed: 1,
    });
    const i0 = performance.now();
    const r = await ingest.importScan(big.workspace, tenK);
    const ingestMs = performance.now() - i0;
    out(
      `ingest 10,000 answers: ${(ingestMs / 1000).toFixed(2)} s (${r.sources} sources, ${r.urls} urls, ${r.gaps} gaps)`,
    );

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
    // Warm-up.
    await autocannon({ url: `${base}/api/v1/visibility`, connections: 10, amount: 500, headers: auth });
    const rows = [
      await cannon('bare NestJS route (constant)', `${base}/bench/bare`),
      await cannon('GET /api/v1/visibility (summary)', `${base}/api/v1/visibility`, auth),
      await cannon('GET /api/v1/answers?limit=500', `${base}/api/v1/answers?limit=500`, auth),
    ];
    const bare = rows[0].rps;
    out('');
    out(
      `Database: ${db}; ${CONNECTIONS} connections, ${DURATION} s per run; Redis: ${process.env.REDIS_URL ? 'yes' : 'no'}; ` +
        `key cache: ${t.config.API_KEY_CACHE_MAX > 0 ? `on (${t.config.API_KEY_CACHE_MAX})` : 'off'}; load average ${loadavg()
          .map((l) => l.toFixed(1))
          .join(' ')}`,
    );
    out('');
    out('| Route | req/s | vs bare | p50 ms | p99 ms | non-2xx/errors |');
    out('| --- | ---: | ---: | ---: | ---: | ---: |');
    for (const x of rows)
      out(`| ${x.name} | ${x.rps} | ${Math.round((x.rps / bare) * 100)} % | ${x.p50} | ${x.p99} | ${x.errors} |`);
    out(`| ingest of a 10,000-answer scan | | | | ${(ingestMs / 1000).toFixed(2)} s | |`);
  } finally {
    await t.close();
  }
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});
