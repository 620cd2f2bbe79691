import { existsSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Resolves the entry of a worker thread that lives in `dir` (pass `__dirname`): the compiled
 * `<name>.js` (dist), or the `<name>.ts` source (ts-node, jest), which the thread loads after
 * registering ts-node (transpile only).
 */
export function workerEntry(dir: string, name: string): { filename: string; execArgv: string[] } {
  const js = join(dir, `${name}.js`);
  if (existsSync(js)) return { filename: js, execArgv: [] };
  return { filename: join(dir, `${name}.ts`), execArgv: ['--require', 'ts-node/register/transpile-only'] };
}
