import type { Page } from 'puppeteer-core';
import { pageFromAxe } from '../../src/a11y/report/from-axe';
import type { ReportPage } from '../../src/a11y/report/report.types';
import { Scanner } from '../../src/a11y/scan/scanner';
import type { TestApp } from './test-app';

/** The page at `width` px, graded with the scanner's own axe run and scoring (timings zero). */
export async function gradeAt(t: TestApp, page: Page, width: number, height = 800): Promise<ReportPage> {
  const scanner = t.app.get(Scanner, { strict: false });
  await page.setViewport({ width, height });
  return pageFromAxe(page.url(), page.url(), await scanner.runAxe(page), {
    navigationMs: 0,
    settleMs: 0,
    axeMs: 0,
    totalMs: 0,
  });
}
