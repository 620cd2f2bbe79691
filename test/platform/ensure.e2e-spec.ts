import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { CHROMIUM_INSTALL_COMMAND } from '../../src/common/health/browser-check';

interface Plan {
  action: 'none' | 'install' | 'tell';
  command?: string;
  message?: string;
}
interface Facts {
  path: string;
  present: boolean;
  debianPresent: boolean;
  aptGet: boolean;
  isRoot: boolean;
  sudo: boolean;
}
const ENSURE = join(__dirname, '..', '..', 'scripts', 'ensure.js');
// eslint-disable-next-line @typescript-eslint/no-require-imports -- the start script is plain JavaScript (it runs before the build)
const { browserPlan } = require(ENSURE) as { browserPlan: (facts: Facts) => Plan };

/** `npm start` on a fresh machine (scripts/ensure.js --browser): the browser is installed or the user told how. */
describe('npm start makes scans possible (scripts/ensure.js)', () => {
  const fresh: Facts = {
    path: '/usr/bin/chromium',
    present: false,
    debianPresent: false,
    aptGet: true,
    isRoot: false,
    sudo: false,
  };

  it("installs Debian's chromium with apt-get as root or with password-less sudo, as scripts/test.sh does", () => {
    expect(browserPlan({ ...fresh, isRoot: true })).toMatchObject({
      action: 'install',
      command: expect.stringMatching(
        /^apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends chromium fonts-dejavu-core/,
      ),
    });
    expect(browserPlan({ ...fresh, sudo: true })).toMatchObject({
      action: 'install',
      command: expect.stringMatching(/^sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive sudo apt-get install/),
    });
  });

  it('otherwise prints exactly what to run (the same command /readyz and a failed scan give), and the server starts', () => {
    const plan = browserPlan(fresh);
    expect(plan.action).toBe('tell');
    expect(plan.message).toContain(`  ${CHROMIUM_INSTALL_COMMAND}\n`);
    expect(browserPlan({ ...fresh, aptGet: false }).message).toMatch(
      /no apt-get here: install Chromium and set CHROMIUM_PATH/,
    );
    expect(browserPlan({ ...fresh, path: '/opt/chrome', debianPresent: true }).message).toMatch(/unset CHROMIUM_PATH/);
    expect(browserPlan({ ...fresh, present: true })).toEqual({ action: 'none' });
  });

  it('runs as a script: a missing browser never stops the start', () => {
    const r = spawnSync(process.execPath, [ENSURE, '--browser-only'], {
      env: { ...process.env, CHROMIUM_PATH: '/nonexistent/chromium' },
      encoding: 'utf8',
    });
    expect(r.status).toBe(0);
    expect(r.stderr).toMatch(/No browser at CHROMIUM_PATH=\/nonexistent\/chromium/);
    const ok = spawnSync(process.execPath, [ENSURE, '--browser-only'], {
      env: { ...process.env, CHROMIUM_PATH: '/usr/bin/chromium' },
      encoding: 'utf8',
    });
    expect(ok).toMatchObject({ status: 0, stderr: '' });
  });
});
