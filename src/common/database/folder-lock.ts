import { spawn } from 'node:child_process';
import type { Socket } from 'node:net';

/** An exclusive operating-system lock on a file, held until {@link release} or the process's death. */
export interface FileLock {
  release(): Promise<void>;
  /** False once the lock was released or its holder died. */
  readonly held: boolean;
}

const CONFLICT = 75; // flock's exit code when the file is locked by another process (EX_TEMPFAIL)

/**
 * Takes an exclusive `flock(2)` on `path` without waiting; `null` when another process holds it.
 *
 * Node has no flock, so the lock is held by util-linux's `flock(1)` (Essential in Debian), run as a
 * child whose standard input is a pipe from this process: when this process exits in any way,
 * `kill -9` included, the kernel closes the pipe, the child reads end-of-file and exits, and the
 * kernel drops the lock. Nothing stale can survive the holder, whatever the lock file says (a PID
 * written in it is informative only). The child runs in its own process group, so a Ctrl-C to the
 * terminal does not release the lock while this process is still shutting down.
 */
export function tryLockFile(path: string): Promise<FileLock | null> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      'flock',
      ['--nonblock', '--conflict-exit-code', String(CONFLICT), path, '--command', 'echo locked && exec cat'],
      {
        stdio: ['pipe', 'pipe', 'pipe'],
        detached: true,
      },
    );
    let settled = false;
    let held = false;
    let stderr = '';
    const exited = new Promise<void>((done) => child.once('exit', () => done()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.stdout.on('data', (c: Buffer) => {
      if (settled || !c.toString().includes('locked')) return;
      settled = true;
      held = true;
      child.unref();
      for (const stream of [child.stdin, child.stdout, child.stderr]) (stream as unknown as Socket).unref?.();
      resolve({
        get held() {
          return held;
        },
        release: async () => {
          if (!held) return;
          held = false;
          child.stdin.end(); // end-of-file: the child exits and the kernel releases the lock
          await exited;
        },
      });
    });
    child.once('error', (e: NodeJS.ErrnoException) => {
      held = false;
      if (settled) return;
      settled = true;
      reject(
        e.code === 'ENOENT'
          ? new Error(
              'The embedded database needs the flock command (Debian/Ubuntu: apt-get install util-linux), or set DATABASE_URL.',
            )
          : e,
      );
    });
    child.once('exit', (code) => {
      held = false;
      if (settled) return;
      settled = true;
      if (code === CONFLICT) resolve(null);
      else reject(new Error(`Could not lock ${path}: flock exited with ${code}${stderr ? `: ${stderr.trim()}` : ''}`));
    });
  });
}
