import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { qpdfRewrite } from '../core/qpdf';
import { ToolFailure } from '../core/tool-failure';
import type { LoadedInput } from './metered-run';
import { pdfInfo } from './poppler';

/** A PDF on disk ready for poppler or ocrmypdf: decrypted, repaired if it had to be, its pages measured. */
export interface PreparedPdf {
  path: string;
  pages: number;
  /** Each page's size in points, as displayed (rotation applied). */
  sizes: { width: number; height: number }[];
  /** What was done to open it. */
  opened: 'as_is' | 'decrypted' | 'repaired';
}

/**
 * Writes `input` into `dir` (a private temporary folder) as a PDF poppler can read without a
 * password: a file encrypted with a user password is decrypted by qpdf with the given one (its
 * password file, never a command line); a file poppler cannot read is rebuilt by qpdf once. Fails
 * with the tools' codes: `encrypted` (with `password_given`), `corrupt_pdf`, `no_pages`,
 * `too_many_pages`.
 */
export async function preparePdf(
  dir: string,
  input: LoadedInput,
  maxPages: number,
  timeoutMs: number,
): Promise<PreparedPdf> {
  const path = join(dir, 'in.pdf');
  await writeFile(path, input.bytes, { mode: 0o600 });
  let info = await pdfInfo(path, timeoutMs);
  let opened: PreparedPdf['opened'] = 'as_is';
  if (info.status === 'missing') throw new ToolFailure('internal_error', 'poppler-utils is not installed');
  if (info.status === 'password' || info.status === 'unreadable') {
    const locked = info.status === 'password';
    if (locked && !input.password)
      throw new ToolFailure('encrypted', 'password needed', { input: 'file', password_given: false });
    const rewritten = await qpdfRewrite(input.bytes, locked ? input.password : undefined);
    if (rewritten.status === 'bad_password')
      throw new ToolFailure('encrypted', 'wrong password', { input: 'file', password_given: Boolean(input.password) });
    if (rewritten.status !== 'ok') throw new ToolFailure('corrupt_pdf', rewritten.message, { input: 'file' });
    await writeFile(path, rewritten.bytes, { mode: 0o600 });
    opened = locked ? 'decrypted' : 'repaired';
    info = await pdfInfo(path, timeoutMs);
  }
  if (info.status === 'no_pages') throw new ToolFailure('no_pages', 'no pages', { input: 'file' });
  if (info.status !== 'ok')
    throw new ToolFailure('corrupt_pdf', info.status === 'unreadable' ? info.message : 'not readable', {
      input: 'file',
    });
  if (info.pages > maxPages)
    throw new ToolFailure('too_many_pages', `${info.pages} pages`, {
      input: 'file',
      pages: info.pages,
      max_pages: maxPages,
    });
  return { path, pages: info.pages, sizes: info.sizes, opened };
}
