/**
 * Collection scan benchmark (npm run bench:collect, issue 22 "Measure"): one scan of 500 prompts x
 * 3 platforms (OpenAI Responses with web search, Perplexity Sonar, Anthropic Messages with web
 * search) x 3 samples = 4,500 calls, through the vendors' SDKs, against a loopback server (a child
 * process of its own, so its work is not counted in ours) answering each vendor's wire format after
 * a simulated latency (BENCH_LATENCY_MS, default 300). Reports the wall time against the ideal
 * (calls x latency / calls in flight; AI_CONCURRENCY per platform, BENCH_AI_CONCURRENCY default 4),
 * the peak RSS of this process, and the import step's share (from the last answer stored to the
 * run's end: building the import file, the one-transaction ingest and derivation).
 *
 * Database: DATABASE_URL (a fresh database of its own) or the embedded PGlite in memory. Jobs run
 * in-process (no REDIS_URL) unless BENCH_REDIS_URL is given.
 */
import { ChildProcess, fork } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg } from 'node:os';
import { CollectService } from '../../src/visibility/collect/collect.service';
import { CollectStore } from '../../src/visibility/collect/collect.store';
import { platformEnv } from '../../test/ai/provider-servers';
import { createTestApp } from '../../test/utils/test-app';
import { trackedWorkspace } from '../../test/visibility/tracked-workspace';

const PROMPTS = 500;
const PLATFORMS = ['openai', 'perplexity', 'anthropic'] as const;
const SAMPLES = 3;
const LATENCY_MS = Number(process.env.BENCH_LATENCY_MS ?? 300);
const CONCURRENCY = Number(process.env.BENCH_AI_CONCURRENCY ?? 4);

/** An answer naming the brand, a competitor or neither, by prompt (the import has mentions to derive). */
function answerText(prompt: string): string {
  const n = Number(/(\d+)$/.exec(prompt)?.[1] ?? 0);
  return n % 3 === 0
    ? 'Acme is the pick for startups; Globex is fine too.'
    : n % 3 === 1
      ? 'Globex has the best prices this year.'
      : 'Linear and Jira are the usual answers.';
}

/** The loopback platforms (child process): bodies shaped like test/ai/fixtures, answered after LATENCY_MS. */
function serve(): void {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as {
        input?: string;
        messages?: Array<{ content: string | Array<{ text?: string }> }>;
      };
      const last = body.messages?.[body.messages.length - 1]?.content;
      const prompt = body.input ?? (typeof last === 'string' ? last : (last?.[0]?.text ?? ''));
      const text = answerText(prompt);
      const url = req.url ?? '';
      const json = url.startsWith('/openai/')
        ? {
            id: 'resp_bench',
            object: 'response',
            created_at: 1741476542,
            status: 'completed',
            model: 'gpt-5-mini-2025-08-07',
            output: [
              {
                type: 'web_search_call',
                id: 'ws_bench',
                status: 'completed',
                action: { type: 'search', query: prompt, queries: [prompt] },
              },
              {
                type: 'message',
                id: 'msg_bench',
                status: 'completed',
                role: 'assistant',
                content: [
                  {
                    type: 'output_text',
                    text,
                    annotations: [
                      { type: 'url_citation', start_index: 0, end_index: 4, url: 'https://acme.com/', title: 'Acme' },
                      {
                        type: 'url_citation',
                        start_index: 5,
                        end_index: 9,
                        url: 'https://www.g2.com/crm',
                        title: 'G2',
                      },
                    ],
                  },
                ],
              },
            ],
            usage: { input_tokens: 328, output_tokens: 356, total_tokens: 684 },
          }
        : url.startsWith('/perplexity/')
          ? {
              id: 'pplx-bench',
              model: 'sonar',
              created: 1724369245,
              object: 'chat.completion',
              usage: {
                prompt_tokens: 8,
                completion_tokens: 218,
                total_tokens: 226,
                cost: {
                  input_tokens_cost: 0.000008,
                  output_tokens_cost: 0.000218,
                  request_cost: 0.005,
                  total_cost: 0.005226,
                },
              },
              choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: text } }],
              citations: ['https://globex.com/', 'https://www.g2.com/crm'],
              search_results: [{ title: 'Globex', url: 'https://globex.com/', date: null, snippet: '' }],
            }
          : {
              id: 'msg_bench',
              type: 'message',
              role: 'assistant',
              model: 'claude-sonnet-4-6',
              content: [
                { type: 'server_tool_use', id: 'srvtoolu_bench', name: 'web_search', input: { query: prompt } },
                {
                  type: 'web_search_tool_result',
                  tool_use_id: 'srvtoolu_bench',
                  content: [
                    { type: 'web_search_result', url: 'https://acme.com/', title: 'Acme', encrypted_content: 'x' },
                  ],
                },
                {
                  type: 'text',
                  text,
                  citations: [
                    {
                      type: 'web_search_result_location',
                      url: 'https://acme.com/',
                      title: 'Acme',
                      encrypted_index: 'x',
                      cited_text: 'Acme',
                    },
                  ],
                },
              ],
              stop_reason: 'end_turn',
              stop_sequence: null,
              usage: { input_tokens: 6039, output_tokens: 931, server_tool_use: { web_search_requests: 1 } },
            };
      setTimeout(() => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(json));
      }, LATENCY_MS);
    });
  });
  server.keepAliveTimeout = 60_000;
  server.listen(0, '127.0.0.1', () => process.send!({ port: (server.address() as AddressInfo).port }));
}

