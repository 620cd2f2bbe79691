import type { StoredFileInfo } from '../tools/tool';
import { plural } from '../../common/text/plural';
import { clip } from '../core/clip';

export { clip };

/** Most UTF-8 bytes of a result's text content: under 1 KB whatever the files and notes. */
export const TEXT_MAX_BYTES = 1000;
/** Most bytes of the tool's own sentence, so the links after it always fit. */
const SUMMARY_MAX_BYTES = 360;

export interface ResultTextParts {
  /** The tool's sentence (first line: the website shows it as the result's summary). */
  summary: string;
  files: readonly StoredFileInfo[];
  /** The quota line. */
  quota: string;
  /** Sentences that must not be lost when they fit (e.g. why nothing was embedded). */
  remarks?: readonly string[];
  /** The note (what opening did to the inputs, ...): last, shortened to what is left. */
  note?: string;
}

const size = (s: string): number => Buffer.byteLength(s, 'utf8');

/** `note` shortened to whole sentences within `max` bytes (the first one cut if none fits whole). */
function fitNote(note: string, max: number): string {
  if (size(note) <= max) return note;
  const tail = ' (the whole note is in structuredContent.note)';
  const sentences = note.match(/[^.!?]+(?:[.!?]+(?=\s|$)|$)\s*/g) ?? [note];
  let out = '';
  for (const s of sentences) {
    if (size(out + s) + size(tail) > max) break;
    out += s;
  }
  if (!out) return max > size(tail) + 20 ? clip(note, max - size(tail)) + tail : '';
  return out.trimEnd() + tail;
}

function fileLine(f: StoredFileInfo): string {
  return `${f.filename}: ${f.download_url} (file_id ${f.file_id}, ${plural(f.pages, 'page')}, ${plural(f.bytes, 'byte')}, until ${f.expires_at})`;
}

function partLine(f: StoredFileInfo, i: number): string {
  return `${i + 1}. ${f.filename}: ${f.download_url} (file_id ${f.file_id}, ${plural(f.pages, 'page')})`;
}

/**
 * The text content of a successful result, at most TEXT_MAX_BYTES: the tool's sentence, then what
 * an agent needs to go on (the result's link and file_id; of several files, as many links as fit
 * and how many more there are), the quota, remarks, and the note last, cut at a sentence.
 */
export function resultText(parts: ResultTextParts): string {
  const summary = clip(parts.summary, SUMMARY_MAX_BYTES);
  const quota = clip(parts.quota, 200);
  const remarks = (parts.remarks ?? []).map((r) => clip(r, 200));
  const fixed = [summary, quota, ...remarks];
  let room = TEXT_MAX_BYTES - fixed.reduce((n, l) => n + size(l) + 1, 0);
  const fileLines: string[] = [];
  if (parts.files.length === 1) {
    const line = clip(fileLine(parts.files[0]), room - 1);
    fileLines.push(line);
    room -= size(line) + 1;
  } else if (parts.files.length > 1) {
    const n = parts.files.length;
    const head = `${n} files (links and file_ids also in the resource links and structuredContent.files):`;
    const more = (k: number) => `…and ${plural(k, 'more file')}: see structuredContent.files.`;
    room -= size(head) + 1;
    const lines = parts.files.map(partLine);
    let shown = 0;
    let used = 0;
    while (shown < n) {
      const need = size(lines[shown]) + 1;
      const reserve = shown + 1 < n ? size(more(n - shown - 1)) + 1 : 0;
      if (used + need + reserve > room) break;
      used += need;
      shown++;
    }
    fileLines.push(head, ...lines.slice(0, shown));
    if (shown < n) fileLines.push(more(n - shown));
    room -= fileLines.slice(1).reduce((k, l) => k + size(l) + 1, 0);
  }
  const note = parts.note ? fitNote(parts.note, room - 1) : '';
  return [summary, ...fileLines, quota, ...remarks, note].filter(Boolean).join('\n');
}
