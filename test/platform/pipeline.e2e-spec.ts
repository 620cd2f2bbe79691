import { createHook } from 'node:async_hooks';
import request from 'supertest';
import { JSON_OFF_THREAD_MIN_BYTES, JsonBodyParser } from '../../src/common/http/json-body';
import { JSON_MAX_DEPTH } from '../../src/common/http/json-body.worker';
import { createTestApp, METRICS_AUTH, TestApp } from '../utils/test-app';
import { probeApp } from './probe.module';

describe('Platform request pipeline (e2e)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ module: probeApp });
  });
  afterAll(async () => t.close());

  it('GET /healthz answers up without a key', async () => {
    const res = await request(t.server).get('/healthz').expect(200);
    expect(res.body).toEqual({ ok: true, status: 'up' });
    expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('GET /readyz checks the database and Redis', async () => {
    const res = await request(t.server).get('/readyz').expect(200);
    expect(res.body.ok).toBe(true);
    expect(res.body.database).toBe('up');
    expect(res.body.redis).toBe(process.env.REDIS_URL ? 'up' : 'not configured');
    expect(res.body).toMatchObject({ status: 'ready', browser: 'installed' });
  });

  it('echoes a sane X-Request-Id and replaces an absurd one', async () => {
    const ok = await request(t.server).get('/healthz').set('X-Request-Id', 'abc-123');
    expect(ok.headers['x-request-id']).toBe('abc-123');
    const bad = await request(t.server).get('/healthz').set('X-Request-Id', 'x'.repeat(500));
    expect(bad.headers['x-request-id']).not.toBe('x'.repeat(500));
  });

  it("only the routes that answer {ok: true, ...} run Nest's interceptor chain (its AsyncResource.bind per request)", async () => {
    // Nest's InterceptorsConsumer binds two anonymous functions per request to the async context when a
    // route has an interceptor; on Node 20 each bind also builds two util.deprecate wrappers (DEP0172).
    const bound = async (send: () => Promise<unknown>): Promise<number> => {
      let n = 0;
      const hook = createHook({ init: (_id, type) => void (type === 'bound-anonymous-fn' && n++) }).enable();
      try {
        await send();
      } finally {
        hook.disable();
      }
      return n;
    };
    const { key } = await t.createKey();
    expect(await bound(() => request(t.server).get('/healthz').expect(200))).toBe(0);
    expect(await bound(() => request(t.server).get('/no/such/route').expect(404))).toBe(0);
    // The enveloped route still has it, and its body is wrapped.
    let body: unknown;
    const enveloped = await bound(async () => {
      body = (await request(t.server).get('/probe/whoami').set('Authorization', `Bearer ${key}`).expect(200)).body;
    });
    expect(enveloped).toBeGreaterThan(0);
    expect(body).toMatchObject({ ok: true });
  });

  it('unknown routes get 404 not_found in the error shape', async () => {
    const res = await request(t.server).get('/no/such/route').expect(404);
    expect(res.body).toEqual({ ok: false, error: 'not_found', message: 'No such endpoint.' });
  });

  it('routes need a key by default: 401 unauthorized for missing, malformed, unknown keys', async () => {
    const missing = await request(t.server).get('/probe/whoami').expect(401);
    expect(missing.body).toMatchObject({ ok: false, error: 'unauthorized' });
    expect(missing.body.message).toMatch(/Authorization: Bearer/);
    const scheme = await request(t.server).get('/probe/whoami').set('Authorization', 'Basic abc').expect(401);
    expect(scheme.body.error).toBe('unauthorized');
    const malformed = await request(t.server).get('/probe/whoami').set('Authorization', 'Bearer bcn_short').expect(401);
    expect(malformed.body.error).toBe('unauthorized');
    const { key } = await t.createKey();
    const forged = key.slice(0, -1) + (key.endsWith('a') ? 'b' : 'a');
    await request(t.server).get('/probe/whoami').set('Authorization', `Bearer ${forged}`).expect(401);
    const absurd = await request(t.server)
      .get('/probe/whoami')
      .set('Authorization', `Bearer ${'z'.repeat(6000)}`)
      .expect(401);
    expect(absurd.body.error).toBe('unauthorized');
  });

  it('a valid key reaches the route; the body is wrapped in ok:true', async () => {
    const { key, workspace } = await t.createKey();
    const res = await request(t.server).get('/probe/whoami').set('Authorization', `Bearer ${key}`).expect(200);
    expect(res.body).toEqual({ ok: true, workspace });
    expect(res.headers['ratelimit-limit']).toBe('60');
    expect(res.headers['ratelimit-remaining']).toBe('59');
  });

  it('validation failures are 400 bad_request naming the field; unknown fields are refused', async () => {
    const wrong = await request(t.server).post('/probe/echo').send({ name: 'a', count: 99 }).expect(400);
    expect(wrong.body).toMatchObject({ ok: false, error: 'bad_request', field: 'count' });
    const extra = await request(t.server).post('/probe/echo').send({ name: 'a', count: 1, admin: true }).expect(400);
    expect(extra.body).toMatchObject({ error: 'bad_request', field: 'admin' });
    const missing = await request(t.server).post('/probe/echo').send({ count: 2 }).expect(400);
    expect(missing.body).toEqual({
      ok: false,
      error: 'bad_request',
      field: 'name',
      message: 'Invalid name: name is required.',
    });
    const type = await request(t.server).post('/probe/echo').send({ name: 'a', count: 'x' }).expect(400);
    expect(type.body.message).toBe('Invalid count: count must be an integer number.');
    const good = await request(t.server).post('/probe/echo').send({ name: 'a', count: 2 }).expect(201);
    expect(good.body).toEqual({ ok: true, name: 'a', count: 2 });
  });

  it('malformed JSON is 400 bad_request; an oversized body is 413 payload_too_large', async () => {
    const bad = await request(t.server)
      .post('/probe/echo')
      .set('Content-Type', 'application/json')
      .send('{"name":')
      .expect(400);
    expect(bad.body).toMatchObject({ ok: false, error: 'bad_request' });
    const big = await request(t.server)
      .post('/probe/echo')
      .set('Content-Type', 'application/json')
      .send(JSON.stringify({ name: 'x'.repeat(200 * 1024), count: 1 }))
      .expect(413);
    expect(big.body).toMatchObject({ ok: false, error: 'payload_too_large' });
  });

  it('JSON bodies over 64 KB are parsed in the JSON thread, with the same results and errors as small ones', async () => {
    const parser = t.app.get(JsonBodyParser);
    const before = parser.stats.completed;
    const name = `ž€😀${'x'.repeat(JSON_OFF_THREAD_MIN_BYTES)}`;
    const good = await request(t.server)
      .post('/probe/echo')
      .set('Content-Type', 'application/json')
      .send(`\uFEFF${JSON.stringify({ name, count: 3 })}`)
      .expect(201);
    expect(good.body).toEqual({ ok: true, name, count: 3 });
    const invalid = await request(t.server)
      .post('/probe/echo')
      .set('Content-Type', 'application/json')
      .send(`{"name":"${name}`)
      .expect(400);
    expect(invalid.body).toEqual({
      ok: false,
      error: 'bad_request',
      field: 'body',
      message: 'Request body is not valid JSON.',
    });
    const small = await request(t.server)
      .post('/probe/echo')
      .set('Content-Type', 'application/json')
      .send('{"name":')
      .expect(400);
    expect(small.body).toEqual(invalid.body);
    const wrongField = await request(t.server).post('/probe/echo').send({ name, count: 'x' }).expect(400);
    expect(wrongField.body).toMatchObject({ error: 'bad_request', field: 'count' });
    expect(parser.stats.completed - before).toBe(3);
  });

  it('JSON nested 20,000 deep is 400 bad_request, on the event loop and in the JSON thread alike', async () => {
    const parser = t.app.get(JsonBodyParser);
    const before = parser.stats.completed;
    for (const depth of [20_000, 40_000]) {
      // 40 KB on the event loop, 80 KB in the thread
      const res = await request(t.server)
        .post('/probe/echo')
        .set('Content-Type', 'application/json')
        .send(`${'['.repeat(depth)}${']'.repeat(depth)}`)
        .expect(400);
      expect(res.body).toEqual({
        ok: false,
        error: 'bad_request',
        field: 'body',
        message: `Request body nests arrays and objects deeper than ${JSON_MAX_DEPTH} levels.`,
      });
    }
    expect(parser.stats.completed - before).toBe(1);
    await request(t.server).get('/healthz').expect(200);
  });

  it('JSON in a charset other than UTF-8 is 415 unsupported_media_type, before the body is read', async () => {
    const res = await request(t.server)
      .post('/probe/echo')
      .set('Content-Type', 'application/json; charset=utf-16le')
      .send(Buffer.from('{"name":"a","count":1}', 'utf16le'))
      .expect(415);
    expect(res.body).toEqual({
      ok: false,
      error: 'unsupported_media_type',
      message: 'Unsupported charset "UTF-16LE": send JSON in UTF-8.',
    });
    const packed = await request(t.server)
      .post('/probe/echo')
      .set('Content-Type', 'application/json')
      .set('Content-Encoding', 'compress')
      .send('{}')
      .expect(415);
    expect(packed.body).toEqual({
      ok: false,
      error: 'unsupported_media_type',
      message: 'Unsupported Content-Encoding: send the body as is, or gzip, deflate or br.',
    });
    await request(t.server)
      .post('/probe/echo')
      .set('Content-Type', 'application/json; charset=UTF-8')
      .send('{"name":"a","count":1}')
      .expect(201);
  });

  it('unexpected errors are 500 internal_error with a request id and no internals', async () => {
    const res = await request(t.server).get('/probe/boom').expect(500);
    expect(res.body.error).toBe('internal_error');
    expect(res.body.request_id).toBe(res.headers['x-request-id']);
    expect(JSON.stringify(res.body)).not.toMatch(/secret internal detail|at .*\.ts/);
  });

  it('GET /metrics exposes request counts and latency by route and status, to METRICS_TOKEN only', async () => {
    await request(t.server).get('/healthz');
    const res = await request(t.server).get('/metrics').set(METRICS_AUTH).expect(200);
    expect(res.headers['content-type']).toMatch(/text\/plain/);
    expect(res.text).toMatch(/http_requests_total\{method="GET",route="\/healthz",status="200"\} \d+/);
    expect(res.text).toMatch(
      /http_request_duration_seconds_bucket\{le="0.005",method="GET",route="\/healthz",status="200"\}/,
    );
    expect(res.text).toMatch(/route="unmatched",status="404"/);
  });

  it('keeps idle connections longer than proxies and clients do', () => {
    expect(t.server.keepAliveTimeout).toBe(65000);
    expect(t.server.headersTimeout).toBeGreaterThan(t.server.keepAliveTimeout);
  });

  it('GET /readyz: Redis down is "degraded" (still 200), a missing browser is reported with its fix', async () => {
    // A Redis URL nobody listens on (loopback port 1) and no browser: the database is up.
    const down = await createTestApp({
      module: probeApp,
      env: { REDIS_URL: 'redis://127.0.0.1:1', CHROMIUM_PATH: '/nonexistent/chromium' },
    });
    try {
      const res = await request(down.server).get('/readyz').expect(200);
      expect(res.body).toEqual({
        ok: true,
        status: 'degraded',
        database: 'up',
        redis: 'down',
        browser: 'missing',
        browser_fix: expect.stringContaining('apt-get install -y --no-install-recommends chromium'),
      });
      expect(res.body.browser_fix).toContain('/nonexistent/chromium');
    } finally {
      await down.close();
    }
  });
});
