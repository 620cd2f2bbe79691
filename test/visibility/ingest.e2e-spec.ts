import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { DomainError } from '../../src/common/errors/domain-error';
import { DemoSeedService } from '../../src/visibility/demo/demo-seed.service';
import { VisibilityIngestService } from '../../src/visibility/visibility-ingest.service';
import { PROJECT_STATE_TTL_MS } from '../../src/visibility/visibility-query.service';
import { VisibilityModule } from '../../src/visibility/visibility.module';
import { demoSeedCommand, scanImportCommand } from '../../src/visibility/visibility.cli';
import { CliTestEnv, createCliTestEnv, runCliCaptured } from '../utils/cli';
import { coreWith, createTestApp, createTestDatabase, TestApp } from '../utils/test-app';
import { scan1, scan2 } from './fixtures';

const TABLES = ['vis_projects', 'vis_scans', 'vis_prompts', 'vis_answers', 'vis_sources', 'vis_urls', 'vis_gaps'];

const failure = async (p: Promise<unknown>): Promise<DomainError> => {
  try {
    await p;
  } catch (e) {
    if (e instanceof DomainError) return e;
    throw e;
  }
  throw new Error('expected a DomainError');
};

describe('Visibility ingest (e2e)', () => {
  let t: TestApp;
  let ingest: VisibilityIngestService;
  const counts = async () => {
    const out: Record<string, number> = {};
    for (const table of TABLES)
      out[table] = Number((await t.dataSource.query(`SELECT count(*) AS n FROM ${table}`))[0].n);
    return out;
  };

  beforeAll(async () => {
    t = await createTestApp();
    ingest = t.app.get(VisibilityIngestService);
    await t.createKey('acme');
    await ingest.importScan('acme', scan1);
  });
  afterAll(async () => t.close());

  it('a broken file leaves the database unchanged and names the bad path', async () => {
    const before = await counts();
    const broken = JSON.parse(JSON.stringify(scan2));
    broken.scan.answers[3].platform = 'myspace';
    const e = await failure(ingest.importScan('acme', broken));
    expect(e.code).toBe('bad_request');
    expect(e.details.field).toBe('scan.answers[3].platform');
    expect(await counts()).toEqual(before);
  });

  it('a failure in the middle of the transaction leaves nothing behind', async () => {
    const before = await counts();
    const [{ version }] = await t.dataSource.query(
      "SELECT version FROM vis_projects p JOIN workspaces w ON w.id = p.workspace_id WHERE w.slug = 'acme'",
    );
    // A real database failure after the scan, answers, sources and URLs were written.
    await t.dataSource.query(`CREATE FUNCTION vis_test_fail() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'disk full (test)'; END $$`);
    await t.dataSource.query(
      'CREATE TRIGGER vis_test_fail BEFORE INSERT ON vis_gaps FOR EACH ROW EXECUTE FUNCTION vis_test_fail()',
    );
    try {
      await expect(ingest.importScan('acme', scan2)).rejects.toThrow(/disk full/);
    } finally {
      await t.dataSource.query('DROP TRIGGER vis_test_fail ON vis_gaps');
      await t.dataSource.query('DROP FUNCTION vis_test_fail()');
    }
    expect(await counts()).toEqual(before);
    const [after] = await t.dataSource.query(
      "SELECT version FROM vis_projects p JOIN workspaces w ON w.id = p.workspace_id WHERE w.slug = 'acme'",
    );
    expect(after.version).toBe(version);
    // The same import succeeds once the fault is gone.
    const ok = await ingest.importScan('acme', scan2);
    expect(ok).toMatchObject({ imported: true, latest: true, scan_id: 's2', gaps: 3 });
  });

  it('re-importing a scan id: identical content is a no-op, different content is refused', async () => {
    const before = await counts();
    const again = await ingest.importScan('acme', scan2);
    expect(again).toMatchObject({ imported: false, latest: true });
    expect(await counts()).toEqual(before);
    const changed = JSON.parse(JSON.stringify(scan2));
    changed.scan.answers[0].text = 'Different text';
    const e = await failure(ingest.importScan('acme', changed));
    expect(e.code).toBe('conflict');
    expect(e.status).toBe(409);
    expect(await counts()).toEqual(before);
  });

  it('concurrent imports into one workspace are serialised: both land, history is consistent', async () => {
    await t.createKey('race');
    const results = await Promise.all([ingest.importScan('race', scan1), ingest.importScan('race', scan2)]);
    expect(results.map((r) => r.imported)).toEqual([true, true]);
    const rows = await t.dataSource.query(
      `SELECT s.scan_key, s.changes, p.scans_total, p.latest_scan_id = s.id AS latest
         FROM vis_scans s JOIN vis_projects p ON p.workspace_id = s.workspace_id JOIN workspaces w ON w.id = s.workspace_id
        WHERE w.slug = 'race' ORDER BY s.date`,
    );
    expect(
      rows.map((r: { scan_key: string; latest: boolean; scans_total: number }) => [
        r.scan_key,
        r.latest,
        r.scans_total,
      ]),
    ).toEqual([
      ['s1', false, 2],
      ['s2', true, 2],
    ]);
    expect(rows[0].changes).toBeNull();
    expect(rows[1].changes.previous_scan_id).toBe('s1');
  });

  it('the scan:import command: human output, unreadable files and usage errors', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'beacon-vis-cmd-'));
    const file = join(dir, 'scan.json');
    writeFileSync(file, JSON.stringify(scan2));
    const args = (...positionals: string[]) => ({ positionals, options: {}, json: false });
    const again = await scanImportCommand.run(t.app, args('acme', file));
    expect(scanImportCommand.human!(again)).toMatch(/already imported into acme with identical content/);
    const notJson = join(dir, 'not.json');
    writeFileSync(notJson, '{"business":');
    expect((await failure(scanImportCommand.run(t.app, args('acme', notJson)))).message).toMatch(/not valid JSON/);
    expect((await failure(scanImportCommand.run(t.app, args('acme', join(dir, 'missing.json'))))).code).toBe(
      'file_not_found',
    );
    expect((await failure(scanImportCommand.run(t.app, args('acme')))).message).toMatch(/^Usage: scan:import/);
    expect((await failure(demoSeedCommand.run(t.app, args('extra')))).message).toMatch(/^Usage: demo:seed/);
  });

  it('refuses an unknown workspace', async () => {
    expect((await failure(ingest.importScan('nobody', scan1))).code).toBe('not_found');
  });

  it('the latest import sets up the project; an older one only adds prompts', async () => {
    const older = JSON.parse(JSON.stringify(scan1));
    older.scan.id = 's0';
    older.scan.date = '2026-11-02';
    older.business = 'Old name';
    older.prompts.push({ id: 'p0', text: 'legacy prompt' });
    const r = await ingest.importScan('acme', older);
    expect(r.latest).toBe(false);
    const [p] = await t.dataSource.query(
      "SELECT business FROM vis_projects p JOIN workspaces w ON w.id = p.workspace_id WHERE w.slug = 'acme'",
    );
    expect(p.business).toBe('Acme Inc');
    const prompts = await t.dataSource.query(
      "SELECT prompt_key, latest_answers FROM vis_prompts p JOIN workspaces w ON w.id = p.workspace_id WHERE w.slug = 'acme' ORDER BY prompt_key",
    );
    expect(prompts).toEqual([
      { prompt_key: 'p0', latest_answers: null },
      { prompt_key: 'p1', latest_answers: 2 },
      { prompt_key: 'p2', latest_answers: 1 },
      { prompt_key: 'p3', latest_answers: 2 },
    ]);
    // s1's changes are now against s0.
    const [s1] = await t.dataSource.query(
      "SELECT s.changes FROM vis_scans s JOIN workspaces w ON w.id = s.workspace_id WHERE w.slug = 'acme' AND s.scan_key = 's1'",
    );
    expect(s1.changes.previous_scan_id).toBe('s0');
  });

  it('the demo seed runs on first start only, when SEED_DEMO is on', async () => {
    const seeded = await createTestApp({ env: { SEED_DEMO: 'true' } });
    try {
      const seeder = seeded.app.get(DemoSeedService);
      const first = await seeder.seedOnFirstStart();
      expect(first).toEqual({ workspace: 'demo', key: expect.stringMatching(/^bcn_/) });
      expect(await seeder.seedOnFirstStart()).toBeNull();
      const res = await request(seeded.server)
        .get('/api/v1/visibility')
        .set('Authorization', `Bearer ${first!.key}`)
        .expect(200);
      expect(res.body.scans_total).toBeGreaterThanOrEqual(4);
      expect(res.body.platforms.length).toBeGreaterThanOrEqual(3);
      expect(res.body.competitors.length).toBeGreaterThanOrEqual(2);
      expect(res.body.latest.grade).toMatch(/^[A-F]$/);
      expect(res.body.comparison).not.toBeNull();
      const prompts = await request(seeded.server)
        .get('/api/v1/prompts')
        .set('Authorization', `Bearer ${first!.key}`)
        .expect(200);
      expect(prompts.body.total).toBeGreaterThanOrEqual(20);
    } finally {
      await seeded.close();
    }
  });
});

