import { normaliseSite, siteAddress } from './tools.js';

/** The site address option, kept in chrome.storage.sync. */
async function main() {
  const input = document.getElementById('site');
  const status = document.getElementById('status');
  input.value = await siteAddress();
  document.getElementById('form').addEventListener('submit', async (e) => {
    e.preventDefault();
    const site = normaliseSite(input.value);
    if (!site) {
      status.textContent = 'Enter an http or https address, such as https://beacon.example.com.';
      status.className = 'bad';
      input.setAttribute('aria-invalid', 'true');
      return;
    }
    await chrome.storage.sync.set({ site });
    input.value = site;
    input.removeAttribute('aria-invalid');
    status.className = '';
    status.textContent = `Saved: the tools open on ${site}.`;
  });
}
void main();
