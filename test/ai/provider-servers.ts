import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * The settings that point OpenAI, Perplexity and Anthropic at a loopback server (`url`, as
 * ProviderServer's) with test keys: the paths each vendor's client calls under its base URL.
 */
export const platformEnv = (url: string): Record<string, string> => ({
  OPENAI_API_KEY: 'sk-test-openai',
  OPENAI_BASE_URL: `${url}/openai/v1`,
  PERPLEXITY_API_KEY: 'pplx-test',
  PERPLEXITY_BASE_URL: `${url}/perplexity`,
  ANTHROPIC_API_KEY: 'sk-ant-test',
  ANTHROPIC_BASE_URL: `${url}/anthropic`,
});

/** One request a provider server received. */
export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  /** The JSON body (an empty object when there was none or it was not JSON: see `text`). */
  body: Record<string, unknown>;
  text: string;
}

/** What the server answers: a JSON body (object), raw text (string, sent as given), or no answer for `hangMs`. */
export interface Scripted {
  status?: number;
  headers?: Record<string, string>;
  json?: unknown;
  /** Sent as is with content-type application/json (malformed JSON, an HTML page...). */
  raw?: string;
  /** Wait this long before answering (a platform too slow for the caller's time limit). */
  hangMs?: number;
}

/**
 * A loopback HTTP server standing in for an AI platform: it records every request and answers
 * from a queue of scripted responses (then from `fallback`), so a test points the vendor's real
 * SDK at it by base URL. No test reaches the internet.
 */
export class ProviderServer {
  readonly requests: ReceivedRequest[] = [];
  private readonly queue: Scripted[] = [];
  fallback: Scripted = { status: 500, json: { error: { message: 'no scripted response' } } };
  /**
   * Answers requests when the queue is empty (before `fallback`): e.g. a scan test or a benchmark
   * routing by path to each vendor's fixture, with `hangMs` as simulated latency.
   */
  handler?: (req: ReceivedRequest) => Scripted | undefined;
  private readonly timers = new Set<NodeJS.Timeout>();
  /** Paths answered with a 302 to the given address (Gemini's grounding redirect links), not from the queue. */
  readonly redirects = new Map<string, string>();

  private readonly server: Server = createServer((req, res) => void this.handle(req, res));
  /** Base address, e.g. http://127.0.0.1:41234 (no trailing slash). */
  url = '';

  private constructor() {}

  static async start(): Promise<ProviderServer> {
    const self = new ProviderServer();
    await new Promise<void>((resolve) => self.server.listen(0, '127.0.0.1', resolve));
    self.url = `http://127.0.0.1:${(self.server.address() as AddressInfo).port}`;
    return self;
  }

  /** Queue responses for the next requests, in order. */
  next(...responses: Scripted[]): this {
    this.queue.push(...responses);
    return this;
  }

  /** Forget queued responses and received requests (between tests). */
  reset(): void {
    this.handler = undefined;
    this.queue.length = 0;
    this.redirects.clear();
    this.requests.length = 0;
  }

  get last(): ReceivedRequest {
    return this.requests[this.requests.length - 1];
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    let body: Record<string, unknown> = {};
    try {
      const parsed: unknown = text ? JSON.parse(text) : {};
      if (parsed && typeof parsed === 'object') body = parsed as Record<string, unknown>;
    } catch {
      /* not JSON: see text */
    }
    const target = this.redirects.get(req.url ?? '');
    if (target) {
      res.writeHead(302, { location: target, 'content-type': 'text/html' });
      res.end('<a href="' + target + '">moved</a>');
      return;
    }
    this.requests.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, body, text });
    const s = this.queue.shift() ?? this.handler?.(this.requests[this.requests.length - 1]) ?? this.fallback;
    const send = (): void => {
      if (res.destroyed) return;
      const payload = s.raw ?? (s.json === undefined ? '' : JSON.stringify(s.json));
      res.writeHead(s.status ?? 200, { 'content-type': 'application/json', ...s.headers });
      res.end(payload);
    };
    if (s.hangMs) {
      const t = setTimeout(() => {
        this.timers.delete(t);
        send();
      }, s.hangMs);
      this.timers.add(t);
    } else send();
  }

  async close(): Promise<void> {
    for (const t of this.timers) clearTimeout(t);
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
