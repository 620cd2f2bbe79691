import { html } from '../../common/html/html';
import { page } from '../render/layout';
import type { WebRequest } from '../web-context';

/** The landing page: the three products in three sentences. */
export function homePage(user: WebRequest['webUser'], csrf: string): string {
  return page({
    title: 'Home',
    section: 'home',
    user,
    csrf,
    body: html`<h1>Beacon</h1>
<p>Three tools in one place.</p>
<ul class="tools">
  <li class="card"><h2><a href="/dashboard">AI visibility dashboard</a></h2><p>How often AI assistants mention your brand, which sources they cite, and where competitors get cited instead. Sign in to see your workspace; the same figures are in the <a href="/api/v1">API</a>.</p></li>
  <li class="card"><h2><a href="/pdf">PDF tools</a></h2><p>Merge, split, rotate, compress, watermark and more: free, no account, a daily quota per tool.</p></li>
  <li class="card"><h2><a href="/scan">Accessibility scan</a></h2><p>Check a web page against WCAG with axe-core in a real browser and get a shareable report.</p></li>
</ul>`,
  });
}
