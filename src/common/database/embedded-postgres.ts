import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { Client } from 'pg';
import { join, resolve } from 'node:path';
import { FileLock, tryLockFile } from './folder-lock';

/**
 * The embedded PostgreSQL: PGlite (PostgreSQL compiled to WASM, single process) stored in a data
 * folder and served by pglite-socket, so TypeORM keeps its ordinary `pg` driver.
 *
 * Access: pglite-socket has no authentication, so it listens only on a Unix socket in a folder of
 * mode 0700 (`DATA_DIR/run`, or a private temporary folder for `memory://` or when that path is too
 * long for a socket): other users' processes cannot reach it, and no TCP port is open. The data
 * itself (`pgdata`) is 0700 too.
 *
 * One process owns a folder at a time: the owner holds an operating-system lock (flock) on
 * `beacon.lock`, which dies with its process, so no stale lock can block a start. The file names
 * the owner's PID and socket folder; another process (the admin CLI while the server runs)
 * connects through that socket instead of opening the folder, so two processes never write one folder.
 *
 * Over 300 lines: opening, locking, serving and attaching to one data folder are one protocol (who owns the folder,
 * which socket the others use), easiest to check for races when read in one file.
 */
export interface EmbeddedDatabaseHandle {
  /** postgres:// URL to connect to (a Unix socket). */
  url: string;
  /** True when this process opened the folder; false when it attached to the owner's socket. */
  owned: boolean;
  /** Stops the socket server and closes PGlite, then releases the lock (no-op when attached). */
  stop(): Promise<void>;
  /**
   * LISTEN on the embedded database, owner only (undefined when attached). pglite-socket serves
   * every connection from one PGlite session, so PostgreSQL hands a notification to whichever
   * connection's exchange it completes with (usually the notifier's), never to a dedicated
   * listening connection; the owner therefore reads NotificationResponse messages from all of
   * PGlite's output. Returns a function that stops the subscription.
   */
  listen?(channel: string, onPayload: (payload: string) => void): Promise<() => void>;
}

type NotificationSink = (channel: string, payload: string) => void;

const NOTIFICATION_RESPONSE = 0x41; // 'A': int32 length, int32 pid, channel\0, payload\0

/**
 * Reads the backend messages of one exchange (possibly split over chunks) and hands each
 * NotificationResponse to `sink`. The output of an exchange starts on a message boundary.
 */
class NotificationReader {
  private pending: Uint8Array | null = null;

  constructor(private readonly sink: NotificationSink) {}

  push(chunk: Uint8Array): void {
    let data = chunk;
    if (this.pending) {
      const joined = new Uint8Array(this.pending.length + chunk.length);
      joined.set(this.pending);
      joined.set(chunk, this.pending.length);
      data = joined;
      this.pending = null;
    }
    let at = 0;
    while (data.length - at >= 5) {
      const length = ((data[at + 1] << 24) | (data[at + 2] << 16) | (data[at + 3] << 8) | data[at + 4]) >>> 0;
      if (data.length - at < 1 + length) break;
      if (data[at] === NOTIFICATION_RESPONSE) this.decode(data.subarray(at + 9, at + 1 + length));
      at += 1 + length;
    }
    if (at < data.length) this.pending = data.slice(at); // a copy: the chunk is PGlite's memory
  }

  private decode(body: Uint8Array): void {
    const end = body.indexOf(0);
    if (end < 0) return;
    const payloadEnd = body.indexOf(0, end + 1);
    const text = new TextDecoder();
    this.sink(
      text.decode(body.subarray(0, end)),
      text.decode(body.subarray(end + 1, payloadEnd < 0 ? body.length : payloadEnd)),
    );
  }
}

interface LockFile {
  pid: number;
  /** Folder of the owner's socket; null while it starts. */
  socketDir: string | null;
}

export const MEMORY_DATA_DIR = 'memory://';
const LOCK_NAME = 'beacon.lock';
/** libpq's socket file name for port 5432, so the folder is a `host` any PostgreSQL client understands. */
const SOCKET_FILE = '.s.PGSQL.5432';
/** sun_path holds 108 bytes with the terminating NUL. */
const MAX_SOCKET_PATH = 107;
/** How long an attaching process waits for a starting owner's socket. */
const ATTACH_WAIT_MS = 15000;

