/**
 * Bulk add of prompts: lines pasted into the form (one prompt per line) and/or a CSV file with a
 * header row (columns text, tags, intent, country, enabled; only text is required; tags separated
 * by ";"). All or nothing: the first bad row is named with its reason and nothing is added.
 */
import { parse } from 'csv-parse/sync';
import { promptFields, TrackingInputError } from './tracking-input';
import type { PromptInput } from './tracking.types';

export const CSV_COLUMNS = ['text', 'tags', 'intent', 'country', 'enabled'] as const;

export interface BulkRow {
  /** Where the row came from, in the page's words ("line 3", "CSV row 12"). */
  where: string;
  prompt: PromptInput;
}

/** Non-blank pasted lines, each one prompt text. */
export function pastedRows(text: string): BulkRow[] {
  const out: BulkRow[] = [];
  text.split(/\r?\n/).forEach((line, i) => {
    if (!line.trim()) return;
    out.push({ where: `Line ${i + 1}`, prompt: promptFields({ text: line }, `Line ${i + 1}: `, 'lines-') });
  });
  return out;
}

/** The rows of a CSV file (header row first). */
export function csvRows(content: string): BulkRow[] {
  let records: string[][];
  try {
    records = parse(content, { bom: true, skip_empty_lines: true, relax_column_count: false });
  } catch (e) {
    throw new TrackingInputError(`The CSV file cannot be read: ${(e as Error).message}.`, 'file');
  }
  if (!records.length) throw new TrackingInputError('The CSV file is empty.', 'file');
  const header = records[0].map((h) => h.trim().toLowerCase());
  const unknown = header.filter((h) => !(CSV_COLUMNS as readonly string[]).includes(h));
  if (unknown.length)
    throw new TrackingInputError(
      `The CSV file's first row must name its columns (${CSV_COLUMNS.join(', ')}); "${unknown[0]}" is not one of them.`,
      'file',
    );
  if (!header.includes('text')) throw new TrackingInputError('The CSV file has no "text" column.', 'file');
  return records.slice(1).map((rec, i) => {
    const where = `CSV row ${i + 2}`;
    const get = (c: string) => {
      const at = header.indexOf(c);
      return at < 0 ? undefined : rec[at];
    };
    return {
      where,
      prompt: promptFields(
        {
          text: get('text') ?? '',
          tags: get('tags'),
          intent: get('intent'),
          country: get('country'),
          enabled: get('enabled'),
        },
        `${where}: `,
        'file-',
      ),
    };
  });
}

/** A problem's field id in a bulk form: the textarea or the file input. */
export const bulkField = (field: string): string =>
  field.startsWith('lines-') ? 'lines' : field.startsWith('file-') ? 'file' : field;
