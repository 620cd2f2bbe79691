/**
 * Over 300 lines: a site's whole cycle (saved form, ownership proof, page list from the sitemap and robots.txt, the
 * scan job with its 429 back-off, viewports and login steps, grouping and alerts) works on the same Site and SiteScan
 * rows; the parts that stand alone are already in grouping.ts, guarded-get.ts, site-input.ts, site-pages.ts,
 * site-pace.ts, site-alerts.ts, site-login.ts and sitemap.ts.
 */
import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { resolveTxt } from 'node:dns/promises';
import { AppConfig } from '../../common/config/env';
import { DomainError } from '../../common/errors/domain-error';
import { ErrorCode } from '../../common/errors/error-code';
import { EgressGuard } from '../../common/egress/egress-guard';
import { JobQueues } from '../../common/jobs/job-queues';
import { AlertsService } from '../../common/notify/alerts.service';
import { ScanService } from '../scan/scan.service';
import { diffPages, filterPage, FilteredPage, groupIssues, siteScoreOf } from './grouping';
import { guardedGet } from './guarded-get';
import { unreachablePages } from './site-alerts';
import { pagesOf, SitePages, SMALL_FILE_BYTES, SMALL_FILE_TIMEOUT_MS } from './site-pages';
import { runPages, scanWithBackoff } from './site-run';
import { parseSiteForm } from './site-input';
import type { IssueGroup, Site, SiteScan, SiteScanSummary, SitePageResult } from './site.types';
import { SitesStore } from './sites.store';
import { SecretBoxService } from '../../common/secrets/secret-box';
import type { ReportPage } from '../report/report.types';
import type { ScanOptions } from '../scan/scan-options';
import { type LoginInput, parseChecksForm, parseLoginForm, SITE_LOGIN_PURPOSE } from './site-checks-input';
import { SiteLogin } from './site-login';
import type { SiteChecksInput, SiteLogin as SiteLoginSteps } from './site.types';

/** The job queue of site scans (one job per scan; scheduled runs are jobs without a scan id). */
export const SITE_SCAN_QUEUE = 'a11y-site-scan';
/** Site scans one process runs at once (their pages run on the scan fleet, SITE_PAGES_IN_FLIGHT each: site-run.ts). */
const SITE_SCAN_CONCURRENCY = 2;
/** Where the ownership file lives, and the DNS TXT record's prefix. */
export const VERIFICATION_PATH = '/.well-known/beacon-verification.txt';
export const VERIFICATION_TXT_PREFIX = 'beacon-verification=';
/** Cron (UTC) of the schedules. */
export const SCHEDULE_CRON = { daily: '0 4 * * *', weekly: '0 4 * * 1' } as const;

interface SiteScanJob {
  siteId: string;
  scanId?: string;
}

/**
 * Accessibility monitoring of whole sites (docs/a11y-monitoring.md): saved sites, ownership proof,
 * site scans on JobQueues ("Run now" and daily/weekly schedules), each page scanned by the public
 * scan engine (ScanService, as a client: every page's stored report is the public engine's),
 * a few pages at a time per site (one at a time once the site sets a pace); when a scan ends, its issues grouped across pages into a fix plan and
 * alerts raised through AlertsService.
 */
