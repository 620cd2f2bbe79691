import escapeHtml from 'escape-html';

/** Markup that is already safe: produced by {@link html} or {@link raw}. */
export class SafeHtml {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

export type Renderable = SafeHtml | string | number | boolean | null | undefined | readonly Renderable[];

function render(v: Renderable): string {
  if (v === null || v === undefined || v === false) return '';
  if (v instanceof SafeHtml) return v.value;
  if (Array.isArray(v)) return (v as readonly Renderable[]).map(render).join('');
  return escapeHtml(String(v));
}

/**
 * The one way pages produce markup: every interpolated value is HTML-escaped unless it is
 * itself `html` (nested templates, lists of them). There is no unescaped path besides {@link raw}.
 */
export function html(strings: TemplateStringsArray, ...values: Renderable[]): SafeHtml {
  let out = strings[0];
  for (let i = 0; i < values.length; i++) out += render(values[i]) + strings[i + 1];
  return new SafeHtml(out);
}

/** Trusted markup written by this code (never user data). */
export const raw = (markup: string): SafeHtml => new SafeHtml(markup);

/** Query string of non-empty parameters, e.g. for pagination links. */
export function qs(params: Record<string, string | number | boolean | null | undefined>): string {
  const u = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null && v !== '') u.set(k, String(v));
  const s = u.toString();
  return s ? `?${s}` : '';
}
