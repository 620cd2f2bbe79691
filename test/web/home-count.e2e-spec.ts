import { StatsService } from '../../src/pdf-tools/stats/stats.service';
import { utcDay } from '../../src/pdf-tools/quota/quota-clock';
import { createTestApp, TestApp } from '../utils/test-app';
import { WebClient } from './web-client';

/**
 * The homepage's count of successful PDF tool runs (issue 23 item 6): the number of
 * GET /api/public-stats (the same StatsService call), hidden below 100 samples as the spec says,
 * while the endpoint itself shows any number.
 */
describe('Homepage: successful PDF runs in the last 30 days (e2e)', () => {
  let t: TestApp;
  let stats: StatsService;

  beforeAll(async () => {
    t = await createTestApp();
    stats = t.app.get(StatsService, { strict: false });
  }, 60_000);

  afterAll(async () => {
    await t?.close();
  });

  /** Sets the window's total: `today` successes today and `old` 40 days ago (outside the window). */
  async function setCounts(today: number, old: number): Promise<void> {
    await t.dataSource.query('DELETE FROM pdf_daily_stats');
    const past = utcDay(new Date(Date.now() - 40 * 86_400_000));
    await t.dataSource.query(
      `INSERT INTO pdf_daily_stats (day, tool, success) VALUES ($1, 'merge_pdfs', $2), ($1, 'split_pdf', 1), ($3, 'merge_pdfs', $4)`,
      [utcDay(new Date()), today - 1, past, old],
    );
    stats.invalidate();
  }

  const endpoint = async (c: WebClient): Promise<number> =>
    (
      JSON.parse((await c.request('GET', '/api/public-stats', { headers: { accept: 'application/json' } })).text) as {
        success: number;
      }
    ).success;

  it('hides the count at 99 samples (the endpoint still says 99) and shows it at 100', async () => {
    const c = WebClient.of(t.server);
    await setCounts(99, 500);
    expect(await endpoint(c)).toBe(99);
    const hidden = await c.get('/');
    expect(hidden.status).toBe(200);
    expect(hidden.text).not.toContain('id="pdf-runs"');
    expect(hidden.text).not.toMatch(/successful runs/);

    await setCounts(100, 500);
    expect(await endpoint(c)).toBe(100);
    const shown = await c.get('/');
    expect(shown.text).toContain('<span id="pdf-runs">100 successful runs in the last 30 days.</span>');

    await setCounts(12345, 0);
    expect((await c.get('/')).text).toContain('12,345 successful runs in the last 30 days.');
  });
});
