import { createHash } from 'node:crypto';
import { DomainError } from '../../common/errors/domain-error';
import { ErrorCode } from '../../common/errors/error-code';
import { cacheKeyOf } from '../report/reports.service';
import { VIEWPORT_WIDTH } from '../screenshots/box';

/**
 * The viewports a site scan may ask for (docs/a11y-monitoring.md, "Viewports"). `desktop` is the
 * public scan's own viewport; `phone` is a 375 CSS px wide mobile viewport (meta viewport honoured,
 * touch events on), device scale 1 as the pictures expect.
 */
export const VIEWPORTS = {
  desktop: { width: VIEWPORT_WIDTH, height: 800 },
  phone: { width: 375, height: 812, isMobile: true, hasTouch: true, deviceScaleFactor: 1 },
} as const;
export type ViewportName = keyof typeof VIEWPORTS;
export const VIEWPORT_NAMES = Object.keys(VIEWPORTS) as ViewportName[];
export const VIEWPORT_LABELS: Record<ViewportName, string> = { desktop: 'desktop 1280', phone: 'phone 375' };

/** A cookie given to every page of the scan (from a site's login steps). */
export interface ScanCookie {
  name: string;
  value: string;
  domain: string;
  path: string;
  secure: boolean;
  httpOnly: boolean;
  sameSite?: 'Strict' | 'Lax' | 'None';
  /** Epoch seconds; absent or -1: a session cookie. */
  expires?: number;
}

/** Cookies per scan and bytes per cookie value a job payload may carry. */
export const MAX_SCAN_COOKIES = 50;
const MAX_COOKIE_BYTES = 4096;

/**
 * What a site scan asks of the engine beyond the public scan (which passes none): the viewport, the
 * checks beyond axe (src/a11y/checks: counted as "needs review", never in the score) and the cookies
 * of a signed-in session. Travels in the scan job's payload, so fleet workers get it.
 */
export interface ScanOptions {
  viewport?: ViewportName;
  /** The 320 px reflow check (WCAG 1.4.10). */
  reflow?: boolean;
  /** The keyboard walk (WCAG 2.1.1, 2.1.2, 2.4.3, 2.4.7). */
  keyboard?: boolean;
  cookies?: ScanCookie[];
}

/** True when `o` asks for anything the public scan does not do. */
export const hasOptions = (o: ScanOptions | undefined): o is ScanOptions =>
  !!o && (o.viewport !== undefined || !!o.reflow || !!o.keyboard || (o.cookies?.length ?? 0) > 0);

/** The viewport of a scan with these options (the public scan's without). */
export const viewportOf = (o: ScanOptions | undefined): { width: number; height: number } => {
  const v = VIEWPORTS[o?.viewport ?? 'desktop'];
  return { width: v.width, height: v.height };
};

/**
 * The cache key (and so the queue's job id) of a scan: the public scan's without options, its own
 * with them (the options in a fixed order, cookies included, hashed), so a phone or signed-in run is
 * never served to, nor joined by, a public scan.
 */
export function scanKeyOf(normalizedUrl: string, crawl: boolean, o: ScanOptions | undefined): string {
  if (!hasOptions(o)) return cacheKeyOf(normalizedUrl, crawl);
  const fixed = JSON.stringify([
    o.viewport ?? 'desktop',
    !!o.reflow,
    !!o.keyboard,
    (o.cookies ?? []).map((c) => [c.name, c.value, c.domain, c.path]),
  ]);
  return createHash('sha256')
    .update(`${crawl ? 'crawl' : 'page'} ${normalizedUrl} options ${fixed}`)
    .digest('hex');
}

const bad = (why: string) =>
  new DomainError(ErrorCode.ScanFailed, `The scan job could not be read (${why}); it was dropped.`);
const isStr = (v: unknown, max = MAX_COOKIE_BYTES): v is string => typeof v === 'string' && v.length <= max;

/** Reads the options of a job payload (undefined: none); anything malformed fails that job only. */
export function parseScanOptions(raw: unknown): ScanOptions | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (typeof raw !== 'object' || Array.isArray(raw)) throw bad('options is not an object');
  const o = raw as Record<string, unknown>;
  const out: ScanOptions = {};
  if (o.viewport !== undefined) {
    if (!VIEWPORT_NAMES.includes(o.viewport as ViewportName)) throw bad('options.viewport is unknown');
    out.viewport = o.viewport as ViewportName;
  }
  if (o.reflow !== undefined) out.reflow = o.reflow === true;
  if (o.keyboard !== undefined) out.keyboard = o.keyboard === true;
  if (o.cookies !== undefined) {
    if (!Array.isArray(o.cookies) || o.cookies.length > MAX_SCAN_COOKIES) throw bad('options.cookies is not a list');
    out.cookies = o.cookies.map((c: unknown) => {
      const k = (c ?? {}) as Record<string, unknown>;
      if (!isStr(k.name, 256) || !isStr(k.value) || !isStr(k.domain, 256) || !isStr(k.path, 1024))
        throw bad('a cookie is malformed');
      const cookie: ScanCookie = {
        name: k.name,
        value: k.value,
        domain: k.domain,
        path: k.path,
        secure: k.secure === true,
        httpOnly: k.httpOnly === true,
      };
      if (k.sameSite === 'Strict' || k.sameSite === 'Lax' || k.sameSite === 'None') cookie.sameSite = k.sameSite;
      if (typeof k.expires === 'number' && Number.isFinite(k.expires)) cookie.expires = k.expires;
      return cookie;
    });
  }
  return hasOptions(out) ? out : undefined;
}
