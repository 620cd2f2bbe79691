import { WEB_JS } from './assets';
import { plural } from '../text/plural';
import { fileSize } from '../text/file-size';

/** A one-line function of the page script, by its signature, as a callable. */
function scriptFunction<T>(signature: string, name: string): T {
  const src = WEB_JS.split('\n')
    .find((line) => line.trim().startsWith(`function ${signature} {`))
    ?.trim();
  expect(src).toBeDefined();
  // eslint-disable-next-line @typescript-eslint/no-implied-eval -- the script's own source, a fixed string
  return new Function(`${src}; return ${name};`)() as T;
}

describe('plural', () => {
  it('says "1 page" and "0 pages", "2 pages", with irregular plurals when given', () => {
    expect([0, 1, 2, 21].map((n) => plural(n, 'page'))).toEqual(['0 pages', '1 page', '2 pages', '21 pages']);
    expect(plural(1, 'reply', 'replies')).toBe('1 reply');
    expect(plural(3, 'reply', 'replies')).toBe('3 replies');
  });

  it("is the same one-liner as the page script's", () => {
    const js = scriptFunction<(n: number, one: string, many?: string) => string>('plural(n, one, many)', 'plural');
    for (const n of [0, 1, 2, 7]) {
      expect(js(n, 'page')).toBe(plural(n, 'page'));
      expect(js(n, 'reply', 'replies')).toBe(plural(n, 'reply', 'replies'));
    }
  });
});

describe('fileSize', () => {
  it('shows kilobytes below a megabyte (at least 1 KB), megabytes to one decimal above', () => {
    expect([0, 10, 1536, 1048575, 1048576, 2.5 * 1048576, 10 * 1048576, 10 * 1048576 - 1].map(fileSize)).toEqual([
      '1 KB',
      '1 KB',
      '2 KB',
      '1024 KB',
      '1 MB',
      '2.5 MB',
      '10 MB',
      '10 MB',
    ]);
  });

  it("is the same one-liner as the page script's", () => {
    const js = scriptFunction<(n: number) => string>('fileSize(n)', 'fileSize');
    for (const n of [0, 1, 1023, 1024, 500_000, 1048575, 1048576, 1_234_567, 9_999_999, 10 * 1048576])
      expect(js(n)).toBe(fileSize(n));
  });
});
