import { accessSync, constants } from 'node:fs';

/** The command that installs the browser on Debian/Ubuntu, as scripts/ensure.js and scripts/test.sh run it. */
export const CHROMIUM_INSTALL_COMMAND =
  'sudo apt-get update && sudo apt-get install -y --no-install-recommends chromium fonts-dejavu-core';

/** True when `path` is an executable file (the browser can at least be launched). */
export function browserInstalled(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** What to do when the browser at `path` cannot be started: said by /readyz and by a failed scan. */
export function browserFixHint(path: string): string {
  return browserInstalled(path)
    ? `Chromium at ${path} did not start; the server log says why.`
    : `No Chromium at ${path} (CHROMIUM_PATH). Install it with "${CHROMIUM_INSTALL_COMMAND}" (npm start does this when it may), or set CHROMIUM_PATH to a Chromium binary.`;
}
