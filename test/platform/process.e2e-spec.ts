import { ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * The real entry points (src/main.ts, src/cli.ts) as separate processes: configuration refusal,
 * embedded database on disk shared with the CLI, graceful shutdown on SIGTERM.
 */
const ROOT = join(__dirname, '..', '..');
const TS_NODE = ['-r', 'ts-node/register/transpile-only'];
/**
 * Every child here is a fresh Node process that transpiles the TypeScript sources with ts-node
 * (7.5 s of CPU for the CLI's modules alone) and opens the embedded database: about 5 s each on a
 * quiet machine, 43-58 s for a CLI call at load 7 on two cores, and over 300 s for the server's
 * start at load 30. These are hang guards, not expectations: each wait ends as soon as its child
 * exits or listens.
 */
const CHILD_DEADLINE_MS = 600_000;
/** The embedded test runs five children one after the other (each far below its guard unless hung). */
const EMBEDDED_TEST_TIMEOUT_MS = 3 * CHILD_DEADLINE_MS;
// A child's environment: the suite's own settings, without jest's VM flag.
const baseEnv = (): NodeJS.ProcessEnv => ({ ...process.env, NODE_OPTIONS: '', LOG_LEVEL: 'warn', SEED_DEMO: 'false' });

function get(port: number, path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, method: 'GET' }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

async function waitForListening(child: ChildProcess, output: { text: string }): Promise<number> {
  const deadline = Date.now() + CHILD_DEADLINE_MS;
  while (Date.now() < deadline) {
    const m = /listening on http:\/\/localhost:(\d+)/.exec(output.text);
    if (m) return Number(m[1]);
    if (child.exitCode !== null) throw new Error(`server exited ${child.exitCode}: ${output.text}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`server did not start: ${output.text}`);
}

/** The owner named in DATA_DIR/beacon.lock (informative: the lock itself is an flock). */
const ownerOf = (dataDir: string): unknown => JSON.parse(readFileSync(join(dataDir, 'beacon.lock'), 'utf8'));

interface Exited {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a child to its exit (killed past CHILD_DEADLINE_MS: status null, said in stderr). */
function run(args: string[], env: NodeJS.ProcessEnv): Promise<Exited> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: ROOT, env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const guard = setTimeout(() => {
      stderr += `\n[test] killed after ${CHILD_DEADLINE_MS} ms`;
      child.kill('SIGKILL');
    }, CHILD_DEADLINE_MS);
    child.on('error', (e) => {
      clearTimeout(guard);
      reject(e);
    });
    child.on('close', (status) => {
      clearTimeout(guard);
      resolve({ status, stdout, stderr });
    });
  });
}

const cli = (args: string[], env: NodeJS.ProcessEnv): Promise<Exited> => run([...TS_NODE, 'src/cli.ts', ...args], env);

describe('Processes (e2e)', () => {
  it(
    'the server refuses to start on a bad setting and names it',
    async () => {
      const r = await run([...TS_NODE, 'src/main.ts'], { ...baseEnv(), PORT: 'eighty', DATA_DIR: 'memory://' });
      expect(r.status).toBe(78);
      expect(r.stderr).toMatch(/Invalid configuration:\n {2}PORT="eighty": /);
      expect(r.stderr).toMatch(/did not start/);
    },
    CHILD_DEADLINE_MS + 10_000,
  );

  it(
    "embedded database: the CLI shares the running server's folder, then opens it alone; SIGTERM exits 0",
    async () => {
      const dataDir = mkdtempSync(join(tmpdir(), 'beacon-embedded-'));
      const env: NodeJS.ProcessEnv = { ...baseEnv(), DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1' };
      delete env.DATABASE_URL;
      delete env.REDIS_URL;
      let server: ChildProcess | undefined;
      try {
        // 1. CLI alone: opens the folder, applies migrations, creates a workspace.
        const created = await cli(['workspace:create', 'embedded-co', '--name', 'Embedded Co', '--json'], env);
        expect(created.stderr).toBe('');
        expect(created.status).toBe(0);
        expect(JSON.parse(created.stdout)).toMatchObject({ slug: 'embedded-co', name: 'Embedded Co' });
        expect(ownerOf(dataDir)).toMatchObject({ socketDir: null });

        // 2. Server on the same folder; the CLI goes through the server's socket.
        const output = { text: '' };
        const child = spawn(process.execPath, [...TS_NODE, 'src/main.ts'], { cwd: ROOT, env });
        server = child;
        child.stdout.on('data', (c: Buffer) => (output.text += c.toString()));
        child.stderr.on('data', (c: Buffer) => (output.text += c.toString()));
        const port = await waitForListening(child, output);
        expect(ownerOf(dataDir)).toEqual({ pid: child.pid, socketDir: join(dataDir, 'run') });
        const key = await cli(['key:create', 'embedded-co', '--label', 'shared', '--json'], env);
        expect(key.status).toBe(0);
        const parsed = JSON.parse(key.stdout) as { id: string; key: string; prefix: string; workspace: string };
        expect(Object.keys(parsed).sort()).toEqual(['id', 'key', 'prefix', 'workspace']);
        expect(parsed.key).toMatch(/^bcn_/);
        const listed = await cli(['workspace:list', '--json'], env);
        expect(JSON.parse(listed.stdout).workspaces.map((w: { slug: string }) => w.slug)).toEqual(['embedded-co']);
        expect((await get(port, '/readyz')).status).toBe(200);

        // 3. SIGTERM: exit 0, lock released.
        const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
        child.kill('SIGTERM');
        expect(await exited).toBe(0);
        expect(ownerOf(dataDir)).toEqual({ pid: child.pid, socketDir: null });

        // 4. The data survived: the CLI reopens the folder alone and sees the key.
        const keys = await cli(['key:list', 'embedded-co', '--json'], env);
        expect(keys.status).toBe(0);
        expect(JSON.parse(keys.stdout).keys).toEqual([
          expect.objectContaining({ id: parsed.id, label: 'shared', revoked: false }),
        ]);
      } finally {
        if (server && server.exitCode === null) server.kill('SIGKILL'); // never leave a server behind
        rmSync(dataDir, { recursive: true, force: true });
      }
    },
    EMBEDDED_TEST_TIMEOUT_MS,
  );
});
