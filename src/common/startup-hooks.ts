import type { INestApplication } from '@nestjs/common';

/**
 * Work a feature wants done once the application is built and before it listens (e.g. the demo
 * seed on a fresh embedded database). Features register with {@link registerStartupHook} at
 * import time; main.ts runs them in order.
 */
export type StartupHook = (app: INestApplication) => Promise<void>;

const hooks: StartupHook[] = [];

export function registerStartupHook(hook: StartupHook): void {
  hooks.push(hook);
}

export async function runStartupHooks(app: INestApplication): Promise<void> {
  for (const hook of hooks) await hook(app);
}
