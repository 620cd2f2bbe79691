import { StreamableFile } from '@nestjs/common';
import type { Response } from 'express';
import { serializedOnce } from './immutable-body';
import { JsonBytes } from './json-bytes';
import { stringifyWithRawJson } from '../interceptors/raw-json';

const JSON_UTF8 = 'application/json; charset=utf-8';

const envelope = (body: object): Record<string, unknown> => ({ ok: true, ...(body as Record<string, unknown>) });

/**
 * A route's successful body as the API sends it: a plain object becomes `{ ok: true, ...body }`
 * (anything else, e.g. a StreamableFile such as a CSV export, is returned as it is). A body marked
 * immutable (a memoized read model) is serialized once and its JSON text reused; a body carrying
 * {@link RawJson} values (rows PostgreSQL wrote as JSON) has that text written as it is (as bytes when
 * the value is {@link JsonBytes}: sent as a stream of its chunks, with its length, the chunks reused
 * once the response has closed). Called by the visibility API's routes themselves (their hot path
 * then skips Nest's interceptor chain and its two `AsyncResource.bind` per request) and by
 * {@link OkEnvelopeInterceptor} for the routes marked `@OkEnvelope()`.
 */
export function okBody(res: Response, body: unknown): unknown {
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
      res.once('close', () => raw.release());
      return new StreamableFile(raw.stream(), { type: JSON_UTF8, length: raw.length });
    }
    text = raw;
  }
  res.type('application/json');
  return text;
}
