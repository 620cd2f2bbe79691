/**
 * Over 300 lines: a site's whole cycle (saved form, ownership proof, page list from the sitemap and robots.txt, the
 * scan job with its 429 back-off, grouping and alerts) works on the same Site and SiteScan rows; the parts that stand
 * alone are already in grouping.ts, guarded-get.ts, site-input.ts and sitemap.ts.
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
    const site = await this.store.create(workspaceId, input, randomBytes(16).toString('hex'));
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
    const saved = (await this.store.update(site.id, input, sameOrigin))!;
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
    await this.store.progress(scanId, 'running', 0, pages.length);
    const origin = new URL(site.start_url).origin;
    const settings = { ignoreRules: site.ignore_rules, excludedSelectors: site.excluded_selectors };
    const kept: (FilteredPage | undefined)[] = new Array(pages.length);
    let done = 0;
    const run = await runPages(pages, {
      gapMs,
      scan: async (url, i, slowDown) => {
        const got = await scanWithBackoff(() => this.scans.scan(url, false, undefined, { fresh: true }), slowDown);
        const page = got.pages[0];
        if (!page) throw new DomainError(ErrorCode.ScanFailed, 'The page could not be scanned.');
        const landed = new URL(page.finalUrl || page.url);
        if (landed.origin !== origin)
          throw new DomainError(
            ErrorCode.ScanFailed,
            `The page redirected off the site, to ${landed.origin}: not counted.`,
          );
        const f = (kept[i] = filterPage(page, settings));
        return { url, reportId: got.id, score: f.score };
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
      pages: before ? diffPages(results, groups, before) : results,
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
