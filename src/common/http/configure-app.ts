import type { INestApplication } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { urlencoded } from 'express';
import { Logger } from 'nestjs-pino';
import { AppConfig } from '../config/env';
import { IPV6_PREFIX_SETTING } from './client-ip';
import { FORM_FIELD_LIMIT } from './form-limits';
import { JsonBodyParser, jsonBody } from './json-body';
import { PUBLIC_HTTPS_SETTING, strictTransportSecurity } from './transport-security';

/**
 * HTTP settings that live outside Nest's DI: trust proxy, keep-alive, body parsers with their limits, logger.
 * main.ts and every e2e test call this, so tests run exactly the production pipeline.
 * Create the app with `{ bodyParser: false, bufferLogs: true }`.
 */
export function configureApp(app: INestApplication): NestExpressApplication {
  const express = app as NestExpressApplication;
  const config = app.get(AppConfig);
  express.useLogger(app.get(Logger));
  express.set('trust proxy', config.trustProxy());
  express.set(IPV6_PREFIX_SETTING, config.IPV6_CLIENT_PREFIX); // read by clientSubject()
  express.set(PUBLIC_HTTPS_SETTING, config.publicBaseUrl().startsWith('https:')); // HSTS, cookie names and flags
  express.disable('x-powered-by');
  express.use(strictTransportSecurity);
  const server = express.getHttpServer();
  server.keepAliveTimeout = config.HTTP_KEEP_ALIVE_TIMEOUT_MS;
  server.headersTimeout = config.HTTP_KEEP_ALIVE_TIMEOUT_MS + 1000; // must exceed keepAliveTimeout
  // The MCP endpoint takes base64 PDFs: its own, larger limit. Other routes keep a small one.
  // Large JSON bodies are parsed in a worker thread (see JsonBodyParser), small ones inline.
  const parser = app.get(JsonBodyParser);
  express.use('/mcp', ...jsonBody(parser, config.MCP_BODY_LIMIT));
  express.use(...jsonBody(parser, config.JSON_BODY_LIMIT));
  // More fields than FORM_FIELD_LIMIT: 413 payload_too_large (see the exception filter).
  express.use(urlencoded({ extended: false, limit: config.JSON_BODY_LIMIT, parameterLimit: FORM_FIELD_LIMIT }));
  return express;
}
