import { CallHandler, ExecutionContext, Injectable, NestInterceptor, StreamableFile } from '@nestjs/common';
import { map, Observable } from 'rxjs';
import type { Response } from 'express';
import { serializedOnce } from '../http/immutable-body';
import { JsonBytes } from '../http/json-bytes';
import { stringifyWithRawJson } from './raw-json';

const JSON_UTF8 = 'application/json; charset=utf-8';

const envelope = (body: object): Record<string, unknown> => ({ ok: true, ...(body as Record<string, unknown>) });

/**
 * Bound by `@OkEnvelope()` (common/decorators) to the routes it marks, and to no other: wraps their
 * plain-object bodies as `{ ok: true, ...body }` (a StreamableFile, e.g. a CSV export, is sent as
 * it is). A body marked immutable (a memoized read model) is serialized once and its JSON text reused; a body
 * carrying {@link RawJson} values (rows PostgreSQL wrote as JSON) has that text written as it is (as
 * bytes when the value is {@link JsonBytes}: sent as a stream of its chunks, with its length).
 */
@Injectable()
export class OkEnvelopeInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'http') return next.handle();
    return next.handle().pipe(
      map((body: unknown) => {
        if (
          body === undefined ||
          body === null ||
          typeof body !== 'object' ||
          Array.isArray(body) ||
          Buffer.isBuffer(body) ||
          body instanceof StreamableFile
        ) {
          return body;
        }
        let text = serializedOnce(body, envelope);
        if (text === null) {
          const wrapped = envelope(body);
          const raw = stringifyWithRawJson(wrapped);
          if (raw === null) return wrapped;
          // Bytes are sent as they are, with the headers Express gives a JSON string.
          if (raw instanceof JsonBytes) {
            // Its chunks are reused once the response has closed (sent, or never to be).
            context
              .switchToHttp()
              .getResponse<Response>()
              .once('close', () => raw.release());
            return new StreamableFile(raw.stream(), { type: JSON_UTF8, length: raw.length });
          }
          text = raw;
        }
        context.switchToHttp().getResponse<Response>().type('application/json');
        return text;
      }),
    );
  }
}
