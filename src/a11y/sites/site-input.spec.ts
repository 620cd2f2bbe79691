import { DomainError } from '../../common/errors/domain-error';
import { parseSiteForm } from './site-input';

const start = 'https://site.test/';
const refusal = (f: Record<string, string>): { message: string; field: unknown } => {
  try {
    parseSiteForm({ start_url: start, ...f });
  } catch (e) {
    if (e instanceof DomainError) return { message: e.message, field: e.details.field };
    throw e;
  }
  throw new Error('accepted');
};

describe('parseSiteForm: where the pages come from', () => {
  it('keeps the choice given, with what it needs', () => {
    expect(parseSiteForm({ start_url: start, page_source: 'crawl', sitemap_url: '/sitemap.xml' })).toMatchObject({
      page_source: 'crawl',
      sitemap_url: 'https://site.test/sitemap.xml',
    });
    expect(parseSiteForm({ start_url: start, page_source: 'list', urls: '/a\n/b' }).page_source).toBe('list');
    expect(parseSiteForm({ start_url: start, page_source: 'sitemap', sitemap_url: '/s.xml' }).page_source).toBe(
      'sitemap',
    );
  });

  it('without a choice (a caller that predates it): the sitemap, else the list, else the crawl', () => {
    expect(parseSiteForm({ start_url: start, sitemap_url: '/s.xml', urls: '/a' }).page_source).toBe('sitemap');
    expect(parseSiteForm({ start_url: start, urls: '/a' }).page_source).toBe('list');
    expect(parseSiteForm({ start_url: start }).page_source).toBe('crawl');
  });

  it('refuses a sitemap choice without a sitemap, a list choice without addresses, an unknown choice', () => {
    expect(refusal({ page_source: 'sitemap' })).toEqual({
      message: "Give the sitemap's address, or choose another source of pages.",
      field: 'sitemap_url',
    });
    expect(refusal({ page_source: 'list', urls: '  \n' })).toMatchObject({ field: 'urls' });
    expect(refusal({ page_source: 'everything' })).toMatchObject({ field: 'page_source' });
  });
});
