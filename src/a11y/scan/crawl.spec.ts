import { DomainError } from '../../common/errors/domain-error';
import { ErrorCode } from '../../common/errors/error-code';
import type { ReportPage } from '../report/report.types';
import { CRAWL_PARALLEL, crawlLinkedPages, CrawlRun } from './crawl';

const entry = (url: string, finalUrl = url): ReportPage => ({
  url,
  finalUrl,
  score: 100,
  violations: [],
  incomplete: [],
  passes: [],
  timings: { navigationMs: 0, settleMs: 0, axeMs: 0, totalMs: 0 },
});
const start = entry('https://site.test/');
const run = (scan: CrawlRun['scan'], budgetMs = () => 5000): CrawlRun => ({
  budgetMs,
  floorMs: 1000,
  deadlineReached: 'scan deadline reached',
  scan,
});

describe('crawlLinkedPages', () => {
  it('keeps linked pages in link order, skipping redirects off the origin and pages already scanned', async () => {
    const finals: Record<string, string> = {
      'https://site.test/b': 'https://other.test/b',
      'https://site.test/c': 'https://site.test/',
    };
    const links = ['/a', '/b', '/c', '/d', '/a#again', 'https://other.test/x'].map((l) => new URL(l, start.url).href);
    const out = await crawlLinkedPages(
      start.url,
      start.url,
      Promise.resolve(start),
      links,
      run(async (url) => entry(url, finals[url] ?? url)),
    );
    expect(out.pages.map((p) => p.url)).toEqual(['https://site.test/a', 'https://site.test/d']);
    expect(out.skipped).toEqual([
      { url: 'https://site.test/b', error: 'redirected to another origin (https://other.test/b)' },
      { url: 'https://site.test/c', error: 'same page as https://site.test/' },
    ]);
  });

  it('skips a page whose budget is under the floor, and one that failed, in the page words of its error', async () => {
    const budgets = [5000, 500, 5000];
    const out = await crawlLinkedPages(
      start.url,
      start.url,
      Promise.resolve(start),
      ['https://site.test/a', 'https://site.test/b', 'https://site.test/c'],
      run(
        async (url) => {
          if (url.endsWith('/c'))
            throw new DomainError(ErrorCode.TargetHttpError, 'The target answered HTTP 404.', { status: 404 });
          return entry(url);
        },
        () => budgets.shift()!,
      ),
    );
    expect(out.pages.map((p) => p.url)).toEqual(['https://site.test/a']);
    expect(out.skipped).toEqual([
      { url: 'https://site.test/b', error: 'scan deadline reached' },
      { url: 'https://site.test/c', error: 'target_http_error: The target answered HTTP 404.' },
    ]);
  });

  it('ends the crawl on scan_failed (the browser is gone) and scans CRAWL_PARALLEL pages at once', async () => {
    let open = 0;
    let most = 0;
    const scan = async (url: string): Promise<ReportPage> => {
      most = Math.max(most, ++open);
      await new Promise((r) => setImmediate(r));
      open--;
      if (url.endsWith('/d'))
        throw new DomainError(ErrorCode.ScanFailed, 'The browser crashed during the scan; please try again.');
      return entry(url);
    };
    const links = ['a', 'b', 'c', 'd'].map((p) => `https://site.test/${p}`);
    await expect(
      crawlLinkedPages(start.url, start.url, Promise.resolve(start), links, run(scan)),
    ).rejects.toMatchObject({
      code: ErrorCode.ScanFailed,
    });
    expect(most).toBe(CRAWL_PARALLEL);
  });

  it('starts one linked page while the start page is graded, the others once it is, none after it failed', async () => {
    const links = ['a', 'b', 'c', 'd'].map((p) => `https://site.test/${p}`);
    let grade!: (p: ReportPage) => void;
    let fail!: (e: Error) => void;
    const started: string[] = [];
    const scan = async (url: string): Promise<ReportPage> => {
      started.push(url);
      return entry(url);
    };
    const graded = new Promise<ReportPage>((resolve) => (grade = resolve));
    const crawl = crawlLinkedPages(start.url, start.url, graded, links, run(scan));
    await new Promise((r) => setImmediate(r));
    expect(started).toEqual(links); // one lane goes through them while the start page is graded
    grade(entry(start.url, 'https://site.test/d')); // the start page's final address, known once graded
    const out = await crawl;
    expect(out.pages.map((p) => p.url)).toEqual(links.slice(0, 3));
    expect(out.skipped).toEqual([{ url: links[3], error: 'same page as https://site.test/d' }]);

    started.length = 0;
    const failing = new Promise<ReportPage>((_, reject) => (fail = reject));
    const slow = async (url: string): Promise<ReportPage> => {
      started.push(url);
      if (started.length === 1) fail(new DomainError(ErrorCode.TargetBlocked, 'blocked'));
      await new Promise((r) => setImmediate(r));
      return entry(url);
    };
    await expect(crawlLinkedPages(start.url, start.url, failing, links, run(slow))).rejects.toMatchObject({
      code: ErrorCode.TargetBlocked,
    });
    await new Promise((r) => setImmediate(r));
    expect(started).toEqual([links[0]]);
  });
});
