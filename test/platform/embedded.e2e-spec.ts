import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, Pool } from 'pg';
import { openEmbeddedDatabase } from '../../src/common/database/embedded-postgres';

describe('Embedded PostgreSQL (PGlite over pglite-socket)', () => {
  it('keeps concurrent connections, parameterised queries and transactions apart', async () => {
    const db = await openEmbeddedDatabase('memory://', false);
    const pool = new Pool({ connectionString: db.url, max: 4 });
    try {
      await pool.query('CREATE TABLE t (id serial PRIMARY KEY, v int NOT NULL)');
      const results = await Promise.all(
        Array.from({ length: 300 }, async (_, i) => {
          if (i % 3 === 0) {
            const c = await pool.connect();
            try {
              await c.query('BEGIN');
              await c.query('INSERT INTO t (v) VALUES ($1)', [i]);
              if (i % 2 === 0) {
                await c.query('INSERT INTO t (v) VALUES ($1)', [i]);
                await c.query('COMMIT');
              } else {
                await c.query('ROLLBACK');
              }
            } finally {
              c.release();
            }
            return true;
          }
          // Each answer must be its own query's: interleaved Parse/Bind would mix them up.
          const r = await pool.query<{ x: number; y: string }>('SELECT $1::int AS x, $2::text AS y', [i, `v${i}`]);
          return r.rows[0].x === i && r.rows[0].y === `v${i}`;
        }),
      );
      expect(results.every(Boolean)).toBe(true);
      const committed = Array.from({ length: 300 }, (_, i) => i).filter((i) => i % 3 === 0 && i % 2 === 0).length;
      const { rows } = await pool.query<{ n: string }>('SELECT count(*) AS n FROM t');
      expect(Number(rows[0].n)).toBe(committed * 2);
    } finally {
      await pool.end();
      await db.stop();
    }
  }, 120_000);

  it('one owner per folder: a second opener attaches (CLI) or is refused (server); the lock names owner and socket', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'beacon-lock-'));
    try {
      const owner = await openEmbeddedDatabase(dir, false);
      expect(owner.owned).toBe(true);
      const lock = JSON.parse(readFileSync(join(dir, 'beacon.lock'), 'utf8')) as { pid: number; socketDir: string };
      expect(lock).toEqual({ pid: process.pid, socketDir: join(dir, 'run') });
      expect(owner.url).not.toMatch(/:\d+\//); // no TCP port
      await expect(openEmbeddedDatabase(dir, false)).rejects.toThrow(/in use by process/);
      const guest = await openEmbeddedDatabase(dir, true);
      expect(guest.owned).toBe(false);
      expect(guest.url).toBe(owner.url);
      const client = new Client({ connectionString: guest.url });
      await client.connect();
      expect((await client.query<{ n: number }>('SELECT 41 + 1 AS n')).rows[0].n).toBe(42);
      await client.end();
      await guest.stop();
      await owner.stop();
      expect(JSON.parse(readFileSync(join(dir, 'beacon.lock'), 'utf8'))).toEqual({ pid: process.pid, socketDir: null });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);

  it('a stale lock file never blocks a start: a live foreign PID, an old-format lock, an owner killed with SIGKILL', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'beacon-stale-'));
    const bystander = spawn('sleep', ['60']); // a live process that is not the owner
    try {
      for (const stale of [
        { pid: 1, port: 5432 },
        { pid: bystander.pid, socketDir: join(dir, 'run') },
        { pid: process.pid, socketDir: null },
      ]) {
        writeFileSync(join(dir, 'beacon.lock'), JSON.stringify(stale));
        const db = await openEmbeddedDatabase(dir, false); // the PID lock waited 15 s here, then threw
        expect(db.owned).toBe(true);
        await db.stop();
      }

      // An owner in another process, killed with SIGKILL while it holds the folder.
      const owner = spawn(process.execPath, ['-r', 'ts-node/register/transpile-only', '-e', OPEN_AND_WAIT, dir], {
        cwd: ROOT,
        env: { ...process.env, NODE_OPTIONS: '' },
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      await new Promise<void>((done, fail) => {
        owner.stdout.on('data', (c: Buffer) => c.toString().includes('open') && done());
        owner.once('exit', (code) => fail(new Error(`owner exited ${code}`)));
      });
      await expect(openEmbeddedDatabase(dir, false)).rejects.toThrow(`in use by process ${owner.pid}`);
      const killed = new Promise((r) => owner.once('exit', r));
      owner.kill('SIGKILL');
      await killed;
      const next = await openEmbeddedDatabase(dir, false);
      expect(next.owned).toBe(true);
      await next.stop();
    } finally {
      bystander.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);

  const asRoot = process.getuid?.() === 0 ? it : it.skip;
  asRoot(
    'another local user cannot reach the database: no TCP port, socket and data in 0700 folders',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'beacon-private-'));
      chmodSync(dir, 0o755); // a DATA_DIR others may list, as ./.data in a checkout usually is
      const db = await openEmbeddedDatabase(dir, false);
      try {
        expect(statSync(join(dir, 'run')).mode & 0o777).toBe(0o700);
        expect(statSync(join(dir, 'pgdata')).mode & 0o777).toBe(0o700);
        expect(statSync(join(dir, 'beacon.lock')).mode & 0o777).toBe(0o600);
        const socket = join(dir, 'run', '.s.PGSQL.5432');
        // The same probe as the owner's user connects; as "nobody" (uid 65534) it is refused.
        const probe = (uid?: number) =>
          spawnSync(process.execPath, ['-e', CONNECT_PROBE, socket], {
            encoding: 'utf8',
            timeout: 10_000,
            ...(uid ? { uid, gid: uid } : {}),
          });
        expect(probe().stdout.trim()).toBe('connected');
        const stranger = probe(65534);
        expect(stranger.stdout.trim()).toBe('EACCES');
        expect(spawnSync('cat', [join(dir, 'beacon.lock')], { uid: 65534, gid: 65534 }).status).not.toBe(0);
      } finally {
        await db.stop();
        rmSync(dir, { recursive: true, force: true });
      }
    },
    120_000,
  );
});

const ROOT = join(__dirname, '..', '..');
const OPEN_AND_WAIT = `
  require('./src/common/database/embedded-postgres').openEmbeddedDatabase(process.argv[1], false)
    .then(() => { process.stdout.write('open\\n'); setInterval(() => undefined, 1000); });
`;
const CONNECT_PROBE = `
  require('net').connect({ path: process.argv[1] })
    .on('connect', () => { console.log('connected'); process.exit(0); })
    .on('error', (e) => { console.log(e.code); process.exit(1); });
`;
