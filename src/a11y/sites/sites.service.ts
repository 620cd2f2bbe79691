/**
 * Over 300 lines: a site's whole cycle (saved form, ownership proof, page list from the sitemap and robots.txt, the
 * scan job with its 429 back-off and its resumption after a lost worker or, in process, a restart, viewports and
 * login steps, grouping and alerts) works on the same Site and SiteScan rows; the parts that stand alone are already
 * in grouping.ts, guarded-get.ts, site-input.ts, site-pages.ts, site-pace.ts, site-run.ts, site-alerts.ts,
 * site-login.ts and sitemap.ts.
 */
import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap, OnModuleInit } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { resolveTxt } from 'node:dns/promises';
import { settledWithin } from '../../common/async/settled-within';
import { AppConfig } from '../../common/config/env';
import { DomainError } from '../../common/errors/domain-error';
import { ErrorCode } from '../../common/errors/error-code';
import { EgressGuard } from '../../common/egress/egress-guard';
import { JobQueues } from '../../common/jobs/job-queues';
import { AlertsService } from '../../common/notify/alerts.service';
import { ScanService } from '../scan/scan.service';
import { diffPages, filterPage, FilteredPage, groupIssues, siteScoreOf } from './grouping';
import { guardedGet } from './guarded-get';
import { newSevereIssues, sameViewports, unreachablePages } from './site-alerts';
import { pagesOf, SitePages, SMALL_FILE_BYTES, SMALL_FILE_TIMEOUT_MS } from './site-pages';
import { runPages, scanCounted, scanWithBackoff, viewOptions } from './site-run';
import { parseSiteForm } from './site-input';
import type { Site, SiteScan, SiteScanPageRow, SiteScanPlan, SiteScanSummary, SitePageResult } from './site.types';
import { SitesStore } from './sites.store';
import { SecretBoxService } from '../../common/secrets/secret-box';
import type { ReportPage } from '../report/report.types';
import { type ScanOptions, type ViewportName, VIEWPORT_LABELS } from '../scan/scan-options';
import { ReportsService } from '../report/reports.service';
import { type LoginInput, parseChecksForm, parseLoginForm, SITE_LOGIN_PURPOSE } from './site-checks-input';
import { SiteLogin } from './site-login';
import type { SiteChecksInput, SiteLogin as SiteLoginSteps } from './site.types';

/** The job queue of site scans (one job per scan; scheduled runs are jobs without a scan id). */
export const SITE_SCAN_QUEUE = 'a11y-site-scan';
/** Site scans one process runs at once (their pages run on the scan fleet, SITE_PAGES_IN_FLIGHT each: site-run.ts). */
const SITE_SCAN_CONCURRENCY = 2;
/**
 * Times a site-scan job whose worker died is run again (BullMQ's stalled count): each run resumes where the last
 * left off and retries a lost page only once (runScan), so a scan whose workers keep dying still ends.
 */
const SITE_SCAN_STALLED_RUNS = 5;
/** Where the ownership file lives, and the DNS TXT record's prefix. */
export const VERIFICATION_PATH = '/.well-known/beacon-verification.txt';
export const VERIFICATION_TXT_PREFIX = 'beacon-verification=';
/** Cron (UTC) of the schedules. */
export const SCHEDULE_CRON = { daily: '0 4 * * *', weekly: '0 4 * * 1' } as const;

/**
 * In process (no Redis): a scan resumed at start-up is tried again while another live process holds it
 * (10 s, 20 s, ... about 5 minutes in all), so it is taken over once that process has stopped.
 */
const RESUME_JOB = { attempts: 6, backoffMs: 10_000 };

interface SiteScanJob {
  siteId: string;
  scanId?: string;
  /** Added at start-up for a scan a stopped process left unfinished (in process). */
  resume?: boolean;
}

/** Thrown into a page scan still running when shutdown stops waiting for it (its row stays without a result). */
class ScanStopped extends Error {}

/**
 * Accessibility monitoring of whole sites (docs/a11y-monitoring.md): saved sites, ownership proof,
 * site scans on JobQueues ("Run now" and daily/weekly schedules), each page scanned by the public
 * scan engine (ScanService, as a client: every page's stored report is the public engine's),
 * a few pages at a time per site (one at a time once the site sets a pace); when a scan ends, its issues grouped across pages into a fix plan and
 * alerts raised through AlertsService.
 */
