import { PAGE_RANGE_GRAMMAR } from '../pdf-tools/core/page-range';
import { READ_MAX_CHARS } from '../pdf-tools/tools/read-pdf.tool';
import { fileSize } from '../common/text/file-size';
import { plural } from '../common/text/plural';

/**
 * The website's own words for the PDF tools. The tools' descriptions (src/pdf-tools) are written
 * for MCP clients: argument names, `file_id`s, JSON, grammar notation. A person filling in a form
 * reads these instead; anything not listed here falls back to the tool's own text (in the form's
 * words, see `webWording` in pdf-form.ts). Over 300 lines: it is the one table of the website's
 * words for every tool, field and refusal, read and reviewed in one place.
 */
export interface WebFieldText {
  label?: string;
  hint?: string;
  /** Not offered on the website (e.g. the image watermark's scale: the page has no image field). */
  hidden?: boolean;
  /** Required on the website although optional over MCP (the watermark's text: the page has no image). */
  required?: boolean;
  /** Shown only when another field (its path) has this value: split's ranges, every and count follow its mode. */
  when?: { field: string; value: string };
  /** What people read for each choice (the submitted value stays the tool's). */
  choices?: Record<string, string>;
  /**
   * How the form shows the value: `colour` a colour picker (`<input type=color>`, a text field where
   * the browser has none), `percent` the tool's 0-1 fraction as 0-100 %, `datetime` a date and time
   * field read as UTC (sent to the tool as ISO 8601).
   */
  kind?: 'colour' | 'percent' | 'datetime';
  /** Page ranges ("1-3, 7, 10-last"): checked against the chosen file's pages before the run. */
  pageRange?: true;
  /** Pages that may not name every page of the file (remove_pages: at least one page must remain). */
  leavesOne?: true;
  /** The page's own check of a typed value before the run: the problem in the page's words, or undefined. */
  check?: (value: string) => string | undefined;
}

export interface WebToolText {
  /** The page's introduction (the tool's description otherwise). */
  intro?: string;
  /** The run button, e.g. "Split the PDF". */
  button: string;
  /** By argument path ("tiled", "set.title"). */
  fields?: Record<string, WebFieldText>;
  /** Arguments the website always sends (read_pdf: the largest character budget). */
  args?: Record<string, unknown>;
}

/** Page ranges as people write them, instead of the grammar's "N-M", "-M", "N-last". */
export const PAGE_EXAMPLES = 'For example "1-3, 7, 10-last", "odd", "even" or "all".';

/** The nine stamp positions (watermark, page numbers) as people read them; the submitted value stays the tool's token. */
export const POSITION_WORDS: Record<string, string> = {
  'top-left': 'Top left',
  'top-center': 'Top centre',
  'top-right': 'Top right',
  'middle-left': 'Middle left',
  center: 'Centre',
  'middle-right': 'Middle right',
  'bottom-left': 'Bottom left',
  'bottom-center': 'Bottom centre',
  'bottom-right': 'Bottom right',
};

const pages = (what: string, empty = 'Leave empty for every page.'): WebFieldText => ({
  label: 'Pages',
  hint: `${what} ${PAGE_EXAMPLES} ${empty}`,
  pageRange: true,
});

