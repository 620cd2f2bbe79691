import { PAGE_RANGE_GRAMMAR } from '../pdf-tools/core/page-range';

/**
 * The website's own words for the PDF tools. The tools' descriptions (src/pdf-tools) are written
 * for MCP clients: argument names, `file_id`s, JSON, grammar notation. A person filling in a form
 * reads these instead; anything not listed here falls back to the tool's own text (in the form's
 * words, see `webWording` in pdf-form.ts).
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
}

export interface WebToolText {
  /** The page's introduction (the tool's description otherwise). */
  intro?: string;
  /** The run button, e.g. "Split the PDF". */
  button: string;
  /** By argument path ("tiled", "set.title"). */
  fields?: Record<string, WebFieldText>;
}

/** Page ranges as people write them, instead of the grammar's "N-M", "-M", "N-last". */
export const PAGE_EXAMPLES = 'For example "1-3, 7, 10-last", "odd", "even" or "all".';

const pages = (what: string, empty = 'Leave empty for every page.'): WebFieldText => ({ label: 'Pages', hint: `${what} ${PAGE_EXAMPLES} ${empty}` });

export const WEB_TOOL_TEXT: Record<string, WebToolText> = {
  merge_pdfs: {
    intro: 'Merge 2 to 20 PDFs into one, in the order you add them. Bookmarks that point to included pages are kept.',
    button: 'Merge the PDFs',
    fields: {
      keep_bookmarks: { label: 'Keep bookmarks', hint: 'Keep the bookmarks (outlines) of the files that point to included pages.' },
      filename: { label: 'Name of the merged file', hint: 'Leave empty for the first file\'s name followed by "-merged.pdf".' },
    },
  },
  split_pdf: {
    intro: 'Split one PDF into several: by page ranges (one document per range), every so many pages, or into a number of parts of about the same size. Each part is a download of its own.',
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
      },
      every: { label: 'Pages per document', hint: 'Needed when splitting every so many pages, e.g. 1 for single pages.', when: { field: 'mode', value: 'every' } },
      count: { label: 'Number of documents', hint: 'Needed when splitting into equal parts, e.g. 3.', when: { field: 'mode', value: 'count' } },
    },
  },
  rotate_pages: {
    intro: 'Rotate chosen pages of a PDF clockwise by 90, 180 or 270 degrees, added to any rotation they already have (a page at 90 rotated by 90 ends at 180). Other pages are unchanged.',
    button: 'Rotate the pages',
    fields: {
      angle: { label: 'Angle', hint: 'Clockwise, in degrees, added to each page\'s current rotation.', choices: { '90': '90° (a quarter turn)', '180': '180° (upside down)', '270': '270° (a quarter turn back)' } },
      pages: pages('Pages to rotate.'),
    },
  },
  remove_pages: {
    intro: 'Delete chosen pages from a PDF, for example "1, last" or "even". At least one page must remain.',
    button: 'Remove the pages',
    fields: { pages: { label: 'Pages to remove', hint: `${PAGE_EXAMPLES} At least one page must remain.` } },
  },
  compress_pdf: {
    intro: 'Make a PDF smaller: lossless restructuring, or smaller images. The result is never larger than your file: if nothing can be saved, you get your file back unchanged.',
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
    intro: 'Stamp a text watermark on chosen pages: in one of nine positions or tiled over the page, with its size, colour, opacity and angle. It appears upright on rotated pages too.',
    button: 'Add the watermark',
    fields: {
      text: { label: 'Text', hint: 'The words to stamp, in any script (Latin, Cyrillic, Greek, Arabic, ...).', required: true },
      image_scale: { hidden: true },
      pages: pages('Pages to watermark.'),
      position: { hint: 'Where on the page, as the reader sees it. Not used when tiled.' },
      tiled: { label: 'Repeat it over the whole page (tiled)', hint: 'The position is then not used.' },
      font_size: { label: 'Font size', hint: 'In points.' },
      color: { label: 'Colour', hint: 'As "#RRGGBB", e.g. "#808080" for grey.' },
      opacity: { hint: 'From 0.05 (faint) to 1 (opaque).' },
      rotation: { label: 'Angle', hint: 'In degrees, counter-clockwise as the reader sees it (0 is horizontal).' },
      margin: { hint: 'Distance from the page edge in points, for positions at an edge.' },
    },
  },
  add_page_numbers: {
    intro: 'Print page numbers on chosen pages: position, a format such as "Page {n} of {total}", first number, font size and margin. Numbers appear upright on rotated pages.',
    button: 'Add page numbers',
    fields: {
      format: { hint: '{n} is the page number and {total} the last number, e.g. "Page {n} of {total}".' },
      start: { label: 'First number', hint: 'The number printed on the first numbered page.' },
      pages: pages('Pages to number, in order from the first number; e.g. "2-last" skips a cover page.'),
      font_size: { label: 'Font size', hint: 'In points.' },
      color: { label: 'Colour', hint: 'As "#RRGGBB", e.g. "#000000" for black.' },
      margin: { hint: 'Distance from the page edge in points.' },
    },
  },
  pdf_metadata: {
    intro: 'Read a PDF\'s document information (title, author, subject, keywords, dates and more) and page count, or change it. Leave every field empty to only read it: your file is not changed.',
    button: 'Read or save the metadata',
    fields: {
      'set.title': { label: 'New title' },
      'set.author': { label: 'New author' },
      'set.subject': { label: 'New subject' },
      'set.keywords': { label: 'New keywords', hint: 'Separate them with commas, e.g. "report, 2026".' },
      'set.creator': { label: 'New creator', hint: 'The application that created the original document.' },
      'set.producer': { label: 'New producer', hint: 'The application that produced the PDF.' },
      'set.creation_date': { label: 'New creation date', hint: 'e.g. "2024-05-01T12:00:00Z".' },
      'set.modification_date': { label: 'New modification date', hint: 'e.g. "2024-05-01T12:00:00Z". Leave empty for now, when anything changes.' },
      clear: { label: 'Fields to remove', hint: 'e.g. "author, keywords", or "all". Separate entries with commas.' },
    },
  },
  flatten_form: {
    intro: 'Turn the fillable form fields of a PDF into ordinary page content: the filled-in values stay visible, nothing can be edited any more, and no form is left in the file.',
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
    else if ((c === '.' || c === '!' || c === '?') && depth === 0 && !quoted && (i === text.length - 1 || /\s/.test(text[i + 1]))) {
      if (c === '.' && ABBREVIATIONS.test(text.slice(0, i + 1))) continue;
      return text.slice(0, i + 1).trim();
    }
  }
  const whole = text.trim();
  return /[.!?]$/.test(whole) ? whole : `${whole}.`;
}

