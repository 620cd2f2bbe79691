/**
 * The visitor's and the agent's side of bench/pdf/convert.ts, in a process of its own (the measured
 * server's event loop does not also run the client; the CLI peers run in processes of their own
 * too). Talks to the website over HTTP as a browser without the script would (cookies, CSRF: the
 * tests' WebClient) and to /mcp with the official SDK client. argv[2]: the server's origin. Prints
 * "ready", then answers each line on stdin, a JSON {@link ClientRequest}, with one JSON line (or
 * "error <message>"). The timed part of each request starts when its first byte is sent and ends
 * when the last result byte is read.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileIdsOf, uploadThroughForm, WebClient } from '../../test/web/web-client';
import { treeRssMiB } from '../common/process-tree';

export type ClientRequest =
  /** Uploads the PDF at `path` through the tool page's own form; answers its file_id. */
  | { op: 'upload'; path: string; slug: 'images' | 'ocr' }
  /** PDF to images of every page; with `sampleRss`, the server's resident memory sampled meanwhile. */
  | { op: 'images'; file_id: string; dpi: number; format: 'png' | 'jpeg'; sampleRss?: boolean }
  /** OCR job started, its page polled until done, both results downloaded (the PDF written to `save`). */
  | { op: 'ocr'; file_id: string; languages: string; save: string }
  /** read_pdf over MCP, the whole file: calls with the largest budget, following next_cursor. */
  | { op: 'read'; file_id: string };

export interface ImagesAnswer {
  ms: number;
  /** Pages in the result (the page says "N pages of ..."). */
  pages: number;
  bytes: number;
  /** The page's words about pages left out, if any. */
  leftOut?: string;
  /** Server (this process's parent and its children, this process excepted): before, and the highest seen, MiB. */
  rss?: { before: number; peak: number };
}

/** Polling interval of the OCR job's page (a browser with the script polls every 2 s; this is finer). */
const POLL_MS = 100;

async function main(): Promise<void> {
  const origin = process.argv[2];
  const web = new WebClient(origin);
  const mcp = new Client({ name: 'bench-convert', version: '1' });
  await mcp.connect(new StreamableHTTPClientTransport(new URL('/mcp', origin)));
  // The server: the benchmark's process (the apps) and its children, this client and its siblings excepted.
  const clientPids = (): number[] =>
    readdirSync('/proc')
      .filter((d) => /^\d+$/.test(d))
      .filter((d) => {
        try {
          const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
          const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
          return ppid === process.ppid && readFileSync(`/proc/${d}/cmdline`, 'utf8').includes('convert-client');
        } catch {
          return false; // exited meanwhile
        }
      })
      .map(Number);
  const serverRss = (): number => clientPids().reduce((rss, pid) => rss - treeRssMiB(pid), treeRssMiB(process.ppid));
  const download = async (path: string): Promise<Uint8Array> => {
    const res = await fetch(origin + path);
    if (res.status !== 200) throw new Error(`GET ${path}: ${res.status}`);
    return new Uint8Array(await res.arrayBuffer());
  };

  const handlers = {
    upload: async (r: Extract<ClientRequest, { op: 'upload' }>) => {
      const up = await uploadThroughForm(web, r.slug, new Uint8Array(readFileSync(r.path)), 'doc.pdf');
      const [id] = fileIdsOf(up.text);
      if (up.status !== 200 || !id) throw new Error(`upload: ${up.status}`);
      return { file_id: id };
    },
    images: async (r: Extract<ClientRequest, { op: 'images' }>): Promise<ImagesAnswer> => {
      await web.get('/pdf/images'); // the form's page (its CSRF token), before the clock
      let rss: ImagesAnswer['rss'];
      let timer: NodeJS.Timeout | undefined;
      if (r.sampleRss) {
        rss = { before: serverRss(), peak: 0 };
        const sample = rss;
        timer = setInterval(() => (sample.peak = Math.max(sample.peak, serverRss())), 50);
      }
      const t0 = performance.now();
      try {
        const page = await web.post('/pdf/images', {
          file_id: r.file_id,
          pages: 'all',
          format: r.format,
          dpi: String(r.dpi),
        });
        const link = /<a href="(\/files\/[^"]+)" download="[^"]+">Download/.exec(page.text)?.[1];
        if (page.status !== 200 || !link) throw new Error(`images: ${page.status}`);
        const bytes = await download(link);
        const ms = performance.now() - t0;
        const pages = Number(/(\d+) pages? of [^<]* as (?:PNG|JPEG) at \d+ dpi/.exec(page.text)?.[1] ?? 0);
        const leftOut = /<p id="result-left-out">([\s\S]*?)<\/p>/.exec(page.text)?.[1].replace(/<[^>]+>/g, '');
        return { ms, pages, bytes: bytes.length, leftOut, rss };
      } finally {
        if (timer) clearInterval(timer);
        if (rss) rss.peak = Math.max(rss.peak, serverRss());
      }
    },
    ocr: async (r: Extract<ClientRequest, { op: 'ocr' }>) => {
      await web.get('/pdf/ocr');
      const t0 = performance.now();
      const started = await web.post('/pdf/ocr', { file_id: r.file_id, languages: r.languages });
      if (started.status !== 303 || !started.location) throw new Error(`ocr: ${started.status}`);
      let page = await web.get(started.location);
      while (/data-poll=/.test(page.text)) {
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
        page = await web.get(started.location);
      }
      const pdfLink = /<a href="(\/files\/[^"]+)" id="ocr-pdf">/.exec(page.text)?.[1];
      const textLink = /<a href="(\/files\/[^"]+)" id="ocr-text">/.exec(page.text)?.[1];
      if (!pdfLink || !textLink) throw new Error(`ocr job failed: ${page.text.slice(0, 300)}`);
      const [pdf, text] = await Promise.all([download(pdfLink), download(textLink)]);
      const ms = performance.now() - t0;
      writeFileSync(r.save, pdf);
      return { ms, textChars: text.length };
    },
    read: async (r: Extract<ClientRequest, { op: 'read' }>) => {
      const t0 = performance.now();
      let cursor: string | undefined;
      let chars = 0;
      let calls = 0;
      do {
        const res = (await mcp.callTool({
          name: 'read_pdf',
          arguments: { file: { file_id: r.file_id }, max_chars: 100_000, ...(cursor ? { cursor } : {}) },
        })) as { isError?: boolean; structuredContent?: { characters: number; next_cursor: string | null } };
        if (res.isError || !res.structuredContent) throw new Error(`read_pdf: ${JSON.stringify(res)}`);
        chars += res.structuredContent.characters;
        cursor = res.structuredContent.next_cursor ?? undefined;
        calls++;
      } while (cursor);
      return { ms: performance.now() - t0, chars, calls };
    },
  };

  process.stdout.write('ready\n');
  for await (const line of createInterface({ input: process.stdin })) {
    const req = JSON.parse(line) as ClientRequest;
    try {
      let answer: unknown;
      switch (req.op) {
        case 'upload':
          answer = await handlers.upload(req);
          break;
        case 'images':
          answer = await handlers.images(req);
          break;
        case 'ocr':
          answer = await handlers.ocr(req);
          break;
        case 'read':
          answer = await handlers.read(req);
          break;
      }
      process.stdout.write(`${JSON.stringify(answer)}\n`);
    } catch (e) {
      process.stdout.write(`error ${(e as Error).message.replace(/\n/g, ' ')}\n`);
    }
  }
  await mcp.close();
}

main().catch((e) => {
  process.stderr.write(`${e instanceof Error ? e.stack : String(e)}\n`);
  process.exit(1);
});
