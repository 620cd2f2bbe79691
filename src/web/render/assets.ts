import { createHash } from 'node:crypto';
import { FAVICON_SVG } from '../assets/favicon-svg';
import { WEB_CSS } from '../assets/web-css';
import { WEB_JS } from '../assets/web-js';

export interface Asset {
  path: string;
  type: string;
  body: Buffer;
  etag: string;
}

function asset(name: string, ext: string, type: string, text: string): Asset {
  const body = Buffer.from(text.trim() + '\n', 'utf8');
  const hash = createHash('sha256').update(body).digest('hex').slice(0, 12);
  return { path: `/assets/${name}-${hash}.${ext}`, type, body, etag: `"${hash}"` };
}

/** Static files of the website, named by their content hash (cached for a year). */
export const CSS = asset('web', 'css', 'text/css; charset=utf-8', WEB_CSS);
export const JS = asset('web', 'js', 'text/javascript; charset=utf-8', WEB_JS);
export const FAVICON = asset('favicon', 'svg', 'image/svg+xml', FAVICON_SVG);
export const ASSETS: ReadonlyMap<string, Asset> = new Map([CSS, JS, FAVICON].map((a) => [a.path, a]));
