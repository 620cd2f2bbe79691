import { folderOf } from './site-pages';
import { canonicalOf, linksOf } from './site-crawl';

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

describe('canonicalOf', () => {
  it('reads <link rel=canonical href> in any attribute order and quoting, resolved against the page', () => {
    expect(canonicalOf('<head><link rel="canonical" href="/b#x"></head>', 'http://site.test/d/a')).toBe(
      'http://site.test/b',
    );
    expect(canonicalOf("<LINK HREF='b?x=1&amp;y=2' REL='Canonical'>", 'http://site.test/d/a')).toBe(
      'http://site.test/d/b?x=1&y=2',
    );
    expect(
      canonicalOf('<link rel="stylesheet" href="/s.css"><link data-href="/x" rel="canonical">', 'http://site.test/'),
    ).toBe(undefined);
  });
});

describe('folderOf', () => {
  it('names the folder an index file serves, keeping the query; undefined for other pages', () => {
    expect(folderOf('http://site.test/index.html')).toBe('http://site.test/');
    expect(folderOf('http://site.test/docs/INDEX.HTM?v=1')).toBe('http://site.test/docs/?v=1');
    expect(folderOf('http://site.test/docs/index.php')).toBe('http://site.test/docs/');
    expect(folderOf('http://site.test/docs/myindex.html')).toBeUndefined();
    expect(folderOf('http://site.test/docs/')).toBeUndefined();
  });
});
