import { linksOf } from './site-crawl';

describe('linksOf', () => {
  it('reads a and area links in any quoting, decodes entities and drops fragments', () => {
    const html = `<a href="/a">A</a> <A HREF='b?x=1&amp;y=2'>B</A> <a class=x href=/c#top>C</a>
      <area href="/d"> <a name="nohref">x</a> <a href="mailto:x@example.com">m</a> <a href="javascript:void(0)">j</a>`;
    expect(linksOf(html, 'http://site.test/dir/page')).toEqual([
      'http://site.test/a',
      'http://site.test/dir/b?x=1&y=2',
      'http://site.test/c',
      'http://site.test/d',
    ]);
  });

  it('resolves against <base href>', () => {
    expect(linksOf('<base href="/root/"><a href="x">x</a>', 'http://site.test/dir/page')).toEqual([
      'http://site.test/root/x',
    ]);
  });
});
