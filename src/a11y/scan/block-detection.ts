/** What the block detector reads of the main document's response. */
export interface LoadedDocument {
  status: number;
  /** Response headers, lower-case names. */
  headers: Readonly<Record<string, string>>;
  title: string;
  /** Visible text of the page (the start is enough). */
  text: string;
}

/**
 * Signals of bot-protection challenges and access-denied pages. A vendor header alone
 * (`server: cloudflare`, `cf-ray`) is on every page of a protected site and is not a block.
 * Returns the reason (naming the signal) or undefined. A block page is never graded.
 */
export function detectBlock(doc: LoadedDocument): string | undefined {
  const h = doc.headers;
  const denied = doc.status === 401 || doc.status === 403 || doc.status === 429 || doc.status === 405;
  if ((h['cf-mitigated'] ?? '').toLowerCase() === 'challenge') return 'cloudflare: cf-mitigated: challenge';
  const waf = h['x-amzn-waf-action'];
  if (waf) return `aws-waf: x-amzn-waf-action: ${waf}`;
  if (h['x-datadome'] !== undefined && denied) return `datadome: x-datadome on HTTP ${doc.status}`;
  if (h['x-sucuri-block'] !== undefined) return `sucuri: x-sucuri-block: ${h['x-sucuri-block']}`;
  const title = doc.title.trim();
  const text = doc.text.slice(0, 20000);
  if (/^just a moment\.{0,3}$/i.test(title) || /^attention required! \| cloudflare$/i.test(title)) {
    return `challenge page: "${title}"`;
  }
  if (/incapsula incident id/i.test(text) || /_incapsula_resource/i.test(text))
    return 'imperva: Incapsula incident page';
  if (/^access denied$/i.test(title) && /reference\s*#\s*[\d.a-f]+/i.test(text)) return 'akamai: Access Denied page';
  if (/sucuri website firewall/i.test(text) && /access denied/i.test(text)) return 'sucuri: Access Denied page';
  if (/vercel security checkpoint/i.test(title) || /vercel security checkpoint/i.test(text))
    return 'vercel: Security Checkpoint page';
  if (/datadome/i.test(text) && denied) return 'datadome: captcha page';
  return undefined;
}
