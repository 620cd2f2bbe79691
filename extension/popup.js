import { looksLikePdf, siteAddress, toolAddress, TOOLS } from './tools.js';

/**
 * The toolbar popup: every tool, a link to its page on the configured site. When the tab is a PDF
 * (its address, readable thanks to activeTab after the click on the toolbar button), the tools that
 * take an address open with it filled in.
 */
async function main() {
  const site = await siteAddress();
  document.getElementById('site').textContent = site;
  const [tab] = await chrome.tabs.query({ active: true, currentWindow: true }).catch(() => []);
  const pdf = tab && tab.url && looksLikePdf(tab.url) ? tab.url : null;
  const note = document.getElementById('this-tab');
  note.hidden = false;
  note.textContent = pdf
    ? 'This tab is a PDF: the tools marked "with this PDF" open with its address.'
    : 'This tab is not a PDF (its address does not end in .pdf): choose a tool and upload the file there.';
  const list = document.getElementById('tools');
  for (const tool of TOOLS) {
    const li = document.createElement('li');
    const a = document.createElement('a');
    const withPdf = pdf && tool.url;
    a.href = toolAddress(site, tool.slug, withPdf ? pdf : null);
    a.textContent = tool.title + (withPdf ? ' (with this PDF)' : '');
    a.target = '_blank';
    a.rel = 'noopener';
    li.appendChild(a);
    list.appendChild(li);
  }
  document.getElementById('options').addEventListener('click', (e) => {
    e.preventDefault();
    chrome.runtime.openOptionsPage();
  });
}
void main();
