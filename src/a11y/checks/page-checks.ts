import { Injectable, Logger } from '@nestjs/common';
import type { Page } from 'puppeteer-core';
import { AppConfig } from '../../common/config/env';
import type { ScanOptions } from '../scan/scan-options';
import type { Box } from '../screenshots/box';
import { newScreenshotId, ScreenshotStore } from '../screenshots/screenshot.store';
import type { PageReview } from './check.types';
import { keyboardWalk } from './keyboard-walk';
import { reflowCheck } from './reflow';

/** Pictures in a page's focus strip (the first stops of the walk). */
export const MAX_STRIP_PICTURES = 20;
/** A strip picture shows at most this much of its element (CSS px), with this much around it. */
const STRIP_MAX = { width: 480, height: 160 };
const STRIP_CONTEXT_PX = 8;
/** Time kept for the page's own end after the checks (the scanner's page limit). */
const CHECKS_MARGIN_MS = 2000;
/** Shortest time a keyboard walk is started with (less would report controls as unreached for want of time). */
const MIN_WALK_MS = 2000;

/**
 * The checks beyond axe that a site scan asks for (scan-options.ts): the keyboard walk at the scan's
 * viewport, then the 320 px reflow check (which resizes the page). Their findings go in the page
 * report's `review` ("needs review"), never in the axe score. A check that fails is noted in
 * `review.errors`; it never fails the scan. The focus strip's pictures go to the screenshot store,
 * kept as long as the report.
 */
@Injectable()
export class PageChecks {
  private readonly logger = new Logger('A11yChecks');

  constructor(
    private readonly store: ScreenshotStore,
    private readonly config: AppConfig,
  ) {}

  async run(page: Page, options: ScanOptions, deadline: number): Promise<PageReview> {
    const review: PageReview = { needsReview: 0 };
    const errors: string[] = [];
    const walkUntil = deadline - CHECKS_MARGIN_MS - (options.reflow ? CHECKS_MARGIN_MS : 0);
    if (options.keyboard && walkUntil - Date.now() < MIN_WALK_MS) {
      errors.push('The keyboard walk was skipped: the page had used its time limit.');
    } else if (options.keyboard) {
      const pictures: { id: string; png: Buffer }[] = [];
      try {
        review.keyboard = await keyboardWalk(page, {
          deadline: walkUntil,
          picture: (box) =>
            pictures.length < MAX_STRIP_PICTURES ? this.picture(page, box, pictures) : Promise.resolve(undefined),
        });
      } catch (e) {
        errors.push(`The keyboard walk could not finish: ${(e as Error).message}`);
      }
      await this.store.save(pictures).catch((e: Error) => this.logger.warn(`Focus strip not stored: ${e.message}`));
    }
    if (options.reflow && deadline - Date.now() < CHECKS_MARGIN_MS) {
      errors.push('The 320 px reflow check was skipped: the page had used its time limit.');
    } else if (options.reflow) {
      try {
        review.reflow = await reflowCheck(page);
      } catch (e) {
        errors.push(`The 320 px reflow check could not finish: ${(e as Error).message}`);
      }
    }
    review.needsReview = (review.keyboard?.findings.length ?? 0) + (review.reflow?.findings.length ?? 0);
    if (errors.length) review.errors = errors;
    return review;
  }

  /** A small PNG of the focused element (the strip), or undefined when it cannot be taken. */
  private async picture(page: Page, box: Box, out: { id: string; png: Buffer }[]): Promise<string | undefined> {
    try {
      const x = Math.max(0, box.x - STRIP_CONTEXT_PX);
      const y = Math.max(0, box.y - STRIP_CONTEXT_PX);
      const png = await page.screenshot({
        type: 'png',
        clip: {
          x,
          y,
          width: Math.min(box.width, STRIP_MAX.width) + 2 * STRIP_CONTEXT_PX,
          height: Math.min(box.height, STRIP_MAX.height) + 2 * STRIP_CONTEXT_PX,
        },
        captureBeyondViewport: true,
        optimizeForSpeed: true,
      });
      const id = newScreenshotId();
      out.push({ id, png: Buffer.from(png) });
      return `${this.config.publicBaseUrl()}/api/screenshots/${id}.png`;
    } catch {
      return undefined;
    }
  }
}
