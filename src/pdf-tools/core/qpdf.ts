import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * The qpdf CLI (Debian's `qpdf`, Apache-2.0) as the repairing and decrypting pre-pass of the PDF
 * engine. It runs in a child process, never in the worker: with a time limit, a cap on its address
 * space (so a hostile file cannot make it take the host's memory), its input in a private temporary
 * folder, and the password in a 0600 file (never on a command line other processes can read).
 */

/** Time limit of one qpdf run; the child is killed after it. */
export const QPDF_TIMEOUT_MS = 20_000;
/** Address-space cap of the qpdf child (`ulimit -v`), in KiB: 2 GiB. */
export const QPDF_MAX_MEMORY_KB = 2 * 1024 * 1024;

export type QpdfOutcome =
  /** `warnings`: qpdf repaired or worked around damage (exit 3), with its first messages. */
  | { status: 'ok'; bytes: Uint8Array; warnings: string[] }
  | { status: 'bad_password' }
  | { status: 'failed'; message: string }
  | { status: 'unavailable'; message: string };

/**
 * Rewrites `bytes` through `qpdf --decrypt`: reconstructs a damaged cross-reference table, drops
 * what cannot be read, removes encryption (with `password`, or the empty user password of an
 * owner-password-only file). With `rebuildPages`, the page tree is rebuilt too (`--pages . --`:
 * the pages as qpdf finds them from the root, each with its inherited attributes, under one new
 * page tree node), for a tree pdf-lib cannot walk (a page without /Type, a /Parent that is not a
 * page tree node).
 */
export async function qpdfRewrite(
  bytes: Uint8Array,
  password: string | undefined,
  rebuildPages = false,
): Promise<QpdfOutcome> {
  const dir = await mkdtemp(join(tmpdir(), 'beacon-qpdf-'));
  try {
    const input = join(dir, 'in.pdf');
    const output = join(dir, 'out.pdf');
    const pwFile = join(dir, 'password');
    await writeFile(input, bytes, { mode: 0o600 });
    await writeFile(pwFile, password ?? '', { mode: 0o600 });
    const args = [
      '--decrypt',
      `--password-file=${pwFile}`,
      '--warning-exit-0',
      '--no-original-object-ids',
      input,
      ...(rebuildPages ? ['--pages', '.', '--'] : []),
      output,
    ];
    const run = await new Promise<{ code: number | null; stderr: string; error?: { killed?: boolean } }>((resolve) => {
      execFile(
        '/bin/sh',
        ['-c', `ulimit -v ${QPDF_MAX_MEMORY_KB}; exec qpdf "$@"`, 'qpdf', ...args],
        { timeout: QPDF_TIMEOUT_MS, killSignal: 'SIGKILL', maxBuffer: 1024 * 1024, encoding: 'utf8' },
        (error, _stdout, stderr) =>
          resolve({
            code: error ? (typeof error.code === 'number' ? error.code : null) : 0,
            stderr,
            error: error ?? undefined,
          }),
      );
    });
    const stderr = run.stderr.replaceAll(input, 'input').replaceAll(dir, '');
    if (run.code === 127) return { status: 'unavailable', message: 'qpdf is not installed' };
    if (/invalid password/i.test(stderr)) return { status: 'bad_password' };
    if (run.code !== 0) {
      const killed = run.error?.killed;
      return {
        status: 'failed',
        message: killed
          ? `repair took longer than ${QPDF_TIMEOUT_MS / 1000} s`
          : errorLine(stderr) || 'qpdf could not read it',
      };
    }
    const warnings = stderr
      .split('\n')
      .map((l) =>
        l
          .replace(/^WARNING:\s*/, '')
          .replace(/^input(?: \([^)]*\))?:\s*/, '')
          .trim(),
      )
      .filter((l) => l && !/operation succeeded with warnings/i.test(l));
    return { status: 'ok', bytes: new Uint8Array(await readFile(output)), warnings: warnings.slice(0, 5) };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * qpdf's reason for failing: its error line (the last one not a warning: qpdf warns about the damage
 * it sees first, e.g. "file is damaged", then gives up with the reason), or its first line.
 */
export function errorLine(s: string): string {
  const lines = s.split('\n').filter((l) => l.trim());
  const line = [...lines].reverse().find((l) => !/^\s*WARNING:/i.test(l)) ?? lines[0] ?? '';
  const clean = line
    .replace(/^qpdf:\s*/, '')
    .replace(/^WARNING:\s*/i, '')
    .replace(/^input(?: \([^)]*\))?:\s*/, '')
    .trim();
  return clean.length > 200 ? `${clean.slice(0, 197)}...` : clean;
}
