import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface Asset {
  path: string;
  type: string;
  body: Buffer;
  etag: string;
}

/**
 * The static files of every page (the website's and the report pages'), real files in
 * `src/common/html/assets/` (linted as browser code; copied beside the compiled code by nest-cli's
 * `assets`, so this path is the same in src/ and dist/):
 * - web.css: the one stylesheet (no inline styles anywhere);
 * - web.js: the one script (deferred; the strict CSP allows no inline script). Every page works
 *   without it; it adds copy buttons, drag and drop and upload progress;
 * - favicon.svg: the icon (also answered at /favicon.ico), a beacon's light.
 */
const ASSET_DIR = join(__dirname, 'assets');

/** The text of a file of src/common/html/assets as it is served (trimmed, one final newline). */
function assetText(file: string): string {
  return readFileSync(join(ASSET_DIR, file), 'utf8').trim() + '\n';
}

export const WEB_CSS = assetText('web.css');
export const WEB_JS = assetText('web.js');

function asset(name: string, ext: string, type: string, text: string): Asset {
  const body = Buffer.from(text.trim() + '\n', 'utf8');
  const hash = createHash('sha256').update(body).digest('hex').slice(0, 12);
  return { path: `/assets/${name}-${hash}.${ext}`, type, body, etag: `"${hash}"` };
}

/** Static files of the pages, named by their content hash (cached for a year). */
export const CSS = asset('web', 'css', 'text/css; charset=utf-8', WEB_CSS);
export const JS = asset('web', 'js', 'text/javascript; charset=utf-8', WEB_JS);
export const FAVICON = asset('favicon', 'svg', 'image/svg+xml', assetText('favicon.svg'));
export const ASSETS: ReadonlyMap<string, Asset> = new Map([CSS, JS, FAVICON].map((a) => [a.path, a]));

/** The name of a file of another build: same file, another hash ("web-0123456789ab.css"). */
const BUILT_NAME = /^(web|favicon)-[0-9a-f]{12}\.(css|js|svg)$/;

/**
 * The asset a `/assets/` name asks for: this build's file (`current`), or, for the name of the same
 * file in another build, this build's version of it. Pages cached before a deploy (a report page
 * is cached for an hour) or served by an instance still on the older build during a rolling deploy
 * link the older names: they keep their stylesheet, script and icon instead of a 404. Undefined for
 * any other name.
 */
export function assetNamed(name: string): { asset: Asset; current: boolean } | undefined {
  const exact = ASSETS.get(`/assets/${name}`);
  if (exact) return { asset: exact, current: true };
  const m = BUILT_NAME.exec(name);
  const asset = m
    ? [CSS, JS, FAVICON].find((a) => a.path.startsWith(`/assets/${m[1]}-`) && a.path.endsWith(`.${m[2]}`))
    : undefined;
  return asset ? { asset, current: false } : undefined;
}