export const WEB_TOOL_TEXT: Record<string, WebToolText> = {
  merge_pdfs: {
    intro: 'Merge 2 to 20 PDFs into one, in the order you add them. Bookmarks that point to included pages are kept.',
    button: 'Merge the PDFs',
    fields: {
      keep_bookmarks: {
        label: 'Keep bookmarks',
        hint: 'Keep the bookmarks (outlines) of the files that point to included pages.',
      },
      filename: {
        label: 'Name of the merged file',
        hint: 'Leave empty for the first file\'s name followed by "-merged.pdf".',
      },
    },
  },
  split_pdf: {
    intro:
      'Split one PDF into several: by page ranges (one document per range), every so many pages, or into a number of parts of about the same size. Each part is a download of its own.',
    button: 'Split the PDF',
    fields: {
      mode: {
        label: 'How to split',
        hint: 'Then fill in the field this choice needs.',
        choices: { ranges: 'By page ranges', every: 'Every so many pages', count: 'Into a number of equal parts' },
      },
      ranges: {
        label: 'Page ranges',
        hint: 'Needed when splitting by page ranges: one document per range, separated by commas; e.g. "1-3, 4-10, 11-last" makes three documents.',
        when: { field: 'mode', value: 'ranges' },
        pageRange: true,
      },
      every: {
        label: 'Pages per document',
        hint: 'Needed when splitting every so many pages, e.g. 1 for single pages.',
        when: { field: 'mode', value: 'every' },
      },
      count: {
        label: 'Number of documents',
        hint: 'Needed when splitting into equal parts, e.g. 3.',
        when: { field: 'mode', value: 'count' },
      },
    },
  },
  rotate_pages: {
    intro:
      'Rotate chosen pages of a PDF clockwise by 90, 180 or 270 degrees, added to any rotation they already have (a page at 90 rotated by 90 ends at 180). Other pages are unchanged.',
    button: 'Rotate the pages',
    fields: {
      angle: {
        label: 'Angle',
        hint: "Clockwise, in degrees, added to each page's current rotation.",
        choices: { '90': '90° (a quarter turn)', '180': '180° (upside down)', '270': '270° (a quarter turn back)' },
      },
      pages: pages('Pages to rotate.'),
    },
  },
  remove_pages: {
    intro: 'Delete chosen pages from a PDF, for example "1, last" or "even". At least one page must remain.',
    button: 'Remove the pages',
    fields: {
      pages: {
        label: 'Pages to remove',
        hint: `${PAGE_EXAMPLES} At least one page must remain.`,
        pageRange: true,
        leavesOne: true,
      },
    },
  },
  compress_pdf: {
    intro:
      'Make a PDF smaller: lossless restructuring, or smaller images. The result is never larger than your file: if nothing can be saved, you get your file back unchanged.',
    button: 'Compress the PDF',
    fields: {
      level: {
        label: 'Level',
        hint: 'Lossless keeps every pixel; recommended turns images into JPEG of at most 150 dpi; extreme into JPEG of 96 dpi.',
        choices: { lossless: 'Lossless', recommended: 'Recommended', extreme: 'Extreme' },
      },
    },
  },
  add_watermark: {
    intro:
      'Stamp a text watermark on chosen pages: in one of nine positions or tiled over the page, with its size, colour, opacity and angle. It appears upright on rotated pages too.',
    button: 'Add the watermark',
    fields: {
      text: {
        label: 'Text',
        hint: 'The words to stamp, in any script (Latin, Cyrillic, Greek, Arabic, ...).',
        required: true,
      },
      image_scale: { hidden: true },
      pages: pages('Pages to watermark.'),
      position: { hint: 'Where on the page, as the reader sees it. Not used when tiled.', choices: POSITION_WORDS },
      tiled: { label: 'Repeat it over the whole page (tiled)', hint: 'The position is then not used.' },
      font_size: { label: 'Font size', hint: 'In points.' },
      color: { label: 'Colour', hint: 'Pick the colour, or type its code, e.g. #808080 for grey.', kind: 'colour' },
      opacity: { label: 'Opacity', hint: 'In per cent: from 5 % (faint) to 100 % (opaque).', kind: 'percent' },
      rotation: { label: 'Angle', hint: 'In degrees, counter-clockwise as the reader sees it (0 is horizontal).' },
      margin: { hint: 'Distance from the page edge in points, for positions at an edge.' },
    },
  },
  add_page_numbers: {
    intro:
      'Print page numbers on chosen pages: position, a format such as "Page {n} of {total}", first number, font size and margin. Numbers appear upright on rotated pages.',
    button: 'Add page numbers',
    fields: {
      position: { hint: 'Where on the page, as the reader sees it.', choices: POSITION_WORDS },
      format: {
        hint: '{n} is the page number and {total} the last number, e.g. "Page {n} of {total}".',
        check: (v) =>
          v.includes('{n}') ? undefined : 'Format needs {n} where the page number goes, e.g. "Page {n} of {total}".',
      },
      start: { label: 'First number', hint: 'The number printed on the first numbered page.' },
      pages: pages('Pages to number, in order from the first number; e.g. "2-last" skips a cover page.'),
      font_size: { label: 'Font size', hint: 'In points.' },
      color: { label: 'Colour', hint: 'Pick the colour, or type its code, e.g. #000000 for black.', kind: 'colour' },
      margin: { hint: 'Distance from the page edge in points.' },
    },
  },
  pdf_metadata: {
    intro:
      "Read a PDF's document information (title, author, subject, keywords, dates and more) and page count, or change it. Leave every field empty to only read it: your file is not changed.",
    button: 'Read or save the metadata',
    fields: {
      'set.title': { label: 'New title' },
      'set.author': { label: 'New author' },
      'set.subject': { label: 'New subject' },
      'set.keywords': { label: 'New keywords', hint: 'Separate them with commas, e.g. "report, 2026".' },
      'set.creator': { label: 'New creator', hint: 'The application that created the original document.' },
      'set.producer': { label: 'New producer', hint: 'The application that produced the PDF.' },
      'set.creation_date': {
        label: 'New creation date (UTC)',
        hint: 'A date and a time of day, in UTC.',
        kind: 'datetime',
      },
      'set.modification_date': {
        label: 'New modification date (UTC)',
        hint: 'A date and a time of day, in UTC. Leave empty for now, when anything changes.',
        kind: 'datetime',
      },
      clear: { label: 'Fields to remove', hint: 'e.g. "author, keywords", or "all". Separate entries with commas.' },
    },
  },
  read_pdf: {
    intro:
      'Get the text of a PDF, laid out as Markdown: headings and lists where the layout shows them, simple tables as tables, columns in reading order, and a marker before each page. A scanned PDF has no text to read.',
    button: 'Get the text',
    fields: { pages: pages('Pages to read.'), max_chars: { hidden: true }, cursor: { hidden: true } },
    args: { max_chars: READ_MAX_CHARS },
  },
  flatten_form: {
    intro:
      'Turn the fillable form fields of a PDF into ordinary page content: the filled-in values stay visible, nothing can be edited any more, and no form is left in the file.',
    button: 'Flatten the form',
  },
};