function canConnect(path: string): Promise<boolean> {
  return new Promise((done) => {
    const socket = connect({ path });
    const finish = (ok: boolean): void => {
      socket.destroy();
      done(ok);
    };
    socket.once('connect', () => finish(true));
    socket.once('error', () => finish(false));
    socket.setTimeout(1000, () => finish(false));
  });
}

function readLock(path: string): Partial<LockFile> | undefined {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as Partial<LockFile>;
  } catch {
    return undefined;
  }
}

/** A folder only this user can enter (created, or tightened when it exists). */
function privateDir(path: string): string {
  mkdirSync(path, { recursive: true, mode: 0o700 });
  chmodSync(path, 0o700);
  return path;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/**
 * pglite-socket queues protocol messages from all connections onto the single PGlite session and
 * pins the queue to one connection only while a transaction is open. An extended-query exchange
 * (Parse/Bind/Describe/Execute ... Sync) of one connection must not interleave with another's
 * either, or one would bind the other's unnamed statement. This wrapper reports such an open
 * exchange as "in transaction", so the queue keeps serving the same connection until its Sync.
 */
function withExclusiveExchanges(db: PGlite, notify: NotificationSink): PGlite {
  let exchangeOpen = false;
  const SYNC = 0x53; // 'S'
  const QUERY = 0x51; // 'Q'
  const TERMINATE = 0x58; // 'X'
  const originalExec = db.execProtocolRawStream.bind(db);
  const originalInTx = db.isInTransaction.bind(db);
  const originalExecSql = db.exec.bind(db);
  db.execProtocolRawStream = async (message: Uint8Array, options?: unknown) => {
    const type = message[0];
    // Start-up and SSL messages begin with a length, not a type; they never open an exchange.
    const isTyped = message.length >= 5 && type >= 0x41 && type <= 0x7a;
    if (isTyped) exchangeOpen = !(type === SYNC || type === QUERY || type === TERMINATE);
    const onRawData = (options as { onRawData?: (data: Uint8Array) => void } | undefined)?.onRawData;
    if (!isTyped || !onRawData) return originalExec(message, options as never);
    const reader = new NotificationReader(notify);
    return originalExec(message, {
      ...(options as object),
      onRawData: (data: Uint8Array) => {
        reader.push(data);
        onRawData(data);
      },
    });
  };
  db.isInTransaction = () => exchangeOpen || originalInTx();
  db.exec = async (query: string, options?: unknown) => {
    if (/^\s*ROLLBACK\s*$/i.test(query)) exchangeOpen = false; // a disconnected client's clean-up
    return originalExecSql(query, options as never);
  };
  return db;
}

interface Served {
  server: PGLiteSocketServer;
  listen: NonNullable<EmbeddedDatabaseHandle['listen']>;
}

async function serve(db: PGlite, socketDir: string): Promise<Served> {
  await db.waitReady;
  const path = join(socketDir, SOCKET_FILE);
  rmSync(path, { force: true }); // left by an owner that was killed; the lock says it is gone
  const subscribers = new Map<string, Set<(payload: string) => void>>();
  const notify: NotificationSink = (channel, payload) => {
    for (const f of subscribers.get(channel) ?? []) f(payload);
  };
  db.onNotification(notify); // notifications of this process's own in-process queries
  const server = new PGLiteSocketServer({ db: withExclusiveExchanges(db, notify), path, maxConnections: 32 });
  await server.start();
  chmodSync(path, 0o600);
  const listen = async (channel: string, onPayload: (payload: string) => void): Promise<() => void> => {
    // The one session's LISTEN, kept for the life of the database (a client's disconnect only rolls back).
    if (!subscribers.has(channel)) {
      // Through the socket's queue, which never cuts into another connection's exchange.
      const client = new Client({ connectionString: urlOf(socketDir) });
      await client.connect();
      try {
        await client.query(`LISTEN "${channel.replace(/"/g, '""')}"`);
      } finally {
        await client.end();
      }
      subscribers.set(channel, new Set());
    }
    subscribers.get(channel)!.add(onPayload);
    return () => subscribers.get(channel)?.delete(onPayload);
  };
  return { server, listen };
}

/** The URL of the database served in `socketDir` (node-postgres and libpq read `host` as a socket folder). */
export const urlOf = (socketDir: string): string =>
  `postgres://postgres@localhost/postgres?host=${encodeURIComponent(socketDir)}`;

/**
 * Opens the embedded database in `dataDir` (or in memory for `memory://`).
 * @param attach when another live process owns the folder: connect to it (true) or fail (false).
 */
export async function openEmbeddedDatabase(dataDir: string, attach: boolean): Promise<EmbeddedDatabaseHandle> {
  if (dataDir === MEMORY_DATA_DIR) {
    const socketDir = mkdtempSync(join(tmpdir(), 'beacon-db-')); // 0700
    try {
      const db = new PGlite();
      const { server, listen } = await serve(db, socketDir);
      return {
        url: urlOf(socketDir),
        owned: true,
        listen,
        stop: async () => {
          await server.stop();
          await db.close();
          rmSync(socketDir, { recursive: true, force: true });
        },
      };
    } catch (e) {
      rmSync(socketDir, { recursive: true, force: true });
      throw e;
    }
  }

  const dir = resolve(dataDir);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const lockPath = join(dir, LOCK_NAME);
  const deadline = Date.now() + ATTACH_WAIT_MS;

  for (;;) {
    const lock = await tryLockFile(lockPath);
    if (lock) return openOwned(dir, lockPath, lock);

    const owner = readLock(lockPath);
    if (!attach) {
      throw new Error(
        `The embedded database in ${dir} is in use by process ${owner?.pid ?? '?'}. ` +
          'Stop that process, or point DATA_DIR elsewhere, or use DATABASE_URL.',
      );
    }
    if (owner?.socketDir && (await canConnect(join(owner.socketDir, SOCKET_FILE)))) {
      return { url: urlOf(owner.socketDir), owned: false, stop: async () => undefined };
    }
    if (Date.now() > deadline) {
      throw new Error(
        `The embedded database in ${dir} is locked by process ${owner?.pid ?? '?'} which does not answer.`,
      );
    }
    await sleep(200); // the owner is still starting: wait for its socket
  }
}

/** Opens the folder this process holds the lock of: PGlite on its own private socket. */
async function openOwned(dir: string, lockPath: string, lock: FileLock): Promise<EmbeddedDatabaseHandle> {
  const writeLock = (content: LockFile): void => writeFileSync(lockPath, JSON.stringify(content), { mode: 0o600 });
  let socketDir = join(dir, 'run');
  const temporary = join(socketDir, SOCKET_FILE).length > MAX_SOCKET_PATH;
  let db: PGlite | undefined;
  try {
    writeLock({ pid: process.pid, socketDir: null });
    chmodSync(lockPath, 0o600);
    socketDir = temporary ? mkdtempSync(join(tmpdir(), 'beacon-db-')) : privateDir(socketDir);
    const pgdata = join(dir, 'pgdata');
    if (existsSync(pgdata)) chmodSync(pgdata, 0o700);
    db = new PGlite(pgdata);
    const { server, listen } = await serve(db, socketDir);
    chmodSync(pgdata, 0o700);
    writeLock({ pid: process.pid, socketDir });
    const opened = db;
    let stopped = false;
    return {
      url: urlOf(socketDir),
      owned: true,
      listen,
      stop: async () => {
        if (stopped) return;
        stopped = true;
        try {
          await server.stop();
          await opened.close();
          writeLock({ pid: process.pid, socketDir: null });
          if (temporary) rmSync(socketDir, { recursive: true, force: true });
        } finally {
          await lock.release(); // the file stays: deleting a locked file would let a second owner in
        }
      },
    };
  } catch (e) {
    await db?.close().catch(() => undefined);
    if (temporary) rmSync(socketDir, { recursive: true, force: true });
    await lock.release();
    throw e;
  }
}
