import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'puppeteer-core';
import { WebClient } from '../web/web-client';
import { launchChromium } from './chromium';
import { createTestApp, TestApp, TestAppOptions } from './test-app';

/** The test app of a browser e2e file, its origin and the Chromium on it (set once beforeAll has run). */
export interface BrowserApp {
  readonly t: TestApp;
  readonly browser: Browser;
  readonly origin: string;
}

/**
 * Starts a test app and a Chromium before the file's (or describe block's) tests and closes both
 * after them; the fields of what it returns are set in its beforeAll.
 */
export function useBrowserApp(options: TestAppOptions = {}): BrowserApp {
  const state: { t?: TestApp; browser?: Browser; origin?: string } = {};
  beforeAll(async () => {
    state.t = await createTestApp(options);
    state.origin = WebClient.of(state.t.server).origin;
    state.browser = await launchChromium(state.t);
  }, 120_000);
  afterAll(async () => {
    await state.browser?.close();
    await state.t?.close();
  });
  return state as BrowserApp;
}

/** A folder of node_modules/.cache for the files a browser test chooses in a file input (created). */
export function cacheDir(name: string): string {
  const dir = join(__dirname, '..', '..', 'node_modules', '.cache', name);
  mkdirSync(dir, { recursive: true });
  return dir;
}
