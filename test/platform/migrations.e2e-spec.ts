import { DataSource } from 'typeorm';
import { dataSourceOptions, runMigrations } from '../../src/common/database/data-source-options';
import { openEmbeddedDatabase } from '../../src/common/database/embedded-postgres';
import { createTestDatabase } from '../utils/test-app';

/**
 * Entities and migrations must describe the same schema: on a fresh database, after every
 * migration, TypeORM's schema builder must find nothing to change. Fails on drift either way.
 */
describe('Migrations', () => {
  it('leave no difference between the entities and the schema', async () => {
    const db = await createTestDatabase({ empty: true });
    const embedded = db.env.DATABASE_URL ? undefined : await openEmbeddedDatabase('memory://', false);
    const ds = new DataSource(dataSourceOptions(db.env.DATABASE_URL ?? embedded!.url, 2));
    try {
      await ds.initialize();
      const applied = await runMigrations(ds);
      expect(applied.length).toBeGreaterThan(0);
      const pending = await ds.driver.createSchemaBuilder().log();
      expect(pending.upQueries.map((q) => q.query)).toEqual([]);
      // Idempotent: a second run applies nothing.
      expect(await runMigrations(ds)).toEqual([]);
      // And every migration can be reverted.
      for (let i = 0; i < applied.length; i++) await ds.undoLastMigration();
      const tables: Array<{ tablename: string }> = await ds.query(
        "SELECT tablename FROM pg_tables WHERE schemaname = 'public' AND tablename <> 'migrations'",
      );
      expect(tables).toEqual([]);
    } finally {
      if (ds.isInitialized) await ds.destroy();
      await embedded?.stop();
      await db.drop();
    }
  });

  it('turn the 0 pages of a stored encrypted upload into null (not known), and back', async () => {
    const db = await createTestDatabase({ empty: true });
    const embedded = db.env.DATABASE_URL ? undefined : await openEmbeddedDatabase('memory://', false);
    const ds = new DataSource(dataSourceOptions(db.env.DATABASE_URL ?? embedded!.url, 2));
    const pages = async () =>
      (await ds.query<{ id: string; pages: number | null }[]>(`SELECT id, pages FROM pdf_files ORDER BY id`)).map(
        (r) => [r.id, r.pages],
      );
    try {
      await ds.initialize();
      // Undoes the newest migrations down to and including PdfFilesPagesUnknown (newer ones may follow it).
      const undoThroughPagesUnknown = async () => {
        for (;;) {
          const [last] = await ds.query<Array<{ name: string }>>(
            'SELECT name FROM migrations ORDER BY id DESC LIMIT 1',
          );
          await ds.undoLastMigration();
          if (last.name === 'PdfFilesPagesUnknown1763781200000') return;
        }
      };
      await runMigrations(ds);
      await undoThroughPagesUnknown();
      await ds.query(
        `INSERT INTO pdf_files (id, filename, size, pages, sha256, expires_at) VALUES
           ('a-locked', 'locked.pdf', 10, 0, repeat('0', 64), now() + interval '1 hour'),
           ('b-open', 'open.pdf', 10, 3, repeat('0', 64), now() + interval '1 hour')`,
      );
      expect((await runMigrations(ds))[0]).toBe('PdfFilesPagesUnknown1763781200000');
      expect(await pages()).toEqual([
        ['a-locked', null],
        ['b-open', 3],
      ]);
      await undoThroughPagesUnknown();
      expect(await pages()).toEqual([
        ['a-locked', 0],
        ['b-open', 3],
      ]);
    } finally {
      if (ds.isInitialized) await ds.destroy();
      await embedded?.stop();
      await db.drop();
    }
  });
});
