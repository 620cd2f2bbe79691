import { PDFDict, PDFDocument, PDFHexString, PDFName, PDFString } from 'pdf-lib';
import { z } from 'zod';
import { savePdf } from '../core/pdf-open';
import { plural } from '../../common/text/plural';
import { defineTool, derivedName, openAll, pdfFileArg, singleInput, storedFileShape, toolOutput } from './tool';

type StandardKey =
  'title' | 'author' | 'subject' | 'keywords' | 'creator' | 'producer' | 'creation_date' | 'modification_date';
const PDF_KEY: Record<StandardKey, string> = {
  title: 'Title',
  author: 'Author',
  subject: 'Subject',
  keywords: 'Keywords',
  creator: 'Creator',
  producer: 'Producer',
  creation_date: 'CreationDate',
  modification_date: 'ModDate',
};
const RESERVED = new Set([...Object.values(PDF_KEY), 'Trapped']);
const ISO_DATE = 'expected an ISO 8601 date and time, e.g. "2024-05-01T12:00:00Z"';
const CUSTOM_KEY = /^[A-Za-z][A-Za-z0-9_.-]{0,63}$/;

const input = z
  .object({
    file: pdfFileArg,
    set: z
      .object({
        title: z.string().max(1000).optional(),
        author: z.string().max(1000).optional(),
        subject: z.string().max(1000).optional(),
        keywords: z.array(z.string().max(200)).max(100).optional().describe('Keywords, stored comma-separated.'),
        creator: z.string().max(1000).optional().describe('The application that created the original document.'),
        producer: z.string().max(1000).optional().describe('The application that produced the PDF.'),
        creation_date: z.iso
          .datetime({ offset: true, error: ISO_DATE })
          .optional()
          .describe('e.g. "2024-05-01T12:00:00Z".'),
        modification_date: z.iso
          .datetime({ offset: true, error: ISO_DATE })
          .optional()
          .describe('ISO 8601. Default when changing anything: now.'),
        custom: z
          .record(
            z.string().regex(CUSTOM_KEY, 'a custom key is 1-64 letters, digits, _ . -, starting with a letter'),
            z.string().max(1000),
          )
          .optional()
          .describe('Custom document-information keys, e.g. {"Department": "Legal"} (letters, digits, _ . -).'),
      })
      .strict()
      .optional()
      .describe('Fields to set. Omit `set` and `clear` to only read the metadata (the file is not changed).'),
    clear: z
      .array(z.string().max(64))
      .max(100)
      .optional()
      .describe('Fields to remove: names of `set` or custom keys, or "all".'),
  })
  .strict();

const metadataSchema = z.object({
  title: z.string().nullable(),
  author: z.string().nullable(),
  subject: z.string().nullable(),
  keywords: z.string().nullable(),
  creator: z.string().nullable(),
  producer: z.string().nullable(),
  creation_date: z.string().nullable(),
  modification_date: z.string().nullable(),
  custom: z.record(z.string(), z.string()),
});
type Metadata = z.infer<typeof metadataSchema>;

function infoDict(doc: PDFDocument, create: boolean): PDFDict | undefined {
  const ref = doc.context.trailerInfo.Info;
  const found = ref ? doc.context.lookup(ref) : undefined;
  if (found instanceof PDFDict) return found;
  if (!create) return undefined;
  const dict = doc.context.obj({});
  doc.context.trailerInfo.Info = doc.context.register(dict);
  return dict;
}

function text(dict: PDFDict | undefined, key: string): string | null {
  const v = dict?.lookup(PDFName.of(key));
  if (v instanceof PDFString || v instanceof PDFHexString) return v.decodeText();
  if (v instanceof PDFName) return v.decodeText();
  return null;
}

function date(dict: PDFDict | undefined, key: string): string | null {
  const v = dict?.lookup(PDFName.of(key));
  if (v instanceof PDFString || v instanceof PDFHexString) {
    try {
      return v.decodeDate().toISOString();
    } catch {
      return v.decodeText();
    }
  }
  return null;
}

export function readMetadata(doc: PDFDocument): Metadata {
  const info = infoDict(doc, false);
  const custom: Record<string, string> = {};
  for (const [k] of info?.entries() ?? []) {
    const name = k.decodeText();
    if (RESERVED.has(name)) continue;
    const v = text(info, name);
    if (v !== null) custom[name] = v;
  }
  return {
    title: text(info, 'Title'),
    author: text(info, 'Author'),
    subject: text(info, 'Subject'),
    keywords: text(info, 'Keywords'),
    creator: text(info, 'Creator'),
    producer: text(info, 'Producer'),
    creation_date: date(info, 'CreationDate'),
    modification_date: date(info, 'ModDate'),
    custom,
  };
}