@Injectable()
export class SitesService implements OnModuleInit {
  private readonly logger = new Logger('A11ySites');
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
  ) {
    this.guard = new EgressGuard({ allowLoopback: config.SCAN_ALLOW_LOOPBACK_TARGETS_UNSAFE });
  }

  /** Site scans run where page scans do: worker processes, and API processes with SCAN_WORKER_IN_PROCESS (or no Redis). */
  onModuleInit(): void {
    if (this.jobs.kind === 'bullmq' && !this.config.SCAN_WORKER_IN_PROCESS) return;
    this.jobs.register<SiteScanJob>(SITE_SCAN_QUEUE, (data) => this.runJob(data), {
      concurrency: SITE_SCAN_CONCURRENCY,
    });
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

  async create(workspaceId: string, form: Record<string, string | undefined>): Promise<Site> {
    const input = parseSiteForm(form);
    const checks = this.checksFormOf(form, input.start_url, null);
    let site = await this.store.create(workspaceId, input, randomBytes(16).toString('hex'));
    site = await this.saveChecks(site, checks);
    if (site.schedule !== 'off')
      await this.jobs.schedule<SiteScanJob>(SITE_SCAN_QUEUE, `site-${site.id}`, SCHEDULE_CRON[site.schedule], {
        siteId: site.id,
      });
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
    else
      await this.jobs.schedule<SiteScanJob>(SITE_SCAN_QUEUE, `site-${site.id}`, SCHEDULE_CRON[saved.schedule], {
        siteId: site.id,
      });
    return saved;
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
    try {
      await this.runScan(scanId);
    } catch (e) {
      this.logger.warn(`site scan ${scanId} failed: ${(e as Error).message}`);
      await this.store
        .fail(scanId, e instanceof DomainError ? e.message : 'The scan stopped on an unexpected error; run it again.')
        .catch(() => undefined);
    }
  }

  /** The pages a scan visits (site-pages.ts). */
  pagesOf(site: Site): Promise<SitePages> {
    return pagesOf(this.guard, site);
  }

  /**
   * Runs a queued scan: its pages through the public engine (SITE_PAGES_IN_FLIGHT at once, one at a
   * time with the site's gap once it sets a pace), then the summary and alerts.
   */
  async runScan(scanId: string): Promise<void> {
    const scan = await this.store.getScan(scanId);
    if (!scan || scan.status === 'done' || scan.status === 'failed') return;
    const site = await this.store.get(scan.site_id);
    if (!site) return; // deleted: its scans went with it
    const { pages, skipped, gapMs } = await this.pagesOf(site);
    const views = await this.viewsOf(site); // signs in first when the site has login steps (a failure stops the scan)
    const more: SitePageResult[][] = new Array(pages.length); // each page's results at the site's other viewports
    await this.store.progress(scanId, 'running', 0, pages.length);
    const origin = new URL(site.start_url).origin;
    const settings = { ignoreRules: site.ignore_rules, excludedSelectors: site.excluded_selectors };
    const kept: (FilteredPage | undefined)[] = new Array(pages.length);
    let done = 0;
    const run = await runPages(pages, {
      gapMs,
      scan: async (url, i, slowDown) => {
        try {
          const got = await this.scanSitePage(site, url, origin, views[0], slowDown);
          const f = (kept[i] = filterPage(got.page, settings));
          return { url, reportId: got.reportId, score: f.score, ...this.extrasOf(site, views[0], got.page) };
        } finally {
          more[i] = await this.otherViews(site, url, origin, views, slowDown);
        }
      },
      after: async () => {
        if (!(await this.store.get(site.id))) return false; // deleted mid-scan: stop (its scans went with it)
        await this.store.progress(scanId, 'running', ++done, pages.length);
        return true;
      },
    });
    if (run.stopped) return;
    const results = run.results;
    const filtered = kept.filter((f): f is FilteredPage => !!f);
    const before = (await this.store.previousDone(site.id, scanId))?.summary ?? undefined;
    if (filtered.length === 0) {
      if (before) await this.alertUnreachable(site, scanId, results, before); // the whole site stopped loading
      throw new DomainError(ErrorCode.ScanFailed, "No page of the site could be scanned: see each page's error.");
    }
    const groups = groupIssues(filtered);
    const summary: SiteScanSummary = {
      score: siteScoreOf(filtered),
      pages: [...(before ? diffPages(results, groups, before) : results), ...more.flat()],
      groups,
      skipped,
    };
    await this.store.finish(scanId, summary);
    if (before) await this.raiseAlerts(site, scanId, summary, before);
  }

  /**
   * A new critical or serious issue, a page that stopped loading, or a score drop of at least the
   * site's threshold, since the previous finished scan.
   */
  private async raiseAlerts(site: Site, scanId: string, now: SiteScanSummary, before: SiteScanSummary): Promise<void> {
    const known = new Set(before.groups.map((g) => g.fingerprint));
    const fresh: IssueGroup[] = now.groups.filter(
      (g) => !known.has(g.fingerprint) && (g.impact === 'critical' || g.impact === 'serious'),
    );
    const data = { siteId: site.id, site: site.name, scanId };
    if (fresh.length) {
      await this.alerts.send(site.workspace_id, {
        kind: 'a11y.new_issue',
        title: `${site.name}: ${fresh.length} new critical or serious accessibility issue${fresh.length === 1 ? '' : 's'}`,
        text: fresh
          .map((g) => `${g.impact} ${g.rule} on ${g.pages.length} page${g.pages.length === 1 ? '' : 's'}: ${g.help}`)
          .join('\n'),
        data: {
          ...data,
          issues: fresh.map((g) => ({ rule: g.rule, impact: g.impact, fingerprint: g.fingerprint, pages: g.pages })),
        },
      });
    }
    await this.alertUnreachable(site, scanId, now.pages, before);
    const drop = before.score - now.score;
    if (drop >= site.alert_drop) {
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
   * What each page is scanned with, one entry per viewport of the site (the first: the score's); the
   * checks beyond axe run at the first viewport only. With login steps, they run first and every
   * entry carries the session's cookies; a login that fails throws "Login failed: ..." (the scan fails
   * with it). A desktop scan with nothing else is the public scan's (no options).
   */
  private async viewsOf(site: Site): Promise<(ScanOptions | undefined)[]> {
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
    const viewports = site.viewports?.length ? site.viewports : (['desktop'] as const);
    return viewports.map((viewport, i) => {
      const o: ScanOptions = {
        ...(viewport !== 'desktop' ? { viewport } : {}),
        ...(i === 0 && site.reflow_check ? { reflow: true } : {}),
        ...(i === 0 && site.keyboard_walk ? { keyboard: true } : {}),
        ...(cookies?.length ? { cookies } : {}),
      };
      return Object.keys(o).length ? o : undefined;
    });
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

  /** A page result's viewport (when the site has more than one) and the checks' finding counts. */
  private extrasOf(site: Site, options: ScanOptions | undefined, page: ReportPage): Partial<SitePageResult> {
    const out: Partial<SitePageResult> = {};
    if ((site.viewports?.length ?? 1) > 1) out.viewport = options?.viewport ?? 'desktop';
    if (page.review)
      out.review = {
        reflow: page.review.reflow?.findings.length ?? 0,
        keyboard: page.review.keyboard?.findings.length ?? 0,
        trapped: page.review.keyboard?.ended === 'trapped',
      };
    return out;
  }

  /** The page at the site's other viewports: shown per page, not in the score, fix plan or diff. */
  private async otherViews(
    site: Site,
    url: string,
    origin: string,
    views: (ScanOptions | undefined)[],
    slowDown: (ms: number) => void,
  ): Promise<SitePageResult[]> {
    const out: SitePageResult[] = [];
    for (const options of views.slice(1)) {
      const viewport = options?.viewport ?? 'desktop';
      try {
        const got = await this.scanSitePage(site, url, origin, options, slowDown);
        const f = filterPage(got.page, { ignoreRules: site.ignore_rules, excludedSelectors: site.excluded_selectors });
        out.push({ url, reportId: got.reportId, score: f.score, viewport, secondary: true });
      } catch (e) {
        out.push({
          url,
          viewport,
          secondary: true,
          error: e instanceof DomainError ? e.message : 'The page could not be scanned.',
        });
      }
    }
    return out;
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
