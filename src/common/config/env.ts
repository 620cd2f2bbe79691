/**
 * Over 300 lines: AppConfig is one class because class-validator checks one instance at start-up and Nest injects it as
 * one provider; its sections (HTTP, database, Redis, rate limits, scans, PDF tools, accounts, AI platforms, alerts) are
 * marked by `// ----` rules rather than split into files.
 */
import { config as loadDotenv } from 'dotenv';
import { plainToInstance, Transform } from 'class-transformer';
import {
  getMetadataStorage,
  IsBoolean,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  IsUrl,
  Matches,
  Max,
  Min,
  MinLength,
  validateSync,
  ValidationError,
} from 'class-validator';
import { cpus } from 'node:os';

const toBool = ({ value }: { value: unknown }): unknown => {
  if (typeof value !== 'string') return value;
  const v = value.trim().toLowerCase();
  if (['1', 'true', 'yes', 'on'].includes(v)) return true;
  if (['0', 'false', 'no', 'off', ''].includes(v)) return false;
  return value; // left as a string: IsBoolean then rejects it with the variable's name
};
const toInt = ({ value }: { value: unknown }): unknown => {
  if (typeof value !== 'string') return value;
  return /^-?\d+$/.test(value.trim()) ? Number(value.trim()) : value;
};
const emptyToUndefined = ({ value }: { value: unknown }): unknown =>
  typeof value === 'string' && value.trim() === '' ? undefined : value;

/** Number of cores, used for pool defaults. */
export const CORES = Math.max(1, cpus().length);

/**
 * Every setting of the service, read from the environment (and `.env` when present) and validated
 * once at start-up. A bad value stops the process with a message naming the variable.
 * Each property is documented in the README's configuration table; keep the two in step.
 */
export class AppConfig {
  // ---- HTTP -------------------------------------------------------------------------------------
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(65535)
  PORT: number = 3000;

  @IsOptional()
  @IsString()
  HOST: string = '0.0.0.0';

  /** Public address of this service, used in links (download URLs, badges, llms.txt). */
  @IsOptional()
  @Transform(emptyToUndefined)
  @IsUrl({ require_tld: false, protocols: ['http', 'https'] })
  PUBLIC_BASE_URL?: string;

  /** false | true | hop count | comma-separated list of trusted proxy addresses/CIDRs (Express syntax). */
  @IsOptional()
  @IsString()
  @Matches(/^(true|false|\d+|[0-9a-fA-F.:/,\sa-z]+)$/)
  TRUST_PROXY: string = 'false';

  /**
   * IPv6 clients are counted by their network of this many bits for rate limits and quotas (a
   * subscriber usually holds a whole /64); 128 counts single addresses.
   */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(32)
  @Max(128)
  IPV6_CLIENT_PREFIX: number = 64;

  /** Body limit of JSON requests other than /mcp (bytes or e.g. "100kb"). */
  @IsOptional()
  @IsString()
  @Matches(/^\d+(b|kb|mb)?$/i)
  JSON_BODY_LIMIT: string = '100kb';

  /** Body limit of POST /mcp: 20 files of 10 MB can't come in one call, but one 10 MB file in base64 must. */
  @IsOptional()
  @IsString()
  @Matches(/^\d+(b|kb|mb)?$/i)
  MCP_BODY_LIMIT: string = '30mb';

