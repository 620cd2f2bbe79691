import { ToolFailure } from './tool-failure';
import { plural } from '../../common/text/plural';

/**
 * The one page-range grammar of every tool (1-based pages):
 * `all`, `odd`, `even`, `last`, `N`, `N-M`, `N-` (to the end), `-M` (from the start), `N-last`,
 * comma-separated, e.g. `1-3,7,9-` or `odd,last`. A descending range (`5-3`) lists pages backwards.
 * Pages come back in the order written, each once.
 */
export const PAGE_RANGE_GRAMMAR =
  'Pages, 1-based, comma-separated: "all", "odd", "even", "last", "N", "N-M", "N-" (to the end), "-M", "N-last"; e.g. "1-3,7,9-".';

const TOKEN = /^(?:(\d+|last)?\s*-\s*(\d+|last)?|(\d+|last|all|odd|even))$/i;

/**
 * The tokens of `spec`, or the syntax error (`page_count` when known): checkable before the
 * document is open, and the first step of {@link parsePageRange}.
 */
export function pageRangeTokens(spec: string | undefined, pageCount?: number): RegExpExecArray[] {
  const text = (spec ?? 'all').trim();
  if (text === '') return [];
  return text.split(',').map((raw) => {
    const token = raw.trim();
    const m = TOKEN.exec(token);
    if (!m || token === '-') {
      throw new ToolFailure(
        'invalid_page_range',
        `Cannot read "${token}" in page range "${text}". ${PAGE_RANGE_GRAMMAR}`,
        pageCount === undefined ? {} : { page_count: pageCount },
      );
    }
    return m;
  });
}

/**
 * The checks of `spec` possible before opening the document: its syntax, and with `pageCount`
 * (known from a stored file's row) the whole resolution. Throws what {@link parsePageRange} would.
 */
export function checkPageRange(spec: string | undefined, pageCount: number | undefined, label = 'the file'): void {
  if (pageCount === undefined) pageRangeTokens(spec);
  else parsePageRange(spec, pageCount, label);
}

/** Resolves `spec` against a document of `pageCount` pages; `label` names the input in errors. */
export function parsePageRange(spec: string | undefined, pageCount: number, label = 'the file'): number[] {
  const text = (spec ?? 'all').trim();
  const tokens = pageRangeTokens(spec, pageCount);
  if (text === '') return range(1, pageCount);
  const seen = new Set<number>();
  const out: number[] = [];
  const push = (p: number): void => {
    if (!seen.has(p)) {
      seen.add(p);
      out.push(p);
    }
  };
  const num = (s: string): number => {
    const n = s.toLowerCase() === 'last' ? pageCount : Number(s);
    if (n < 1 || n > pageCount) {
      throw new ToolFailure(
        'invalid_page_range',
        `Page ${n} in "${text}" is out of range: ${label} has ${plural(pageCount, 'page')} (1-${pageCount}).`,
        { page_count: pageCount },
      );
    }
    return n;
  };
  for (const m of tokens) {
    const [, from, to, single] = m;
    if (single !== undefined) {
      const word = single.toLowerCase();
      if (word === 'all') range(1, pageCount).forEach(push);
      else if (word === 'odd')
        range(1, pageCount)
          .filter((p) => p % 2 === 1)
          .forEach(push);
      else if (word === 'even')
        range(1, pageCount)
          .filter((p) => p % 2 === 0)
          .forEach(push);
      else push(num(single));
      continue;
    }
    const a = from === undefined ? 1 : num(from);
    const b = to === undefined ? pageCount : num(to);
    range(a, b).forEach(push);
  }
  if (out.length === 0) {
    throw new ToolFailure(
      'invalid_page_range',
      `Page range "${text}" selects no page of ${label} (${plural(pageCount, 'page')}).`,
      {
        page_count: pageCount,
      },
    );
  }
  return out;
}

/** Inclusive range, descending when `to < from`. */
function range(from: number, to: number): number[] {
  const step = to >= from ? 1 : -1;
  const out: number[] = [];
  for (let p = from; step > 0 ? p <= to : p >= to; p += step) out.push(p);
  return out;
}
