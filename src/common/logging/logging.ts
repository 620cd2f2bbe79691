import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Params } from 'nestjs-pino';
import { AppConfig } from '../config/env';

const REQUEST_ID = /^[\w.:-]{1,128}$/;

/** pino's number for the info level. */
const INFO = 30;
/** Contexts of Nest's start-up lines, one per route or module. */
export const STARTUP_DETAIL = new Set(['RouterExplorer', 'RoutesResolver', 'InstanceLoader']);

/** Paths that set a secret in them, logged with the secret hidden. */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-api-key"]',
  'res.headers["set-cookie"]',
  '*.key',
  '*.apiKey',
  '*.api_key',
  '*.password',
  '*.secret',
];

/**
 * Paths whose id is a capability (whoever has the URL may download the file): the id is replaced
 * in logged URLs, so logs never hand out access. The first characters stay, enough to correlate.
 */
const CAPABILITY_PATHS = [/^(\/files\/)([^/?#]+)/];
const KEPT_ID_CHARS = 4;

/** `url` with capability ids redacted (`/files/abcd…` keeps 4 characters). */
export function redactUrl(url: string): string {
  let out = url;
  for (const pattern of CAPABILITY_PATHS) {
    out = out.replace(pattern, (_m, prefix: string, id: string) => `${prefix}${id.slice(0, KEPT_ID_CHARS)}…[redacted]`);
  }
  return out;
}

const EXPECTED = Symbol('beacon:expectedResponse');

/**
 * Marks a 4xx answer as expected behaviour (e.g. the 405 every MCP client gets when it probes
 * GET /mcp on a stateless server): its request line is logged at debug, not warn.
 */
export function expectedResponse(res: ServerResponse): void {
  (res as ServerResponse & { [EXPECTED]?: boolean })[EXPECTED] = true;
}

function levelOf(res: ServerResponse, err: unknown): 'error' | 'warn' | 'info' | 'debug' {
  if (err || res.statusCode >= 500) return 'error';
  if ((res as ServerResponse & { [EXPECTED]?: boolean })[EXPECTED]) return 'debug';
  return res.statusCode >= 400 ? 'warn' : 'info';
}

/**
 * Structured JSON logs (pino): one line per event, the request id on every line logged while a
 * request is handled, secrets redacted. The request id is the caller's X-Request-Id when it is
 * sane, a new UUID otherwise, and is echoed in the X-Request-Id response header.
 */
export function loggerParams(config: AppConfig): Params {
  return {
    pinoHttp: {
      level: config.LOG_LEVEL,
      hooks: {
        // Nest's per-route and per-module start-up lines (about 100) are detail: debug, not info,
        // so the start-up banner (demo key, one-time password) is not pushed off the screen.
        logMethod(args, method, level) {
          const context = (args[0] as { context?: unknown } | undefined)?.context;
          if (level === INFO && typeof context === 'string' && STARTUP_DETAIL.has(context))
            return this.debug(...(args as [object, string]));
          return method.apply(this, args);
        },
      },
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
      genReqId: (req: IncomingMessage, res: ServerResponse) => {
        const given = req.headers['x-request-id'];
        const id = typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
        res.setHeader('X-Request-Id', id);
        return id;
      },
      customLogLevel: (_req, res, err) => levelOf(res, err),
      serializers: {
        req: (req: { id: unknown; method: string; url: string; headers: Record<string, unknown> }) => ({
          id: req.id,
          method: req.method,
          // Query strings can carry ids and filters but never keys; report.pdf?id= is fine to keep.
          // Download URLs are capabilities: their id is redacted.
          url: redactUrl(req.url),
          headers: {
            'user-agent': req.headers['user-agent'],
            // Present only when sent; its value is always redacted.
            ...(req.headers.authorization !== undefined ? { authorization: req.headers.authorization } : {}),
          },
        }),
      },
      autoLogging: { ignore: (req: IncomingMessage) => req.url === '/healthz' || req.url === '/metrics' },
    },
  };
}
