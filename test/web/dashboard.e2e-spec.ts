import puppeteer, { Browser, Page } from 'puppeteer-core';
import { CHROMIUM_ARGS } from '../../src/a11y/browser/browser-pool';
import { AccountsService } from '../../src/accounts/accounts.service';
import { DemoSeedService } from '../../src/visibility/demo/demo-seed.service';
import { createTestApp, TestApp } from '../utils/test-app';
import { contrast } from './contrast';
import { WebClient } from './web-client';

const PASSWORD = 'a long enough password';
/** A desktop and a phone (375 px) width: every check runs at both. */
const WIDTHS = [1280, 375];

interface Summary {
  brand: { name: string; aliases?: string[] };
  platforms: string[];
  competitors: Array<{ name: string }>;
  latest: { mention_rate: number; share_of_voice: number };
  funnel: { citation_rate: number };
  changes: null | {
    detected: string[];
    gaps: { gained_count: number; lost_count: number };
    sources: { gained_count: number; lost_count: number };
  };
}
interface Answer {
  index: number;
  prompt_id: string;
  platform: string;
  status: string;
  brand_status: string;
  brand_mentioned: boolean;
}

/** The visibility dashboard in real Chromium, its figures against the API's (issue #20, items 8 and 10). */
describe('Dashboard in Chromium (e2e)', () => {
  let t: TestApp;
  let browser: Browser;
  let origin: string;
  let key: string;
  let email: string;

  const api = async <T>(path: string): Promise<T> => {
    const r = await fetch(`${origin}${path}`, { headers: { authorization: `Bearer ${key}` } });
    expect({ path, status: r.status }).toEqual({ path, status: 200 });
    return (await r.json()) as T;
  };

  /** A signed-in page of its own (own cookies) at `width`. */
  const open = async (width: number): Promise<Page> => {
    const page = await (await browser.createBrowserContext()).newPage();
    await page.setViewport({ width, height: 800 });
    await page.goto(`${origin}/signin`);
    await page.type('#email', email);
    await page.type('#password', PASSWORD);
    await Promise.all([page.waitForNavigation(), page.click('form.stack button[type=submit]')]);
    expect(page.url()).toBe(`${origin}/dashboard`);
    return page;
  };
  const go = async (page: Page, path: string, status = 200): Promise<void> => {
    const r = await page.goto(`${origin}${path}`);
    expect({ path, status: r!.status() }).toEqual({ path, status });
  };
  const apply = async (page: Page, status = 200): Promise<void> => {
    const [r] = await Promise.all([
      page.waitForNavigation(),
      page.click('form[aria-label=Filters] button[type=submit]'),
    ]);
    expect({ url: page.url(), status: r!.status() }).toEqual({ url: page.url(), status });
  };
  /** "N in total" of the page's pager. */
  const total = async (page: Page): Promise<number> =>
    Number(/(\d+) in total/.exec((await page.$eval('.pager p', (e) => e.textContent)) ?? '')?.[1]);
  const values = (page: Page, selector: string): Promise<string[]> =>
    page.$$eval(`${selector} option`, (os) => os.map((o) => (o as unknown as { value: string }).value));

  beforeAll(async () => {
    t = await createTestApp();
    origin = WebClient.of(t.server).origin;
    key = (await t.app.get(DemoSeedService).seed()).key;
    const user = await t.app.get(AccountsService).createUser('demo', 'dash@example.com', 'admin');
    email = user.email;
    await WebClient.of(t.server).signIn(user.email, user.one_time_password, PASSWORD);
    browser = await puppeteer.launch({
      executablePath: t.config.CHROMIUM_PATH,
      headless: true,
      args: CHROMIUM_ARGS,
      protocolTimeout: 40_000,
    });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it.each(WIDTHS)(
    'offers Platform and Competitor as lists of the values the data has, and filters as the API does (%i px)',
    async (width) => {
      const s = await api<Summary>('/api/v1/visibility');
      const page = await open(width);
      for (const tab of ['answers', 'sources', 'urls', 'gaps']) {
        await go(page, `/dashboard/${tab}`);
        expect({ tab, platforms: await values(page, 'select#f-platform') }).toEqual({
          tab,
          platforms: ['', ...s.platforms],
        });
        if (tab === 'answers' || tab === 'gaps') {
          expect({ tab, competitors: await values(page, 'select#f-competitor') }).toEqual({
            tab,
            competitors: ['', ...s.competitors.map((c) => c.name)],
          });
        }
      }
      const [platform, competitor] = [s.platforms[s.platforms.length - 1], s.competitors[0].name];
      await page.select('#f-platform', platform);
      await page.select('#f-competitor', competitor);
      await apply(page);
      expect(page.url()).toContain(`competitor=${encodeURIComponent(competitor).replace(/%20/g, '+')}`);
      const gaps = await api<{ total: number }>(
        `/api/v1/gaps?platform=${platform}&competitor=${encodeURIComponent(competitor)}`,
      );
      expect(await total(page)).toBe(gaps.total);
      await page.browserContext().close();
    },
    120_000,
  );

  it.each(WIDTHS)(
    'shows a refused filter on the form itself, the other filters kept, never a dead end (%i px)',
    async (width) => {
      const page = await open(width);
      await go(page, '/dashboard/prompts');
      await page.type('#f-country', 'USA');
      await page.select('#f-enabled', 'true');
      await page.select('#f-limit', '25');
      await apply(page, 400);
      // The form is still there with the error on it, and every value as it was sent.
      expect(await page.$eval('main h1', (e) => e.textContent)).toBe('Tracked prompts');
      expect(await page.$eval('.error-summary a', (e) => [e.textContent, e.getAttribute('href')])).toEqual([
        'Country (2 letters): enter a two-letter country code, such as US.',
        '#f-country',
      ]);
      expect(
        await page.$eval('#f-country', (e) => [
          (e as unknown as { value: string }).value,
          e.getAttribute('aria-invalid'),
        ]),
      ).toEqual(['USA', 'true']);
      expect(await page.$eval('#f-country-error', (e) => e.textContent)).toContain('two-letter country code');
      expect(await page.$eval('#f-enabled', (e) => (e as unknown as { value: string }).value)).toBe('true');
      expect(await page.$eval('#f-limit', (e) => (e as unknown as { value: string }).value)).toBe('25');
      // Corrected on the same form: the list comes back, the other filters still applied.
      await page.$eval('#f-country', (e) => ((e as unknown as { value: string }).value = ''));
      await page.type('#f-country', 'us');
      await apply(page);
      const prompts = await api<{ total: number }>('/api/v1/prompts?country=us&enabled=true');
      expect(await total(page)).toBe(prompts.total);
      expect(await page.$('.error-summary')).toBeNull();
      // A page size no list offers, from an edited link: the same, on the Answers page, filters kept.
      const s = await api<Summary>('/api/v1/visibility');
      await go(page, `/dashboard/answers?platform=${s.platforms[0]}&mentioned=true&limit=0`, 400);
      expect(await page.$eval('#f-limit', (e) => e.getAttribute('aria-invalid'))).toBe('true');
      expect(await page.$eval('#f-platform', (e) => (e as unknown as { value: string }).value)).toBe(s.platforms[0]);
      expect(await page.$eval('#f-mentioned', (e) => (e as unknown as { value: string }).value)).toBe('true');
      expect(await page.$eval('.error-summary', (e) => e.textContent)).not.toMatch(/limit|integer|Invalid/);
      await page.browserContext().close();
    },
    120_000,
  );

  it.each(WIDTHS)(
    'filters Answers by the brand status as /api/v1/answers does (%i px)',
    async (width) => {
      const page = await open(width);
      await go(page, '/dashboard/answers');
      expect(await values(page, 'select#f-brand_status')).toEqual(['', 'mentioned', 'absent', 'not_named']);
      for (const status of ['absent', 'not_named', 'mentioned']) {
        await page.select('#f-brand_status', status);
        await page.select('#f-limit', '500');
        await apply(page);
        expect(page.url()).toContain(`brand_status=${status}`);
        const r = await api<{ total: number; answers: Answer[] }>(`/api/v1/answers?brand_status=${status}&limit=500`);
        expect({ status, total: await total(page) }).toEqual({ status, total: r.total });
        expect({ status, shown: (await page.$$('article.answer')).length }).toEqual({
          status,
          shown: r.answers.length,
        });
      }
      await page.browserContext().close();
    },
    120_000,
  );

  it.each(WIDTHS)(
    'draws the keyboard focus ring at 3:1 or more against the header and the page (%i px)',
    async (width) => {
      const page = await open(width);
      await go(page, '/dashboard');
      /** The focused element's outline colour and the colour of the nearest opaque background behind it. */
      const ring = async (): Promise<{ tag: string; style: string; outline: string; ground: string }> =>
        (await page.evaluate(`(() => {
        const e = document.activeElement;
        const s = getComputedStyle(e);
        let p = e.parentElement;
        while (p && getComputedStyle(p).backgroundColor === 'rgba(0, 0, 0, 0)') p = p.parentElement;
        return { tag: e.tagName + ' ' + e.textContent.trim().slice(0, 20), style: s.outlineStyle, outline: s.outlineColor, ground: p ? getComputedStyle(p).backgroundColor : 'rgb(255, 255, 255)' };
      })()`)) as { tag: string; style: string; outline: string; ground: string };
      const seen = new Set<string>();
      // Tab through the header (skip link, brand, navigation, sign-out) into the page's own links.
      for (let i = 0; i < 14; i++) {
        await page.keyboard.press('Tab');
        const r = await ring();
        expect({ at: r.tag, style: r.style }).toEqual({ at: r.tag, style: 'solid' });
        expect({ at: r.tag, on: r.ground, ratio: contrast(r.outline, r.ground) >= 3 }).toEqual({
          at: r.tag,
          on: r.ground,
          ratio: true,
        });
        seen.add(r.ground);
      }
      // Both the header's grey and the page's white were measured.
      expect([...seen].sort()).toEqual(['rgb(243, 245, 248)', 'rgb(255, 255, 255)']);
      await page.browserContext().close();
    },
    120_000,
  );

  it("keeps the history chart's labels at 12 px or more on a phone, scrolling the chart, not the page", async () => {
    const page = await open(375);
    await go(page, '/dashboard');
    const m = (await page.evaluate(`(() => {
      const svg = document.querySelector('svg.chart');
      const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
      const sizes = [...svg.querySelectorAll('text')].map((t) => parseFloat(getComputedStyle(t).fontSize) * scale);
      const box = svg.parentElement;
      return { smallest: Math.min(...sizes), labels: sizes.length, wide: document.documentElement.scrollWidth - window.innerWidth,
        scrolls: box.scrollWidth > box.clientWidth, focusable: box.tabIndex === 0, role: box.getAttribute('role'), table: !!document.querySelector('#history ~ .table-wrap table') };
    })()`)) as {
      smallest: number;
      labels: number;
      wide: number;
      scrolls: boolean;
      focusable: boolean;
      role: string;
      table: boolean;
    };
    expect(m.labels).toBeGreaterThan(5);
    expect(m.smallest).toBeGreaterThanOrEqual(12);
    expect(m).toMatchObject({ wide: 0, scrolls: true, focusable: true, role: 'region', table: true });
    await page.browserContext().close();
  }, 120_000);

  it.each(WIDTHS)(
    "lists a gap's prompt ids apart, left-aligned, each as in the API (%i px)",
    async (width) => {
      const page = await open(width);
      await go(page, '/dashboard/gaps?limit=25');
      const gaps = await api<{ gaps: Array<{ url: string; prompts: string[] }> }>('/api/v1/gaps?limit=25');
      const cells =
        (await page.evaluate(`[...document.querySelectorAll('table tbody td[data-label=Prompts]')].map((td) =>
      ({ ids: [...td.querySelectorAll('a')].map((a) => a.textContent), text: td.textContent, align: getComputedStyle(td).textAlign }))`)) as Array<{
          ids: string[];
          text: string;
          align: string;
        }>;
      expect(cells.map((c) => c.ids)).toEqual(gaps.gaps.map((g) => g.prompts));
      expect(cells.some((c) => c.ids.length > 1)).toBe(true);
      for (const c of cells) {
        expect(c.text).toBe(c.ids.join(', '));
        expect(['left', 'start']).toContain(c.align);
      }
      await page.browserContext().close();
    },
    120_000,
  );

  it.each(WIDTHS)(
    'says why a failed answer failed, and marks the own brand apart from competitors (%i px)',
    async (width) => {
      const page = await open(width);
      const s = await api<Summary>('/api/v1/visibility');
      const all = await api<{ answers: Answer[] }>('/api/v1/answers?limit=500');
      const failed = all.answers.find((a) => a.status !== 'ok')!;
      expect(failed).toBeDefined();
      await go(page, `/dashboard/answers?prompt_id=${failed.prompt_id}&platform=${failed.platform}`);
      expect(await page.$eval(`#answer-${failed.index}-failure`, (e) => e.textContent)).toBe(
        `Failed: the platform answered with an error (status “${failed.status}”). A failed answer counts in no rate.`,
      );
      // The own brand: bold, "(you)" after its name, another colour than a competitor's mark.
      await go(page, '/dashboard/answers?mentioned=true&limit=25');
      const marks = (await page.evaluate(`(() => {
      const look = (m) => m && { text: m.textContent, weight: Number(getComputedStyle(m).fontWeight), bg: getComputedStyle(m).backgroundColor };
      return { own: look(document.querySelector('article.answer mark.own')), rival: look(document.querySelector('article.answer mark.competitor')) };
    })()`)) as {
        own: { text: string; weight: number; bg: string };
        rival: { text: string; weight: number; bg: string } | null;
      };
      expect(marks.own.text).toMatch(/ \(you\)$/);
      const names = [s.brand.name, ...(s.brand.aliases ?? [])].map((n) => n.toLowerCase());
      expect(names).toContain(marks.own.text.replace(/ \(you\)$/, '').toLowerCase());
      expect(marks.own.weight).toBeGreaterThanOrEqual(700);
      expect(marks.rival).not.toBeNull();
      expect(marks.rival!.text).not.toContain('(you)');
      expect(marks.own.bg).not.toBe(marks.rival!.bg);
      await page.browserContext().close();
    },
    120_000,
  );

  it.each(WIDTHS)(
    "shows every percentage in one format, equal to the API's, and the gaps gained and lost with their counts (%i px)",
    async (width) => {
      const page = await open(width);
      await go(page, '/dashboard');
      const s = await api<Summary>('/api/v1/visibility');
      const history = await api<{ scans: Array<{ scan_id: string; changes: Summary['changes'] }> }>(
        '/api/v1/history?limit=52',
      );
      expect(await page.$eval('#mention-rate', (e) => e.textContent)).toBe(`${s.latest.mention_rate.toFixed(1)}%`);
      expect(await page.$eval('#share-of-voice', (e) => e.textContent)).toBe(`${s.latest.share_of_voice.toFixed(1)}%`);
      expect(await page.$eval('#citation-rate', (e) => e.textContent)).toBe(`${s.funnel.citation_rate.toFixed(1)}%`);
      const percents = (await page.evaluate(
        `[...document.querySelectorAll('main td, main .card .value')].map((e) => e.textContent.trim()).filter((t) => /%$/.test(t))`,
      )) as string[];
      expect(percents.length).toBeGreaterThan(20);
      expect(percents.filter((p) => !/^\d+\.\d%$/.test(p))).toEqual([]);
      // Changes with their counts, scan by scan, as the API counts them.
      const rows = await page.$$eval('table tbody tr', (trs) =>
        trs.map((tr) => [
          tr.querySelector('td[data-label=Scan]')?.textContent,
          tr.querySelector('td[data-label=Changes]')?.textContent,
        ]),
      );
      let counted = 0;
      for (const scan of history.scans) {
        const changes = rows.find(([id]) => id === scan.scan_id)?.[1] ?? '';
        for (const [code, n] of [
          ['gaps_gained', scan.changes?.gaps.gained_count],
          ['gaps_lost', scan.changes?.gaps.lost_count],
        ] as const) {
          if (!scan.changes?.detected.includes(code)) continue;
          expect({ scan: scan.scan_id, changes }).toEqual({
            scan: scan.scan_id,
            changes: expect.stringContaining(`${code.replace('_', ' ')}: ${n}`),
          });
          counted++;
        }
      }
      expect(counted).toBeGreaterThan(0);
      if (s.changes?.detected.includes('gaps_gained'))
        expect(await page.$eval('#changes', (e) => e.textContent)).toContain(
          `gaps gained: ${s.changes.gaps.gained_count}`,
        );
      await page.browserContext().close();
    },
    120_000,
  );
});
