import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join, resolve } from 'node:path';

/**
 * The embedded PostgreSQL: PGlite (PostgreSQL compiled to WASM, single process) stored in a data
 * folder and served on 127.0.0.1 by pglite-socket, so TypeORM keeps its ordinary `pg` driver.
 *
 * One process owns a folder at a time. The owner writes `beacon.lock` = `{pid, port}`; another
 * process (the admin CLI while the server runs) connects through that port instead of opening
 * the folder, so two processes never write one folder.
 */
export interface EmbeddedDatabaseHandle {
  /** postgres:// URL to connect to (loopback). */
  url: string;
  /** True when this process opened the folder; false when it attached to the owner's socket. */
  owned: boolean;
  /** Stops the socket server and closes PGlite (no-op when attached). */
  stop(): Promise<void>;
}

interface LockFile {
  pid: number;
  port: number | null;
}

export const MEMORY_DATA_DIR = 'memory://';
const LOCK_NAME = 'beacon.lock';

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function canConnect(port: number): Promise<boolean> {
  return new Promise((done) => {
    const socket = connect({ host: '127.0.0.1', port });
    const finish = (ok: boolean): void => {
      socket.destroy();
      done(ok);
    };
    socket.once('connect', () => finish(true));
    socket.once('error', () => finish(false));
    socket.setTimeout(1000, () => finish(false));
  });
}

function readLock(path: string): LockFile | undefined {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as LockFile;
  } catch {
    return undefined;
  }
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/**
 * pglite-socket queues protocol messages from all connections onto the single PGlite session and
 * pins the queue to one connection only while a transaction is open. An extended-query exchange
 * (Parse/Bind/Describe/Execute ... Sync) of one connection must not interleave with another's
 * either, or one would bind the other's unnamed statement. This wrapper reports such an open
 * exchange as "in transaction", so the queue keeps serving the same connection until its Sync.
 */
function withExclusiveExchanges(db: PGlite): PGlite {
  let exchangeOpen = false;
  const SYNC = 0x53; // 'S'
  const QUERY = 0x51; // 'Q'
  const TERMINATE = 0x58; // 'X'
  const originalExec = db.execProtocolRawStream.bind(db);
  const originalInTx = db.isInTransaction.bind(db);
  const originalExecSql = db.exec.bind(db);
  db.execProtocolRawStream = (async (message: Uint8Array, options?: unknown) => {
    const type = message[0];
    // Start-up and SSL messages begin with a length, not a type; they never open an exchange.
    const isTyped = message.length >= 5 && type >= 0x41 && type <= 0x7a;
    if (isTyped) exchangeOpen = !(type === SYNC || type === QUERY || type === TERMINATE);
    return originalExec(message, options as never);
  });
  db.isInTransaction = (() => exchangeOpen || originalInTx());
  db.exec = (async (query: string, options?: unknown) => {
    if (/^\s*ROLLBACK\s*$/i.test(query)) exchangeOpen = false; // a disconnected client's clean-up
    return originalExecSql(query, options as never);
  });
  return db;
}

async function serve(db: PGlite): Promise<{ server: PGLiteSocketServer; port: number }> {
  await db.waitReady;
  const server = new PGLiteSocketServer({ db: withExclusiveExchanges(db), host: '127.0.0.1', port: 0, maxConnections: 32 });
  await server.start();
  const port = Number(server.getServerConn().split(':').pop());
  return { server, port };
}

const urlOf = (port: number): string => `postgres://postgres:postgres@127.0.0.1:${port}/postgres`;

/**
 * Opens the embedded database in `dataDir` (or in memory for `memory://`).
 * @param attach when another live process owns the folder: connect to it (true) or fail (false).
 */
export async function openEmbeddedDatabase(dataDir: string, attach: boolean): Promise<EmbeddedDatabaseHandle> {
  if (dataDir === MEMORY_DATA_DIR) {
    const db = new PGlite();
    const { server, port } = await serve(db);
    return {
      url: urlOf(port),
      owned: true,
      stop: async () => {
        await server.stop();
        await db.close();
      },
    };
  }

  const dir = resolve(dataDir);
  mkdirSync(dir, { recursive: true });
  const lockPath = join(dir, LOCK_NAME);
  const deadline = Date.now() + 15000;

  for (;;) {
    let ownLock = false;
    try {
      writeFileSync(lockPath, JSON.stringify({ pid: process.pid, port: null } satisfies LockFile), { flag: 'wx' });
      ownLock = true;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }

    if (ownLock) {
      try {
        const db = new PGlite(join(dir, 'pgdata'));
        const { server, port } = await serve(db);
        writeFileSync(lockPath, JSON.stringify({ pid: process.pid, port } satisfies LockFile));
        let stopped = false;
        return {
          url: urlOf(port),
          owned: true,
          stop: async () => {
            if (stopped) return;
            stopped = true;
            await server.stop();
            await db.close();
            try {
              unlinkSync(lockPath);
            } catch {
              /* already gone */
            }
          },
        };
      } catch (e) {
        unlinkSync(lockPath);
        throw e;
      }
    }

    const lock = readLock(lockPath);
    if (lock && lock.pid !== process.pid && !isAlive(lock.pid)) {
      unlinkSync(lockPath); // stale: its owner died without cleaning up
      continue;
    }
    if (lock?.port && (await canConnect(lock.port))) {
      if (!attach) {
        throw new Error(
          `The embedded database in ${dir} is in use by process ${lock.pid}. ` +
            'Stop that process, or point DATA_DIR elsewhere, or use DATABASE_URL.',
        );
      }
      return { url: urlOf(lock.port), owned: false, stop: async () => undefined };
    }
    if (Date.now() > deadline) {
      throw new Error(`The embedded database in ${dir} is locked by process ${lock?.pid ?? '?'} which does not answer.`);
    }
    await sleep(200); // the owner is still starting: wait for its port
  }
}
