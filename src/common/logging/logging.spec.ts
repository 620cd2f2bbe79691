import pino from 'pino';
import { Writable } from 'node:stream';
import { REDACTED_PATHS } from './logging';

describe('log redaction', () => {
  it('hides Authorization headers, cookies and key-like fields', () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _enc, done) {
        lines.push(chunk.toString());
        done();
      },
    });
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
