import { Controller, Get, Header, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { createHash, timingSafeEqual } from 'node:crypto';
import { DataSource } from 'typeorm';
import { AppConfig } from '../config/env';
import { Public } from '../decorators/public.decorator';
import { DomainError } from '../errors/domain-error';
import { ErrorCode } from '../errors/error-code';
import { MetricsService } from '../metrics/metrics.service';
import { RedisService } from '../redis/redis.service';
import { browserFixHint, browserInstalled } from './browser-check';

const digest = (s: string): Buffer => createHash('sha256').update(s).digest();

/** Whether `header` is `Bearer <token>` (compared in constant time). */
export function bearerMatches(header: string | undefined, token: string): boolean {
  const m = /^Bearer +(\S+)\s*$/i.exec(header ?? '');
  return !!m && timingSafeEqual(digest(m[1]), digest(token));
}

/**
 * Liveness, readiness and Prometheus metrics. No API key: the probes carry no tenant data and
 * answer anyone; /metrics (route names, traffic, queue sizes) answers only METRICS_TOKEN.
 */
@Public()
@Controller()
export class HealthController {
  constructor(
    private readonly dataSource: DataSource,
    private readonly redis: RedisService,
    private readonly metrics: MetricsService,
    private readonly config: AppConfig,
  ) {}

  /** The process is up. */
  @Get('healthz')
  healthz(): { ok: true; status: 'up' } {
    return { ok: true, status: 'up' };
  }

  /**
   * Ready when the database answers: 200, else 503 service_unavailable. Redis (when configured) and
   * the browser are reported too; without them the service still answers (rate limits per instance,
   * scans refused with a fix), so they make the status "degraded", not unready.
   */
  @Get('readyz')
  async readyz(): Promise<Record<string, unknown>> {
    const database = await this.dataSource
      .query('SELECT 1')
      .then(() => true)
      .catch(() => false);
    const redis = this.redis.enabled ? await this.redis.ping() : null;
    const browser = browserInstalled(this.config.CHROMIUM_PATH);
    const state = {
      status: database ? (redis === false || !browser ? 'degraded' : 'ready') : 'unavailable',
      database: database ? 'up' : 'down',
      redis: redis === null ? 'not configured' : redis ? 'up' : 'down',
      browser: browser ? 'installed' : 'missing',
      ...(browser ? {} : { browser_fix: browserFixHint(this.config.CHROMIUM_PATH) }),
    };
    if (!database) throw new DomainError(ErrorCode.ServiceUnavailable, 'The database is not reachable.', state);
    return { ok: true, ...state };
  }

  /**
   * Prometheus text, for `Authorization: Bearer <METRICS_TOKEN>` only; without METRICS_TOKEN the
   * route does not exist (404), so a default deployment exposes nothing.
   */
  @Get('metrics')
  @Header('Cache-Control', 'no-store')
  async metricsText(@Req() req: Request, @Res() res: Response): Promise<void> {
    const token = this.config.METRICS_TOKEN;
    if (!token) throw DomainError.notFound();
    if (!bearerMatches(req.headers.authorization, token)) {
      throw new DomainError(
        ErrorCode.Unauthorized,
        'Metrics need the header "Authorization: Bearer <METRICS_TOKEN>".',
        {},
        { 'WWW-Authenticate': 'Bearer realm="metrics"' },
      );
    }
    res.setHeader('Content-Type', this.metrics.registry.contentType);
    res.send(await this.metrics.registry.metrics());
  }
}
