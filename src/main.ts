import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { AddressInfo } from 'node:net';
import { ScanQueue } from './a11y/queue/scan-queue';
import { AccountsService, DEMO_USER_EMAIL } from './accounts/accounts.service';
import { AppModule } from './app.module';
import { loadProcessConfigOrExit } from './common/config/env';
import { configureApp } from './common/http/configure-app';
import { DatabaseRuntime } from './common/database/database-runtime';
import { closeHttpServer } from './common/http/graceful-close';
import { DemoSeedService } from './visibility/demo/demo-seed.service';

async function bootstrap(): Promise<void> {
  const config = loadProcessConfigOrExit('The service');

  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot({ config }), {
    bodyParser: false,
    bufferLogs: true,
    abortOnError: false, // a start-up failure reaches the catch below, which says why
  });
  configureApp(app);
  // A fresh embedded database gets the demo workspace, so a new user sees data at once.
  const demo = app.get(DatabaseRuntime).isEmbedded ? await app.get(DemoSeedService).seedOnFirstStart() : null;
  const demoUser = demo ? await app.get(AccountsService).createUser(demo.workspace, DEMO_USER_EMAIL, 'admin') : null;
  await app.listen(config.PORT, config.HOST);
  const { port } = app.getHttpServer().address() as AddressInfo;
  process.stdout.write(`Beacon listening on http://localhost:${port} (public address ${config.publicBaseUrl()})\n`);
  if (demo) {
    process.stdout.write(
      [
        '',
        `Demo workspace "${demo.workspace}" loaded. Its API key (shown once, only its hash is stored):`,
        '',
        `  ${demo.key}`,
        '',
        'Try:',
        `  curl -H "Authorization: Bearer ${demo.key}" http://localhost:${port}/api/v1/visibility`,
        `  curl http://localhost:${port}/api/v1`,
        '',
        `Website: sign in at http://localhost:${port}/signin as ${demoUser!.email} with the one-time password`,
        '',
        `  ${demoUser!.one_time_password}`,
        '',
        '(you choose your own password at the first sign-in).',
        '',
      ].join('\n'),
    );
  }

  let stopping = false;
  const shutdown = async (signal: string): Promise<void> => {
    if (stopping) return;
    stopping = true;
    process.stdout.write(`${signal}: finishing in-flight requests\n`);
    app.get(ScanQueue).shuttingDown(config.SHUTDOWN_TIMEOUT_MS); // scans still waiting then answer 503, not a cut connection
    await closeHttpServer(app.getHttpServer(), config.SHUTDOWN_TIMEOUT_MS);
    await app.close(); // closes database pool, Redis, workers and the browser
    process.exit(0);
  };
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  process.once('SIGINT', () => void shutdown('SIGINT'));
}

bootstrap().catch((e: unknown) => {
  const detail =
    e instanceof Error ? (process.env.LOG_LEVEL === 'debug' ? (e.stack ?? e.message) : e.message) : String(e);
  process.stderr.write(`Beacon failed to start: ${detail}\n`);
  process.exit(1);
});
