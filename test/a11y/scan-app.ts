import { ScanService } from '../../src/a11y/scan/scan.service';
import { createTestApp, TestApp } from '../utils/test-app';

/** No DNS in tests: every host name the scan service looks up is unknown (ENOTFOUND), as offline. */
export function withoutDns(t: TestApp): void {
  t.app.get(ScanService).resolver = () =>
    Promise.reject(Object.assign(new Error('no DNS in tests'), { code: 'ENOTFOUND' }));
}

/** A test app that scans pages on 127.0.0.1 (loopback targets allowed), without DNS, with the settings of `env`. */
export async function createScanTestApp(env: Record<string, string>): Promise<TestApp> {
  const t = await createTestApp({ env: { SCAN_ALLOW_LOOPBACK_TARGETS_UNSAFE: 'true', ...env } });
  withoutDns(t);
  return t;
}
