/**
 * What the extension knows of Beacon: the default site address, the tools (the popup lists them
 * all; the context menu offers those whose page takes a PDF's address, `?url=`), and how a tool's
 * address is made. One file, shared by the service worker, the popup and the options page.
 */
export const DEFAULT_SITE = 'http://localhost:3000';

/**
 * `url: true`: the page has the address input the extension fills (`/pdf/<slug>?url=...`): every
 * tool of one file. Merge takes uploads only (several files, in an order the person sets).
 */
export const TOOLS = [
  { slug: 'images', title: 'PDF to images', url: true },
  { slug: 'ocr', title: 'OCR: make a scanned PDF searchable', url: true },
  { slug: 'read-pdf', title: 'PDF to text', url: true },
  { slug: 'merge-pdfs', title: 'Merge PDFs' },
  { slug: 'split-pdf', title: 'Split a PDF', url: true },
  { slug: 'rotate-pages', title: 'Rotate pages', url: true },
  { slug: 'remove-pages', title: 'Remove pages', url: true },
  { slug: 'compress-pdf', title: 'Compress a PDF', url: true },
  { slug: 'add-watermark', title: 'Add a watermark', url: true },
  { slug: 'add-page-numbers', title: 'Add page numbers', url: true },
  { slug: 'pdf-metadata', title: 'PDF metadata', url: true },
  { slug: 'flatten-form', title: 'Flatten a form', url: true },
];

/** A site address as typed: an http(s) origin (and path), without a trailing slash; null if it is not one. */
export function normaliseSite(text) {
  let u;
  try {
    u = new URL(String(text).trim());
  } catch {
    return null;
  }
  if (u.protocol !== 'https:' && u.protocol !== 'http:') return null;
  if (u.username || u.password || u.search || u.hash) return null;
  return (u.origin + u.pathname).replace(/\/+$/, '');
}

/** Whether an address looks like a PDF: http(s) and a path ending in .pdf. */
export function looksLikePdf(address) {
  try {
    const u = new URL(address);
    return (u.protocol === 'https:' || u.protocol === 'http:') && /\.pdf$/i.test(u.pathname);
  } catch {
    return false;
  }
}

/** The tool page for `slug` on `site`, with the PDF's address as its input when given. */
export function toolAddress(site, slug, pdfUrl) {
  const page = `${site}/pdf/${slug}`;
  return pdfUrl ? `${page}?url=${encodeURIComponent(pdfUrl)}` : page;
}

export async function siteAddress() {
  const { site } = await chrome.storage.sync.get('site');
  return normaliseSite(site ?? '') ?? DEFAULT_SITE;
}
