import type { IssuedPassword } from '../../src/accounts/accounts.service';
import type { Role } from '../../src/accounts/entities/web-user.entity';
import { ProviderServer } from '../ai/provider-servers';
import type { WebClient } from '../web/web-client';
import { createTestApp, TestApp } from './test-app';
import { signedInUser } from './web-users';

/** The full app whose AI platforms answer from a local ProviderServer, with signed-in users of one workspace. */
export interface AiTestApp {
  server: ProviderServer;
  t: TestApp;
  /** In the order they were asked for (by role, in the order the roles are written). */
  users: Array<{ user: IssuedPassword; client: WebClient }>;
  close(): Promise<void>;
}

/**
 * Starts a ProviderServer (answering with `handler`, if given), the app with `env(server.url)` and
 * no retries of AI calls, a workspace `workspace` with an API key, and each of `users` signed in.
 */
export async function startAiTestApp(o: {
  env: (serverUrl: string) => Record<string, string>;
  handler?: ProviderServer['handler'];
  workspace: string;
  /** The e-mail addresses of the users of each role. */
  users: Partial<Record<Role, string[]>>;
}): Promise<AiTestApp> {
  const server = await ProviderServer.start();
  server.handler = o.handler;
  let t: TestApp | undefined;
  try {
    t = await createTestApp({ env: { ...o.env(server.url), AI_MAX_RETRIES: '0' } });
    await t.createKey(o.workspace);
    const users = [];
    for (const [role, emails] of Object.entries(o.users) as Array<[Role, string[]]>)
      for (const email of emails) users.push(await signedInUser(t, o.workspace, email, role));
    const app = t;
    return {
      server,
      t,
      users,
      close: async () => {
        await app.close();
        await server.close();
      },
    };
  } catch (e) {
    await t?.close();
    await server.close();
    throw e;
  }
}
