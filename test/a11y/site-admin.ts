import { AccountsService } from '../../src/accounts/accounts.service';
import type { TestApp } from '../utils/test-app';
import { WebClient } from '../web/web-client';

/** A new account's workspace admin (`<name>-admin@example.com`), signed in on the web pages, for the site tests. */
export async function siteAdmin(t: TestApp, name: string): Promise<{ workspaceId: string; admin: WebClient }> {
  await t.createKey(name);
  const a = await t.app.get(AccountsService).createUser(name, `${name}-admin@example.com`, 'admin');
  const admin = WebClient.of(t.server);
  await admin.signIn(a.email, a.one_time_password, 'a long enough password');
  return { workspaceId: a.workspace_id, admin };
}
