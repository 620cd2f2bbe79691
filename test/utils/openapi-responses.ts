import Ajv2020, { ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import request from 'supertest';

/** One response of the server under `/api/v1`, as the client received it. */
export interface RecordedResponse {
  method: string;
  url: string;
  status: number;
  contentType: string;
  body: string;
}

type Json = Record<string, unknown>;

/**
 * Records every response the server sends under `/api/v1` (supertest, fetch, any client: it listens
 * on the server itself) and validates each against the OpenAPI document the same server publishes
 * at GET /api/v1/openapi.json, each by the operation of its own method (HEAD as GET): the body of a
 * declared status against its schema; a method the document lists for no path must be 405 with
 * components.responses.MethodNotAllowed, an unknown path's GET 404 with Error; anything else
 * undeclared is a failure. Use in an afterEach:
 * `afterEach(() => api.expectValid())`.
 */
export function recordApiResponses(server: Server): { recorded: RecordedResponse[]; expectValid(): Promise<void> } {
  const recorded: RecordedResponse[] = [];
  server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
    if (!req.url?.startsWith('/api/v1')) return;
    const chunks: Buffer[] = [];
    const add = (chunk: unknown, encoding?: unknown) => {
      if (chunk === undefined || chunk === null || typeof chunk === 'function') return;
      chunks.push(
        Buffer.isBuffer(chunk)
          ? chunk
          : Buffer.from(chunk as string, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8'),
      );
    };
    const write = res.write.bind(res) as (...a: unknown[]) => boolean;
    const end = res.end.bind(res) as (...a: unknown[]) => ServerResponse;
    res.write = ((...a: unknown[]) => (add(a[0], a[1]), write(...a))) as typeof res.write;
    res.end = ((...a: unknown[]) => (add(a[0], a[1]), end(...a))) as typeof res.end;
    res.once('finish', () =>
      recorded.push({
        method: req.method ?? 'GET',
        url: req.url!,
        status: res.statusCode,
        contentType: String(res.getHeader('content-type') ?? ''),
        body: Buffer.concat(chunks).toString('utf8'),
      }),
    );
  });

  let validator: ((r: RecordedResponse) => string[]) | null = null;
  return {
    recorded,
    async expectValid() {
      const batch = recorded.splice(0);
      if (batch.length === 0) return;
      if (!validator) {
        const doc = (await request(server).get('/api/v1/openapi.json').expect(200)).body as Json;
        recorded.length = 0;
        validator = validatorOf(doc);
      }
      const problems = batch.flatMap((r) => validator!(r).map((p) => `${r.method} ${r.url} ${r.status}: ${p}`));
      expect(problems).toEqual([]);
    },
  };
}

/** A function listing what is wrong with one response according to the OpenAPI document `doc`. */
export function validatorOf(doc: Json): (r: RecordedResponse) => string[] {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema(doc, 'openapi');
  const compiled = new Map<string, ValidateFunction>();
  const validatorAt = (pointer: string): ValidateFunction => {
    let v = compiled.get(pointer);
    if (!v) {
      v = ajv.getSchema(`openapi#${pointer}`);
      if (!v) throw new Error(`no schema at ${pointer} in the OpenAPI document`);
      compiled.set(pointer, v);
    }
    return v;
  };
  type Operation = { responses: Record<string, { content?: Record<string, unknown> }> };
  const paths = doc.paths as Record<string, Partial<Record<string, Operation>>>;
  const escape = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1');

  return (r) => {
    const path = new URL(r.url, 'http://x').pathname;
    // Each response is judged by the operation of its own method; HEAD is GET without the body.
    const method = r.method === 'HEAD' ? 'get' : r.method.toLowerCase();
    const op = paths[path]?.[method];
    const declared = op?.responses[String(r.status)];
    let pointer: string;
    if (declared) {
      if (!declared.content) return r.body === '' ? [] : [`a body where the document declares none`];
      pointer = `/paths/${escape(path)}/${method}/responses/${r.status}/content/application~1json/schema`;
    } else if (!op && r.status === 405) {
      // A method no path lists: the document's answer to it.
      pointer = '/components/responses/MethodNotAllowed/content/application~1json/schema';
    } else if (!paths[path] && r.status === 404) {
      pointer = '/components/schemas/Error';
    } else {
      return [`status ${r.status} is not declared for ${r.method} ${path} in the OpenAPI document`];
    }
    if (r.method === 'HEAD' && r.body === '') return [];
    // Another representation the document declares for this response (a CSV export): its media type is checked, not its text.
    const other =
      declared?.content &&
      Object.keys(declared.content).find((t) => t !== 'application/json' && r.contentType.startsWith(t));
    if (other) return [];
    if (!r.contentType.startsWith('application/json')) return [`content-type ${r.contentType}, not application/json`];
    let body: unknown;
    try {
      body = JSON.parse(r.body);
    } catch {
      return ['the body is not JSON'];
    }
    const validate = validatorAt(pointer);
    if (validate(body)) return [];
    return (validate.errors ?? []).map(
      (e) => `${e.instancePath || '(body)'} ${e.message ?? ''} ${JSON.stringify(e.params)}`,
    );
  };
}
