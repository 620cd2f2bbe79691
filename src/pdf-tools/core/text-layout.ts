/**
 * A page's positioned text runs (as pdf.js gives them) as Markdown: reading order across columns,
 * paragraphs, headings by font size, list items, and plain grids as Markdown tables. Pure: no PDF
 * parsing here (core/pdf-text.ts feeds it), so it is tested on runs made by hand.
 * Over 300 lines: its steps (lines, column gutters, reading order, tables, headings) pass each other private shapes
 * (Line, Chunk, Segment) that no other file uses.
 */

/** One run of text on a page: its baseline start (PDF points, y up), advance width and font size. */
export interface TextRun {
  text: string;
  x: number;
  y: number;
  width: number;
  size: number;
  /** Drawn in a monospaced font (code). */
  mono?: boolean;
}

/** Runs of one line closer than this (in font sizes) are one chunk; wider gaps separate cells or columns. */
const CHUNK_GAP = 1.0;
/** A gap wider than this (in font sizes) between runs of a chunk is a space. */
const SPACE_GAP = 0.12;
/** Baselines closer than this (in font sizes) are one line. */
const SAME_LINE = 0.4;
/** A gutter between columns is at least this wide (in body font sizes) and crossed by at most this share of lines. */
const GUTTER_MIN = 0.9;
const GUTTER_CROSSING = 0.1;
/** Text on each side of a gutter has at least this median length (characters): prose, not table cells. */
const COLUMN_MIN_CHARS = 12;
/** Baselines further apart than this (in font sizes) start a new paragraph. */
const PARAGRAPH_GAP = 1.7;

interface Chunk {
  text: string;
  x0: number;
  x1: number;
  size: number;
}

interface Line {
  y: number;
  size: number;
  chunks: Chunk[];
  /** Every run in a monospaced font: a line of code. */
  mono: boolean;
}

/** A line of one column in reading order (`cells` more than one: a possible table row). */
interface Segment {
  y: number;
  size: number;
  cells: Chunk[];
  mono: boolean;
  /** First segment after a change of column or band: always starts a new block. */
  breakBefore: boolean;
}

const BULLET = /^([•◦▪▫●○■□‣⁃∙·*–—-])\s+/u;
const NUMBERED = /^(\(?\d{1,3}[.)]|\(?[a-z][.)])\s+/u;
/** Dot leaders of a table of contents ("Introduction . . . . 1"). */
const LEADER = /\s*(?:\.\s?){4,}\s*/;

/** The font size most characters have (the body text), rounded to a tenth of a point. */
export function bodySize(runs: readonly TextRun[]): number | undefined {
  const weight = new Map<number, number>();
  for (const r of runs) {
    const k = Math.round(r.size * 10) / 10;
    weight.set(k, (weight.get(k) ?? 0) + r.text.trim().length);
  }
  let best: number | undefined;
  let most = 0;
  for (const [size, n] of weight) {
    if (n > most) {
      best = size;
      most = n;
    }
  }
  return best;
}

/** Runs grouped into lines (top to bottom), each line's runs joined into chunks split at wide gaps. */
function linesOf(runs: readonly TextRun[]): Line[] {
  const sorted = runs.filter((r) => r.text.trim() !== '' && r.size > 0).sort((a, b) => b.y - a.y || a.x - b.x);
  const lines: { y: number; size: number; runs: TextRun[] }[] = [];
  // (mono: every run of the line in a monospaced font)
  for (const r of sorted) {
    const last = lines[lines.length - 1];
    if (last && Math.abs(last.y - r.y) <= SAME_LINE * Math.max(last.size, r.size)) {
      last.runs.push(r);
      last.size = Math.max(last.size, r.size);
    } else lines.push({ y: r.y, size: r.size, runs: [r] });
  }
  return lines.map((l) => {
    const chunks: Chunk[] = [];
    for (const r of l.runs.sort((a, b) => a.x - b.x)) {
      const c = chunks[chunks.length - 1];
      const size = Math.max(r.size, c?.size ?? 0);
      const gap = c ? r.x - c.x1 : Infinity;
      if (c && gap <= CHUNK_GAP * size) {
        const space = gap > SPACE_GAP * size && !/\s$/.test(c.text) && !/^\s/.test(r.text);
        c.text += (space ? ' ' : '') + r.text;
        c.x1 = Math.max(c.x1, r.x + r.width);
        c.size = size;
      } else chunks.push({ text: r.text, x0: r.x, x1: r.x + r.width, size: r.size });
    }
    for (const c of chunks) c.text = c.text.replace(/\s+/g, ' ').trim();
    return {
      y: l.y,
      size: l.size,
      chunks: chunks.filter((c) => c.text !== ''),
      mono: l.runs.every((r) => r.mono === true),
    };
  });
}

