import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { WebClient } from './web-client';

const ROOT = join(__dirname, '..', '..');

/** `npm start` on a fresh embedded database prints a demo user's one-time password next to the demo key. */
describe('Demo user on first start (e2e)', () => {
  it('prints the demo user and its one-time password, which signs in', async () => {
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      NODE_OPTIONS: '',
      LOG_LEVEL: 'warn',
      SEED_DEMO: 'true',
      DATA_DIR: 'memory://',
      PORT: '0',
      HOST: '127.0.0.1',
    };
    delete env.DATABASE_URL;
    delete env.REDIS_URL;
    const child = spawn(process.execPath, ['-r', 'ts-node/register/transpile-only', 'src/main.ts'], { cwd: ROOT, env });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (out += c.toString()));
    try {
      const deadline = Date.now() + 240_000; // ts-node compiles the whole app first: slow on a busy machine
      let m: RegExpExecArray | null = null;
      while (
        Date.now() < deadline &&
        !(m = /sign in at http:\/\/localhost:(\d+)\/signin as (\S+) with the one-time password\n\n {2}(\S+)/.exec(out))
      ) {
        if (child.exitCode !== null) throw new Error(out);
        await new Promise((r) => setTimeout(r, 200));
      }
      expect(m).not.toBeNull();
      expect(out).toMatch(/Its API key \(shown once/);
      const [, port, email, password] = m!;
      expect(email).toBe('demo@example.com');
      const c = new WebClient(`http://127.0.0.1:${port}`);
      const r = await c.signIn(email, password, 'my own demo password');
      expect(r.location).toBe('/dashboard');
      const dash = await c.get('/dashboard');
      expect(dash.status).toBe(200);
      expect(dash.text).toContain('id="mention-rate"');
    } finally {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    }
  }, 300_000);
});
