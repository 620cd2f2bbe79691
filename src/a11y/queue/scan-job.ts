import { createHash } from 'node:crypto';
import type { AppConfig } from '../../common/config/env';
import { DomainError } from '../../common/errors/domain-error';
import { ErrorCode } from '../../common/errors/error-code';
import { parseTargetUrl } from '../../common/egress/target-guard';
import { parseScanOptions, type ScanOptions } from '../scan/scan-options';

/** Name of the BullMQ queue of accessibility scans (keys: `<REDIS_KEY_PREFIX>bull:<name>:*`). */
export const SCAN_QUEUE_NAME = 'a11y-scans';
/** Version of the job payload; a worker fails jobs of any other version. */
export const SCAN_JOB_VERSION = 1;
/**
 * Version of a payload with scan options (a site scan's viewport, checks, cookies): a worker that
 * does not know options fails such a job instead of running a public scan in its place.
 */
export const SCAN_JOB_OPTIONS_VERSION = 2;
/**
 * Time past SCAN_TOTAL_TIMEOUT_MS after which the runner stops a scan that is still running (the
 * scanner bounds its own pages well inside it; this catches a browser that stopped answering).
 */
export const SCAN_HARD_STOP_GRACE_MS = 10000;
/** Time after a scan's own limit for the runner's hard stop, storing the report and reporting back. */
export const SCAN_RUN_GRACE_MS = SCAN_HARD_STOP_GRACE_MS + 5000;
/** When the runner stops a scan that is still running, counted from the scan's start in its browser slot. */
export const scanHardStopMs = (config: AppConfig): number => config.SCAN_TOTAL_TIMEOUT_MS + SCAN_HARD_STOP_GRACE_MS;
/** Retry-After of a scan refused because the queue is full or unreachable. */
export const QUEUE_RETRY_AFTER_S = 30;

/** What an API instance puts on the queue. */
export interface ScanJobData {
  v: number;
  url: string;
  crawl: boolean;
  /** Epoch ms after which nobody waits for this job any more. */
  answerBy: number;
  /** Site scans only (version SCAN_JOB_OPTIONS_VERSION). */
  options?: ScanOptions;
}

/** The payload of a scan: version 1 as before without options, version 2 with them. */
export const jobDataOf = (url: URL, crawl: boolean, answerBy: number, options?: ScanOptions): ScanJobData =>
  options
    ? { v: SCAN_JOB_OPTIONS_VERSION, url: url.href, crawl, answerBy, options }
    : { v: SCAN_JOB_VERSION, url: url.href, crawl, answerBy };

/** What a worker hands back: the stored report's id and how long the job waited for a slot. */
export interface ScanJobResult {
  reportId: string;
  waitedMs: number;
}

/**
 * Longest wait of `POST /api/scan` for its scan: one scan's length waiting in the queue, one
 * running, and the grace to store it. The one-scan-per-client claim lasts as long.
 */
export const scanAnswerWithinMs = (config: AppConfig): number => 2 * config.SCAN_TOTAL_TIMEOUT_MS + SCAN_RUN_GRACE_MS;

/**
 * The job id of a scan request: the same for every instance while a run of that normalised URL
 * and crawl flag is queued or running, so concurrent identical scans share one job.
 */
export const jobIdOf = (cacheKey: string): string =>
  `scan-${createHash('sha256').update(cacheKey).digest('hex').slice(0, 40)}`;

/**
 * What the worker puts in place of a payload that is not JSON at all (BullMQ itself would throw
 * while loading the job, leaving it to stall), so the job fails like any unreadable payload.
 */
export const UNREADABLE_PAYLOAD = '\u0000beacon-unreadable-payload';

/** Reads a job payload; a payload that does not parse is a clear scan_failed for that job only. */
export function parseScanJob(data: unknown): { url: URL; crawl: boolean; answerBy: number; options?: ScanOptions } {
  const bad = (why: string) =>
    new DomainError(ErrorCode.ScanFailed, `The scan job could not be read (${why}); it was dropped.`);
  if (data === UNREADABLE_PAYLOAD) throw bad('the payload is not JSON');
  if (typeof data !== 'object' || data === null || Array.isArray(data)) throw bad('the payload is not an object');
  const d = data as Partial<Record<keyof ScanJobData, unknown>>;
  if (d.v !== SCAN_JOB_VERSION && d.v !== SCAN_JOB_OPTIONS_VERSION)
    throw bad(`payload version ${JSON.stringify(d.v) ?? 'missing'}, expected ${SCAN_JOB_VERSION}`);
  if (typeof d.crawl !== 'boolean') throw bad('crawl is not a boolean');
  if (typeof d.answerBy !== 'number' || !Number.isFinite(d.answerBy)) throw bad('answerBy is not a time');
  let url: URL;
  try {
    url = parseTargetUrl(d.url);
  } catch {
    throw bad('url is not a scannable address');
  }
  const options = d.v === SCAN_JOB_OPTIONS_VERSION ? parseScanOptions(d.options) : undefined;
  return options
    ? { url, crawl: d.crawl, answerBy: d.answerBy, options }
    : { url, crawl: d.crawl, answerBy: d.answerBy };
}

const ERROR_TAG = 'beacon-scan-error:';
const CODES = new Set<string>(Object.values(ErrorCode));

/** A worker's error as the job's failure reason: domain errors keep code, message, details and headers. */
export function encodeJobError(e: unknown): string {
  if (e instanceof DomainError) {
    return ERROR_TAG + JSON.stringify({ code: e.code, message: e.message, details: e.details, headers: e.headers });
  }
  return e instanceof Error ? e.message : String(e);
}

/**
 * The only header a job's failure may put on the API's answer (an allow-list: a reason is data read
 * back from Redis, so any other header it names is dropped), and the shape its value must have.
 */
const JOB_ERROR_HEADERS: Readonly<Record<string, RegExp>> = { 'Retry-After': /^\d{1,6}$/ };

/** The allowed headers of a decoded failure, with well-formed values only. */
function allowedHeaders(headers: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (typeof headers !== 'object' || headers === null) return out;
  for (const [name, value] of Object.entries(headers as Record<string, unknown>)) {
    const allowed = Object.keys(JOB_ERROR_HEADERS).find((h) => h.toLowerCase() === name.toLowerCase());
    if (allowed && typeof value === 'string' && JOB_ERROR_HEADERS[allowed].test(value)) out[allowed] = value;
  }
  return out;
}

/**
 * The API-side error for a failed job's reason. Anything that is not a domain error is 502
 * scan_failed. Of the headers it carries, only a numeric Retry-After is kept.
 */
export function decodeJobError(reason: string | undefined): DomainError {
  if (reason?.startsWith(ERROR_TAG)) {
    try {
      const e = JSON.parse(reason.slice(ERROR_TAG.length)) as {
        code: string;
        message: string;
        details?: Record<string, unknown>;
        headers?: unknown;
      };
      if (CODES.has(e.code) && typeof e.message === 'string')
        return new DomainError(e.code as ErrorCode, e.message, e.details ?? {}, allowedHeaders(e.headers));
    } catch {
      // fall through: an unreadable reason is reported as it is
    }
  }
  if (reason && /stalled more than allowable limit/i.test(reason)) {
    return new DomainError(
      ErrorCode.ScanFailed,
      'The scan worker stopped during the scan, and again on its one retry; please try again.',
    );
  }
  return new DomainError(ErrorCode.ScanFailed, `The scan failed on its worker: ${reason ?? 'no reason given'}.`);
}