/** The grammar sentence of the tools' page-range hints and messages, in examples. */
export function pageRangeWords(text: string): string {
  return text.split(PAGE_RANGE_GRAMMAR).join(PAGE_EXAMPLES);
}

const ABBREVIATIONS = /(?:^|[\s(])(?:e\.g|i\.e|etc|vs|cf|approx|no|p|pp|fig)\.$/i;

/**
 * The first sentence of a text, for a short summary: it does not end at an abbreviation ("e.g.",
 * "i.e."), inside parentheses or quotes, or in a number ("1.5"), and ends with exactly one full stop.
 */
export function firstSentence(text: string): string {
  let depth = 0;
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '(') depth++;
    else if (c === ')') depth = Math.max(0, depth - 1);
    else if (c === '"') quoted = !quoted;
    else if (
      (c === '.' || c === '!' || c === '?') &&
      depth === 0 &&
      !quoted &&
      (i === text.length - 1 || /\s/.test(text[i + 1]))
    ) {
      if (c === '.' && ABBREVIATIONS.test(text.slice(0, i + 1))) continue;
      return text.slice(0, i + 1).trim();
    }
  }
  const whole = text.trim();
  return /[.!?]$/.test(whole) ? whole : `${whole}.`;
}

/** "a.pdf", "a.pdf and b.pdf", "a.pdf, b.pdf and c.pdf". */
const andList = (items: string[]): string =>
  items.length < 2 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;

