import { Inject, Injectable, Logger, OnApplicationShutdown, OnModuleInit, Optional } from '@nestjs/common';
import { AppConfig } from '../config/env';
import { AuthContext } from '../decorators/auth-context.decorator';
import { DomainError } from '../errors/domain-error';
import { ErrorCode } from '../errors/error-code';
import { displayPrefix, generateApiKey, hashApiKey, isWellFormedApiKey } from './api-key-format';
import { ApiKeyStore } from './api-key.store';
import { Workspace } from './entities/workspace.entity';
import { ResolvedKeyCache } from './resolved-key-cache';
import { RevocationListener } from './revocation-listener';

/** Injection token of this process's RevocationListener (null: none, keys are not cached). */
export const REVOCATION_LISTENER = Symbol('RevocationListener');

/** How long a revocation waits for its own notification to come back through the database. */
const REVOCATION_ECHO_WAIT_MS = 1000;

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

/**
 * Workspaces and their API keys: creation, listing, revocation, and the per-request lookup that
 * resolves a bearer key to its workspace.
 *
 * Lookups are served from an in-process cache of resolved keys (API_KEY_CACHE_MAX entries, at most
 * API_KEY_CACHE_TTL_S old) while this process listens for revocations; a revocation sends a
 * notification in its own transaction (delivered on commit) and every instance drops that key at
 * once. Without a listener (starting, lost, or none) every lookup reads the database, so a revoked
 * key is refused on the very next request everywhere. See docs/api-keys.md.
 *
 * `last_used_at` is buffered in memory and written in one batch every KEY_LAST_USED_FLUSH_S seconds
 * (and at shutdown).
 */