// Two instances on one database: only on PostgreSQL (an in-memory PGlite belongs to one app).
(process.env.DATABASE_URL ? describe : describe.skip)('Visibility across instances (e2e)', () => {
  it('an import made by another instance is served within PROJECT_STATE_TTL_MS', async () => {
    const db = await createTestDatabase();
    const a = await createTestApp({ database: db });
    const b = await createTestApp({ database: { env: db.env, drop: async () => undefined } });
    try {
      const { key } = await a.createKey('shared');
      await b.app.get(VisibilityIngestService).importScan('shared', scan1);
      const get = () => request(a.server).get('/api/v1/visibility').set('Authorization', `Bearer ${key}`);
      expect((await get().expect(200)).body.latest.scan_id).toBe('s1'); // a has not cached it yet
      await b.app.get(VisibilityIngestService).importScan('shared', scan2);
      await new Promise((r) => setTimeout(r, PROJECT_STATE_TTL_MS + 100));
      expect((await get().expect(200)).body.latest.scan_id).toBe('s2');
    } finally {
      await b.close();
      await a.close();
    }
  });
});

describe('Visibility module alone next to CoreModule (e2e)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ module: coreWith(VisibilityModule) });
  });
  afterAll(async () => t.close());

  it('serves the API', async () => {
    // SEED_DEMO is off in test apps: no demo, even on this empty database.
    expect(t.config.SEED_DEMO).toBe(false);
    expect(await t.app.get(DemoSeedService).seedOnFirstStart()).toBeNull();
    await request(t.server).get('/api/v1').expect(200);
    await request(t.server).delete('/api/v1/visibility').expect(405);
    const { key } = await t.createKey();
    const res = await request(t.server).get('/api/v1/visibility').set('Authorization', `Bearer ${key}`).expect(404);
    expect(res.body.error).toBe('project_not_found');
  });
});

