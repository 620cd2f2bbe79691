import { Controller, Get, Header, Res } from '@nestjs/common';
import type { Response } from 'express';
import { DataSource } from 'typeorm';
import { Public } from '../decorators/public.decorator';
import { DomainError } from '../errors/domain-error';
import { ErrorCode } from '../errors/error-code';
import { MetricsService } from '../metrics/metrics.service';
import { RedisService } from '../redis/redis.service';

/** Liveness, readiness and Prometheus metrics. Public: they carry no tenant data. */
@Public()
@Controller()
export class HealthController {
  constructor(
    private readonly dataSource: DataSource,
    private readonly redis: RedisService,
    private readonly metrics: MetricsService,
  ) {}

  /** The process is up. */
  @Get('healthz')
  healthz(): { ok: true; status: 'up' } {
    return { ok: true, status: 'up' };
  }

  /** The database (and Redis when configured) answer; 503 service_unavailable otherwise. */
  @Get('readyz')
  async readyz(): Promise<Record<string, unknown>> {
    const database = await this.dataSource
      .query('SELECT 1')
      .then(() => true)
      .catch(() => false);
    const redis = this.redis.enabled ? await this.redis.ping() : null;
    const state = { database: database ? 'up' : 'down', redis: redis === null ? 'not configured' : redis ? 'up' : 'down' };
    if (!database || redis === false) {
      throw new DomainError(ErrorCode.ServiceUnavailable, 'A dependency is not reachable.', state);
    }
    return { ok: true, ...state };
  }

  @Get('metrics')
  @Header('Cache-Control', 'no-store')
  async metricsText(@Res() res: Response): Promise<void> {
    res.setHeader('Content-Type', this.metrics.registry.contentType);
    res.send(await this.metrics.registry.metrics());
  }
}