  /**
   * Idle keep-alive of HTTP connections. Above the usual proxy/load-balancer idle timeout (60 s) and
   * clients' (undici: 4 s), so the server never closes a socket a peer is about to reuse.
   */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1000)
  HTTP_KEEP_ALIVE_TIMEOUT_MS: number = 65000;

  /** Time allowed to finish in-flight requests after SIGTERM before connections are cut. */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(0)
  SHUTDOWN_TIMEOUT_MS: number = 10000;

  @IsOptional()
  @IsIn(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
  LOG_LEVEL: string = 'info';

  /**
   * Bearer token of GET /metrics (Prometheus: `authorization: { credentials_file: ... }`), at
   * least 16 characters. Unset: /metrics is not served (404). See docs/operations.md, "Metrics".
   */
  @IsOptional()
  @Transform(emptyToUndefined)
  @IsString()
  @MinLength(16, { message: 'METRICS_TOKEN must be at least 16 characters (e.g. openssl rand -hex 32)' })
  METRICS_TOKEN?: string;

  // ---- Database ---------------------------------------------------------------------------------
  /** PostgreSQL URL. Unset: an embedded PostgreSQL (PGlite) in DATA_DIR. */
  @IsOptional()
  @Transform(emptyToUndefined)
  @Matches(/^postgres(ql)?:\/\//, { message: 'DATABASE_URL must be a postgres:// or postgresql:// URL' })
  DATABASE_URL?: string;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(200)
  DATABASE_POOL_SIZE: number = 10;

  /** Folder of the embedded database and its lock; `memory://` keeps it in memory (tests). */
  @IsOptional()
  @IsString()
  DATA_DIR: string = './.data';

  /** Embedded database only: load the demo workspace on first start of an empty database (and print its key). */
  @IsOptional()
  @Transform(toBool)
  @IsBoolean()
  SEED_DEMO: boolean = true;

  // ---- Redis ------------------------------------------------------------------------------------
  /** Redis URL. Set: rate limits, quotas and caches are shared by every instance. */
  @IsOptional()
  @Transform(emptyToUndefined)
  @Matches(/^rediss?:\/\//, { message: 'REDIS_URL must be a redis:// or rediss:// URL' })
  REDIS_URL?: string;

  @IsOptional()
  @IsString()
  @Matches(/^[\w:.-]*$/)
  REDIS_KEY_PREFIX: string = 'beacon:';

  /** Longest wait for one Redis command; past it the caller uses its fallback (see docs/operations.md). */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(10)
  @Max(5000)
  REDIS_COMMAND_TIMEOUT_MS: number = 250;

  // ---- Rate limits ------------------------------------------------------------------------------
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  VISIBILITY_RATE_LIMIT: number = 60;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  VISIBILITY_RATE_WINDOW_S: number = 60;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  SCAN_RATE_LIMIT: number = 6;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  SCAN_RATE_WINDOW_S: number = 60;

  /** Reads of stored scan reports (/r/{id}, /api/report.pdf, /api/badge/{id}) per IP and window. */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  REPORT_RATE_LIMIT: number = 120;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  REPORT_RATE_WINDOW_S: number = 60;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  MCP_RATE_LIMIT: number = 120;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  MCP_RATE_WINDOW_S: number = 60;

  /** Refused API keys (malformed, unknown, revoked) allowed per client per window before 429. */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  AUTH_FAILURE_LIMIT: number = 20;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  AUTH_FAILURE_WINDOW_S: number = 60;

  /** Seconds between flushes of API keys' last_used_at (no database write per request). */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  KEY_LAST_USED_FLUSH_S: number = 30;

  /**
   * Resolved API keys kept in each instance's memory (least recently used dropped first); 0 turns
   * the cache off (every request reads its key from the database). See docs/api-keys.md.
   */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(0)
  API_KEY_CACHE_MAX: number = 10000;

  /**
   * Longest life of a cached key in seconds: a safety net only, revocations drop entries at once
   * (PostgreSQL LISTEN/NOTIFY).
   */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  API_KEY_CACHE_TTL_S: number = 300;

  // ---- Accessibility scans ----------------------------------------------------------------------
  @IsOptional()
  @IsString()
  CHROMIUM_PATH: string = '/usr/bin/chromium';

  /** Concurrent scans (browser contexts); default: the number of cores. */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(64)
  SCAN_CONCURRENCY: number = CORES;

  /** Scans waiting for a slot beyond which new scans get 503. */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(0)
  SCAN_QUEUE_LIMIT: number = 50;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1000)
  SCAN_PAGE_TIMEOUT_MS: number = 30000;

  /** Time limit per page a crawl follows (linked pages), at most SCAN_PAGE_TIMEOUT_MS. */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1000)
  SCAN_LINKED_PAGE_TIMEOUT_MS: number = 10000;

  /** Time limit of one scan, crawl included (linked pages not done by then are listed as skipped). */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1000)
  SCAN_TOTAL_TIMEOUT_MS: number = 60000;

  /** Largest stored report (JSON bytes); bigger ones list fewer failing elements, counting the rest. */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(10000)
  SCAN_REPORT_MAX_BYTES: number = 1000000;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(0)
  SCAN_CACHE_TTL_S: number = 3600;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  REPORT_RETENTION_DAYS: number = 30;

  /**
   * With REDIS_URL: this API process also runs scan jobs from the shared queue (a scan worker
   * inside it). false: it only enqueues, and separate `npm run worker` processes run the scans.
   */
  @IsOptional()
  @Transform(toBool)
  @IsBoolean()
  SCAN_WORKER_IN_PROCESS: boolean = true;

  /**
   * With REDIS_URL: how long a worker's claim on a running scan job lasts without renewal (renewed
   * at half this period). A worker that dies is noticed within about twice this time and its job
   * is run once more by another worker.
   */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1000)
  @Max(600000)
  SCAN_JOB_LOCK_MS: number = 30000;

  /** DANGER, for tests only: lets scans and PDF `url` inputs reach loopback addresses. Never enable in production. */
  @IsOptional()
  @Transform(toBool)
  @IsBoolean()
  SCAN_ALLOW_LOOPBACK_TARGETS_UNSAFE: boolean = false;

  // ---- PDF tools --------------------------------------------------------------------------------
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  PDF_MAX_FILE_BYTES: number = 10 * 1024 * 1024;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  PDF_MAX_PAGES: number = 200;

  /** Lifetime of stored tool results (seconds). */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(60)
  PDF_RESULT_TTL_S: number = 3600;

  /** Results up to this size are embedded in the tool result when the call asks (`inline: true`), in bytes. */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(0)
  PDF_INLINE_MAX_BYTES: number = 64 * 1024;

  /** Worker threads of the PDF pool; default: the number of cores. */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(64)
  PDF_WORKERS: number = CORES;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(64)
  PDF_WORKER_HEAP_MB: number = 512;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1000)
  PDF_TOOL_TIMEOUT_MS: number = 60000;

  /** Shared per-IP, per-tool daily limit (website and MCP together). */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  PDF_DAILY_LIMIT: number = 50;

  /** The website's per-tool daily limit of a signed-in user, counted per account; default 4 x PDF_DAILY_LIMIT. */
  @IsOptional()
  @Transform((p) => toInt({ value: emptyToUndefined(p) }))
  @IsInt()
  @Min(1)
  PDF_DAILY_LIMIT_SIGNED_IN?: number;

  /** The MCP channel's stricter per-IP, per-tool daily cap. */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  PDF_MCP_DAILY_CAP: number = 25;

  /** Failed calls refunded per IP per day. */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(0)
  PDF_DAILY_REFUNDS: number = 10;

  /** Largest total of the output files of one call (bytes); each file is also capped by PDF_MAX_FILE_BYTES. */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  PDF_MAX_CALL_OUTPUT_BYTES: number = 40 * 1024 * 1024;

  /** Most output files of one call (e.g. parts of a split). */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  PDF_MAX_CALL_OUTPUT_FILES: number = 200;

  /** GET /files/{id} per client IP per PDF_TRANSFER_RATE_WINDOW_S. */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  PDF_DOWNLOAD_RATE_LIMIT: number = 120;

  /** POST /files per client IP per PDF_TRANSFER_RATE_WINDOW_S. */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  PDF_UPLOAD_RATE_LIMIT: number = 30;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  PDF_TRANSFER_RATE_WINDOW_S: number = 60;

  /** An upload (POST /files) that sends no byte for this long is cut off with 408 (slow clients). */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(100)
  PDF_UPLOAD_IDLE_TIMEOUT_MS: number = 15000;

  /** An upload not complete after this long is cut off with 408. */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(100)
  PDF_UPLOAD_TIMEOUT_MS: number = 120000;

  /**
   * Bytes of recently stored PDF files (results and uploads) kept in this instance's memory, so the
   * download or the next call by file_id right after does not read them back from PostgreSQL; also
   * the most bytes still being written to PostgreSQL after their answer (beyond it a save waits
   * for its write). 0: no cache, and every save waits.
   */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(0)
  PDF_FILE_CACHE_BYTES: number = 64 * 1024 * 1024;

  /**
   * Directory for the bytes of stored PDF files (uploads, results), one file each. Unset: in the
   * database (pdf_files.content), or on the embedded database in DATA_DIR/pdf-files. Several
   * instances need the same directory (a shared volume) or the database. See docs/pdf-tools.md,
   * "Where the bytes live".
   */
  @IsOptional()
  @IsString()
  PDF_FILE_DIR: string = '';

  /** A `url` input: connecting to its server (each redirect hop) gives up after this long. */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(100)
  PDF_URL_CONNECT_TIMEOUT_MS: number = 5000;

  /** A `url` input: the whole download (every redirect, every byte) gives up after this long. */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(100)
  PDF_URL_TIMEOUT_MS: number = 30000;

  /** A `url` input: most redirects followed (each one re-checked against the address policy). */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(20)
  PDF_URL_MAX_REDIRECTS: number = 5;

  /** Key of the hash of client IPs in quota counters; default: a secret generated once and kept in the database. */
  @IsOptional()
  @IsString()
  QUOTA_HASH_SECRET?: string;

  // ---- Website accounts -------------------------------------------------------------------------
  /** Lifetime of a website session after sign-in (hours); sign-out or a password change ends it sooner. */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  SESSION_TTL_H: number = 12;

  /** Failed sign-ins (and password changes) of one account from one IP within LOGIN_LOCKOUT_S that lock that pair. */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  LOGIN_MAX_FAILURES: number = 5;

  /** Failed sign-ins from one IP (any accounts) within LOGIN_LOCKOUT_S that lock that IP out. */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  LOGIN_IP_MAX_FAILURES: number = 20;

  /** Window and first lock of the sign-in limits (seconds); each further lock of the same subject doubles. */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  LOGIN_LOCKOUT_S: number = 900;

  /** Failed sign-ins of one account from all IPs within LOGIN_LOCKOUT_S that lock it for devices it never signed in on. */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  LOGIN_ACCOUNT_MAX_FAILURES: number = 100;

  /** Longest sign-in lock (seconds); a subject quiet this long starts again from LOGIN_LOCKOUT_S. */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  LOGIN_LOCKOUT_MAX_S: number = 86400;

  /** Days a one-time password (user:create, an invitation) can be used for the first sign-in. */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  ONE_TIME_PASSWORD_TTL_DAYS: number = 7;

  // ---- AI platforms (docs/ai-providers.md) -------------------------------------------------------
  // A platform is configured by its key (a workspace may store its own, which wins); base URLs are
  // overridable (gateways, regional endpoints, tests' loopback servers); models are the defaults.
  @IsOptional()
  @Transform(emptyToUndefined)
  @IsString()
  OPENAI_API_KEY?: string;

  @IsOptional()
  @IsUrl({ require_tld: false, protocols: ['http', 'https'] })
  OPENAI_BASE_URL: string = 'https://api.openai.com/v1';

  @IsOptional()
  @IsString()
  @MinLength(1)
  OPENAI_MODEL: string = 'gpt-5-mini';

  @IsOptional()
  @Transform(emptyToUndefined)
  @IsString()
  PERPLEXITY_API_KEY?: string;

  @IsOptional()
  @IsUrl({ require_tld: false, protocols: ['http', 'https'] })
  PERPLEXITY_BASE_URL: string = 'https://api.perplexity.ai';

  @IsOptional()
  @IsString()
  @MinLength(1)
  PERPLEXITY_MODEL: string = 'sonar';

  @IsOptional()
  @Transform(emptyToUndefined)
  @IsString()
  GEMINI_API_KEY?: string;

  @IsOptional()
  @IsUrl({ require_tld: false, protocols: ['http', 'https'] })
  GEMINI_BASE_URL: string = 'https://generativelanguage.googleapis.com';

  @IsOptional()
  @IsString()
  @MinLength(1)
  GEMINI_MODEL: string = 'gemini-2.5-flash';

  @IsOptional()
  @Transform(emptyToUndefined)
  @IsString()
  ANTHROPIC_API_KEY?: string;

  @IsOptional()
  @IsUrl({ require_tld: false, protocols: ['http', 'https'] })
  ANTHROPIC_BASE_URL: string = 'https://api.anthropic.com';

  @IsOptional()
  @IsString()
  @MinLength(1)
  ANTHROPIC_MODEL: string = 'claude-sonnet-4-6';

  /** Any endpoint speaking OpenAI's Chat Completions (self-hosted models, gateways); with OPENAI_COMPATIBLE_MODEL it enables the platform. */
  @IsOptional()
  @Transform(emptyToUndefined)
  @IsUrl({ require_tld: false, protocols: ['http', 'https'] })
  OPENAI_COMPATIBLE_BASE_URL?: string;

  @IsOptional()
  @Transform(emptyToUndefined)
  @IsString()
  OPENAI_COMPATIBLE_API_KEY?: string;

  @IsOptional()
  @Transform(emptyToUndefined)
  @IsString()
  OPENAI_COMPATIBLE_MODEL?: string;

  /** Calls in flight per platform and instance. */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(256)
  AI_CONCURRENCY: number = 4;

  /** Further attempts after a 429, a 5xx, a timeout or an unreachable platform. */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(10)
  AI_MAX_RETRIES: number = 3;

  /** First backoff (doubled each attempt, with jitter) when the platform sent no Retry-After. */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  AI_RETRY_BASE_MS: number = 1000;

  /** Longest wait before a retry, Retry-After included (a longer Retry-After fails the call). */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  AI_RETRY_MAX_MS: number = 60000;

  /** Time limit of one call (web search answers take tens of seconds). */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(100)
  AI_TIMEOUT_MS: number = 120000;
  // ---- Alerts and mail (src/common/notify, docs/alerts.md) --------------------------------------
  /**
   * SMTP server of every e-mail (alerts, sign-up verification): `smtp://user:pass@host:587`
   * (STARTTLS when offered) or `smtps://...:465`. Unset: no e-mail is sent, and the pages that
   * would send one say that this setting enables it.
   */
  @IsOptional()
  @Transform(emptyToUndefined)
  @Matches(/^smtps?:\/\//, { message: 'SMTP_URL must be an smtp:// or smtps:// URL' })
  SMTP_URL?: string;

  /** Sender (From) of every e-mail. */
  @IsOptional()
  @IsString()
  @MinLength(3)
  MAIL_FROM: string = 'Beacon <beacon@localhost>';

  /** One webhook delivery attempt without a complete answer within this many ms fails (and is retried). */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(100)
  @Max(120000)
  WEBHOOK_TIMEOUT_MS: number = 10000;

  /** Wait before the first retry of a failed alert delivery (ms); doubled for each further retry. */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(10)
  @Max(3600000)
  ALERT_RETRY_BACKOFF_MS: number = 30000;

  /** Attempts per alert delivery, the first included (default 5: the last about 7.5 minutes after the first). */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(20)
  ALERT_MAX_ATTEMPTS: number = 5;

  /** Hours a sign-up's e-mail verification link works (the PDF site's /signup). */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(720)
  SIGNUP_LINK_TTL_H: number = 24;

  /** Sign-ups from one IP per hour (each sends an e-mail); one address gets at most 3 mails an hour whoever asks. */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  SIGNUP_IP_MAX_PER_HOUR: number = 10;

  /** PDF AI features (summary, chat, translation): model calls per signed-in user and UTC day. */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(0)
  PDF_AI_DAILY_CALLS: number = 50;

  /** PDF AI features: tokens (input + output) per signed-in user and UTC day; a call is refused once reached. */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(0)
  PDF_AI_DAILY_TOKENS: number = 500000;

  /** PDF AI features: the document text one call may carry (tokens); longer documents are split by pages. */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(500)
  PDF_AI_CONTEXT_TOKENS: number = 12000;

  /** The public address links should use, without trailing slash. */
  publicBaseUrl(): string {
    const base = this.PUBLIC_BASE_URL ?? `http://localhost:${this.PORT}`;
    return base.replace(/\/+$/, '');
  }

  /** Express "trust proxy" value from TRUST_PROXY. */
  trustProxy(): boolean | number | string[] {
    const v = this.TRUST_PROXY.trim();
    if (v === 'true') return true;
    if (v === 'false' || v === '') return false;
    if (/^\d+$/.test(v)) return Number(v);
    return v
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
  }

  get embedded(): boolean {
    return !this.DATABASE_URL;
  }
}

