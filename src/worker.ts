import 'reflect-metadata';
import type { DynamicModule, LogLevel } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ScanWorker } from './a11y/queue/scan-worker';
import { SitesModule } from './a11y/sites/sites.module';
import { AppConfig, loadProcessConfigOrExit } from './common/config/env';
import { CoreModule } from './common/core.module';

/**
 * A scan worker (`npm run worker`): runs accessibility scan jobs and site scans (`a11y-site-scan`) from the BullMQ queues on Redis
 * with its own browser pool, and serves no HTTP. Needs REDIS_URL and the API's database
 * (DATABASE_URL; on the embedded database it attaches to the running server's socket).
 * SIGTERM/SIGINT: takes no new job, lets active scans finish (SHUTDOWN_TIMEOUT_MS) or hands them
 * back to the queue, closes its browsers, exits 0. See docs/a11y-fleet.md.
 */
function workerModule(config: AppConfig): DynamicModule {
  // A worker process always runs scan jobs (the setting is for API processes); SitesModule brings the
  // scan engine (A11yModule) and the site-scan job, so site scans run here too (docs/a11y-monitoring.md).
  config.SCAN_WORKER_IN_PROCESS = true;
  return {
    module: class ScanWorkerAppModule {},
    imports: [CoreModule.forRoot({ config, http: false, attachToRunningDatabase: true }), SitesModule],
  };
}

/** Nest's log levels for LOG_LEVEL (the worker has no HTTP request log, so no pino). */
function nestLogLevels(level: string): LogLevel[] {
  const order: LogLevel[] = ['fatal', 'error', 'warn', 'log', 'debug', 'verbose'];
  const upTo = { fatal: 0, error: 1, warn: 2, info: 3, debug: 4, trace: 5 }[level] ?? 3;
  return order.slice(0, upTo + 1);
}

async function main(): Promise<void> {
  const config = loadProcessConfigOrExit('The scan worker');
  if (!config.REDIS_URL) {
    process.stderr.write(
      'The scan worker needs REDIS_URL (the queue lives in Redis). Without it, the server runs scans itself.\n',
    );
    process.exit(78);
  }
  const app = await NestFactory.createApplicationContext(workerModule(config), {
    abortOnError: false,
    logger: nestLogLevels(config.LOG_LEVEL),
  });
  const worker = app.get(ScanWorker);
  process.stdout.write(`Beacon scan worker ready (pid ${process.pid}, ${config.SCAN_CONCURRENCY} scans at a time)\n`);

  let stopping = false;
  const shutdown = async (signal: string): Promise<void> => {
    if (stopping) return;
    stopping = true;
    process.stdout.write(`${signal}: the scan worker takes no new jobs and finishes its active ones\n`);
    await app.close(); // worker first (beforeApplicationShutdown), then browsers, Redis, database
    process.exit(0);
  };
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  process.once('SIGINT', () => void shutdown('SIGINT'));
  if (!worker.running) throw new Error('the scan worker did not start');
}

main().catch((e: unknown) => {
  const detail =
    e instanceof Error ? (process.env.LOG_LEVEL === 'debug' ? (e.stack ?? e.message) : e.message) : String(e);
  process.stderr.write(`Beacon scan worker failed to start: ${detail}\n`);
  process.exit(1);
});