/** The metadata's key values for the text content, each value short: `title "Q3 report"; author "Ada"; 12 pages; ...`. */
export function describeMetadata(m: Metadata, pages: number): string {
  const short = (v: string): string => JSON.stringify([...v].length > 60 ? `${[...v].slice(0, 59).join('')}…` : v);
  const fields: [string, string | null][] = [
    ['title', m.title],
    ['author', m.author],
    ['subject', m.subject],
    ['keywords', m.keywords],
    ['creator', m.creator],
    ['producer', m.producer],
    ['created', m.creation_date],
    ['modified', m.modification_date],
  ];
  const set = fields.filter(([, v]) => v !== null && v !== '').map(([k, v]) => `${k} ${short(v!)}`);
  const custom = Object.keys(m.custom);
  const empty = fields.filter(([, v]) => v === null || v === '').map(([k]) => k);
  return [
    plural(pages, 'page'),
    ...set,
    ...(custom.length
      ? [
          `custom ${custom
            .slice(0, 5)
            .map((k) => `${k} ${short(m.custom[k])}`)
            .join(', ')}${custom.length > 5 ? ` and ${custom.length - 5} more` : ''}`,
        ]
      : []),
    ...(empty.length === fields.length ? ['no document information'] : empty.length ? [`no ${empty.join(', ')}`] : []),
  ].join('; ');
}

export const pdfMetadataTool = defineTool({
  name: 'pdf_metadata',
  title: 'Read or edit PDF metadata',
  description:
    "Read a PDF's document information (title, author, subject, keywords, creator, producer, dates, custom keys) and page count, or set/clear fields (returns a new file; reading alone changes nothing).",
  input,
  output: toolOutput({
    metadata: metadataSchema.describe('The metadata of the result (after any change).'),
    pages: z.number().int(),
    changed: z.boolean().describe('false: read only, no new file.'),
    ...Object.fromEntries(
      Object.entries(storedFileShape)
        .filter(([k]) => k !== 'pages')
        .map(([k, v]) => [k, v.optional()]),
    ),
  }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  result: 'optional-file',
  inputs: singleInput,
  async run(args, inputs, ctx) {
    const [doc] = await openAll(inputs, ctx);
    const pages = doc.getPageCount();
    const clear = args.clear ?? [];
    const set = args.set;
    if (!set && clear.length === 0) {
      return {
        files: [],
        data: { metadata: readMetadata(doc), pages, changed: false },
        summary: `Metadata (the file is unchanged): ${describeMetadata(readMetadata(doc), pages)}.`,
      };
    }
    const info = infoDict(doc, true)!;
    for (const key of clear) {
      if (key === 'all') {
        for (const [k] of [...info.entries()]) info.delete(k);
      } else {
        info.delete(PDFName.of((PDF_KEY as Record<string, string>)[key] ?? key));
      }
    }
    const putText = (key: string, value: string): void => info.set(PDFName.of(key), PDFHexString.fromText(value));
    const putDate = (key: string, value: Date): void => info.set(PDFName.of(key), PDFString.fromDate(value));
    for (const key of ['title', 'author', 'subject', 'creator', 'producer'] as const) {
      const v = set?.[key];
      if (v !== undefined) putText(PDF_KEY[key], v);
    }
    if (set?.keywords) putText('Keywords', set.keywords.join(', '));
    if (set?.creation_date) putDate('CreationDate', new Date(set.creation_date));
    for (const [k, v] of Object.entries(set?.custom ?? {})) {
      if (RESERVED.has(k)) continue;
      putText(k, v);
    }
    const touchedModDate =
      set?.modification_date !== undefined || clear.includes('modification_date') || clear.includes('all');
    if (set?.modification_date) putDate('ModDate', new Date(set.modification_date));
    else if (!touchedModDate) putDate('ModDate', new Date());
    const bytes = await savePdf(doc);
    const metadata = readMetadata(doc);
    return {
      files: [{ name: derivedName(inputs[0], 'metadata'), bytes, pages }],
      data: { metadata, changed: true },
      summary: `Updated the metadata: ${describeMetadata(metadata, pages)}.`,
    };
  },
});
