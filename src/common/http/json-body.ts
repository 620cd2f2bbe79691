import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { parse as parseContentType } from 'content-type';
import { raw, type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import type Piscina from 'piscina';
import { backgroundPool } from '../workers/background-pool';
import { transferableBuffers } from '../workers/transfer';
import { parseJsonBytes, type JsonParseResult } from './json-body.worker';

/** Media types read as JSON (as body-parser's json() with these types). */
export const JSON_MEDIA_TYPES = ['application/json', 'application/*+json'];

/**
 * Bodies of at least this many bytes are parsed in the JSON thread; smaller ones on the event loop,
 * where they take well under a millisecond and a thread hop would cost more than it saves.
 */
export const JSON_OFF_THREAD_MIN_BYTES = 64 * 1024;

/**
 * Parses JSON request bodies. Large ones (MCP calls carry megabytes of base64) go to one worker
 * thread at a lower scheduling priority, so a burst of them never holds up the other requests
 * waiting on the event loop: parsing a 2 MB body takes 3-4 ms, and twenty arriving together
 * would block every other request for 60-80 ms.
 */
@Injectable()
export class JsonBodyParser implements OnApplicationShutdown {
  private readonly logger = new Logger('JsonBody');
  private readonly pool: Piscina<Uint8Array, JsonParseResult>;

  constructor() {
    this.pool = backgroundPool(__dirname, 'json-body.worker', { maxThreads: 1, maxQueue: 256, heapMb: 512 });
  }

  /**
   * The parsed body. Large bodies move to the thread (no copy; `bytes` is unusable afterwards);
   * if the thread cannot take one (queue full), it is parsed here. A body lost in a failed thread
   * is an error, never a wrong value.
   */
  async parse(bytes: Uint8Array): Promise<JsonParseResult> {
    if (bytes.byteLength < JSON_OFF_THREAD_MIN_BYTES) return parseJsonBytes(bytes);
    try {
      return await this.pool.run(bytes, { transferList: transferableBuffers([bytes]) });
    } catch (e) {
      if (bytes.byteLength === 0) throw e; // moved to the thread, which failed: nothing left to parse
      this.logger.warn(
        `JSON body parsed on the event loop: the JSON thread could not take it (${(e as Error).message})`,
      );
      return parseJsonBytes(bytes);
    }
  }

  get stats(): { threads: number; completed: number } {
    return { threads: this.pool.threads.length, completed: this.pool.completed };
  }

  async onApplicationShutdown(): Promise<void> {
    await this.pool.destroy();
  }
}

/** A body-parser style error, so the one error filter answers it like body-parser's own. */
function bodyError(status: number, type: string, message: string, extra: Record<string, string> = {}): Error {
  return Object.assign(new Error(message), { status, statusCode: status, expose: true, type, ...extra });
}

/**
 * Express middleware reading JSON bodies up to `limit`: body-parser's `raw()` reads the bytes
 * (limit, content encodings, aborted requests: its errors), then {@link JsonBodyParser} parses
 * them. Bodies that are not JSON are left alone; a non-UTF charset is 415, invalid JSON and JSON
 * nested deeper than JSON_MAX_DEPTH are 400.
 */
export function jsonBody(parser: JsonBodyParser, limit: string): RequestHandler[] {
  const charset: RequestHandler = (req: Request, _res: Response, next: NextFunction) => {
    if (!req.is(JSON_MEDIA_TYPES)) return next();
    let value: string | undefined;
    try {
      value = parseContentType(req).parameters.charset?.toLowerCase();
    } catch {
      value = undefined; // a malformed Content-Type: req.is() matched the type; read it as UTF-8
    }
    if (value && !value.startsWith('utf-8') && value !== 'utf8') {
      return next(
        bodyError(415, 'charset.unsupported', `unsupported charset "${value.toUpperCase()}"`, { charset: value }),
      );
    }
    next();
  };
  const parse: RequestHandler = (req: Request, _res: Response, next: NextFunction) => {
    const body: unknown = req.body;
    if (!Buffer.isBuffer(body)) return next(); // not JSON, no body, or parsed by an earlier parser
    parser.parse(body).then(
      (result) => {
        if (result.ok) {
          req.body = result.value;
          next();
        } else {
          next(bodyError(400, result.tooDeep ? 'entity.too.deep' : 'entity.parse.failed', result.message));
        }
      },
      (e: unknown) => next(e),
    );
  };
  return [charset, raw({ limit, type: JSON_MEDIA_TYPES }), parse];
}
