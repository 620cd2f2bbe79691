import { Controller, Get, Header, Res } from '@nestjs/common';
import type { Response } from 'express';
import { DataSource } from 'typeorm';
import { Public } from '../decorators/public.decorator';
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

  /** The database (and Redis when configured) answer; 503 otherwise. */
  @Get('readyz')
  async readyz(@Res({ passthrough: true }) res: Response): Promise<Record<string, unknown>> {
    const database = await this.dataSource
      .query('SELECT 1')
      .then(() => true)
      .catch(() => false);
    const redis = this.redis.enabled ? await this.redis.ping() : null;
    const ok = database && redis !== false;
    res.status(ok ? 200 : 503);
    return ok
      ? { ok: true, database: 'up', redis: redis === null ? 'not configured' : 'up' }
      : {
          ok: false,
          error: 'service_unavailable',
          message: 'A dependency is not reachable.',
          database: database ? 'up' : 'down',
          redis: redis === null ? 'not configured' : redis ? 'up' : 'down',
        };
  }

  @Get('metrics')
  @Header('Cache-Control', 'no-store')
  async metricsText(@Res() res: Response): Promise<void> {
    res.setHeader('Content-Type', this.metrics.registry.contentType);
    res.send(await this.metrics.registry.metrics());
  }
}
