import { parse } from 'csv-parse/sync';
import { AccountsService } from '../../src/accounts/accounts.service';
import { VisibilityIngestService } from '../../src/visibility/visibility-ingest.service';
import { percent } from '../../src/web/render/values';
import { createTestApp, TestApp } from '../utils/test-app';
import { scan1, scan2 } from '../visibility/fixtures';
import { WebClient } from './web-client';

const PASSWORD = 'a long enough password';

interface GapChanges {
  gained: string[];
  lost: string[];
  previous_scan_id: string;
}

/** The dashboard to work in (issue #22 items 5 and 6): scan picker, drill-down, clickable URLs, gaps gained and lost, CSV downloads. */
describe('Dashboard: scans, drill-down and exports (e2e)', () => {
  let t: TestApp;
  let web: WebClient;
  let key: string;
  const api = async <T>(path: string): Promise<T> => {
    const r = await fetch(`${web.origin}/api/v1${path}`, { headers: { authorization: `Bearer ${key}` } });
    expect({ path, status: r.status }).toEqual({ path, status: 200 });
    return (await r.json()) as T;
  };
  const page = async (path: string, status = 200): Promise<string> => {
    const r = await web.get(path);
    expect({ path, status: r.status }).toEqual({ path, status });
    return r.text;
  };
  const total = (text: string): number => Number(/(\d+) in total/.exec(text)?.[1]);
  const unescape = (s: string): string => s.replace(/&amp;/g, '&');
  /** The hrefs of links whose aria-label starts with `label` (after the count the link shows: "27 answers citing ..."). */
  const hrefs = (text: string, label: string): string[] =>
    [...text.matchAll(/<a href="([^"]+)" aria-label="([^"]+)"/g)]
      .filter((m) => m[2].replace(/^\d+ /, '').toLowerCase().startsWith(label.toLowerCase()))
      .map((m) => unescape(m[1]));

  beforeAll(async () => {
    t = await createTestApp();
    const ingest = t.app.get(VisibilityIngestService);
    key = (await t.createKey('work')).key;
    await ingest.importScan('work', scan1);
    await ingest.importScan('work', scan2);
    const user = await t.app.get(AccountsService).createUser('work', 'work@example.com', 'member');
    web = WebClient.of(t.server);
    await web.signIn(user.email, user.one_time_password, PASSWORD);
  });
  afterAll(async () => t?.close());

  it('every list for any scan: the picker offers every scan and the page shows the one picked', async () => {
    for (const tab of ['answers', 'sources', 'urls', 'gaps']) {
      const latest = await page(`/dashboard/${tab}`);
      expect(latest).toContain('<option value="s1">2026-11-09 (s1)</option>');
      expect(latest).toContain('<option value="s2">2026-11-16 (s2)</option>');
      const older = await page(`/dashboard/${tab}?scan_id=s1`);
      expect(older).toContain('<option value="s1" selected>');
      expect(older).toMatch(/s1 (of |\()2026-11-09/);
    }
    expect(total(await page('/dashboard/answers?scan_id=s1'))).toBe(2);
    expect(total(await page('/dashboard/answers'))).toBe(scan2.scan.answers.length);
    await page('/dashboard/answers?scan_id=nope', 404);
    const prompts = await page('/dashboard/prompts?scan_id=s1');
    expect(prompts).toContain('<option value="s1" selected>');
    expect(prompts).toContain('with their mention rate in scan s1');
    expect(hrefs(prompts, 'Answers to: best crm for startups')).toEqual(['/dashboard/answers?prompt_id=p1&scan_id=s1']);
  });

  it('drill-down from a prompt, a source, a URL and a gap to the answers behind it; URLs open', async () => {
    for (const scan of ['s1', 's2']) {
      const urls = await api<{ urls: Array<{ url: string; answers: number }> }>(`/urls?scan_id=${scan}`);
      const text = await page(`/dashboard/urls?scan_id=${scan}`);
      for (const u of urls.urls) {
        expect(text).toContain(`<a href="${u.url}" rel="noopener noreferrer nofollow" class="external">`);
        const [href] = hrefs(text, `Answers citing ${u.url}`);
        expect(href).toBe(`/dashboard/answers?cited_url=${encodeURIComponent(u.url)}&scan_id=${scan}`);
        expect({ url: u.url, answers: total(await page(href)) }).toEqual({ url: u.url, answers: u.answers });
      }
      const sources = await api<{ sources: Array<{ domain: string; answers: number }> }>(`/sources?scan_id=${scan}`);
      const stext = await page(`/dashboard/sources?scan_id=${scan}`);
      for (const s of sources.sources) {
        const [href] = hrefs(stext, `Answers citing ${s.domain}`);
        expect({ domain: s.domain, answers: total(await page(href)) }).toEqual({
          domain: s.domain,
          answers: s.answers,
        });
      }
    }
    const gaps = await api<{ gaps: Array<{ url: string; answers: number }> }>('/gaps');
    expect(gaps.gaps.length).toBeGreaterThan(0);
    const gtext = await page('/dashboard/gaps');
    for (const g of gaps.gaps) {
      const [href] = hrefs(gtext, `Answers behind the gap ${g.url}`);
      expect(href).toBe(`/dashboard/answers?gap_url=${encodeURIComponent(g.url)}`);
      expect({ gap: g.url, answers: total(await page(href)) }).toEqual({ gap: g.url, answers: g.answers });
    }
    const prompts = await page('/dashboard/prompts');
    const [toP1] = hrefs(prompts, 'Answers to: best crm for startups');
    expect(toP1).toBe('/dashboard/answers?prompt_id=p1');
    const p1 = (await api<{ total: number }>('/answers?prompt_id=p1')).total;
    expect(total(await page(toP1))).toBe(p1);
  });

  it('the gaps gained and lost of the picked scan, as the API lists them', async () => {
    const h = await api<{
      scans: Array<{ scan_id: string; changes: ({ gaps: GapChanges } & { previous_scan_id: string }) | null }>;
    }>('/history');
    const latest = h.scans[0];
    const text = await page('/dashboard/gaps');
    const section = (id: string): string[] =>
      [
        ...(new RegExp(`<ul id="${id}">([\\s\\S]*?)</ul>`).exec(text)?.[1] ?? '').matchAll(
          /class="external">([^<]+)</g,
        ),
      ].map((m) => unescape(m[1]));
    expect(latest.changes).not.toBeNull();
    expect(section('gaps-gained')).toEqual(latest.changes!.gaps.gained);
    expect(section('gaps-lost')).toEqual(latest.changes!.gaps.lost);
    expect(latest.changes!.gaps.gained.length + latest.changes!.gaps.lost.length).toBeGreaterThan(0);
    expect(await page('/dashboard/gaps?scan_id=s1')).toContain('Scan s1 is the first');
  });

  it("CSV downloads with the page's filters, every row; the link is on each list", async () => {
    const answers = await page('/dashboard/answers?scan_id=s1&limit=10');
    expect(answers).toContain('href="/dashboard/export/answers.csv?scan_id=s1" download');
    const r = await web.get('/dashboard/export/answers.csv?scan_id=s1&limit=10');
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    const rows = parse<Record<string, string>>(r.text, { columns: true });
    expect(rows.map((x) => [x.scan_id, x.text])).toEqual([
      ['s1', 'Globex only.'],
      ['s1', 'Nothing here.'],
    ]);
    for (const list of ['prompts', 'sources', 'urls', 'gaps', 'history']) {
      const res = await web.get(`/dashboard/export/${list}.csv`);
      expect({ list, status: res.status }).toEqual({ list, status: 200 });
      expect(parse(res.text, { columns: true }).length).toBeGreaterThan(0);
    }
    expect((await web.get('/dashboard/export/nothing.csv')).status).toBe(404);
    expect((await web.get('/dashboard/export/answers.csv?platform=NOPE')).status).toBe(400);
    const anonymous = await WebClient.of(t.server).get('/dashboard/export/answers.csv');
    expect(anonymous.status).not.toBe(200);
  });
  it('trends: each figure by platform and by competitor over the scans, a chart and its table, as the API says', async () => {
    const text = await page('/dashboard/trends');
    expect(text).toContain('<a href="/dashboard/trends" aria-current="page">Trends</a>');
    /** The rows of a figure's table: [row header, ...cells] with the tags stripped. */
    const rows = (id: string): string[][] => {
      const section =
        new RegExp(`<section class="trend" aria-labelledby="${id}-h">([\\s\\S]*?)</section>`).exec(text)?.[1] ?? '';
      expect(section).toContain(`<svg class="chart trend"`);
      expect(section).toContain(`aria-labelledby="${id}-title ${id}-desc"`);
      const body = /<tbody>([\s\S]*?)<\/tbody>/.exec(section)?.[1] ?? '';
      return [...body.matchAll(/<tr>([\s\S]*?)<\/tr>/g)].map((r) =>
        [...r[1].matchAll(/<t[hd][^>]*>([\s\S]*?)<\/t[hd]>/g)].map((c) => c[1].replace(/<[^>]+>/g, '')),
      );
    };
    const header = (id: string): string[] => {
      const section =
        new RegExp(`<section class="trend" aria-labelledby="${id}-h">([\\s\\S]*?)</section>`).exec(text)?.[1] ?? '';
      return [...(/<thead>([\s\S]*?)<\/thead>/.exec(section)?.[1] ?? '').matchAll(/<th[^>]*>([^<]*)<\/th>/g)].map(
        (m) => m[1],
      );
    };
    type Summary = {
      brand: { name: string };
      latest: { mention_rate: number | null; share_of_voice: number | null };
      by_platform: Array<{
        platform: string;
        mention_rate: number | null;
        share_of_voice: number | null;
        funnel: { citation_rate: number | null };
      }>;
      competitors: Array<{ name: string; mention_rate: number | null; share_of_voice: number | null }>;
    };
    const s = await api<Summary>('/visibility');
    const h = await api<{
      scans: Array<{ scan_id: string; date: string; mention_rate: number | null; share_of_voice: number | null }>;
    }>('/history');
    // Scans oldest first: s1 then s2; chatgpt and perplexity by platform (perplexity only in s2).
    const mr = rows('mention-rate-platform');
    expect(mr.map((r) => r[0])).toEqual(['2026-11-09 (s1)', '2026-11-16 (s2)']);
    expect(header('mention-rate-platform')).toEqual(['Scan', 'chatgpt', 'perplexity']);
    expect(mr[0][2]).toBe('–');
    for (const [i, p] of s.by_platform.entries()) {
      expect(rows('mention-rate-platform')[1][i + 1]).toBe(percent(p.mention_rate));
      expect(rows('share-of-voice-platform')[1][i + 1]).toBe(percent(p.share_of_voice));
      expect(rows('citation-rate-platform')[1][i + 1]).toBe(percent(p.funnel.citation_rate));
    }
    expect(header('mention-rate-competitor')).toEqual([
      'Scan',
      `${s.brand.name} (you)`,
      ...s.competitors.map((c) => c.name),
    ]);
    const oldest = [...h.scans].reverse();
    expect(rows('mention-rate-competitor').map((r) => r[1])).toEqual(oldest.map((x) => percent(x.mention_rate)));
    expect(rows('share-of-voice-competitor').map((r) => r[1])).toEqual(oldest.map((x) => percent(x.share_of_voice)));
    expect(rows('mention-rate-competitor')[1].slice(2)).toEqual(s.competitors.map((c) => percent(c.mention_rate)));
    expect(text).toContain('href="/dashboard/export/history.csv" download');
  });
});
