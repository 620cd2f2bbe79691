import { Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { DataSource, QueryFailedError, Repository } from 'typeorm';
import { AppConfig } from '../config/env';
import { AuthContext } from '../decorators/auth-context.decorator';
import { DomainError } from '../errors/domain-error';
import { ErrorCode } from '../errors/error-code';
import { displayPrefix, generateApiKey, hashApiKey, isWellFormedApiKey } from './api-key-format';
import { ApiKey } from './entities/api-key.entity';
import { Workspace } from './entities/workspace.entity';

export const SLUG_PATTERN = /^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/;

export interface WorkspaceView {
  id: string;
  slug: string;
  name: string;
  created_at: string;
}

export interface ApiKeyView {
  id: string;
  label: string | null;
  prefix: string;
  workspace: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
  revoked: boolean;
}

/** The result of key creation: the only time the full key exists outside its owner's hands. */
export interface CreatedApiKey {
  id: string;
  key: string;
  prefix: string;
  workspace: string;
}

const isUniqueViolation = (e: unknown): boolean =>
  e instanceof QueryFailedError && (e.driverError as { code?: string } | undefined)?.code === '23505';

/**
 * Workspaces and their API keys: creation, listing, revocation, and the per-request lookup that
 * resolves a bearer key to its workspace. Lookups read the database every time, so a revocation
 * is seen by the very next request on every instance. `last_used_at` is buffered in memory and
 * written in one batch every KEY_LAST_USED_FLUSH_S seconds (and at shutdown).
 */
@Injectable()
export class ApiKeysService implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('ApiKeys');
  private readonly lastUsed = new Map<string, Date>();
  private timer?: NodeJS.Timeout;

  constructor(
    @InjectRepository(Workspace) private readonly workspaces: Repository<Workspace>,
    @InjectRepository(ApiKey) private readonly keys: Repository<ApiKey>,
    private readonly dataSource: DataSource,
    private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    this.timer = setInterval(() => void this.flushLastUsed(), this.config.KEY_LAST_USED_FLUSH_S * 1000);
    this.timer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.flushLastUsed();
  }

  // ---- workspaces -------------------------------------------------------------------------------

  async createWorkspace(slug: string, name?: string): Promise<WorkspaceView> {
    if (!SLUG_PATTERN.test(slug)) {
      throw DomainError.badRequest(
        `Invalid workspace slug "${slug}": use 1-64 lowercase letters, digits and inner hyphens.`,
        'slug',
      );
    }
    try {
      const ws = await this.workspaces.save(this.workspaces.create({ slug, name: name?.trim() || slug }));
      return this.workspaceView(ws);
    } catch (e) {
      if (isUniqueViolation(e)) throw new DomainError(ErrorCode.Conflict, `Workspace "${slug}" already exists.`);
      throw e;
    }
  }

  async listWorkspaces(): Promise<WorkspaceView[]> {
    const all = await this.workspaces.find({ order: { slug: 'ASC' } });
    return all.map((w) => this.workspaceView(w));
  }

  async findWorkspace(slug: string): Promise<Workspace> {
    const ws = await this.workspaces.findOne({ where: { slug } });
    if (!ws) throw new DomainError(ErrorCode.NotFound, `Unknown workspace "${slug}".`);
    return ws;
  }

  // ---- keys -------------------------------------------------------------------------------------

  async createKey(workspaceSlug: string, label?: string): Promise<CreatedApiKey> {
    const ws = await this.findWorkspace(workspaceSlug);
    const key = generateApiKey();
    const row = await this.keys.save(
      this.keys.create({
        workspaceId: ws.id,
        label: label?.trim() || null,
        prefix: displayPrefix(key),
        keyHash: hashApiKey(key),
        lastUsedAt: null,
        revokedAt: null,
      }),
    );
    return { id: row.id, key, prefix: row.prefix, workspace: ws.slug };
  }

  async listKeys(workspaceSlug: string): Promise<ApiKeyView[]> {
    const ws = await this.findWorkspace(workspaceSlug);
    await this.flushLastUsed();
    const rows = await this.keys.find({ where: { workspaceId: ws.id }, order: { createdAt: 'ASC', id: 'ASC' } });
    return rows.map((k) => ({
      id: k.id,
      label: k.label,
      prefix: k.prefix,
      workspace: ws.slug,
      created_at: k.createdAt.toISOString(),
      last_used_at: k.lastUsedAt?.toISOString() ?? null,
      revoked_at: k.revokedAt?.toISOString() ?? null,
      revoked: k.revokedAt !== null,
    }));
  }

  /** Revokes a key; effective on the next request. Revoking twice is allowed and keeps the first date. */
  async revokeKey(id: string): Promise<{ id: string; revoked_at: string }> {
    if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)) {
      throw DomainError.badRequest(`Invalid key id "${id}": expected a UUID as shown by key:list.`, 'id');
    }
    // TypeORM answers an UPDATE ... RETURNING with [rows, affectedCount].
    const [rows] = await this.dataSource.query<[Array<{ revoked_at: Date }>, number]>(
      'UPDATE api_keys SET revoked_at = COALESCE(revoked_at, now()) WHERE id = $1 RETURNING revoked_at',
      [id],
    );
    if (rows.length === 0) throw new DomainError(ErrorCode.NotFound, `Unknown API key id "${id}".`);
    return { id, revoked_at: new Date(rows[0].revoked_at).toISOString() };
  }

  /**
   * Resolves a presented key. Malformed keys (shape or checksum) are refused without a query;
   * unknown and revoked keys after one indexed lookup.
   */
  async authenticate(presented: string): Promise<AuthContext | null> {
    if (!isWellFormedApiKey(presented)) return null;
    // One constant statement (no query building per request): this runs on every authenticated call.
    const rows = await this.dataSource.query<Array<{ key_id: string; workspace_id: string; workspace_slug: string }>>(
      `SELECT k.id AS key_id, w.id AS workspace_id, w.slug AS workspace_slug
         FROM api_keys k JOIN workspaces w ON w.id = k.workspace_id
        WHERE k.key_hash = $1 AND k.revoked_at IS NULL`,
      [hashApiKey(presented)],
    );
    const row = rows[0];
    if (!row) return null;
    this.lastUsed.set(row.key_id, new Date());
    return { keyId: row.key_id, workspaceId: row.workspace_id, workspaceSlug: row.workspace_slug };
  }

  /** Writes buffered last-used times in one statement. */
  async flushLastUsed(): Promise<void> {
    if (this.lastUsed.size === 0 || !this.dataSource.isInitialized) return;
    const entries = [...this.lastUsed.entries()];
    this.lastUsed.clear();
    try {
      await this.dataSource.query(
        `UPDATE api_keys AS k SET last_used_at = GREATEST(COALESCE(k.last_used_at, v.t), v.t)
           FROM unnest($1::uuid[], $2::timestamptz[]) AS v(id, t) WHERE k.id = v.id`,
        [entries.map(([id]) => id), entries.map(([, t]) => t.toISOString())],
      );
    } catch (e) {
      this.logger.warn(`Could not record last use of API keys: ${(e as Error).message}`);
      for (const [id, t] of entries) if (!this.lastUsed.has(id)) this.lastUsed.set(id, t);
    }
  }

  private workspaceView(w: Workspace): WorkspaceView {
    return { id: w.id, slug: w.slug, name: w.name, created_at: w.createdAt.toISOString() };
  }
}