@Injectable()
export class ApiKeysService implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('ApiKeys');
  private readonly lastUsed = new Map<string, Date>();
  private timer?: NodeJS.Timeout;
  private readonly cache: ResolvedKeyCache;
  private listening = false;
  /** Revocations of this process waiting for their notification to come back: hash -> wakers. */
  private readonly echoes = new Map<string, Set<() => void>>();

  constructor(
    private readonly store: ApiKeyStore,
    private readonly config: AppConfig,
    @Optional() @Inject(REVOCATION_LISTENER) private readonly listener: RevocationListener | null = null,
  ) {
    this.cache = new ResolvedKeyCache(config.API_KEY_CACHE_MAX, config.API_KEY_CACHE_TTL_S * 1000);
  }

  onModuleInit(): void {
    this.timer = setInterval(() => void this.flushLastUsed(), this.config.KEY_LAST_USED_FLUSH_S * 1000);
    this.timer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    this.cache.disable();
    await this.listener?.stop();
    await this.flushLastUsed();
  }

  /** Whether lookups are served from the cache now (the listener is up). */
  get cacheActive(): boolean {
    return this.cache.active;
  }

  /**
   * Starts listening for revocations, once, on the first lookup: processes that never authenticate
   * (the admin CLI) hold no listening connection.
   */
  private listen(): void {
    this.listening = true;
    if (!this.listener || this.config.API_KEY_CACHE_MAX === 0) return;
    this.listener.start({
      revoked: (hash) => {
        this.cache.drop(hash);
        for (const wake of this.echoes.get(hash) ?? []) wake();
      },
      up: () => this.cache.enable(),
      down: () => this.cache.disable(),
    });
  }

  // ---- workspaces -------------------------------------------------------------------------------

  async createWorkspace(slug: string, name?: string): Promise<WorkspaceView> {
    if (!SLUG_PATTERN.test(slug)) {
      throw DomainError.badRequest(
        `Invalid workspace slug "${slug}": use 1-64 lowercase letters, digits and inner hyphens.`,
        'slug',
      );
    }
    const ws = await this.store.insertWorkspace(slug, name?.trim() || slug);
    if (!ws) throw new DomainError(ErrorCode.Conflict, `Workspace "${slug}" already exists.`);
    return this.workspaceView(ws);
  }

  async listWorkspaces(): Promise<WorkspaceView[]> {
    const all = await this.store.listWorkspaces();
    return all.map((w) => this.workspaceView(w));
  }

  /** Whether any workspace exists. */
  hasWorkspaces(): Promise<boolean> {
    return this.store.anyWorkspace();
  }

  async findWorkspace(slug: string): Promise<Workspace> {
    const ws = await this.store.findWorkspace(slug);
    if (!ws) throw new DomainError(ErrorCode.NotFound, `Unknown workspace "${slug}".`);
    return ws;
  }

  // ---- keys -------------------------------------------------------------------------------------

  async createKey(workspaceSlug: string, label?: string): Promise<CreatedApiKey> {
    const ws = await this.findWorkspace(workspaceSlug);
    const key = generateApiKey();
    const row = await this.store.insertKey({
      workspaceId: ws.id,
      label: label?.trim() || null,
      prefix: displayPrefix(key),
      keyHash: hashApiKey(key),
    });
    return { id: row.id, key, prefix: row.prefix, workspace: ws.slug };
  }

  async listKeys(workspaceSlug: string): Promise<ApiKeyView[]> {
    const ws = await this.findWorkspace(workspaceSlug);
    await this.flushLastUsed();
    const rows = await this.store.listKeys(ws.id);
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

  /**
   * Revokes a key; refused on the next request on every instance. Revoking twice is allowed and
   * keeps the first date. The notification is sent in the UPDATE's transaction, so it goes out on
   * commit; this instance drops the key itself, and waits (briefly) for its own notification to
   * come back, so that it has been delivered to every listener when this returns.
   */
  async revokeKey(id: string): Promise<{ id: string; revoked_at: string }> {
    if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)) {
      throw DomainError.badRequest(`Invalid key id "${id}": expected a UUID as shown by key:list.`, 'id');
    }
    let echo: Promise<void> | undefined;
    const revoked = await this.store.revoke(id, (hash) => {
      if (this.cache.active) echo = this.echoOf(hash);
    });
    if (!revoked) throw new DomainError(ErrorCode.NotFound, `Unknown API key id "${id}".`);
    this.cache.drop(revoked.hash);
    await echo;
    return { id, revoked_at: revoked.revokedAt.toISOString() };
  }

  /** Resolves when this process's listener receives the revocation of `hash`, or after REVOCATION_ECHO_WAIT_MS. */
  private echoOf(hash: string): Promise<void> {
    return new Promise<void>((resolve) => {
      const wakers = this.echoes.get(hash) ?? new Set<() => void>();
      this.echoes.set(hash, wakers);
      const done = (): void => {
        clearTimeout(timer);
        wakers.delete(done);
        if (wakers.size === 0) this.echoes.delete(hash);
        resolve();
      };
      const timer = setTimeout(done, REVOCATION_ECHO_WAIT_MS);
      wakers.add(done);
    });
  }

  /**
   * Resolves a presented key. Malformed keys (shape or checksum) are refused without a query; a
   * cached key without one; unknown and revoked keys after one indexed lookup (never cached).
   */
  async authenticate(presented: string): Promise<AuthContext | null> {
    if (!isWellFormedApiKey(presented)) return null;
    if (!this.listening) this.listen();
    const hash = hashApiKey(presented);
    const cached = this.cache.get(hash);
    if (cached) {
      this.lastUsed.set(cached.keyId, new Date());
      return cached;
    }
    const generation = this.cache.generation;
    const auth = await this.store.findActive(hash);
    if (!auth) return null;
    this.cache.set(hash, auth, generation);
    this.lastUsed.set(auth.keyId, new Date());
    return auth;
  }

  /** Writes buffered last-used times in one statement. */
  async flushLastUsed(): Promise<void> {
    if (this.lastUsed.size === 0 || !this.store.ready) return;
    const entries = [...this.lastUsed.entries()];
    this.lastUsed.clear();
    try {
      await this.store.recordLastUsed(entries);
    } catch (e) {
      this.logger.warn(`Could not record last use of API keys: ${(e as Error).message}`);
      for (const [id, t] of entries) if (!this.lastUsed.has(id)) this.lastUsed.set(id, t);
    }
  }

  private workspaceView(w: Workspace): WorkspaceView {
    return { id: w.id, slug: w.slug, name: w.name, created_at: w.createdAt.toISOString() };
  }
}
