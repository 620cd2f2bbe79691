/**
 * Scan fleet benchmark (npm run bench:fleet): throughput of POST /api/scan, in the same run, for
 *  - the in-process pool (no Redis: today's path),
 *  - one API (no in-process worker) + one worker process (`dist-bench/src/worker.js`) on BullMQ,
 *  - the same API + two worker processes.
 * Every scan is a cache miss (a unique query string) of one of a few loopback pages; CLIENTS
 * concurrent clients; SCANS scans per configuration after a warm-up. Also the RSS of each worker
 * process tree (Node + Chromium) at the end. Needs DATABASE_URL and REDIS_URL for the queued runs
 * (workers share the API's database); a unique key prefix, nothing else in Redis is touched.
 */
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus, loadavg } from 'node:os';
import request from 'supertest';
import { createTestApp, createTestDatabase, TestApp } from '../../test/utils/test-app';
import { treeRssMiB } from '../common/process-tree';
import { startWorker, stopWorker } from '../common/worker-process';

const SCANS = Number(process.env.BENCH_FLEET_SCANS ?? 40);
const CLIENTS = Number(process.env.BENCH_FLEET_CLIENTS ?? 6);
const CONCURRENCY = String(process.env.BENCH_FLEET_CONCURRENCY ?? cpus().length);

function page(title: string): string {
  const paras = Array.from({ length: 30 }, (_, i) => `<p>Paragraph ${i} with <a href="#p${i}">a link</a>.</p>`).join(
    '',
  );
  const rows = Array.from({ length: 40 }, (_, i) => `<tr><td>Item ${i}</td><td>${i * 7}</td></tr>`).join('');
  return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body><main><h1>${title}</h1>${paras}
<img src="data:image/gif;base64,R0lGODlhAQABAAAAACw="><button></button><table><tbody>${rows}</tbody></table></main></body></html>`;
}

let seq = 0;
/** SCANS cache-missing scans over CLIENTS concurrent clients; scans per minute. */
async function throughput(t: TestApp, origin: string, n: number): Promise<{ perMin: number; failed: number }> {
  let next = 0;
  let failed = 0;
  const t0 = Date.now();
  const client = async (): Promise<void> => {
    while (next < n) {
      next++;
      const i = ++seq;
      const res = await request(t.server)
        .post('/api/scan')
        .set('X-Forwarded-For', `198.51.100.${(i % 250) + 1}`)
        .send({ url: `${origin}/p${i % 4}?n=${i}` });
      if (res.status !== 200) failed++;
    }
  };
  await Promise.all(Array.from({ length: CLIENTS }, client));
  return { perMin: (n * 60000) / (Date.now() - t0), failed };
}

async function main(): Promise<void> {
  const site = createServer((req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end(page(`Page ${req.url}`));
  });
  await new Promise<void>((r) => site.listen(0, '127.0.0.1', r));
  const origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  const base = {
    SCAN_ALLOW_LOOPBACK_TARGETS_UNSAFE: 'true',
    SCAN_RATE_LIMIT: '100000',
    TRUST_PROXY: '1',
    SCAN_CONCURRENCY: CONCURRENCY,
    SCAN_QUEUE_LIMIT: '1000',
  };
  console.log(
    `# Scan fleet throughput: ${SCANS} scans, ${CLIENTS} clients, SCAN_CONCURRENCY ${CONCURRENCY} per pool, ${cpus().length} cores, load ${loadavg()[0].toFixed(2)}`,
  );

  // 1. in-process pool, no Redis
  const inProc = await createTestApp({ env: { ...base, REDIS_URL: '' } });
  await throughput(inProc, origin, 4); // warm-up: browser launched
  const a = await throughput(inProc, origin, SCANS);
  console.log(`in-process pool (no Redis):      ${a.perMin.toFixed(1)} scans/min (${a.failed} failed)`);
  await inProc.close();

  if (!process.env.REDIS_URL || !process.env.DATABASE_URL) {
    console.log('REDIS_URL and DATABASE_URL not both set: queued runs skipped.');
    site.close();
    return;
  }
  const db = await createTestDatabase();
  const prefix = `beacon-bench:${randomBytes(4).toString('hex')}:`;
  const shared = { ...base, ...db.env, REDIS_URL: process.env.REDIS_URL, REDIS_KEY_PREFIX: prefix };
  const api = await createTestApp({ database: db, env: { ...shared, SCAN_WORKER_IN_PROCESS: 'false' } });
  const workerEnv = { ...process.env, ...shared, LOG_LEVEL: 'warn', NODE_OPTIONS: '' };
  const workers = [await startWorker(workerEnv)];
  await throughput(api, origin, 4);
  const b = await throughput(api, origin, SCANS);
  console.log(
    `BullMQ, 1 worker process:        ${b.perMin.toFixed(1)} scans/min (${b.failed} failed); worker RSS ${treeRssMiB(workers[0].pid!).toFixed(0)} MiB`,
  );
  workers.push(await startWorker(workerEnv));
  await throughput(api, origin, 4);
  const c = await throughput(api, origin, SCANS);
  const rss = workers.map((w) => treeRssMiB(w.pid!).toFixed(0)).join(' + ');
  console.log(
    `BullMQ, 2 worker processes:      ${c.perMin.toFixed(1)} scans/min (${c.failed} failed); worker RSS ${rss} MiB`,
  );
  for (const w of workers) await stopWorker(w);
  await api.close();
  await db.drop();
  site.close();
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    console.error(e);
    process.exit(1);
  },
);
