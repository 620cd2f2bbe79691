import { rawPdf, streamObject } from './corpus';

/**
 * A corpus of damaged PDFs built by code (no binary fixtures): each the kind of damage real files
 * carry, small, with the text "Page i" on page i so a repaired result can be checked. Used by
 * test/pdf-tools/damaged.e2e-spec.ts, which runs every tool over every file.
 */

const FONT = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>';

/** The content stream of page `i`: "Page i" in Helvetica. */
function content(i: number): Buffer {
  return streamObject('', Buffer.from(`BT /F1 24 Tf 72 720 Td (Page ${i}) Tj ET`));
}

/**
 * A file of `pages` pages, with hooks to damage its page tree: `pagesDict` is the /Pages node's
 * text (default a correct one), `pageDict(i, kidsRef)` each page's. Object 1 catalog, 2 pages,
 * 3 font, then page i at 4 + 2(i-1) and its content right after.
 */
function pagesPdf(
  pages: number,
  opts: { pagesDict?: (kids: string) => string; pageDict?: (i: number) => string } = {},
): Buffer {
  const kids = Array.from({ length: pages }, (_, i) => `${4 + 2 * i} 0 R`).join(' ');
  const objects: (string | Buffer)[] = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    opts.pagesDict
      ? opts.pagesDict(kids)
      : `<< /Type /Pages /Kids [${kids}] /Count ${pages} /MediaBox [0 0 595 842] >>`,
    FONT,
  ];
  for (let i = 1; i <= pages; i++) {
    objects.push(
      opts.pageDict
        ? opts.pageDict(i)
        : `<< /Type /Page /Parent 2 0 R /Resources << /Font << /F1 3 0 R >> >> /Contents ${5 + 2 * (i - 1)} 0 R >>`,
      content(i),
    );
  }
  return rawPdf(objects);
}

const page = (i: number, extra = '/Type /Page /Parent 2 0 R') =>
  `<< ${extra} /Resources << /Font << /F1 3 0 R >> >> /Contents ${5 + 2 * (i - 1)} 0 R >>`;

export interface DamagedFile {
  name: string;
  bytes: Buffer;
  /**
   * What every tool must do with it: `ok` (processed; `pages` pages, maybe with a note that it
   * was repaired or its header junk ignored), a refusal with this code, or (`or corrupt_pdf`:
   * damage pdf-lib trips over in some tools and qpdf does not mend) either.
   */
  expect:
    { ok: true; pages: number; note?: RegExp } | { ok: false; code: string } | { ok: 'or corrupt_pdf'; pages: number };
}

const latin1 = (b: Buffer): string => b.toString('latin1');

/** The file with every cross-reference offset moved by `by` bytes (a writer that counted wrong). */
function shiftedXref(b: Buffer, by: number): Buffer {
  const text = latin1(b);
  const at = text.lastIndexOf('\nxref');
  return Buffer.from(
    text.slice(0, at) +
      text
        .slice(at)
        .replace(
          /(\d{10}) (\d{5}) n/g,
          (_m, o: string, g: string) => `${String(Number(o) + by).padStart(10, '0')} ${g} n`,
        ),
    'latin1',
  );
}

/** The file with `startxref` pointing at the wrong place. */
function wrongStartxref(b: Buffer): Buffer {
  return Buffer.from(
    latin1(b).replace(/startxref\s+(\d+)/, (_m, n: string) => `startxref\n${Number(n) - 40}`),
    'latin1',
  );
}

