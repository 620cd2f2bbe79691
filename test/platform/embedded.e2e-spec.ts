import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Pool } from 'pg';
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
  });

  it('one owner per folder: a second opener attaches (CLI) or is refused (server); stale locks are taken over', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'beacon-lock-'));
    try {
      const owner = await openEmbeddedDatabase(dir, false);
      expect(owner.owned).toBe(true);
      const lock = JSON.parse(readFileSync(join(dir, 'beacon.lock'), 'utf8')) as { pid: number; port: number };
      expect(lock.pid).toBe(process.pid);
      await expect(openEmbeddedDatabase(dir, false)).rejects.toThrow(/in use by process/);
      const guest = await openEmbeddedDatabase(dir, true);
      expect(guest.owned).toBe(false);
      expect(guest.url).toBe(owner.url);
      await guest.stop();
      await owner.stop();

      // A lock left by a dead process is taken over.
      writeFileSync(join(dir, 'beacon.lock'), JSON.stringify({ pid: 2 ** 22 + 12345, port: 1 }));
      const again = await openEmbeddedDatabase(dir, false);
      expect(again.owned).toBe(true);
      await again.stop();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
