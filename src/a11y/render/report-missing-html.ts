import { html, qs } from '../../common/html/html';
import { page as sitePage } from '../../common/html/page';

/** /r/{id} of an unknown, malformed or expired report (404). */
export function notFoundHtml(): string {
  return sitePage({
    title: 'Report not found',
    section: 'scan',
    csrf: '',
    body: html`<h1>Report not found</h1>
<p>No report has this address. Reports are kept 30 days.</p>
<p><a href="/scan">Scan a page</a></p>`,
  });
}

/** /r?url= of an address without a stored report (404), with a link to scan it. */
export function noCurrentReportHtml(address: { url: string; crawl: boolean }): string {
  return sitePage({
    title: 'No current report',
    section: 'scan',
    csrf: '',
    body: html`<h1>No current report of this address</h1>
<p>${address.url} has no stored report${address.crawl ? ' of a crawl' : ''}: reports are kept 30 days.</p>
<p><a class="button" href="/scan${qs({ url: address.url, crawl: address.crawl || undefined })}">Scan it now</a></p>`,
  });
}