const median = (values: number[]): number => {
  const s = [...values].sort((a, b) => a - b);
  return s.length ? s[Math.floor(s.length / 2)] : 0;
};

/**
 * The gutters between text columns: x ranges that at most a tenth of the lines cross, at least
 * {@link GUTTER_MIN} body sizes wide, with prose on both sides (cells of a table are short, so a
 * table's gaps are not gutters).
 */
function gutters(lines: Line[], body: number): { start: number; end: number }[] {
  const chunks = lines.flatMap((l) => l.chunks);
  if (lines.length < 3 || !chunks.length) return [];
  const min = Math.floor(Math.min(...chunks.map((c) => c.x0)));
  const max = Math.ceil(Math.max(...chunks.map((c) => c.x1)));
  const width = max - min;
  if (width <= 0 || width > 20_000) return [];
  const cover = new Uint16Array(width);
  for (const c of chunks)
    for (let x = Math.max(0, Math.floor(c.x0) - min); x < Math.min(width, Math.ceil(c.x1) - min); x++) cover[x]++;
  const allowed = Math.max(1, Math.floor(lines.length * GUTTER_CROSSING));
  const found: { start: number; end: number }[] = [];
  let start = -1;
  for (let x = 0; x <= width; x++) {
    const free = x < width && cover[x] <= allowed;
    if (free && start < 0) start = x;
    if (!free && start >= 0) {
      if (x - start >= GUTTER_MIN * body && start > 0 && x < width) found.push({ start: start + min, end: x + min });
      start = -1;
    }
  }
  return found.filter((g) => {
    const left = chunks.filter((c) => c.x1 <= g.start + 0.5);
    const right = chunks.filter((c) => c.x0 >= g.end - 0.5);
    const linesWith = (set: Chunk[]) => lines.filter((l) => l.chunks.some((c) => set.includes(c))).length;
    return (
      median(left.map((c) => c.text.length)) >= COLUMN_MIN_CHARS &&
      median(right.map((c) => c.text.length)) >= COLUMN_MIN_CHARS &&
      linesWith(left) >= lines.length * 0.2 &&
      linesWith(right) >= lines.length * 0.2
    );
  });
}

/** The lines in reading order: full-width lines as they come, runs of column lines column by column. */
function readingOrder(lines: Line[], body: number): Segment[] {
  const gs = gutters(lines, body);
  if (!gs.length)
    return lines.map((l, i) => ({ y: l.y, size: l.size, cells: l.chunks, mono: l.mono, breakBefore: i === 0 }));
  const columnOf = (c: Chunk): number => gs.filter((g) => (c.x0 + c.x1) / 2 > g.end).length;
  const crosses = (l: Line): boolean => l.chunks.some((c) => gs.some((g) => c.x0 < g.start && c.x1 > g.end));
  const out: Segment[] = [];
  let band: Line[] = [];
  const flush = (): void => {
    for (let col = 0; col <= gs.length; col++) {
      let first = true;
      for (const l of band) {
        const cells = l.chunks.filter((c) => columnOf(c) === col);
        if (!cells.length) continue;
        out.push({ y: l.y, size: l.size, cells, mono: l.mono, breakBefore: first });
        first = false;
      }
    }
    band = [];
  };
  for (const l of lines) {
    if (crosses(l)) {
      flush();
      out.push({ y: l.y, size: l.size, cells: l.chunks, mono: l.mono, breakBefore: true });
    } else band.push(l);
  }
  flush();
  return out;
}

/** Whether two rows have the same columns: as many cells, each starting, ending or centred where the other's does. */
function sameGrid(a: Segment, b: Segment): boolean {
  if (a.mono || b.mono || a.cells.length !== b.cells.length || a.cells.length < 2) return false;
  if ([...a.cells, ...b.cells].some((c) => LEADER.test(c.text))) return false;
  return sameColumns(a.cells, b.cells);
}

function sameColumns(a: Chunk[], b: Chunk[]): boolean {
  return a.every((c, i) => {
    const d = b[i];
    const tol = 1.5 * Math.max(c.size, d.size);
    return (
      Math.abs(c.x0 - d.x0) <= tol ||
      Math.abs(c.x1 - d.x1) <= tol ||
      Math.abs((c.x0 + c.x1) / 2 - (d.x0 + d.x1) / 2) <= tol
    );
  });
}

const cell = (s: string): string => s.replace(/\|/g, '\\|');

