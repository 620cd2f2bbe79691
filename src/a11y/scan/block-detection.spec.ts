import { detectBlock, LoadedDocument } from './block-detection';
import { crawlCandidates, normalizeUrl } from './crawl';

const doc = (d: Partial<LoadedDocument>): LoadedDocument => ({
  status: 200,
  headers: {},
  title: 'Home',
  text: '<p>Hello</p>',
  ...d,
});

describe('detectBlock', () => {
  it.each<[Partial<LoadedDocument>, string]>([
    [{ status: 403, headers: { 'cf-mitigated': 'challenge' } }, 'cloudflare: cf-mitigated: challenge'],
    [{ status: 202, headers: { 'x-amzn-waf-action': 'captcha' } }, 'aws-waf: x-amzn-waf-action: captcha'],
    [{ status: 403, headers: { 'x-datadome': 'protected' } }, 'datadome: x-datadome on HTTP 403'],
    [{ status: 403, headers: { 'x-sucuri-block': 'BL001' } }, 'sucuri: x-sucuri-block: BL001'],
    [{ status: 503, title: 'Just a moment...' }, 'challenge page: "Just a moment..."'],
    [{ status: 403, title: 'Attention Required! | Cloudflare' }, 'challenge page: "Attention Required! | Cloudflare"'],
    [{ text: '<iframe src="/_Incapsula_Resource?x=1"></iframe>' }, 'imperva: Incapsula incident page'],
    [
      { status: 403, title: 'Access Denied', text: 'Reference #18.2d351ab8.1557333295.a4e16ab' },
      'akamai: Access Denied page',
    ],
    [{ status: 429, title: 'Vercel Security Checkpoint' }, 'vercel: Security Checkpoint page'],
  ])('names the signal of %p', (d, reason) => {
    expect(detectBlock(doc(d))).toBe(reason);
  });

  it('vendor headers alone, DataDome on a 200 and ordinary 403s are not blocks', () => {
    expect(detectBlock(doc({ headers: { server: 'cloudflare', 'cf-ray': '8a1b-AMS' } }))).toBeUndefined();
    expect(detectBlock(doc({ headers: { 'x-datadome': 'protected' } }))).toBeUndefined();
    expect(detectBlock(doc({ status: 403, title: 'Forbidden' }))).toBeUndefined();
    expect(detectBlock(doc({ title: 'Access Denied', text: 'no reference' }))).toBeUndefined();
  });
});

describe('crawl candidates', () => {
  const start = 'http://site.test/a/';
  it('keeps same-origin links, normalised and deduplicated, in link order, at most 4', () => {
    const links = [
      '/a/one#x',
      'http://site.test/a/one',
      'two',
      'http://other.test/x',
      'https://site.test/a/secure', // other origin (scheme)
      'http://site.test/a/',
      '/file.pdf',
      'mailto:x@site.test',
      'javascript:void(0)',
      '/three?q=1',
      '/four',
      '/five',
    ];
    expect(crawlCandidates(start, [start], links)).toEqual([
      'http://site.test/a/one',
      'http://site.test/a/two',
      'http://site.test/three?q=1',
      'http://site.test/four',
    ]);
  });

  it('normalises addresses and refuses other schemes', () => {
    expect(normalizeUrl('HTTP://Site.Test:80/a#b')).toBe('http://site.test/a');
    expect(normalizeUrl('ftp://site.test/')).toBeUndefined();
    expect(normalizeUrl('::::')).toBeUndefined();
  });
});