/** One thing opening did to inputs (their indexes in the call), as the result types it (OpenedNote). */
export interface WebOpenedNote {
  inputs: readonly number[];
  one: string;
  many: string;
}

/** The tools' phrases in the page's words: decrypted rather than "opened with the given password", no tool names. */
function notePhrases(text: string): string {
  return text
    .replace(
      / was opened with the given password; the result is not encrypted\./g,
      ' was decrypted with your password: the result has no password.',
    )
    .replace(
      / were opened with the given passwords; the result is not encrypted\./g,
      ' were decrypted with your passwords: the result has no password.',
    )
    .replace(
      /\): the result is not encrypted, and (its|their) restrictions/g,
      (_, whose: string) =>
        `): ${whose === 'its' ? 'it was' : 'they were'} decrypted, so the result has no password and ${whose} restrictions`,
    )
    .replace(/ \(with qpdf\)/g, '');
}

/**
 * What opening did to the inputs (decrypted, repaired, junk before the header) and the tool's own
 * remark, in the page's words, from the result's typed notes: inputs named by their file names
 * ("report.pdf was decrypted with your password"), without tool names (qpdf). `names` are the input
 * files' names in the order of the call (merge: the order added).
 */
export function webNote(o: { opened: readonly WebOpenedNote[]; toolNote?: string }, names: string[]): string {
  const named = (indexes: readonly number[]): string => {
    if (indexes.length === 0) return 'Your file';
    if (indexes.length === 1) return names[indexes[0]] ?? 'Your file';
    const known = indexes.map((i) => names[i]);
    if (known.every((n) => n !== undefined) && known.length <= 3) return andList(known);
    return `Files ${andList(indexes.map((i) => String(i + 1)))}`;
  };
  const sentences = o.opened.map((g) => `${named(g.inputs)} ${g.inputs.length > 1 ? g.many : g.one}`);
  return notePhrases([...sentences, o.toolNote].filter(Boolean).join(' '));
}

/** The limits the website's messages name (from the settings). */
export interface WebLimits {
  maxBytes: number;
  maxPages: number;
  /** How long uploads and results are kept, in minutes. */
  keptMinutes: number;
}

/**
 * Why an upload was refused, in the page's words, keyed by the upload's `error_detail` (the tool
 * code of its PDF check) or else its error code; `{name}` is the file's name. The same table serves
 * the upload without JavaScript (the server) and the page script (a data attribute of the upload form).
 * The JSON answer of `POST /files` keeps its own message for agents.
 */
export function uploadRefusals(l: WebLimits): Record<string, string> {
  const tooLarge = `{name} is larger than ${fileSize(l.maxBytes)}, the most a file may be here.`;
  const notPdf = '{name} is not a PDF file: choose a PDF.';
  const busy = 'The PDF tools are busy: try {name} again in a few seconds.';
  return {
    not_a_pdf: notPdf,
    unsupported_media_type: notPdf,
    corrupt_pdf: '{name} is damaged and cannot be read, even after an attempt to repair it.',
    too_many_pages: `{name} has more than ${plural(l.maxPages, 'page')}, the most a file may have here: split it into smaller files first.`,
    file_too_large: tooLarge,
    payload_too_large: tooLarge,
    encrypted: '{name} is encrypted in a way that cannot be opened here.',
    busy,
    timeout: busy,
    service_unavailable: busy,
    request_timeout: 'The upload of {name} was too slow and was stopped: try again on a faster connection.',
    rate_limited: 'Too many uploads from your address in a short time: wait a minute, then try again.',
    bad_request: '{name} could not be read: it is empty or did not arrive whole. Try again.',
    default: '{name} could not be uploaded. Try again.',
  };
}

/** An upload's refusal in the page's words (see {@link uploadRefusals}), from its error code and detail. */
export function uploadRefusal(name: string, code: string, detail: unknown, l: WebLimits): string {
  const table = uploadRefusals(l);
  const text = (typeof detail === 'string' ? table[detail] : undefined) ?? table[code] ?? table.default;
  return text.split('{name}').join(name);
}

