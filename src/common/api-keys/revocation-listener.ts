import { Logger } from '@nestjs/common';
import { Client } from 'pg';

/** The PostgreSQL notification channel of key revocations; the payload is the key's hash. */
export const KEY_REVOKED_CHANNEL = 'beacon_api_key_revoked';

/** What a listener reports. `up`/`down` alternate, starting with `up` once it listens. */
export interface RevocationEvents {
  revoked(keyHash: string): void;
  up(): void;
  down(reason: string): void;
}

/** Receives key revocations from every process on the database (one class per kind of database). */
export interface RevocationListener {
  start(events: RevocationEvents): void;
  stop(): Promise<void>;
}

/** Pause before reconnecting a lost listener: doubles from the first to the last value. */
const RECONNECT_MIN_MS = 100;
const RECONNECT_MAX_MS = 2000;
/** A listener that does not answer a probe within this time is taken as lost (silent network failures). */
const PROBE_EVERY_MS = 10_000;
const PROBE_TIMEOUT_MS = 5_000;
/** application_name of the listening connection (visible in pg_stat_activity). */
export const LISTENER_APPLICATION_NAME = 'beacon-key-revocations';

/**
 * LISTEN on a dedicated connection to the PostgreSQL server (DATABASE_URL): never a pooled one,
 * which would go back to the pool and stop listening. The connection is probed every
 * PROBE_EVERY_MS; when it ends, fails or does not answer, `down` is reported at once and a new
 * connection is tried with backoff; `up` follows its LISTEN.
 */
export class PostgresRevocationListener implements RevocationListener {
  private readonly logger = new Logger('ApiKeys');
  private events?: RevocationEvents;
  private current?: Client;
  private stopped = false;
  private delay = RECONNECT_MIN_MS;
  private retry?: NodeJS.Timeout;
  private probe?: NodeJS.Timeout;

  constructor(private readonly url: string) {}

  /** Backend PID of the listening connection (tests and diagnostics). */
  get pid(): number | undefined {
    return (this.current as unknown as { processID?: number } | undefined)?.processID;
  }

  start(events: RevocationEvents): void {
    this.events = events;
    void this.connect();
  }

  private async connect(): Promise<void> {
    if (this.stopped) return;
    const client = new Client({
      connectionString: this.url,
      application_name: LISTENER_APPLICATION_NAME,
      keepAlive: true,
      query_timeout: PROBE_TIMEOUT_MS,
      connectionTimeoutMillis: PROBE_TIMEOUT_MS,
    });
    let lost = false;
    const lose = (reason: string): void => {
      if (lost) return;
      lost = true;
      const wasCurrent = this.current === client;
      if (wasCurrent) {
        this.current = undefined;
        clearInterval(this.probe);
        this.events?.down(reason);
        this.logger.warn(
          `Key revocation listener lost (${reason}): API keys are read from the database until it is back.`,
        );
      }
      client.removeAllListeners('notification');
      client.end().catch(() => undefined);
      if (!this.stopped) {
        this.retry = setTimeout(() => void this.connect(), this.delay);
        this.retry.unref();
        this.delay = Math.min(this.delay * 2, RECONNECT_MAX_MS);
      }
    };
    client.on('error', (e: Error) => lose(e.message));
    client.on('end', () => lose('connection ended'));
    client.on('notification', (n) => {
      if (n.channel === KEY_REVOKED_CHANNEL && n.payload) this.events?.revoked(n.payload);
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${KEY_REVOKED_CHANNEL}`);
    } catch (e) {
      lose((e as Error).message);
      return;
    }
    if (lost) return;
    if (this.stopped) {
      await client.end().catch(() => undefined);
      return;
    }
    this.current = client;
    this.delay = RECONNECT_MIN_MS;
    this.probe = setInterval(() => {
      client.query('SELECT 1').catch((e: Error) => lose(`probe failed: ${e.message}`));
    }, PROBE_EVERY_MS);
    this.probe.unref();
    this.events?.up();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.retry);
    clearInterval(this.probe);
    const client = this.current;
    this.current = undefined;
    if (client) {
      client.removeAllListeners();
      client.on('error', () => undefined);
      await client.end().catch(() => undefined);
    }
  }
}

/**
 * The embedded database this process owns: notifications are read from PGlite's output in this
 * process (see EmbeddedDatabaseHandle.listen), so they arrive before the revoking connection, the
 * admin CLI's included, gets its COMMIT answered. Nothing to lose: it is up until stopped.
 */
export class EmbeddedRevocationListener implements RevocationListener {
  private unsubscribe?: () => void;
  private stopped = false;

  constructor(
    private readonly listen: (channel: string, onPayload: (payload: string) => void) => Promise<() => void>,
  ) {}

  start(events: RevocationEvents): void {
    this.listen(KEY_REVOKED_CHANNEL, (payload) => events.revoked(payload)).then(
      (unsubscribe) => {
        if (this.stopped) return unsubscribe();
        this.unsubscribe = unsubscribe;
        events.up();
      },
      (e: Error) =>
        new Logger('ApiKeys').warn(
          `No key revocation listener on the embedded database (${e.message}): API keys are not cached.`,
        ),
    );
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.unsubscribe?.();
  }
}
