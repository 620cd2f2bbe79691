import { Controller, Get, Header, Res } from '@nestjs/common';
import type { Response } from 'express';
import { DataSource } from 'typeorm';
import { AppConfig } from '../config/env';
import { Public } from '../decorators/public.decorator';
import { DomainError } from '../errors/domain-error';
import { ErrorCode } from '../errors/error-code';
import { MetricsService } from '../metrics/metrics.service';
import { RedisService } from '../redis/redis.service';
import { browserFixHint, browserInstalled } from './browser-check';

/** Liveness, readiness and Prometheus metrics. Public: they carry no tenant data. */
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

  @Get('metrics')
  @Header('Cache-Control', 'no-store')
  async metricsText(@Res() res: Response): Promise<void> {
    res.setHeader('Content-Type', this.metrics.registry.contentType);
    res.send(await this.metrics.registry.metrics());
  }
}