/** A tool failure as the page words it: its code, typed fields and the input it is about (see ToolFailed). */
export interface WebFailure {
  code: string;
  details: {
    pages?: unknown;
    limit?: unknown;
    bytes?: unknown;
    files?: unknown;
    page_count?: unknown;
    /** Remove pages: the pages chosen are every page of the file. */
    none_left?: unknown;
    reason?: unknown;
    output?: unknown;
  };
  /** The input file it is about: its index in the call's inputs. */
  inputIndex?: number;
}

/** The input a failure is about (its index among the call's inputs): its file name, else "your file". */
export function inputName(index: number | undefined, names: string[]): string {
  if (index === undefined) return names.length === 1 ? names[0] : 'one of your files';
  return names[index] ?? 'your file';
}

const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

/**
 * A tool's failure in the page's words, by its error code and typed details (never from the MCP
 * message): sizes with fileSize, counts with plural, no argument names, commands or byte counts.
 * `names` are the input files' names in the order of the call. Undefined for a code whose only
 * account is the tool's message (an argument problem the form could not foresee).
 */
export function toolRefusal(f: WebFailure, names: string[], l: WebLimits): string | undefined {
  const { code, details: d } = f;
  const name = inputName(f.inputIndex, names);
  const limit = num(d.limit);
  switch (code) {
    case 'file_too_large':
      if (f.inputIndex === undefined)
        return `The result would be larger than ${fileSize(limit ?? l.maxBytes)}, the most a file may be here: use fewer or smaller files, or compress them first.`;
      return `${name} is larger than ${fileSize(limit ?? l.maxBytes)}, the most a file may be here.`;
    case 'too_many_pages':
      return `${name} has ${num(d.pages) !== undefined ? plural(num(d.pages)!, 'page') : 'too many pages'}; the tools take at most ${plural(limit ?? l.maxPages, 'page')} per file: split it into smaller files first.`;
    case 'not_a_pdf':
      return `${name} is not a PDF file: choose a PDF.`;
    case 'corrupt_pdf':
      return d.reason === 'no_pages'
        ? `${name} has no pages: there is nothing to work on.`
        : `${name} is damaged and cannot be read, even after an attempt to repair it.`;
    case 'encrypted':
      return `${name} is encrypted in a way that cannot be opened here.`;
    case 'invalid_page_range': {
      const pages = num(d.page_count);
      // Remove pages on every page of a file whose pages the form could not count (a locked one).
      if (d.none_left === true)
        return `The pages you chose are every page of ${name}${pages !== undefined ? ` (${plural(pages, 'page')})` : ''}: at least one page must remain.`;
      return `The pages you chose do not fit ${name}${pages !== undefined ? `, which has ${plural(pages, 'page')}` : ''}. ${PAGE_EXAMPLES}`;
    }
    case 'file_not_found':
      return `${name === 'your file' || name === 'one of your files' ? 'A file you chose' : name} is no longer kept (files are kept ${plural(l.keptMinutes, 'minute')}): upload it again.`;
    case 'timeout':
      return 'The tool took too long with this file: try fewer pages or a lighter option (e.g. "Lossless" compression).';
    case 'busy':
      return 'The PDF tools are busy: try again in a few seconds.';
    case 'no_text_layer':
      return `${name} has no text to read: its pages are images (a scan, for example). Run OCR on it first.`;
    case 'internal_error':
      return 'Something went wrong while running the tool: try again. If it keeps failing, try another file.';
    case 'invalid_arguments':
      if (num(d.files) !== undefined && limit !== undefined)
        return `This would make ${plural(num(d.files)!, 'file')}; at most ${plural(limit, 'file')} at once: ask for fewer parts.`;
      return undefined;
    default:
      return undefined;
  }
}

