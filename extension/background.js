import { looksLikePdf, siteAddress, toolAddress, TOOLS } from './tools.js';

/**
 * The context menu: "Open in Beacon PDF tools" on links to PDFs and on a PDF open in a tab, with
 * one entry per tool that takes a PDF's address. A click opens the tool's page in a new tab with
 * the address filled in; the person presses the tool's button there (nothing is sent before).
 */
const PDF_PATTERNS = ['*://*/*.pdf', '*://*/*.pdf?*', '*://*/*.pdf#*', '*://*/*.PDF', '*://*/*.PDF?*'];
const URL_TOOLS = TOOLS.filter((t) => t.url);

chrome.runtime.onInstalled.addListener(() => {
  chrome.contextMenus.removeAll(() => {
    chrome.contextMenus.create({ id: 'beacon-link', title: 'Open in Beacon PDF tools', contexts: ['link'], targetUrlPatterns: PDF_PATTERNS });
    chrome.contextMenus.create({ id: 'beacon-page', title: 'Open in Beacon PDF tools', contexts: ['page', 'frame'], documentUrlPatterns: PDF_PATTERNS });
    for (const parent of ['beacon-link', 'beacon-page']) {
      for (const tool of URL_TOOLS) chrome.contextMenus.create({ id: `${parent}:${tool.slug}`, parentId: parent, title: tool.title, contexts: parent === 'beacon-link' ? ['link'] : ['page', 'frame'] });
    }
  });
});

/** The PDF's address of a menu click (the link, else the frame or page), or null if it is not one. */
export function pdfOfClick(info) {
  const address = String(info.menuItemId).startsWith('beacon-link') ? info.linkUrl : (info.frameUrl ?? info.pageUrl);
  return address && looksLikePdf(address) ? address : null;
}

/** Handles a click on one of the entries: opens the tool page (or the tool list when the address is not a PDF's). */
export async function onMenuClick(info) {
  const id = String(info.menuItemId);
  const slug = id.includes(':') ? id.split(':')[1] : 'images';
  const site = await siteAddress();
  const pdf = pdfOfClick(info);
  const url = pdf ? toolAddress(site, slug, pdf) : `${site}/pdf`;
  await chrome.tabs.create({ url });
  return url;
}

chrome.contextMenus.onClicked.addListener((info) => void onMenuClick(info));
// For the test that loads the unpacked extension (no programmable surface: nothing listens from outside).
globalThis.beaconMenuClick = onMenuClick;
