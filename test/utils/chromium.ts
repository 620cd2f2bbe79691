import puppeteer, { Browser } from 'puppeteer-core';
import { CHROMIUM_ARGS } from '../../src/a11y/browser/browser-pool';
import type { TestApp } from './test-app';

/**
 * The Chromium of a browser e2e file: the test app's CHROMIUM_PATH with the project's own flags
 * (offline, as root), headless, with a protocol timeout that a busy machine's slow pages fit in.
 */
export function launchChromium(t: TestApp): Promise<Browser> {
  return puppeteer.launch({
    executablePath: t.config.CHROMIUM_PATH,
    headless: true,
    args: CHROMIUM_ARGS,
    protocolTimeout: 60_000,
  });
}
