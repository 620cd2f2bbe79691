import { WEB_JS } from '../assets/web-js';
import { plural } from '../../common/text/plural';

describe('plural', () => {
  it('says "1 page" and "0 pages", "2 pages", with irregular plurals when given', () => {
    expect([0, 1, 2, 21].map((n) => plural(n, 'page'))).toEqual(['0 pages', '1 page', '2 pages', '21 pages']);
    expect(plural(1, 'reply', 'replies')).toBe('1 reply');
    expect(plural(3, 'reply', 'replies')).toBe('3 replies');
  });

  it('is the same one-liner as the page script\'s', () => {
    const src = /function plural\(n, one, many\) \{[^\n]*\}/.exec(WEB_JS)?.[0];
    expect(src).toBeDefined();
    // eslint-disable-next-line @typescript-eslint/no-implied-eval -- the script's own source, a fixed string
    const js = new Function(`${src}; return plural;`)() as (n: number, one: string, many?: string) => string;
    for (const n of [0, 1, 2, 7]) {
      expect(js(n, 'page')).toBe(plural(n, 'page'));
      expect(js(n, 'reply', 'replies')).toBe(plural(n, 'reply', 'replies'));
    }
  });
});
