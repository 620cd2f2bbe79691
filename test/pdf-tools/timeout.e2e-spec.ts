import type { TestApp } from '../utils/test-app';
import { b64, call, connect, imagePdf, nextIp, createPdfTestApp, sc } from './helpers';

/** A run over PDF_TOOL_TIMEOUT_MS (here its minimum, 1 s) ends with `timeout` and is refunded. */
describe('PDF tool time limit (e2e)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createPdfTestApp({ env: { PDF_TOOL_TIMEOUT_MS: '1000', PDF_WORKERS: '1' } });
  });
  afterAll(async () => t.close());

  it('a compression that takes longer than the limit is stopped, answered with timeout and refunded', async () => {
    // 8 different 1600x1600 photos: re-encoding them takes seconds (about 0.2 s each in bench/pdf).
    const heavy = b64(await imagePdf(8));
    const ip = nextIp();
    const client = await connect(t, ip);
    const started = Date.now();
    const r = await call(client, 'compress_pdf', { file: { base64: heavy }, level: 'extreme' });
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(r.isError).toBe(true);
    expect(sc(r)).toMatchObject({ error: 'timeout', refunded: true, quota: { remaining: 25 } });
    expect(sc(r).message).toMatch(/within 1 s/);
    await client.close();
  });
});