@Injectable()
export class SitesService implements OnModuleInit, OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('A11ySites');
  /** In process: shutting down, so running scans stop at their next page and are resumed at the next start. */
  private closing = false;
  /** Site-scan jobs running in this process. */
  private readonly running = new Set<Promise<void>>();
  /** Rejects (ScanStopped) when shutdown stops waiting for the pages in flight. */
  private readonly stopped: Promise<never>;
  private stop!: () => void;
  /** The address policy's guard for sitemaps, robots.txt and the ownership file (replaceable in tests). */
  guard: EgressGuard;
  /** TXT lookup (replaceable in tests). */
  resolveTxt: (host: string) => Promise<string[][]> = resolveTxt;

  constructor(
    private readonly config: AppConfig,
    private readonly store: SitesStore,
    private readonly jobs: JobQueues,
    private readonly scans: ScanService,
    private readonly alerts: AlertsService,
    private readonly login: SiteLogin,
    private readonly boxes: SecretBoxService,
    private readonly reports: ReportsService,
  ) {
    this.guard = new EgressGuard({ allowLoopback: config.SCAN_ALLOW_LOOPBACK_TARGETS_UNSAFE });
    this.stopped = new Promise<never>((_, reject) => (this.stop = () => reject(new ScanStopped('shutting down'))));
    this.stopped.catch(() => undefined);
  }

  /** Site scans run where page scans do: worker processes, and API processes with SCAN_WORKER_IN_PROCESS (or no Redis). */
  onModuleInit(): void {
    if (this.jobs.kind === 'bullmq' && !this.config.SCAN_WORKER_IN_PROCESS) return;
    this.jobs.register<SiteScanJob>(SITE_SCAN_QUEUE, (data) => this.tracked(this.runJob(data)), {
      concurrency: SITE_SCAN_CONCURRENCY,
      stalledRuns: SITE_SCAN_STALLED_RUNS,
    });
  }

  /**
   * In process (no Redis), what ended with the previous process: the sites' schedules are armed again
   * (timers of this process), and the scans it left queued or running are queued again; each resumes
   * where it stopped (runScan), once no live process holds it (runJob).
   */
  async onApplicationBootstrap(): Promise<void> {
    if (this.jobs.kind !== 'in-process') return;
    try {
      for (const s of await this.store.scheduledSites()) if (s.schedule !== 'off') await this.arm(s.id, s.schedule);
      for (const s of await this.store.unfinishedScans())
        await this.jobs.add<SiteScanJob>(
          SITE_SCAN_QUEUE,
          { siteId: s.site_id, scanId: s.id, resume: true },
          { jobId: `scan-${s.id}`, ...RESUME_JOB },
        );
    } catch (e) {
      this.logger.error(`Arming schedules and resuming site scans at start-up failed: ${(e as Error).message}`);
    }
  }

  /**
   * In process: running scans start no new page; the pages in flight get SHUTDOWN_TIMEOUT_MS to end
   * (their results are kept), then are left without a result, each tried once more when the scan resumes
   * at the next start (as a page in flight on a worker that died).
   */
  async beforeApplicationShutdown(): Promise<void> {
    if (this.jobs.kind !== 'in-process') return;
    this.closing = true;
    const all = Promise.allSettled([...this.running]);
    if (!(await settledWithin(all, this.config.SHUTDOWN_TIMEOUT_MS))) {
      this.stop();
      await all;
    }
  }

  private tracked(run: Promise<void>): Promise<void> {
    this.running.add(run);
    return run.finally(() => this.running.delete(run));
  }

  list(workspaceId: string): Promise<Site[]> {
    return this.store.list(workspaceId);
  }

  async get(workspaceId: string, id: string): Promise<Site> {
    const site = /^[0-9a-f-]{36}$/i.test(id) ? await this.store.get(id, workspaceId) : undefined;
    if (!site) throw new DomainError(ErrorCode.NotFound, 'No such site in this workspace.');
    return site;
  }

  /** A scan of the site (404 when it belongs to another site or does not exist). */
  async scanOf(site: Site, scanId: string): Promise<SiteScan> {
    const scan = /^[0-9a-f-]{36}$/i.test(scanId) ? await this.store.getScan(scanId) : undefined;
    if (!scan || scan.site_id !== site.id) throw new DomainError(ErrorCode.NotFound, 'No such scan of this site.');
    return scan;
  }

  scansOf(siteId: string): Promise<SiteScan[]> {
    return this.store.scans(siteId);
  }

  /** How many scans the site has (all of them: the list of scansOf stops at the newest SITE_SCANS_SHOWN). */
  scanCount(siteId: string): Promise<number> {
    return this.store.scanCount(siteId);
  }

  async create(workspaceId: string, form: Record<string, string | undefined>): Promise<Site> {
    const input = parseSiteForm(form);
    const checks = this.checksFormOf(form, input.start_url, null);
    let site = await this.store.create(workspaceId, input, randomBytes(16).toString('hex'));
    site = await this.saveChecks(site, checks);
    if (site.schedule !== 'off') await this.arm(site.id, site.schedule);
    return site;
  }

  /**
   * New settings for a site. A new origin needs a new ownership proof (the token stays); the schedule
   * is replaced or removed.
   */
  async update(site: Site, form: Record<string, string | undefined>): Promise<Site> {
    const input = parseSiteForm(form);
    const sameOrigin = new URL(input.start_url).origin === new URL(site.start_url).origin;
    const checks = this.checksFormOf(form, input.start_url, site.login);
    const saved = await this.saveChecks((await this.store.update(site.id, input, sameOrigin))!, checks);
    if (saved.schedule === 'off') await this.jobs.unschedule(SITE_SCAN_QUEUE, `site-${site.id}`);
    else await this.arm(site.id, saved.schedule);
    return saved;
  }

  /** Creates or replaces the site's repeating scan job. */
  private arm(siteId: string, schedule: Exclude<Site['schedule'], 'off'>): Promise<void> {
    return this.jobs.schedule<SiteScanJob>(SITE_SCAN_QUEUE, `site-${siteId}`, SCHEDULE_CRON[schedule], { siteId });
  }

  async remove(workspaceId: string, id: string): Promise<void> {
    const site = await this.get(workspaceId, id);
    await this.jobs.unschedule(SITE_SCAN_QUEUE, `site-${site.id}`);
    await this.store.delete(site.id, workspaceId);
  }

  /** Checks the ownership file, then the DNS TXT record; true when either carries the site's token. */
  async verify(site: Site): Promise<boolean> {
    const start = new URL(site.start_url);
    const file = await guardedGet(this.guard, new URL(VERIFICATION_PATH, start.origin), {
      maxBytes: SMALL_FILE_BYTES,
      timeoutMs: SMALL_FILE_TIMEOUT_MS,
    });
    if (file.ok && file.body.toString('utf8').includes(site.verification_token)) {
      await this.store.markVerified(site.id, 'file');
      return true;
    }
    const txt = await this.resolveTxt(start.hostname).catch(() => [] as string[][]);
    if (txt.some((r) => r.join('').trim() === `${VERIFICATION_TXT_PREFIX}${site.verification_token}`)) {
      await this.store.markVerified(site.id, 'dns');
      return true;
    }
    return false;
  }

  /** "Run now": queues a scan, or answers the one already queued or running. */
  async runNow(site: Site): Promise<SiteScan> {
    const active = await this.store.activeScan(site.id);
    if (active) return active;
    const scan = await this.store.createScan(site.id, 'manual');
    if (!scan) return (await this.store.activeScan(site.id))!; // another one started meanwhile
    await this.jobs.add<SiteScanJob>(
      SITE_SCAN_QUEUE,
      { siteId: site.id, scanId: scan.id },
      { jobId: `scan-${scan.id}` },
    );
    return scan;
  }

  private async runJob(data: SiteScanJob): Promise<void> {
    let scanId = data.scanId;
    if (!scanId) {
      // A scheduled run: skipped while another scan of the site is queued or running (two schedules firing at once).
      const site = await this.store.get(data.siteId);
      if (!site || (await this.store.activeScan(site.id))) return;
      const created = await this.store.createScan(site.id, 'schedule');
      if (!created) return;
      scanId = created.id;
    }
    // In process, a scan is held by the process running it (another instance on the database may resume it).
    const release = this.jobs.kind === 'in-process' ? await this.store.holdScan(scanId) : async () => undefined;
    if (!release) {
      const scan = await this.store.getScan(scanId);
      if (data.resume && (scan?.status === 'queued' || scan?.status === 'running'))
        throw new Error(`Site scan ${scanId} is being run by another process; trying again later.`);
      return;
    }
    try {
      await this.runScan(scanId);
    } catch (e) {
      if (this.closing) return; // stopped by the shutdown: resumed at the next start
      this.logger.warn(`site scan ${scanId} failed: ${(e as Error).message}`);
      await this.store
        .fail(scanId, e instanceof DomainError ? e.message : 'The scan stopped on an unexpected error; run it again.')
        .catch(() => undefined);
    } finally {
      await release();
    }
  }

  /** The pages a scan visits (site-pages.ts). */
  pagesOf(site: Site): Promise<SitePages> {
    return pagesOf(this.guard, site);
  }

  /**
   * Runs a queued scan: its pages through the public engine (SITE_PAGES_IN_FLIGHT at once, one at a
   * time with the site's gap once it sets a pace), each at each viewport, then the summary and alerts.
   * Run again after its worker was lost (the job stalled), it keeps the plan fixed by the first run and
   * scans only the pages and viewports without a result; one that was started and lost is tried once
   * more (scanCounted).
   */
  async runScan(scanId: string): Promise<void> {
    const scan = await this.store.getScan(scanId);
    if (!scan || scan.status === 'done' || scan.status === 'failed') return;
    const site = await this.store.get(scan.site_id);
    if (!site) return; // deleted: its scans went with it
    const plan = scan.plan ?? (await this.store.savePlan(scanId, await this.planOf(site)));
    const views = await this.viewsOf(site, plan.viewports); // signs in first when the site has login steps (a failure stops the scan)
    if (this.closing) return;
    const rows = await this.store.pageRows(scanId, plan.viewports);
    const byPage: SiteScanPageRow[][] = plan.pages.map(() => []);
    for (const r of rows) byPage[r.idx]?.push(r);
    const open = (i: number) => byPage[i].filter((r) => !r.result);
    const todo = plan.pages.map((_, i) => i).filter((i) => open(i).length > 0);
    let done = plan.pages.length - todo.length;
    await this.store.progress(scanId, 'running', done, plan.pages.length);
    const kept = new Map<SiteScanPageRow, FilteredPage>();
    const run = await runPages(
      todo.map((i) => plan.pages[i]),
      {
        gapMs: plan.gapMs,
        scan: async (url, k, slowDown) => {
          for (const row of open(todo[k]))
            if (!this.closing) await this.scanRow(site, scanId, plan, row, views, slowDown, kept);
          return byPage[todo[k]][0]?.result ?? { url };
        },
        after: async () => {
          if (this.closing) return false; // shutting down (in process): resumed at the next start
          if (!(await this.store.get(site.id))) return false; // deleted mid-scan: stop (its scans went with it)
          await this.store.progress(scanId, 'running', ++done, plan.pages.length);
          return true;
        },
      },
    );
    if (run.stopped) return;
    for (const row of rows) if (row.result?.reportId && !kept.has(row)) await this.keepEarlier(site, row, kept);
    const results = rows.map(
      (r) => r.result ?? { url: r.url, ...this.labelOf(plan, r.viewport), error: 'The page could not be scanned.' },
    );
    const filtered = rows.map((r) => kept.get(r)).filter((f): f is FilteredPage => !!f);
    const before = (await this.store.previousDone(site.id, scanId))?.summary ?? undefined;
    if (filtered.length === 0) {
      if (before) await this.alertUnreachable(site, scanId, results, before); // the whole site stopped loading
      throw new DomainError(ErrorCode.ScanFailed, "No page of the site could be scanned: see each page's error.");
    }
    const groups = groupIssues(filtered);
    const summary: SiteScanSummary = {
      score: siteScoreOf(filtered),
      pages: before ? diffPages(results, groups, before) : results,
      groups,
      skipped: plan.skipped,
      viewports: plan.viewports,
    };
    await this.store.finish(scanId, summary);
    if (before) await this.raiseAlerts(site, scanId, summary, before);
  }

  /** What a scan visits: its pages (site-pages.ts), the pace, the site's viewports (desktop for a site without). */
  private async planOf(site: Site): Promise<SiteScanPlan> {
    const { pages, skipped, gapMs } = await this.pagesOf(site);
    return { pages, skipped, gapMs, viewports: site.viewports?.length ? site.viewports : ['desktop'] };
  }

  /** A result's viewport (when the scan has more than one) and whether it is not the scan's first. */
  private labelOf(plan: SiteScanPlan, viewport: ViewportName): Partial<SitePageResult> {
    if (plan.viewports.length < 2) return {};
    return { viewport, ...(viewport !== plan.viewports[0] ? { secondary: true } : {}) };
  }

  /** One page at one viewport, its tries recorded; its result kept in its row as soon as it is known. */
  private async scanRow(
    site: Site,
    scanId: string,
    plan: SiteScanPlan,
    row: SiteScanPageRow,
    views: Map<ViewportName, ScanOptions | undefined>,
    slowDown: (ms: number) => void,
    kept: Map<SiteScanPageRow, FilteredPage>,
  ): Promise<void> {
    const label = this.labelOf(plan, row.viewport);
    let result: SitePageResult;
    try {
      const start = async () => {
        await this.store.startRow(scanId, row.idx, row.viewport);
        row.attempts++;
      };
      const got = await scanCounted(row.attempts, start, () =>
        Promise.race([
          this.scanSitePage(site, row.url, new URL(site.start_url).origin, views.get(row.viewport), slowDown),
          this.stopped,
        ]),
      );
      const f = this.filtered(site, got.page, row.viewport);
      kept.set(row, f);
      result = { url: row.url, reportId: got.reportId, score: f.score, ...label, ...this.reviewOf(got.page) };
    } catch (e) {
      if (e instanceof ScanStopped) return; // left without a result: tried once more when the scan resumes
      result = {
        url: row.url,
        ...label,
        error: e instanceof DomainError ? e.message : 'The page could not be scanned.',
      };
    }
    await this.store.finishRow(scanId, row.idx, row.viewport, result);
    row.result = result;
  }

  /** A page's results as the site counts them (its ignored rules and excluded selectors taken out). */
  private filtered(site: Site, page: ReportPage, viewport: ViewportName): FilteredPage {
    const f = filterPage(page, { ignoreRules: site.ignore_rules, excludedSelectors: site.excluded_selectors });
    return { ...f, viewport };
  }

  /** A row finished by an earlier run of the scan: its results again from its stored report. */
  private async keepEarlier(site: Site, row: SiteScanPageRow, kept: Map<SiteScanPageRow, FilteredPage>): Promise<void> {
    const page = (await this.reports.get(row.result!.reportId!).catch(() => undefined))?.pages[0];
    if (page) kept.set(row, this.filtered(site, page, row.viewport));
    else
      row.result = {
        url: row.url,
        ...(row.result!.viewport ? { viewport: row.result!.viewport } : {}),
        ...(row.result!.secondary ? { secondary: true } : {}),
        error: "The page's report expired before its scan ended: run the scan again.",
      };
  }

  /**
   * A new critical or serious issue, a page that stopped loading, or a score drop of at least the
   * site's threshold, since the previous finished scan.
   */
  private async raiseAlerts(site: Site, scanId: string, now: SiteScanSummary, before: SiteScanSummary): Promise<void> {
    const fresh = newSevereIssues(now, before);
    const data = { siteId: site.id, site: site.name, scanId };
    if (fresh.length) {
      await this.alerts.send(site.workspace_id, {
        kind: 'a11y.new_issue',
        title: `${site.name}: ${fresh.length} new critical or serious accessibility issue${fresh.length === 1 ? '' : 's'}`,
        text: fresh
          .map(
            (g) =>
              `${g.impact} ${g.rule} on ${g.pages.length} page${g.pages.length === 1 ? '' : 's'}${g.viewports?.length ? ` (${g.viewports.map((v) => VIEWPORT_LABELS[v]).join(', ')})` : ''}: ${g.help}`,
          )
          .join('\n'),
        data: {
          ...data,
          issues: fresh.map((g) => ({
            rule: g.rule,
            impact: g.impact,
            fingerprint: g.fingerprint,
            pages: g.pages,
            viewports: g.viewports,
          })),
        },
      });
    }
    await this.alertUnreachable(site, scanId, now.pages, before);
    const drop = before.score - now.score;
    if (drop >= site.alert_drop && sameViewports(now, before)) {
      await this.alerts.send(site.workspace_id, {
        kind: 'a11y.score_drop',
        title: `${site.name}: accessibility score down ${drop} points`,
        text: `The site's score went from ${before.score} to ${now.score} (alert threshold: ${site.alert_drop} points).`,
        data: { ...data, previous: before.score, score: now.score },
      });
    }
  }

  // Viewports, checks beyond axe and login steps (docs/a11y-monitoring.md): kept apart from the rest of the cycle.

  /** The viewport, checks and login parts of the site form, validated (before anything is saved). */
  private checksFormOf(
    form: Record<string, string | undefined>,
    startUrl: string,
    stored: SiteLoginSteps | null,
  ): { checks: SiteChecksInput; login: LoginInput | undefined } {
    return { checks: parseChecksForm(form), login: parseLoginForm(form, startUrl, stored) };
  }

  /** Saves them, sealing new login values (SecretBox, the workspace as context); answers the site as saved. */
  private async saveChecks(site: Site, c: { checks: SiteChecksInput; login: LoginInput | undefined }): Promise<Site> {
    await this.store.setChecks(site.id, c.checks);
    let login: SiteLoginSteps | null = null;
    if (c.login) {
      const box = await this.boxes.box(SITE_LOGIN_PURPOSE);
      login = {
        url: c.login.url,
        fields: c.login.fields.map((f) =>
          'value' in f ? { selector: f.selector, sealed: box.seal(f.value, site.workspace_id) } : f,
        ),
        submit: c.login.submit,
        check_selector: c.login.check_selector,
        check_url: c.login.check_url,
        ...(c.login.next ? { next: c.login.next } : {}),
      };
    }
    await this.store.setLogin(site.id, login);
    return (await this.store.get(site.id))!;
  }

  /**
   * What each page is scanned with at each of the scan's viewports (viewOptions: the checks beyond axe at
   * one viewport only). With login steps, they run first and every viewport carries the session's
   * cookies; a login that fails throws "Login failed: ..." (the scan fails with it).
   */
  private async viewsOf(site: Site, viewports: ViewportName[]): Promise<Map<ViewportName, ScanOptions | undefined>> {
    let cookies: ScanOptions['cookies'];
    if (site.login) {
      const box = await this.boxes.box(SITE_LOGIN_PURPOSE);
      const open = site.login.fields.map((f) => {
        try {
          return { selector: f.selector, value: box.open(f.sealed, site.workspace_id) };
        } catch {
          throw new DomainError(
            ErrorCode.ScanFailed,
            `Login failed: the stored value of the field '${f.selector}' cannot be read any more; enter it again in the settings.`,
          );
        }
      });
      cookies = await this.login.cookies({ ...site.login, fields: open });
    }
    return viewOptions(viewports, { reflow: site.reflow_check, keyboard: site.keyboard_walk }, cookies);
  }

  /** A signed-in scan whose page went to the login page: the session did not hold, the page is not counted. */
  private assertSignedIn(site: Site, url: string, landed: URL): void {
    if (!site.login) return;
    const login = new URL(site.login.url);
    if (landed.pathname === login.pathname && new URL(url).pathname !== login.pathname)
      throw new DomainError(
        ErrorCode.ScanFailed,
        'The page sent the scan to the login page: the session did not hold, so it is not counted as signed in.',
      );
  }

  /** The checks' finding counts of a page's result. */
  private reviewOf(page: ReportPage): Partial<SitePageResult> {
    if (!page.review) return {};
    return {
      review: {
        reflow: page.review.reflow?.findings.length ?? 0,
        keyboard: page.review.keyboard?.findings.length ?? 0,
        trapped: page.review.keyboard?.ended === 'trapped',
      },
    };
  }

  /**
   * One page through the public engine with the site's options, tried again after a 429
   * (scanWithBackoff; `slowDown` is told the wait, the gap later pages keep); a page that lands on
   * another origin, or on the login page of a signed-in site, is not counted.
   */
  private async scanSitePage(
    site: Site,
    url: string,
    origin: string,
    options: ScanOptions | undefined,
    slowDown: (ms: number) => void,
  ): Promise<{ page: ReportPage; reportId: string }> {
    const report = await scanWithBackoff(
      () => this.scans.scan(url, false, undefined, { fresh: true, options }),
      slowDown,
    );
    const page = report.pages[0];
    if (!page) throw new DomainError(ErrorCode.ScanFailed, 'The page could not be scanned.');
    const landed = new URL(page.finalUrl || page.url);
    if (landed.origin !== origin)
      throw new DomainError(
        ErrorCode.ScanFailed,
        `The page redirected off the site, to ${landed.origin}: not counted.`,
      );
    this.assertSignedIn(site, url, landed);
    return { page, reportId: report.id };
  }

  /** `a11y.page_unreachable`: pages that loaded in the previous finished scan and fail to load now. */
  private async alertUnreachable(
    site: Site,
    scanId: string,
    now: SitePageResult[],
    before: SiteScanSummary,
  ): Promise<void> {
    const lost = unreachablePages(now, before);
    if (!lost.length) return;
    await this.alerts.send(site.workspace_id, {
      kind: 'a11y.page_unreachable',
      title: `${site.name}: ${lost.length} page${lost.length === 1 ? '' : 's'} stopped loading`,
      text: lost.map((p) => `${p.url}: ${p.error}`).join('\n'),
      data: { siteId: site.id, site: site.name, scanId, pages: lost },
    });
  }
}
