/** Escapes text for HTML and XML content and attribute values. */
export function escapeXml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** `2026-11-21` of an ISO timestamp. */
export const dateOf = (iso: string): string => iso.slice(0, 10);