async function startPlatforms(): Promise<{ url: string; child: ChildProcess }> {
  const child = fork(__filename, ['--serve'], { stdio: 'inherit' });
  const port = await new Promise<number>((resolve) => child.once('message', (m: { port: number }) => resolve(m.port)));
  return { url: `http://127.0.0.1:${port}`, child };
}

async function main(): Promise<void> {
  const out = (s: string) => process.stdout.write(`${s}\n`);
  const platforms = await startPlatforms();
  const t = await createTestApp({
    checkApiResponses: false,
    env: {
      LOG_LEVEL: 'warn',
      ...platformEnv(platforms.url),
      AI_CONCURRENCY: String(CONCURRENCY),
      AI_MAX_RETRIES: '0',
      ...(process.env.BENCH_REDIS_URL ? { REDIS_URL: process.env.BENCH_REDIS_URL } : {}),
    },
  });
  try {
    const workspaceId = await trackedWorkspace(t, 'bench-collect', {
      platforms: PLATFORMS,
      samples: SAMPLES,
      prompts: Array.from({ length: PROMPTS }, (_, i) => `best crm for teams ${i + 1}`),
      budget_calls: 1_000_000,
      budget_usd: 100_000,
    });
    const store = t.app.get(CollectStore);
    const rssBefore = process.memoryUsage().rss;
    let peak = rssBefore;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 100);
    const started = performance.now();
    const { run } = await t.app.get(CollectService).start(workspaceId, 'manual');
    let r = run;
    while (r.status !== 'done' && r.status !== 'failed') {
      await new Promise((resolve) => setTimeout(resolve, 50));
      r = (await store.get(run.id))!;
    }
    const wall = performance.now() - started;
    clearInterval(sampler);
    peak = Math.max(peak, process.memoryUsage().rss);
    const [times] = await t.dataSource.query<Array<{ run_ms: number; import_ms: number; asking_ms: number }>>(
      `SELECT extract(epoch FROM r.finished_at - r.started_at) * 1000 AS run_ms,
              extract(epoch FROM r.finished_at - a.last) * 1000 AS import_ms,
              extract(epoch FROM a.last - r.started_at) * 1000 AS asking_ms
         FROM vis_collect_runs r, (SELECT max(asked_at) AS last FROM vis_collect_answers WHERE run_id = $1) a
        WHERE r.id = $1`,
      [run.id],
    );
    const calls = PROMPTS * PLATFORMS.length * SAMPLES;
    const inFlight = CONCURRENCY * PLATFORMS.length;
    const ideal = (calls * LATENCY_MS) / inFlight;
    const db = process.env.DATABASE_URL ? 'PostgreSQL' : 'embedded PGlite';
    out(
      `Collection scan: ${PROMPTS} prompts x ${PLATFORMS.length} platforms x ${SAMPLES} samples = ${calls} calls, ` +
        `${LATENCY_MS} ms latency, ${inFlight} in flight (AI_CONCURRENCY=${CONCURRENCY}), ${db}, jobs ${process.env.BENCH_REDIS_URL ? 'BullMQ' : 'in-process'}`,
    );
    out(`status ${r.status}: ${r.asked} asked, ${r.failed} failed, ${r.error ?? ''}`);
    out(
      `wall (Run now to imported): ${(wall / 1000).toFixed(1)} s; ideal ${(ideal / 1000).toFixed(1)} s; ratio ${(wall / ideal).toFixed(2)}`,
    );
    out(
      `asking ${(Number(times.asking_ms) / 1000).toFixed(1)} s (ratio to ideal ${(Number(times.asking_ms) / ideal).toFixed(2)}), ` +
        `import ${(Number(times.import_ms) / 1000).toFixed(2)} s = ${((Number(times.import_ms) / Number(times.run_ms)) * 100).toFixed(1)} % of the run`,
    );
    out(
      `RSS: ${(rssBefore / 2 ** 20).toFixed(0)} MiB before, peak ${(peak / 2 ** 20).toFixed(0)} MiB (+${((peak - rssBefore) / 2 ** 20).toFixed(0)} MiB)`,
    );
    out(
      `load average ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
    );
  } finally {
    await t.close();
    platforms.child.kill();
  }
}

if (process.argv.includes('--serve')) serve();
else
  main().catch((e: unknown) => {
    process.stderr.write(`${(e as Error).stack ?? String(e)}\n`);
    process.exit(1);
  });
