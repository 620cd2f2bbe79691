import type { Response } from 'express';
import { CSS, FAVICON, JS } from './assets';
import { html, Renderable, SafeHtml } from './html';

/**
 * The page shell every HTML page shares (the website's pages and the accessibility report pages):
 * head with the stylesheet, script and icon, header with the navigation, footer, and the headers
 * they are sent with. Here, in the platform, so a product renders its pages without importing the
 * website (src/web).
 */

/**
 * Strict CSP of every page: scripts and styles only from the app's own files, no inline script or
 * style, no framing, forms post only here.
 */
export const WEB_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join('; ');

/** The hidden form field (or X-CSRF-Token header) carrying the CSRF token. */
export const CSRF_FIELD = '_csrf';

export type Section = 'home' | 'dashboard' | 'pdf' | 'scan' | 'account' | 'signin';

/** What the header shows of the signed-in user (the website's UserView has it). */
export interface ShellUser {
  email: string;
  role: string;
  workspace: string;
}

export interface PageOptions {
  title: string;
  section?: Section;
  user?: ShellUser | null;
  /** The CSRF token of the page's forms (the header's Sign out form among them). */
  csrf: string;
  body: Renderable;
  /**
   * The address to show for a page answered to a POST (a refused form, an upload's result): the
   * page script puts it in the address bar, so the CSRF token of a query string never shows there
   * and a reload or a bookmark opens this page instead of sending the form again.
   */
  address?: string;
}

/** Sign out: a POST form with the CSRF token (never a link: a GET must not end a session). */
const signOut = (csrf: string): SafeHtml =>
  html`<form class="signout" method="post" action="/signout"><input type="hidden" name="${CSRF_FIELD}" value="${csrf}"><button class="secondary" type="submit">Sign out</button></form>`;

const nav = (section: Section | undefined, user: ShellUser | null | undefined, csrf: string): SafeHtml => {
  const link = (href: string, label: string, s: Section) =>
    html`<li><a href="${href}"${s === section ? html` aria-current="page"` : ''}>${label}</a></li>`;
  return html`<nav aria-label="Main"><ul>
    ${link('/dashboard', 'Dashboard', 'dashboard')}
    ${link('/pdf', 'PDF tools', 'pdf')}
    ${link('/scan', 'Accessibility scan', 'scan')}
  </ul></nav>
  <div class="who">${
    user
      ? html`<span>${user.email} <span class="hint">(${user.role}, ${user.workspace})</span></span>
      <a href="/account/password">Password</a>
      ${csrf ? signOut(csrf) : ''}`
      : html`<a href="/signin"${section === 'signin' ? html` aria-current="page"` : ''}>Sign in</a>`
  }</div>`;
};

/** A whole page: skip link, header with navigation (and Sign out for a signed-in user), the main content, a footer. */
export function page(o: PageOptions): string {
  return html`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${o.title} · Beacon</title>
<link rel="icon" href="${FAVICON.path}" type="image/svg+xml">
<link rel="stylesheet" href="${CSS.path}">
<script src="${JS.path}" defer></script>
</head>
<body>
<a class="skip" href="#main">Skip to the content</a>
<header class="site">
  <a class="brand" href="/">Beacon</a>
  ${nav(o.section, o.user, o.csrf)}
</header>
<main id="main" tabindex="-1"${o.address ? html` data-address="${o.address}"` : ''}>
${o.body}
</main>
<footer class="site">
  <p>Beacon: AI visibility reports, PDF tools and accessibility scans. <a href="/api/v1">API</a> · <a href="/llms.txt">llms.txt</a></p>
</footer>
</body>
</html>`.value;
}

/**
 * Sends a page with the pages' headers (CSP, no framing, no sniffing). `cache`: true for a
 * personal page (never stored), false for a public one (revalidated), or a Cache-Control value.
 */
export function sendPage(res: Response, status: number, markup: string | Buffer, cache: boolean | string = true): void {
  res
    .status(status)
    .set({
      'Content-Type': 'text/html; charset=utf-8',
      'Content-Security-Policy': WEB_CSP,
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'same-origin',
      'X-Frame-Options': 'DENY',
      'Cache-Control': typeof cache === 'string' ? cache : cache ? 'no-store' : 'no-cache',
    })
    .send(markup);
}
