import { AccountsService, type IssuedPassword } from '../../src/accounts/accounts.service';
import type { Role } from '../../src/accounts/entities/web-user.entity';
import { WebClient } from '../web/web-client';
import type { TestApp } from './test-app';

/** The password the e2e files choose in place of a new user's one-time password. */
export const USER_PASSWORD = 'a long enough password';

/**
 * A website user created in `workspace` (which must exist) and a WebClient of its own, signed in
 * with the one-time password replaced by `password`.
 */
export async function signedInUser(
  t: TestApp,
  workspace: string,
  email: string,
  role: Role,
  password = USER_PASSWORD,
): Promise<{ user: IssuedPassword; client: WebClient }> {
  const user = await t.app.get(AccountsService).createUser(workspace, email, role);
  const client = WebClient.of(t.server);
  await client.signIn(user.email, user.one_time_password, password);
  return { user, client };
}
