import { SitesService } from '../../src/a11y/sites/sites.service';
import { AlertsService } from '../../src/common/notify/alerts.service';
import { startReceiver, TestReceiver } from '../utils/receiver';
import { createTestApp, TestApp } from '../utils/test-app';
import { SitesFixture, startSitesFixture } from './sites-fixture';

/** The set-up of a sites e2e file: the loopback site, the app, and a workspace whose alerts go to a loopback webhook. */
export interface SitesApp {
  t: TestApp;
  site: SitesFixture;
  sites: SitesService;
  workspaceId: string;
  close(): Promise<void>;
}

/**
 * The sites fixture, a webhook receiver handing each alert's body to `onAlert`, the app (loopback
 * targets allowed, alerts retried after 50 ms) and the workspace `slug` (with an API key) whose
 * webhook is the receiver.
 */
export async function startSitesApp(slug: string, onAlert: (body: string) => void): Promise<SitesApp> {
  const open: Array<{ close(): Promise<unknown> }> = [];
  const close = async (): Promise<void> => {
    for (const x of open.splice(0)) await x.close();
  };
  try {
    const t = await createTestApp({
      env: { SCAN_ALLOW_LOOPBACK_TARGETS_UNSAFE: 'true', ALERT_RETRY_BACKOFF_MS: '50' },
    });
    open.push(t);
    const site = await startSitesFixture();
    open.push(site);
    const receiver: TestReceiver = await startReceiver((r) => onAlert(r.body));
    open.push(receiver);
    await t.createKey(slug);
    const [{ id }] = await t.dataSource.query<Array<{ id: string }>>('SELECT id FROM workspaces WHERE slug = $1', [
      slug,
    ]);
    await t.app.get(AlertsService).addWebhook(id, `${receiver.origin}/hook`);
    return { t, site, sites: t.app.get(SitesService), workspaceId: id, close };
  } catch (e) {
    await close();
    throw e;
  }
}
