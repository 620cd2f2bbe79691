import { execFile } from 'node:child_process';

/**
 * Debian's poppler-utils (`pdfinfo`, `pdftoppm`, `pdftotext`; GPL, run as separate programs) for
 * the website's conversions. Each run is a child process with a time limit, a cap on its address
 * space (`ulimit -v`, so a hostile page cannot take the host's memory) and a lower priority
 * (`nice 10`, like the PDF workers), never a shell with user text: arguments go as `"$@"`.
 * Passwords never reach poppler's command line (other processes could read it): encrypted inputs
 * are decrypted by qpdf first (its password file, core/qpdf.ts).
 */

/** Address-space cap of a poppler child, in KiB: 1.5 GiB (a 25-megapixel page needs ~100 MB). */
export const POPPLER_MAX_MEMORY_KB = 1536 * 1024;

export interface ChildRun {
  code: number | null;
  stdout: string;
  stderr: string;
  /** Killed at the deadline. */
  timedOut: boolean;
  /** The program is not installed. */
  missing: boolean;
}

/** Runs `program args` under the caps; resolves whatever happens (never rejects). */
export function runCapped(
  program: string,
  args: string[],
  timeoutMs: number,
  memoryKb = POPPLER_MAX_MEMORY_KB,
): Promise<ChildRun> {
  return new Promise((resolve) => {
    execFile(
      '/bin/sh',
      [
        '-c',
        `ulimit -v ${memoryKb}; command -v "$0" >/dev/null || exit 127; exec nice -n 10 "$0" "$@"`,
        program,
        ...args,
      ],
      { timeout: timeoutMs, killSignal: 'SIGKILL', maxBuffer: 16 * 1024 * 1024, encoding: 'utf8' },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : null) : 0;
        resolve({ code, stdout, stderr, timedOut: Boolean(error?.killed), missing: code === 127 });
      },
    );
  });
}

/** What pdfinfo says of a document. */
export type PdfInfo =
  | { status: 'ok'; pages: number; encrypted: boolean; sizes: { width: number; height: number }[] }
  | { status: 'password' }
  | { status: 'no_pages' }
  | { status: 'unreadable'; message: string }
  | { status: 'missing' };

/** `pdfinfo -f 1 -l N` on a file: page count and each page's size in points (rotation applied). */
export async function pdfInfo(path: string, timeoutMs: number): Promise<PdfInfo> {
  const run = await runCapped('pdfinfo', ['-f', '1', '-l', '100000', path], timeoutMs);
  if (run.missing) return { status: 'missing' };
  if (/incorrect password/i.test(run.stderr)) return { status: 'password' };
  if (/invalid page count 0/i.test(run.stderr)) return { status: 'no_pages' };
  const pages = /^Pages:\s+(\d+)/m.exec(run.stdout);
  if (run.code !== 0 || !pages) {
    return {
      status: 'unreadable',
      message: run.timedOut
        ? 'reading it took too long'
        : (run.stderr.split('\n').find((l) => /error/i.test(l)) ?? 'not readable').trim(),
    };
  }
  if (Number(pages[1]) === 0) return { status: 'no_pages' };
  const sizes: { width: number; height: number }[] = [];
  for (const m of run.stdout.matchAll(/^Page\s+(\d+) size:\s+([\d.]+) x ([\d.]+) pts/gm))
    sizes[Number(m[1]) - 1] = { width: Number(m[2]), height: Number(m[3]) };
  for (const m of run.stdout.matchAll(/^Page\s+(\d+) rot:\s+(\d+)/gm)) {
    const i = Number(m[1]) - 1;
    if (sizes[i] && Number(m[2]) % 180 === 90) sizes[i] = { width: sizes[i].height, height: sizes[i].width };
  }
  return { status: 'ok', pages: Number(pages[1]), encrypted: /^Encrypted:\s+yes/m.test(run.stdout), sizes };
}