/** Thrown by {@link loadConfig}: its message names every bad variable. */
export class ConfigError extends Error {}

function describe(errors: ValidationError[]): string[] {
  return errors.flatMap((e) => {
    const value = /SECRET|URL|TOKEN|KEY/.test(e.property) ? '(hidden)' : JSON.stringify(e.value);
    return Object.values(e.constraints ?? {}).map((msg) => `${e.property}=${value}: ${msg}`);
  });
}

/** Names of every setting, read from the validation metadata of {@link AppConfig}. */
export function settingNames(): string[] {
  const metas = getMetadataStorage().getTargetValidationMetadatas(AppConfig, '', true, false);
  return [...new Set(metas.map((m) => m.propertyName))];
}

/** Validate a raw environment (process.env or a test's object) into an {@link AppConfig}. */
export function loadConfig(raw: Record<string, string | undefined> = process.env): AppConfig {
  const picked: Record<string, string> = {};
  for (const name of settingNames()) {
    const v = raw[name];
    if (v !== undefined) picked[name] = v;
  }
  const config = plainToInstance(AppConfig, picked, { exposeDefaultValues: true });
  const errors = validateSync(config, { forbidUnknownValues: false });
  if (errors.length > 0) {
    throw new ConfigError(`Invalid configuration:\n  ${describe(errors).join('\n  ')}`);
  }
  return config;
}

/**
 * The settings of a process that starts from the command line (the server, the scan worker): the
 * `.env` file, then the environment, validated. An invalid setting ends the process with exit code
 * 78 (EX_CONFIG) and a message naming every bad variable and `what` did not start.
 */
export function loadProcessConfigOrExit(what: string): AppConfig {
  loadDotenv({ quiet: true });
  try {
    return loadConfig(process.env);
  } catch (e) {
    if (e instanceof ConfigError) {
      process.stderr.write(`${e.message}\n${what} did not start. See README.md, "Configuration".\n`);
      process.exit(78); // EX_CONFIG
    }
    throw e;
  }
}