/** Text that Markdown would read as markup at the start of a line, escaped. */
const plain = (s: string): string => s.replace(/^(#{1,6}\s|>|\d{1,3}[.)]\s|[-*+]\s)/, '\\$1');

/** Joins the lines of a paragraph: a word broken with a hyphen at a line end is joined again. */
function joinLines(lines: string[]): string {
  let out = '';
  for (const l of lines) {
    if (!out) out = l;
    else if (/[a-zà-ÿ]-$/u.test(out) && /^[a-zà-ÿ]/u.test(l)) out = out.slice(0, -1) + l;
    else out += ` ${l}`;
  }
  return out;
}

/** The heading level of text of `size` on a page whose body text is `body` (0: not a heading). */
function headingLevel(size: number, body: number): number {
  const ratio = size / body;
  if (ratio >= 1.6) return 1;
  if (ratio >= 1.3) return 2;
  if (ratio >= 1.12) return 3;
  return 0;
}

/**
 * One page's runs as Markdown blocks separated by blank lines (empty when the page has no text).
 * `body` is the body text's font size (the page's own when it has enough text, else the document's).
 */
export function pageMarkdown(runs: readonly TextRun[], body = bodySize(runs) ?? 10): string {
  const segments = readingOrder(linesOf(runs), body);
  const blocks: string[] = [];
  let para: { lines: string[]; size: number; kind: 'text' | 'item'; alone?: boolean } | undefined;
  let prev: Segment | undefined;
  let lastItem = false;
  const endPara = (): void => {
    if (!para) return;
    const text = joinLines(para.lines);
    const level = headingLevel(para.size, body);
    // Items of one list follow each other line by line.
    if (para.kind === 'item' && lastItem) blocks[blocks.length - 1] += `\n${text}`;
    else if (para.kind === 'item') blocks.push(text);
    else if (level && text.length <= 200) blocks.push(`${'#'.repeat(level)} ${text}`);
    else blocks.push(plain(text));
    lastItem = para.kind === 'item';
    para = undefined;
  };
  for (let i = 0; i < segments.length; i++) {
    const s = segments[i];
    // A grid: this row and the next ones with the same columns.
    let rows = 1;
    while (i + rows < segments.length && !segments[i + rows].breakBefore && sameGrid(s, segments[i + rows])) rows++;
    if (rows >= 2) {
      endPara();
      lastItem = false;
      const grid = segments.slice(i, i + rows).map((r) => r.cells.map((c) => cell(c.text)));
      blocks.push(
        [
          `| ${grid[0].join(' | ')} |`,
          `|${grid[0].map(() => ' --- |').join('')}`,
          ...grid.slice(1).map((r) => `| ${r.join(' | ')} |`),
        ].join('\n'),
      );
      i += rows - 1;
      prev = segments[i];
      continue;
    }
    // Lines of code (a monospaced font) as a fenced block, line by line.
    if (s.mono) {
      endPara();
      lastItem = false;
      let end = i + 1;
      while (end < segments.length && segments[end].mono) end++;
      const code = segments.slice(i, end).map((c) => c.cells.map((x) => x.text).join(' '));
      blocks.push(['```', ...code.map((l) => l.replace(/^```/, '\\`\\`\\`')), '```'].join('\n'));
      i = end - 1;
      prev = segments[i];
      continue;
    }
    const contents = LEADER.test(s.cells.map((c) => c.text).join(' '));
    const text = s.cells
      .map((c) => c.text)
      .join(' ')
      .replace(LEADER, ' … ');
    const bullet = BULLET.exec(text);
    const numbered = NUMBERED.exec(text);
    const gap = prev ? prev.y - s.y : 0;
    const newBlock =
      !para ||
      s.breakBefore ||
      gap > PARAGRAPH_GAP * Math.max(s.size, prev?.size ?? 0) ||
      gap < 0 ||
      Math.abs(s.size - para.size) > 0.1 * para.size ||
      bullet !== null ||
      numbered !== null ||
      contents ||
      para.alone === true;
    if (newBlock) {
      endPara();
      if (bullet) para = { lines: [`- ${text.slice(bullet[0].length)}`], size: s.size, kind: 'item' };
      else if (numbered)
        para = {
          lines: [`${numbered[1].replace(/^\(/, '').replace(/\)$/, '.')} ${text.slice(numbered[0].length)}`],
          size: s.size,
          kind: 'item',
        };
      // A line of a table of contents stands alone, like a list item.
      else if (contents) para = { lines: [text], size: s.size, kind: 'item', alone: true };
      else para = { lines: [text], size: s.size, kind: 'text' };
    } else para!.lines.push(text);
    prev = s;
  }
  endPara();
  return blocks.join('\n\n');
}