describe('Visibility admin CLI commands (e2e)', () => {
  let cli: CliTestEnv;
  let dir: string;
  beforeAll(async () => {
    cli = await createCliTestEnv();
    dir = cli.dir;
  });
  afterAll(async () => cli.drop());

  const run = (...argv: string[]) => runCliCaptured(cli.env, ...argv);

  it('scan:import imports a file and refuses broken ones with the bad path', async () => {
    const good = join(dir, 'scan.json');
    writeFileSync(good, JSON.stringify(scan2));
    expect((await run('workspace:create', 'acme')).code).toBe(0);
    const r = await run('scan:import', 'acme', good, '--json');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out)).toMatchObject({
      workspace: 'acme',
      scan_id: 's2',
      imported: true,
      answers: { total: 6, successful: 5, failed: 1 },
      mention_rate: 40,
    });
    const broken = join(dir, 'broken.json');
    const b = JSON.parse(JSON.stringify(scan1));
    b.scan.answers[1].platform = 'myspace';
    writeFileSync(broken, JSON.stringify(b));
    const bad = await run('scan:import', 'acme', broken, '--json');
    expect(bad.code).toBe(1);
    expect(JSON.parse(bad.out)).toMatchObject({
      ok: false,
      error: 'bad_request',
      message: expect.stringContaining('scan.answers[1].platform'),
    });
  });

  it('demo:seed loads the demo workspace once and prints a working key', async () => {
    const r = await run('demo:seed', '--json');
    expect(r.code).toBe(0);
    const body = JSON.parse(r.out);
    expect(body).toMatchObject({ workspace: 'demo', scans: 6, key: expect.stringMatching(/^bcn_/) });
    expect(body.answers).toBeGreaterThanOrEqual(20 * 3 * 4);
    const again = await run('demo:seed');
    expect(again.code).toBe(1);
    expect(again.err).toMatch(/already exists/);

    const app = await createTestApp({ database: { env: cli.env, drop: async () => undefined } });
    try {
      const res = await request(app.server)
        .get('/api/v1/history')
        .set('Authorization', `Bearer ${body.key}`)
        .expect(200);
      expect(res.body.scans_total).toBe(6);
    } finally {
      await app.close();
    }
  });
});
