import { ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, startRedis, stopRedis } from '../utils/own-redis';
export { freePort };

/**
 * Real Beacon processes for the fleet and fault tests: servers (src/main.ts) and scan workers
 * (src/worker.ts) run as child processes through ts-node, each with its own TMPDIR so the Chromium
 * profiles it creates (beacon-chromium-*) can be found, and killed with it if a test fails.
 */
const ROOT = join(__dirname, '..', '..');
const TS_NODE = ['-r', 'ts-node/register/transpile-only'];

export interface Child {
  proc: ChildProcess;
  output: { text: string };
  /** TMPDIR of this process: its Chromium profiles live here. */
  tmp: string;
  port?: number;
  exited: Promise<number | null>;
  /** SIGKILL if still running, then SIGKILL any Chromium of its TMPDIR; removes TMPDIR. */
  kill(): Promise<void>;
}

/** The suite's settings for a child, without jest's VM flag. */
export const childEnv = (extra: Record<string, string | undefined>): NodeJS.ProcessEnv => {
  const env: NodeJS.ProcessEnv = { ...process.env, NODE_OPTIONS: '', LOG_LEVEL: 'warn', SEED_DEMO: 'false', ...extra };
  for (const [k, v] of Object.entries(extra)) if (v === undefined) delete env[k];
  return env;
};

function start(entry: string, env: NodeJS.ProcessEnv, ready: RegExp): Promise<Child> {
  const tmp = mkdtempSync(join(tmpdir(), 'beacon-proc-'));
  const proc = spawn(process.execPath, [...TS_NODE, entry], { cwd: ROOT, env: { ...env, TMPDIR: tmp } });
  const output = { text: '' };
  proc.stdout.on('data', (c: Buffer) => (output.text += c.toString()));
  proc.stderr.on('data', (c: Buffer) => (output.text += c.toString()));
  const exited = new Promise<number | null>((r) => proc.once('exit', (code) => r(code)));
  const child: Child = {
    proc,
    output,
    tmp,
    exited,
    kill: async () => {
      if (proc.exitCode === null && proc.signalCode === null) {
        proc.kill('SIGKILL');
        await exited;
      }
      for (const pid of chromiumPidsUnder(tmp)) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // gone meanwhile
        }
      }
      rmSync(tmp, { recursive: true, force: true });
    },
  };
  return new Promise((resolve, reject) => {
    const deadline = Date.now() + 120_000;
    const poll = (): void => {
      const m = ready.exec(output.text);
      if (m) {
        if (m[1]) child.port = Number(m[1]);
        resolve(child);
      } else if (proc.exitCode !== null || Date.now() > deadline) {
        void child.kill();
        reject(new Error(`${entry} did not start (exit ${proc.exitCode}): ${output.text}`));
      } else setTimeout(poll, 100);
    };
    poll();
  });
}

/** A server (src/main.ts) on a loopback port. */
export const startServer = (env: NodeJS.ProcessEnv): Promise<Child> =>
  start('src/main.ts', { ...env, PORT: '0', HOST: '127.0.0.1' }, /listening on http:\/\/localhost:(\d+)/);

/** A scan worker (src/worker.ts, `npm run worker`). */
export const startWorker = (env: NodeJS.ProcessEnv): Promise<Child> => start('src/worker.ts', env, /scan worker ready/);

/**
 * Pids of the live processes started with a Chromium profile under `dir` or inheriting TMPDIR=`dir`
 * (every Chromium helper process inherits its browser's environment).
 */
export function chromiumPidsUnder(dir: string): number[] {
  const pids: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    let cmd: string;
    let env: string;
    try {
      cmd = readFileSync(`/proc/${name}/cmdline`, 'utf8');
      env = readFileSync(`/proc/${name}/environ`, 'utf8');
    } catch {
      continue;
    }
    if (cmd.includes(`--user-data-dir=${dir}/`) || env.split('\0').includes(`TMPDIR=${dir}`)) pids.push(Number(name));
  }
  return pids;
}

/** Waits until `cond()` holds, or fails after `ms`. */
export async function until(cond: () => boolean | Promise<boolean>, ms: number, what: string): Promise<void> {
  const end = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error(`${what}: not reached within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** One HTTP request to 127.0.0.1:port (JSON body when given). */
export function http(
  port: number,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<{
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  json: () => Record<string, unknown>;
}> {
  return new Promise((resolve, reject) => {
    const data = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port,
        path,
        method,
        headers: { ...headers, ...(data ? { 'Content-Type': 'application/json', 'Content-Length': data.length } : {}) },
      },
      (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: text,
            json: () => JSON.parse(text) as Record<string, unknown>,
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(data);
  });
}

/** A redis-server of the test's own on a free port (never the shared one); stop() kills it. */
export async function startOwnRedis(): Promise<{ url: string; stop(): Promise<void> }> {
  const port = await freePort();
  const child = await startRedis(port);
  return { url: `redis://127.0.0.1:${port}`, stop: () => stopRedis(child) };
}
