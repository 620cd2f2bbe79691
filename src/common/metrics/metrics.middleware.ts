import { Injectable, NestMiddleware } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { MetricsService } from './metrics.service';

/**
 * Counts every request and its latency, labelled by the matched route pattern (never the raw path,
 * so ids don't explode the label set); unmatched paths are labelled "unmatched".
 */
@Injectable()
export class MetricsMiddleware implements NestMiddleware {
  constructor(private readonly metrics: MetricsService) {}

  use(req: Request, res: Response, next: NextFunction): void {
    const start = process.hrtime.bigint();
    res.once('finish', () => {
      const routePath = (req.route as { path?: string } | undefined)?.path;
      // Nest's own not-found handler is a catch-all route: report it as unmatched too.
      const route = routePath && routePath !== '/{*path}' ? `${req.baseUrl ?? ''}${routePath}` : 'unmatched';
      this.metrics.observe(req.method, route, res.statusCode, Number(process.hrtime.bigint() - start) / 1e9);
    });
    next();
  }
}
