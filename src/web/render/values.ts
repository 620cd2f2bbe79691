import { numberRuns } from '../../common/text/number-runs';
import { fileSize } from '../../common/text/file-size';

/**
 * A tool result's field as a person reads it: page lists as ranges ("1-200", "1-3, 7"), a list of
 * one value repeated as that value with its count ("90 for all 200"), lists and records spelled out
 * with spaces (they wrap on a phone), never raw JSON.
 */
export function describeValue(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  if (typeof value !== 'object') return '';
  if (Array.isArray(value)) return describeList(value);
  return Object.entries(value)
    .map(([k, v]) => `${k.replace(/_/g, ' ')}: ${describeValue(v)}`)
    .join('; ');
}

function describeList(list: unknown[]): string {
  if (!list.length) return 'none';
  if (list.every((v) => Number.isInteger(v))) {
    const numbers = list as number[];
    if (numbers.length > 2 && numbers.every((n) => n === numbers[0])) return `${numbers[0]} for all ${numbers.length}`;
    if (numbers.every((n, i) => i === 0 || n > numbers[i - 1])) return numberRuns(numbers);
    return numbers.join(', ');
  }
  return list
    .map((v) => (typeof v === 'object' && v !== null && !Array.isArray(v) ? `(${describeValue(v)})` : describeValue(v)))
    .join(', ');
}

/** Pages grouped by a value of each page: [180, 0, 180] -> "180° on pages 1, 3; 0° on page 2". */
function perPage(values: unknown[], unit: string): string {
  const groups = new Map<string, number[]>();
  values.forEach((v, i) => {
    const key = String(v);
    groups.set(key, [...(groups.get(key) ?? []), i + 1]);
  });
  return [...groups]
    .map(([v, pages]) => `${v}${unit} on ${pages.length === 1 ? 'page' : 'pages'} ${describeList(pages)}`)
    .join('; ');
}

const yesNo = (v: unknown): string => (v === true ? 'yes' : v === false ? 'no' : describeValue(v));
const size = (v: unknown): string => (typeof v !== 'number' ? describeValue(v) : v < 1024 ? `${v} bytes` : fileSize(v));
/** "files[0]" (an input's label in the tools' messages) -> "file 1". */
const inputName = (s: string): string => s.replace(/files\[(\d+)\]/g, (_, n: string) => `file ${Number(n) + 1}`);

/** "creation_date" -> "Creation date". */
const words = (key: string): string => key.replace(/_/g, ' ').replace(/^./, (c) => c.toUpperCase());

/** A PDF's metadata, one line per field ("Title: Report", "Author: none"), its custom fields after them by their own names. */
function metadataPairs(m: Record<string, unknown>): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (const [k, v] of Object.entries(m)) {
    if (k === 'custom' && v && typeof v === 'object' && !Array.isArray(v))
      for (const [name, x] of Object.entries(v)) out.push([`${name} (custom field)`, describeValue(x)]);
    else out.push([words(k), v === null || v === '' ? 'none' : describeValue(v)]);
  }
  return out;
}

/** Labels and formats for people of the tools' result fields (structuredContent); others get their name in words. */
const RESULT_FIELDS: Record<
  string,
  {
    label: string;
    show?: (v: unknown, all: Record<string, unknown>) => string | null;
    /** A record listed as its own lines, one per field (the metadata: "Title: Report", "Author: none"). */
    pairs?: (v: Record<string, unknown>) => Array<[string, string]>;
  }
> = {
  rotated_pages: { label: 'Pages rotated' },
  rotations: {
    label: 'Rotation of each page now',
    show: (v) => (Array.isArray(v) ? perPage(v, '°') : describeValue(v)),
  },
  removed_pages: { label: 'Pages removed' },
  kept_pages: { label: 'Pages kept' },
  numbered_pages: { label: 'Pages numbered' },
  first_number: { label: 'First number' },
  last_number: { label: 'Last number' },
  watermarked_pages: { label: 'Pages watermarked' },
  inputs: {
    label: 'Pages taken from each file',
    show: (v) =>
      Array.isArray(v)
        ? v
            .map(
              (x: { input?: string; pages?: number[] }) =>
                `${inputName(String(x.input))}: ${x.pages?.length === 1 ? 'page' : 'pages'} ${describeValue(x.pages)}`,
            )
            .join('; ')
        : describeValue(v),
  },
  bookmarks: { label: 'Bookmarks kept' },
  level: { label: 'Level' },
  original_bytes: { label: 'Size of your file', show: size },
  saved_bytes: {
    label: 'Saved',
    show: (v, all) => `${size(v)}${typeof all.saved_percent === 'number' ? ` (${all.saved_percent} %)` : ''}`,
  },
  saved_percent: { label: '', show: () => null },
  unchanged: {
    label: 'Unchanged',
    show: (v) => (v === true ? 'yes: it could not be made smaller, so this is your file as it was' : 'no'),
  },
  images_recompressed: { label: 'Images made smaller' },
  duplicate_streams_removed: { label: 'Duplicate data removed' },
  unused_objects_removed: { label: 'Unused objects removed' },
  fields_flattened: { label: 'Form fields flattened' },
  field_names: { label: 'Field names' },
  widgets_removed: { label: 'Leftover field widgets removed' },
  metadata: { label: 'Metadata', pairs: metadataPairs },
  pages: { label: 'Pages' },
  changed: {
    label: 'File changed',
    show: (v) => (v === true ? 'yes: download the new file' : 'no: read only, your file is unchanged'),
  },
};

/** A tool result's own fields as label and text for people: "Pages rotated: 1, 3", "Rotation of each page now: 180° on pages 1, 3; 0° on page 2". */
export function describeResult(data: Record<string, unknown>): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (const [key, value] of Object.entries(data)) {
    const known = RESULT_FIELDS[key];
    if (known?.pairs && value && typeof value === 'object' && !Array.isArray(value)) {
      out.push(...known.pairs(value as Record<string, unknown>));
      continue;
    }
    const text = known?.show
      ? known.show(value, data)
      : typeof value === 'boolean'
        ? yesNo(value)
        : describeValue(value);
    if (text === null) continue;
    out.push([known?.label ?? words(key), text]);
  }
  return out;
}

/**
 * A percentage as the website shows it, the same on every figure: one decimal, always ("17.0%",
 * "38.3%"), "–" when there is none. The API rounds its rates to one decimal, so the page shows
 * exactly the API's figure.
 */
export const percent = (v: number | null | undefined): string =>
  v === null || v === undefined ? '–' : `${oneDecimal(v)}%`;

/** A figure in percent or percentage points without its unit, with the one decimal of {@link percent}: "17.0", "-2.5". */
export const oneDecimal = (v: number): string => v.toFixed(1);