/** "a.pdf", "a.pdf and b.pdf", "a.pdf, b.pdf and c.pdf". */
const andList = (items: string[]): string => (items.length < 2 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`);

/** Input labels of the tools' notes ("files[0..3, 7]") as the indexes they name. */
function labelIndexes(spec: string): number[] {
  return spec.split(/,\s*/).flatMap((part) => {
    const [a, b] = part.split('..').map(Number);
    return b === undefined ? [a] : Array.from({ length: Math.max(0, b - a + 1) }, (_, k) => a + k);
  });
}

/**
 * What opening did to the inputs (the tools' `note`: decrypted, repaired, junk before the header),
 * in the page's words: inputs named by their file names ("report.pdf was decrypted with your
 * password") instead of argument labels ("File", "Files[0..2]"), without tool names (qpdf).
 * `names` are the input files' names in the order of the call (merge: the order added).
 */
export function webNote(note: string, names: string[]): string {
  const named = (indexes: number[]): string => {
    const known = indexes.map((i) => names[i]);
    if (known.every((n) => n !== undefined) && known.length <= 3) return andList(known);
    return `Files ${andList(indexes.map((i) => String(i + 1)))}`;
  };
  return (
    note
      // "Files[0..2] (a.pdf)" / "files[3]": the inputs of a list argument.
      .replace(/\b[Ff]iles\[([\d., ]+)\](?: \([^)]*\))?/g, (_, spec: string) => named(labelIndexes(spec)))
      // "File (a.pdf) was ..." / "File had ...": the input of a one-file tool, at the start of a sentence.
      .replace(/(^|[.!?]\s+)File(?: \([^)]*\))? (?=was |were |had |is )/g, (_, before: string) => `${before}${names[0] ?? 'Your file'} `)
      .replace(/ was opened with the given password; the result is not encrypted\./g, ' was decrypted with your password: the result has no password.')
      .replace(/ were opened with the given passwords; the result is not encrypted\./g, ' were decrypted with your passwords: the result has no password.')
      .replace(/\): the result is not encrypted, and (its|their) restrictions/g, (_, whose: string) => `): ${whose === 'its' ? 'it was' : 'they were'} decrypted, so the result has no password and ${whose} restrictions`)
      .replace(/ \(with qpdf\)/g, '')
  );
}
