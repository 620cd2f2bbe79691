import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** How the loopback platform answers one prompt: a chat completion (text, cited URLs) or an HTTP error. */
export type Reply =
  | { text: string; citations?: Array<{ url: string; title?: string }> }
  | { status: number; message: string; headers?: Record<string, string> };

/**
 * A loopback OpenAI-compatible endpoint (Chat Completions wire format, bodies shaped like the
 * example response of "Create chat completion" in OpenAI's API reference, with `url_citation`
 * annotations as search models send them). `reply` decides per prompt; `gate` holds every answer
 * until released (a scan caught mid-way); `requests` counts the calls received.
 */
export class ChatCompletionsServer {
  requests: string[] = [];
  reply: (prompt: string) => Reply = () => ({ text: 'No idea.' });
  private gate: Promise<void> | null = null;
  private open: (() => void) | null = null;
  private readonly server: Server;
  url = '';

  private constructor() {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        void (async () => {
          const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as {
            messages?: Array<{ content: string }>;
            model?: string;
          };
          const prompt = body.messages?.[body.messages.length - 1]?.content ?? '';
          this.requests.push(prompt);
          if (this.gate) await this.gate;
          const r = this.reply(prompt);
          if ('status' in r) {
            res.writeHead(r.status, { 'content-type': 'application/json', ...r.headers });
            res.end(JSON.stringify({ error: { message: r.message, type: 'server_error', param: null, code: null } }));
            return;
          }
          let at = 0;
          const annotations = (r.citations ?? []).map((c) => ({
            type: 'url_citation',
            url_citation: { start_index: at, end_index: (at += 5), title: c.title ?? c.url, url: c.url },
          }));
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(
            JSON.stringify({
              id: `chatcmpl-${this.requests.length}`,
              object: 'chat.completion',
              created: 1741569952,
              model: body.model ?? 'local-model',
              choices: [
                {
                  index: 0,
                  message: { role: 'assistant', content: r.text, refusal: null, annotations },
                  logprobs: null,
                  finish_reason: 'stop',
                },
              ],
              usage: { prompt_tokens: 19, completion_tokens: 10, total_tokens: 29 },
              service_tier: 'default',
            }),
          );
        })();
      });
    });
  }

  static async start(): Promise<ChatCompletionsServer> {
    const s = new ChatCompletionsServer();
    await new Promise<void>((resolve) => s.server.listen(0, '127.0.0.1', resolve));
    s.url = `http://127.0.0.1:${(s.server.address() as AddressInfo).port}`;
    return s;
  }

  /** Holds every answer until `release()`. */
  hold(): void {
    this.gate = new Promise((resolve) => (this.open = resolve));
  }

  release(): void {
    this.open?.();
    this.gate = null;
  }

  close(): Promise<void> {
    this.release();
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