/** Whether a failed run used the quota, in the page's words (the result's typed `refunded`). */
export function refundWords(refunded: unknown): string {
  return refunded === true
    ? ' This try did not use your quota.'
    : refunded === false
      ? ' This try counted against your quota (the daily refunds are used up).'
      : '';
}

/** A date and time in words, in UTC: "1 May 2024, 12:00 UTC" (the text itself when it is not a date). */
export function dateWords(iso: string): string {
  const t = Date.parse(iso);
  if (!Number.isFinite(t)) return iso;
  const utc = (o: Intl.DateTimeFormatOptions): string =>
    new Intl.DateTimeFormat('en-GB', { ...o, timeZone: 'UTC' }).format(new Date(t));
  return `${utc({ day: 'numeric', month: 'long', year: 'numeric' })}, ${utc({ hour: '2-digit', minute: '2-digit', hourCycle: 'h23' })} UTC`;
}

/** What the summary of a result is made from (a ToolSuccess has these). */
export interface WebSuccess {
  tool: string;
  /** The tool's sentence, written for MCP clients. */
  summary: string;
  files: readonly unknown[];
  data: Record<string, unknown>;
}

/**
 * The first line of a result in the page's words, from the result's typed fields where the tool's
 * sentence is written for MCP clients (byte counts, "1 documents"); else the tool's sentence.
 */
export function webSummary(o: WebSuccess): string {
  const d = o.data;
  if (o.tool === 'split_pdf') return `Split into ${plural(o.files.length, 'document')}.`;
  if (o.tool === 'compress_pdf' && num(d.original_bytes) !== undefined) {
    if (d.unchanged === true) return 'Your file could not be made smaller: you get it back unchanged.';
    const from = num(d.original_bytes)!;
    const to = from - (num(d.saved_bytes) ?? 0);
    const percent = num(d.saved_percent) !== undefined ? ` (${d.saved_percent as number} % smaller)` : '';
    // Sizes that round alike would read "from 1 KB to 1 KB".
    if (fileSize(from) === fileSize(to)) return `Compressed a little${percent}: still about ${fileSize(to)}.`;
    return `Compressed from ${fileSize(from)} to ${fileSize(to)}${percent}.`;
  }
  if (o.tool === 'read_pdf' && num(d.page_count) !== undefined && Array.isArray(d.pages_read)) {
    const read = d.pages_read.length;
    const cut =
      typeof d.next_cursor === 'string'
        ? ` The text is cut at ${plural(num(d.characters) ?? 0, 'character')}: choose fewer pages to read the rest.`
        : '';
    return `The text of ${read === d.page_count ? `your file (${plural(read, 'page')})` : `${plural(read, 'page')} of ${d.page_count as number}`}.${cut}`;
  }
  if (o.tool === 'pdf_metadata')
    return o.files.length
      ? 'Saved the new metadata: download the file below.'
      : 'The metadata of your file (it is unchanged):';
  return o.summary;
}

/**
 * A result's own fields made for people before they are listed (render/values.ts): metadata dates
 * in words, a choice in the words the form offered it ("Recommended"), a saving under a kilobyte as
 * such rather than in bytes.
 */
export function webResultData(tool: string, data: Record<string, unknown>): Record<string, unknown> {
  const out = { ...data };
  // How far a read got, for the next call of an agent: the page says it in the summary.
  delete out.next_cursor;
  const meta = data.metadata;
  if (meta && typeof meta === 'object') {
    const m = { ...(meta as Record<string, unknown>) };
    for (const k of ['creation_date', 'modification_date']) if (typeof m[k] === 'string') m[k] = dateWords(m[k]);
    out.metadata = m;
  }
  const level = WEB_TOOL_TEXT[tool]?.fields?.level?.choices?.[String(data.level)];
  if (level) out.level = level;
  const saved = num(data.saved_bytes);
  if (saved !== undefined && saved < 1024) out.saved_bytes = saved === 0 ? 'nothing' : 'less than 1 KB';
  return out;
}
