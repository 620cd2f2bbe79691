import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { map, Observable } from 'rxjs';
import type { Response } from 'express';
import { okBody } from '../http/ok-body';

/**
 * Bound by `@OkEnvelope()` (common/decorators) to the routes it marks, and to no other: their bodies
 * as {@link okBody} makes them (`{ ok: true, ...body }`, JSON written once). The visibility API's
 * keyed routes call okBody themselves and skip this chain.
 */
@Injectable()
export class OkEnvelopeInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'http') return next.handle();
    const res = context.switchToHttp().getResponse<Response>();
    return next.handle().pipe(map((body: unknown) => okBody(res, body)));
  }
}
