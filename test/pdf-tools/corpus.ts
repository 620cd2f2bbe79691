import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { constants, createDeflate } from 'node:zlib';

/**
 * Builders of the real-world and hostile PDFs the engine tests use (no binary fixtures in the
 * repository): hand-written PDFs with exact cross-reference tables, deflate bombs, and files
 * encrypted or damaged with the qpdf CLI.
 */

/**
 * A PDF from its objects (`objects[i]` is object i+1, the text between "obj" and "endobj"), with a
 * correct cross-reference table; object 1 is the catalog.
 */
export function rawPdf(objects: (string | Buffer)[], version = '1.7'): Buffer {
  const parts: Buffer[] = [Buffer.from(`%PDF-${version}\n%\xe2\xe3\xcf\xd3\n`, 'latin1')];
  let offset = parts[0].length;
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(offset);
    const chunk = Buffer.concat([
      Buffer.from(`${i + 1} 0 obj\n`),
      Buffer.isBuffer(body) ? body : Buffer.from(body, 'latin1'),
      Buffer.from('\nendobj\n'),
    ]);
    parts.push(chunk);
    offset += chunk.length;
  });
  const xref = [
    `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`,
    ...offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`),
  ].join('');
  parts.push(
    Buffer.from(
      `${xref}trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${offset}\n%%EOF\n`,
      'latin1',
    ),
  );
  return Buffer.concat(parts);
}

/** A stream object's text: dictionary entries `dict` (without << >>) and its bytes. */
export function streamObject(dict: string, data: Buffer): Buffer {
  return Buffer.concat([
    Buffer.from(`<< ${dict} /Length ${data.length} >>\nstream\n`),
    data,
    Buffer.from('\nendstream'),
  ]);
}

/** Deflated `size` bytes of `fill` (streamed in 1 MiB chunks, so the raw data never exists whole). */
export async function deflatedRun(size: number, fill = 0x20): Promise<Buffer> {
  const deflate = createDeflate({ level: constants.Z_BEST_COMPRESSION });
  const out: Buffer[] = [];
  deflate.on('data', (c: Buffer) => out.push(c));
  const done = new Promise<void>((resolve, reject) => {
    deflate.on('end', resolve);
    deflate.on('error', reject);
  });
  const chunk = Buffer.alloc(1024 * 1024, fill);
  for (let left = size; left > 0; left -= chunk.length) {
    if (!deflate.write(left >= chunk.length ? chunk : chunk.subarray(0, left)))
      await new Promise((r) => deflate.once('drain', r));
  }
  deflate.end();
  await done;
  return Buffer.concat(out);
}

/** One A4 page whose content stream is `content` (already encoded, with `filter`), and optional extra resources. */
export function onePagePdf(
  content: Buffer,
  filter = '/FlateDecode',
  resources = '',
  extra: (string | Buffer)[] = [],
): Buffer {
  return rawPdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R /Resources << ${resources} >> >>`,
    streamObject(filter ? `/Filter ${filter}` : '', content),
    ...extra,
  ]);
}

/** A valid PDF whose page tree has no pages (/Count 0, no kids). */
export function zeroPagePdf(): Buffer {
  return rawPdf(['<< /Type /Catalog /Pages 2 0 R >>', '<< /Type /Pages /Kids [] /Count 0 >>']);
}

/** Runs the qpdf CLI on `input` with `args` (input and output paths are added) and returns the output. */
export function qpdf(input: Uint8Array, args: string[]): Buffer {
  const dir = mkdtempSync(join(tmpdir(), 'beacon-corpus-'));
  try {
    writeFileSync(join(dir, 'in.pdf'), input);
    try {
      execFileSync('qpdf', [...args, join(dir, 'in.pdf'), join(dir, 'out.pdf')], { stdio: 'pipe' });
    } catch (e) {
      if ((e as { status?: number }).status !== 3) throw e; // 3: success with warnings
    }
    return readFileSync(join(dir, 'out.pdf'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Whether the qpdf CLI processes a file (exit 0 or 3, warnings). */
export function qpdfProcesses(input: Uint8Array): boolean {
  const dir = mkdtempSync(join(tmpdir(), 'beacon-corpus-'));
  try {
    writeFileSync(join(dir, 'in.pdf'), input);
    try {
      execFileSync('qpdf', [join(dir, 'in.pdf'), join(dir, 'out.pdf')], { stdio: 'pipe' });
      return true;
    } catch (e) {
      return (e as { status?: number }).status === 3;
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Text of every page as pdftotext (poppler) extracts it. */
export function pdftotext(bytes: Uint8Array): string {
  return execFileSync('pdftotext', ['-enc', 'UTF-8', '-', '-'], { input: bytes }).toString('utf8');
}
