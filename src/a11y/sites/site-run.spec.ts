import { DomainError } from '../../common/errors/domain-error';
import { ErrorCode } from '../../common/errors/error-code';
import { SCAN_JOB_LOST } from '../queue/bullmq-scan-queue';
import { BROWSER_CRASHED } from '../scan/page-errors';
import { LOST_TWICE, runPages, scanCounted, scanWithBackoff, SITE_PAGES_IN_FLIGHT, viewOptions } from './site-run';

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

describe('scanCounted (a lost page is retried once, across processes)', () => {
  const crashed = () => new DomainError(ErrorCode.ScanFailed, BROWSER_CRASHED);
  /** A scan that throws the given errors in turn, then answers 'ok'; counts its starts and tries. */
  const scripted = (errors: Error[]) => {
    const c = { starts: 0, tries: 0 };
    return {
      c,
      start: async () => void c.starts++,
      scan: async () => {
        const e = errors[c.tries++];
        if (e) throw e;
        return 'ok';
      },
    };
  };

  it('tries a page whose browser crashed once more, recording each start before it runs', async () => {
    const s = scripted([crashed()]);
    await expect(scanCounted(0, s.start, s.scan)).resolves.toBe('ok');
    expect(s.c).toEqual({ starts: 2, tries: 2 });
  });

  it('fails a page lost twice with a readable reason, also when its first loss was a process that died', async () => {
    const twice = scripted([crashed(), new DomainError(ErrorCode.ScanFailed, SCAN_JOB_LOST)]);
    await expect(scanCounted(0, twice.start, twice.scan)).rejects.toThrow(LOST_TWICE);
    expect(twice.c.tries).toBe(2);
    const resumed = scripted([crashed()]); // started once by a worker that was killed
    await expect(scanCounted(1, resumed.start, resumed.scan)).rejects.toThrow(LOST_TWICE);
    expect(resumed.c).toEqual({ starts: 1, tries: 1 });
    const gone = scripted([]); // started twice, lost both times: not requested again
    await expect(scanCounted(2, gone.start, gone.scan)).rejects.toThrow(LOST_TWICE);
    expect(gone.c).toEqual({ starts: 0, tries: 0 });
    expect(LOST_TWICE).toMatch(/lost twice .*: not scanned\.$/);
  });

  it("keeps any other error as the page's answer, without a retry", async () => {
    const s = scripted([new DomainError(ErrorCode.TargetHttpError, 'The target answered HTTP 500.')]);
    await expect(scanCounted(0, s.start, s.scan)).rejects.toThrow('HTTP 500');
    expect(s.c.tries).toBe(1);
  });
});

describe('viewOptions (the checks beyond axe run once per page, at the desktop viewport)', () => {
  const cookies = [{ name: 'sid', value: 'x', domain: 's.test', path: '/', secure: false, httpOnly: true }];
  const both = { reflow: true, keyboard: true };

  it('puts the reflow check and the keyboard walk on desktop, whichever viewport comes first', () => {
    for (const order of [
      ['desktop', 'phone'],
      ['phone', 'desktop'],
    ] as const) {
      const v = viewOptions(order, both, undefined);
      expect(v.get('desktop')).toEqual({ reflow: true, keyboard: true });
      expect(v.get('phone')).toEqual({ viewport: 'phone' });
    }
  });

  it('runs them at the phone viewport when it is the only one, gives cookies to every viewport, and none to a plain desktop scan', () => {
    expect(viewOptions(['phone'], both, undefined).get('phone')).toEqual({
      viewport: 'phone',
      reflow: true,
      keyboard: true,
    });
    const signedIn = viewOptions(['desktop', 'phone'], { reflow: false, keyboard: true }, cookies);
    expect(signedIn.get('desktop')).toEqual({ keyboard: true, cookies });
    expect(signedIn.get('phone')).toEqual({ viewport: 'phone', cookies });
    expect(viewOptions(['desktop'], { reflow: false, keyboard: false }, []).get('desktop')).toBeUndefined();
  });
});
