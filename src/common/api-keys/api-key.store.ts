import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { DataSource, QueryFailedError, Repository } from 'typeorm';
import { AuthContext } from '../decorators/auth-context.decorator';
import { ApiKey } from './entities/api-key.entity';
import { Workspace } from './entities/workspace.entity';
import { KEY_REVOKED_CHANNEL } from './revocation-listener';

const isUniqueViolation = (e: unknown): boolean =>
  e instanceof QueryFailedError && (e.driverError as { code?: string } | undefined)?.code === '23505';

/** The fields of a new key row. */
export type NewApiKey = Pick<ApiKey, 'workspaceId' | 'label' | 'prefix' | 'keyHash'>;

/**
 * The SQL of workspaces and API keys (PostgreSQL, embedded or not): ApiKeysService keeps the rules
 * (validation, cache, revocation echo), this class only reads and writes rows.
 */
@Injectable()
export class ApiKeyStore {
  constructor(
    @InjectRepository(Workspace) private readonly workspaces: Repository<Workspace>,
    @InjectRepository(ApiKey) private readonly keys: Repository<ApiKey>,
    private readonly dataSource: DataSource,
  ) {}

  /** Inserts a workspace; null when the slug is taken. */
  async insertWorkspace(slug: string, name: string): Promise<Workspace | null> {
    try {
      return await this.workspaces.save(this.workspaces.create({ slug, name }));
    } catch (e) {
      if (isUniqueViolation(e)) return null;
      throw e;
    }
  }

  listWorkspaces(): Promise<Workspace[]> {
    return this.workspaces.find({ order: { slug: 'ASC' } });
  }

  /** Whether any workspace exists (a first start seeds the demo only into an empty database). */
  async anyWorkspace(): Promise<boolean> {
    return (await this.workspaces.count({ take: 1 })) > 0;
  }

  findWorkspace(slug: string): Promise<Workspace | null> {
    return this.workspaces.findOne({ where: { slug } });
  }

  insertKey(key: NewApiKey): Promise<ApiKey> {
    return this.keys.save(this.keys.create({ ...key, lastUsedAt: null, revokedAt: null }));
  }

  listKeys(workspaceId: string): Promise<ApiKey[]> {
    return this.keys.find({ where: { workspaceId }, order: { createdAt: 'ASC', id: 'ASC' } });
  }

  /**
   * Marks a key revoked (keeping the first date) and notifies KEY_REVOKED_CHANNEL in the same
   * transaction, so the notification goes out on commit. `beforeNotify` runs with the key's hash
   * before the notification is queued. Null when no key has this id.
   */
  async revoke(id: string, beforeNotify: (hash: string) => void): Promise<{ revokedAt: Date; hash: string } | null> {
    return this.dataSource.transaction(async (m) => {
      // TypeORM answers an UPDATE ... RETURNING with [rows, affectedCount].
      const [rows] = await m.query<[Array<{ revoked_at: Date; key_hash: string }>, number]>(
        'UPDATE api_keys SET revoked_at = COALESCE(revoked_at, now()) WHERE id = $1 RETURNING revoked_at, key_hash',
        [id],
      );
      if (rows.length === 0) return null;
      const hash = rows[0].key_hash;
      beforeNotify(hash);
      await m.query('SELECT pg_notify($1, $2)', [KEY_REVOKED_CHANNEL, hash]);
      return { revokedAt: new Date(rows[0].revoked_at), hash };
    });
  }

  /** The workspace of an unrevoked key, by hash: one constant statement (no query building per request). */
  async findActive(hash: string): Promise<AuthContext | null> {
    const rows = await this.dataSource.query<Array<{ key_id: string; workspace_id: string; workspace_slug: string }>>(
      `SELECT k.id AS key_id, w.id AS workspace_id, w.slug AS workspace_slug
         FROM api_keys k JOIN workspaces w ON w.id = k.workspace_id
        WHERE k.key_hash = $1 AND k.revoked_at IS NULL`,
      [hash],
    );
    const row = rows[0];
    return row ? { keyId: row.key_id, workspaceId: row.workspace_id, workspaceSlug: row.workspace_slug } : null;
  }

  /** Writes last-used times in one statement, never moving one backwards. */
  async recordLastUsed(entries: ReadonlyArray<readonly [id: string, at: Date]>): Promise<void> {
    await this.dataSource.query(
      `UPDATE api_keys AS k SET last_used_at = GREATEST(COALESCE(k.last_used_at, v.t), v.t)
         FROM unnest($1::uuid[], $2::timestamptz[]) AS v(id, t) WHERE k.id = v.id`,
      [entries.map(([id]) => id), entries.map(([, t]) => t.toISOString())],
    );
  }

  /** Whether the database can be written to now (shutdown flushes only then). */
  get ready(): boolean {
    return this.dataSource.isInitialized;
  }
}