export function damagedCorpus(): DamagedFile[] {
  const good = pagesPdf(3);
  const repaired = /repaired \(with qpdf\)/;
  const tree = /had (a )?damaged page trees? \(entries that are not pages, or a wrong page count\)/;
  return [
    { name: 'intact (control)', bytes: good, expect: { ok: true, pages: 3 } },
    {
      name: '20 bytes of junk before %PDF-',
      bytes: Buffer.concat([Buffer.from('garbage from a mailer'), good]),
      expect: { ok: true, pages: 3, note: /21 bytes before (its|their) %PDF- headers?; they were ignored/ },
    },
    {
      name: '1000 bytes of junk before %PDF- (within 1 KB)',
      bytes: Buffer.concat([Buffer.alloc(1000, 'x'), good]),
      expect: { ok: true, pages: 3, note: /1,?000 bytes before (its|their) %PDF- header/ },
    },
    {
      name: '1022 bytes of junk before %PDF- (header starting within 1 KB)',
      bytes: Buffer.concat([Buffer.alloc(1022, 'x'), good]),
      expect: { ok: true, pages: 3, note: /1,?022 bytes before (its|their) %PDF- header/ },
    },
    {
      name: '5000 bytes of junk before %PDF- (past 1 KB: qpdf reads it too)',
      bytes: Buffer.concat([Buffer.alloc(5000, 'x'), good]),
      expect: { ok: true, pages: 3, note: /5,?000 bytes before (its|their) %PDF- header/ },
    },
    {
      name: '70 KB of junk before %PDF- (past 64 KB)',
      bytes: Buffer.concat([Buffer.alloc(70 * 1024, 'x'), good]),
      expect: { ok: false, code: 'not_a_pdf' },
    },
    {
      name: 'junk before %PDF-, offsets counted from the junk',
      bytes: (() => {
        const junk = Buffer.from('HTTP/1.1 200 OK\r\nContent-Type: application/pdf\r\n\r\n');
        return shiftedXref(Buffer.concat([junk, good]), junk.length);
      })(),
      expect: { ok: true, pages: 3, note: /50 bytes before (its|their) %PDF- header/ },
    },
    { name: 'xref offsets off by 3', bytes: shiftedXref(good, 3), expect: { ok: true, pages: 3 } },
    {
      name: 'startxref pointing into an object',
      bytes: wrongStartxref(good),
      expect: { ok: true, pages: 3, note: repaired },
    },
    {
      name: 'no xref table at all',
      bytes: Buffer.from(latin1(good).replace(/\nxref[\s\S]*?trailer/, '\ntrailer'), 'latin1'),
      expect: { ok: true, pages: 3, note: repaired },
    },
    {
      name: 'truncated after the last page (no xref, no trailer)',
      bytes: good.subarray(0, latin1(good).lastIndexOf('endobj') + 7),
      expect: { ok: true, pages: 3 },
    },
    {
      name: 'truncated in the middle of page 2',
      bytes: good.subarray(0, latin1(good).indexOf('6 0 obj') + 10),
      expect: { ok: false, code: 'corrupt_pdf' },
    },
    { name: 'header only', bytes: Buffer.from('%PDF-1.7\n'), expect: { ok: false, code: 'corrupt_pdf' } },
    {
      name: 'not a PDF (a PNG header)',
      bytes: Buffer.from('\x89PNG\r\n\x1a\n0000', 'latin1'),
      expect: { ok: false, code: 'not_a_pdf' },
    },
    {
      name: 'page tree node without /Type',
      bytes: pagesPdf(3, { pagesDict: (kids) => `<< /Kids [${kids}] /Count 3 /MediaBox [0 0 595 842] >>` }),
      expect: { ok: true, pages: 3, note: repaired },
    },
    {
      name: 'pages without /Type',
      bytes: pagesPdf(3, { pageDict: (i) => page(i, '/Parent 2 0 R') }),
      expect: { ok: true, pages: 3, note: repaired },
    },
    {
      name: "a page's /Parent is the catalog (broken Parent chain)",
      bytes: pagesPdf(3, { pageDict: (i) => page(i, `/Type /Page /Parent ${i === 2 ? 1 : 2} 0 R`) }),
      expect: { ok: true, pages: 3, note: repaired },
    },
    {
      name: "a page's /Parent is missing (inherited MediaBox lost)",
      bytes: pagesPdf(3, { pageDict: (i) => page(i, i === 2 ? '/Type /Page' : '/Type /Page /Parent 2 0 R') }),
      expect: { ok: true, pages: 3, note: repaired },
    },
    {
      name: "a page's /Parent points at a missing object",
      bytes: pagesPdf(3, { pageDict: (i) => page(i, `/Type /Page /Parent ${i === 3 ? 99 : 2} 0 R`) }),
      expect: { ok: true, pages: 3, note: repaired },
    },
    {
      name: '/Count says 5 for 3 kids',
      bytes: pagesPdf(3, {
        pagesDict: (kids) => `<< /Type /Pages /Kids [${kids}] /Count 5 /MediaBox [0 0 595 842] >>`,
      }),
      expect: { ok: true, pages: 3, note: tree },
    },
    {
      name: 'a kid that is missing',
      bytes: pagesPdf(3, {
        pagesDict: (kids) => `<< /Type /Pages /Kids [${kids} 77 0 R] /Count 4 /MediaBox [0 0 595 842] >>`,
      }),
      expect: { ok: true, pages: 3, note: tree },
    },
    {
      name: 'zero pages (/Kids [] /Count 0)',
      bytes: rawPdf(['<< /Type /Catalog /Pages 2 0 R >>', '<< /Type /Pages /Kids [] /Count 0 >>']),
      expect: { ok: false, code: 'no_pages' },
    },
    {
      name: 'zero pages (/Count 1 but no kids)',
      bytes: rawPdf(['<< /Type /Catalog /Pages 2 0 R >>', '<< /Type /Pages /Kids [] /Count 1 >>']),
      expect: { ok: false, code: 'no_pages' },
    },
    {
      name: 'zero pages (no /Kids)',
      bytes: rawPdf(['<< /Type /Catalog /Pages 2 0 R >>', '<< /Type /Pages /Count 0 >>']),
      expect: { ok: false, code: 'no_pages' },
    },
    {
      name: 'zero pages (catalog without /Pages)',
      bytes: rawPdf(['<< /Type /Catalog >>']),
      expect: { ok: false, code: 'no_pages' },
    },
    {
      name: 'zero pages (/Pages null)',
      bytes: rawPdf(['<< /Type /Catalog /Pages null >>']),
      expect: { ok: false, code: 'no_pages' },
    },
    {
      name: 'the page tree is gone (/Pages points at a missing object)',
      bytes: rawPdf(['<< /Type /Catalog /Pages 9 0 R >>']),
      expect: { ok: false, code: 'corrupt_pdf' },
    },
    {
      name: 'a content stream with a wrong /Length',
      bytes: Buffer.from(latin1(good).replace(/\/Length \d+/, '/Length 9999'), 'latin1'),
      expect: { ok: true, pages: 3, note: repaired },
    },
    {
      name: 'a page whose /Resources is a number',
      bytes: pagesPdf(2, {
        pageDict: (i) => (i === 1 ? `<< /Type /Page /Parent 2 0 R /Resources 7 /Contents 5 0 R >>` : page(i)),
      }),
      expect: { ok: 'or corrupt_pdf', pages: 2 },
    },
    {
      name: 'a /MediaBox of three numbers',
      bytes: pagesPdf(2, { pagesDict: (kids) => `<< /Type /Pages /Kids [${kids}] /Count 2 /MediaBox [0 0 595] >>` }),
      expect: { ok: 'or corrupt_pdf', pages: 2 },
    },
    {
      name: 'a /Rotate that is a name',
      bytes: pagesPdf(2, { pageDict: (i) => page(i, '/Type /Page /Parent 2 0 R /Rotate /Ninety') }),
      expect: { ok: 'or corrupt_pdf', pages: 2 },
    },
    {
      name: 'form fields and a widget that are missing objects',
      bytes: ACROFORM_MISSING,
      expect: { ok: true, pages: 2 },
    },
    {
      name: 'a page whose /Annots is a number',
      bytes: pagesPdf(2, { pageDict: (i) => page(i, '/Type /Page /Parent 2 0 R /Annots 7') }),
      expect: { ok: 'or corrupt_pdf', pages: 2 },
    },
  ];
}

/**
 * A two-page form whose /Fields and the page's /Annots point at an object that is not there: pdf-lib
 * reads the file, and flatten_form fails on it; on qpdf's rewrite (the missing object a null) it works.
 */
export const ACROFORM_MISSING = rawPdf([
  '<< /Type /Catalog /Pages 2 0 R /AcroForm << /Fields [99 0 R 3 0 R] >> >>',
  '<< /Type /Pages /Kids [3 0 R 6 0 R] /Count 2 /MediaBox [0 0 595 842] >>',
  '<< /Type /Page /Parent 2 0 R /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R /Annots [99 0 R] >>',
  content(1),
  FONT,
  '<< /Type /Page /Parent 2 0 R /Resources << /Font << /F1 5 0 R >> >> /Contents 7 0 R >>',
  content(2),
]);
