import { DomainError } from '../../common/errors/domain-error';
import { ErrorCode } from '../../common/errors/error-code';
import { runPages, scanWithBackoff, SITE_PAGES_IN_FLIGHT } from './site-run';

const pages = Array.from({ length: 7 }, (_, i) => `http://s.test/p${i}`);

describe('runPages', () => {
  it('keeps SITE_PAGES_IN_FLIGHT pages in flight while the site sets no pace, results in page order', async () => {
    let running = 0;
    let most = 0;
    const { results, stopped } = await runPages(pages, {
      gapMs: 0,
      scan: async (url) => {
        most = Math.max(most, ++running);
        await new Promise((r) => setTimeout(r, 2));
        running--;
        return { url, score: 90 };
      },
      after: async () => true,
    });
    expect(stopped).toBe(false);
    expect(results.map((r) => r.url)).toEqual(pages);
    expect(most).toBe(SITE_PAGES_IN_FLIGHT);
  });

  it('goes one page at a time once a page reports a wait, and keeps errors as results', async () => {
    let running = 0;
    let most = 0;
    const { results } = await runPages(pages.slice(0, 4), {
      gapMs: 0,
      scan: async (url, i, slowDown) => {
        most = Math.max(most, ++running);
        if (i === 0) slowDown(1);
        await new Promise((r) => setTimeout(r, 5));
        running--;
        if (i === 3) throw new DomainError(ErrorCode.TargetHttpError, 'The target answered HTTP 500.');
        return { url, score: 1 };
      },
      after: async () => true,
    });
    expect(results[3]).toEqual({ url: pages[3], error: 'The target answered HTTP 500.' });
    expect(results.slice(0, 3).every((r) => r.score === 1)).toBe(true);
    expect(most).toBeLessThanOrEqual(SITE_PAGES_IN_FLIGHT); // the lanes already started finish their page
  });

  it('stops when `after` says so', async () => {
    let calls = 0;
    const { stopped, results } = await runPages(pages, {
      gapMs: 1,
      scan: async (url) => ({ url }),
      after: async () => ++calls < 2,
    });
    expect(stopped).toBe(true);
    expect(results.filter(Boolean)).toHaveLength(2);
  });
});

describe('scanWithBackoff', () => {
  const tooMany = (retryAfter?: string) =>
    new DomainError(ErrorCode.TargetHttpError, 'The target answered HTTP 429.', {
      status: 429,
      ...(retryAfter ? { target_retry_after: retryAfter } : {}),
    });

  it("waits as a 429's Retry-After asks and tries again", async () => {
    const waits: number[] = [];
    let n = 0;
    const got = await scanWithBackoff(
      async () => {
        if (n++ === 0) throw tooMany('0');
        return 'ok';
      },
      (ms) => waits.push(ms),
    );
    expect(got).toBe('ok');
    expect(waits).toEqual([0]);
  });

  it('gives up after two retries, and never retries other errors', async () => {
    let n = 0;
    await expect(
      scanWithBackoff(
        async () => {
          n++;
          throw tooMany('0');
        },
        () => undefined,
      ),
    ).rejects.toThrow('HTTP 429');
    expect(n).toBe(3);
    n = 0;
    await expect(
      scanWithBackoff(
        async () => {
          n++;
          throw new Error('other');
        },
        () => undefined,
      ),
    ).rejects.toThrow('other');
    expect(n).toBe(1);
  });
});
