import pino from 'pino';
import { Writable } from 'node:stream';
import { createServer } from 'node:http';
import { pinoHttp, type Options } from 'pino-http';
import request from 'supertest';
import { loadConfig } from '../config/env';
import { loggerParams, REDACTED_PATHS, redactUrl } from './logging';

/** A stream that keeps every line written to it. */
function lineSink(): { lines: string[]; sink: Writable } {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  return { lines, sink };
}

describe('log redaction', () => {
  it('hides Authorization headers, cookies and key-like fields', () => {
    const { lines, sink } = lineSink();
    const logger = pino({ redact: { paths: REDACTED_PATHS, censor: '[redacted]' } }, sink);
    const key = 'bcn_0123456789abcdefghijABCDEFGHIJ012345';
    logger.info({ req: { id: 'r1', headers: { authorization: `Bearer ${key}`, cookie: 'sid=1' } } }, 'request');
    logger.info({ created: { key, id: 'k1' } }, 'key created');
    const out = lines.join('');
    expect(out).not.toContain(key);
    expect(out).not.toContain('sid=1');
    expect(out).toContain('"authorization":"[redacted]"');
    expect(out).toContain('"id":"r1"');
    expect(out).toContain('"id":"k1"');
  });
});

describe('request logs', () => {
  it('redact the id of download URLs (/files/{id}) and keep other paths', async () => {
    const { lines, sink } = lineSink();
    const params = loggerParams(loadConfig({ LOG_LEVEL: 'info' })).pinoHttp as Options;
    const log = pinoHttp({ ...params }, sink);
    const server = createServer((req, res) => {
      log(req, res);
      res.end('ok');
    });
    const id = 'Xk3vQ9rT2mWp8sLz4nBc6dFh';
    await request(server).get(`/files/${id}`).expect(200);
    await request(server).get(`/files/${id}?download=1`).expect(200);
    await request(server).get('/api/v1/visibility?project=a').expect(200);
    const out = lines.join('');
    expect(out).not.toContain(id);
    expect(out).toContain('"url":"/files/Xk3v…[redacted]"');
    expect(out).toContain('"url":"/files/Xk3v…[redacted]?download=1"');
    expect(out).toContain('"url":"/api/v1/visibility?project=a"');
    expect(redactUrl('/filesystem/abc')).toBe('/filesystem/abc');
  });
});

describe('start-up lines', () => {
  it("Nest's per-route and per-module lines are debug, other start-up lines stay info", () => {
    const { lines, sink } = lineSink();
    const params = loggerParams(loadConfig({ LOG_LEVEL: 'debug' })).pinoHttp as Options;
    const logger = pino({ level: 'debug', hooks: params.hooks }, sink);
    logger.info({ context: 'RouterExplorer' }, 'Mapped {/healthz, GET} route');
    logger.info({ context: 'InstanceLoader' }, 'CoreModule dependencies initialized');
    logger.info({ context: 'DemoSeed' }, 'Demo workspace loaded');
    const levels = lines.map((l) => (JSON.parse(l) as { level: number; msg: string }).level);
    expect(levels).toEqual([20, 20, 30]);
  });
});
