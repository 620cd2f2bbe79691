import { categoryOf, hostMatches, normaliseProjectDomain, normaliseUrl, registrableDomain } from './domains';

const project = { owned: ['linear.app', 'acme.com'], competitors: [{ name: 'Globex', domains: ['globex.com'] }] };

describe('URL and domain normalisation', () => {
  it('normalises URLs: host case, www, fragment, trackers, trailing slash, query order', () => {
    expect(normaliseUrl('HTTPS://WWW.G2.com/Categories/CRM/?utm_source=x&b=2&a=1#top')).toEqual({
      url: 'https://g2.com/Categories/CRM?a=1&b=2',
      host: 'g2.com',
      domain: 'g2.com',
    });
    expect(normaliseUrl('https://example.com/')!.url).toBe('https://example.com/');
    expect(normaliseUrl('http://example.com:8080/x')!.url).toBe('http://example.com:8080/x');
    expect(normaliseUrl('https://example.com:443/x')!.url).toBe('https://example.com/x');
  });

  it('refuses what is not an absolute http(s) URL', () => {
    expect(normaliseUrl('ftp://example.com/x')).toBeNull();
    expect(normaliseUrl('/relative')).toBeNull();
    expect(normaliseUrl('javascript:alert(1)')).toBeNull();
  });

  it('takes the registrable domain from the public suffix list', () => {
    expect(registrableDomain('en.wikipedia.org')).toBe('wikipedia.org');
    expect(registrableDomain('news.bbc.co.uk')).toBe('bbc.co.uk');
    expect(registrableDomain('acme.github.io')).toBe('acme.github.io');
    expect(registrableDomain('10.0.0.1')).toBe('10.0.0.1');
  });

  it('normalises project domains given as URLs or hosts', () => {
    expect(normaliseProjectDomain('https://www.Acme.com/pricing')).toBe('acme.com');
    expect(normaliseProjectDomain('Acme.com')).toBe('acme.com');
    expect(normaliseProjectDomain('blog.acme.com/x')).toBe('blog.acme.com');
  });

  it('matches hosts by suffix on a dot, never by substring', () => {
    expect(hostMatches('linear.app', 'linear.app')).toBe(true);
    expect(hostMatches('docs.linear.app', 'linear.app')).toBe(true);
    expect(hostMatches('notlinear.app', 'linear.app')).toBe(false);
    expect(hostMatches('linear.app.evil.com', 'linear.app')).toBe(false);
  });
});

describe('source categories', () => {
  it('owned and competitor first, by suffix match', () => {
    expect(categoryOf('docs.linear.app', project)).toBe('owned');
    expect(categoryOf('notlinear.app', project)).toBe('other');
    expect(categoryOf('globex.com', project)).toBe('competitor');
    expect(categoryOf('shop.globex.com', project)).toBe('competitor');
  });

  it('then the curated table by registrable domain', () => {
    expect(categoryOf('reddit.com', project)).toBe('ugc');
    expect(categoryOf('old.reddit.com', project)).toBe('ugc');
    expect(categoryOf('g2.com', project)).toBe('review');
    expect(categoryOf('youtube.com', project)).toBe('video');
    expect(categoryOf('en.wikipedia.org', project)).toBe('reference');
    expect(categoryOf('linkedin.com', project)).toBe('social');
    expect(categoryOf('forbes.com', project)).toBe('editorial');
    expect(categoryOf('amazon.com', project)).toBe('ecommerce');
  });

  it('then TLD rules for institutions, then other', () => {
    expect(categoryOf('sba.gov', project)).toBe('institutional');
    expect(categoryOf('cs.stanford.edu', project)).toBe('institutional');
    expect(categoryOf('ox.ac.uk', project)).toBe('institutional');
    expect(categoryOf('service.gov.uk', project)).toBe('institutional');
    expect(categoryOf('governance.com', project)).toBe('other');
    expect(categoryOf('startup.ac', project)).toBe('other'); // .ac is a country TLD, not academia
    expect(categoryOf('mof.go.jp', project)).toBe('institutional');
    expect(categoryOf('crm-weekly.net', project)).toBe('other');
  });
});
