/**
 * The agent's side of bench/pdf/run.ts's round trip, in its own process (as an agent is): the
 * measured server's event loop does not also run the client. Connects with the official SDK client
 * to the MCP endpoint in argv[2], prints "ready", then answers each line on stdin, a JSON
 * {@link Request}, with one line: the milliseconds the round trip took (or "error <message>"); an
 * {@link UploadTiming} line with the milliseconds of that upload alone, a {@link CommandTiming} line
 * with those of one run of the command; `{upload: path}` with the file_id.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';

export interface Request {
  /** The PDF to send: uploaded first (POST /files) when `file_id` is not given. */
  path: string;
  /** The input already stored (e.g. an earlier result): no upload. */
  file_id?: string;
  tool: string;
  /** The tool's arguments, with "$FILE" where the input's file_id goes. */
  args: Record<string, unknown>;
}

/** One upload alone, timed: POST /files, or the same bytes to `peer` (a bare server that only counts them). */
export interface UploadTiming {
  time_upload: string;
  peer?: string;
}

/**
 * One run of a command (the qpdf CLI), timed from this small process as a shell would time it (the
 * benchmark's own process holds the app: each start would pay the copy of its memory map).
 */
export interface CommandTiming {
  time_command: string[];
}

async function main(): Promise<void> {
  const url = new URL(process.argv[2]);
  const client = new Client({ name: 'bench-roundtrip', version: '1' });
  await client.connect(new StreamableHTTPClientTransport(url));
  const upload = async (bytes: Uint8Array): Promise<string> => {
    const res = await fetch(new URL('/files', url), {
      method: 'POST',
      headers: { 'content-type': 'application/pdf' },
      body: bytes,
    });
    if (res.status !== 201) throw new Error(`upload: ${res.status} ${await res.text()}`);
    return ((await res.json()) as { file_id: string }).file_id;
  };
  const roundTrip = async (req: Request): Promise<number> => {
    // Read anew for each request (the bench writes each input to the same path), before the clock starts.
    const bytes = new Uint8Array(readFileSync(req.path));
    const t0 = performance.now();
    const id = req.file_id ?? (await upload(bytes));
    const args = JSON.parse(JSON.stringify(req.args).replaceAll('"$FILE"', JSON.stringify(id))) as Record<
      string,
      unknown
    >;
    const r = (await client.callTool({ name: req.tool, arguments: args })) as {
      isError?: boolean;
      structuredContent?: Record<string, unknown>;
    };
    if (r.isError) throw new Error(`${req.tool}: ${JSON.stringify(r.structuredContent)}`);
    const sc = r.structuredContent!;
    const links = Array.isArray(sc.files)
      ? (sc.files as { download_url: string }[]).map((f) => f.download_url)
      : [sc.download_url as string];
    // Every result downloaded, in parallel, through its link (on the server this process talks to).
    await Promise.all(links.map(async (link) => (await fetch(new URL(new URL(link).pathname, url))).arrayBuffer()));
    return performance.now() - t0;
  };
  const timeUpload = async (req: UploadTiming): Promise<number> => {
    const bytes = new Uint8Array(readFileSync(req.time_upload));
    const t0 = performance.now();
    if (req.peer === undefined) await upload(bytes);
    else {
      const res = await fetch(req.peer, {
        method: 'POST',
        headers: { 'content-type': 'application/pdf' },
        body: bytes,
      });
      if (res.status !== 201) throw new Error(`peer upload: ${res.status}`);
      await res.json();
    }
    return performance.now() - t0;
  };
  process.stdout.write('ready\n');
  for await (const line of createInterface({ input: process.stdin })) {
    const req = JSON.parse(line) as Request | { upload: string } | UploadTiming | CommandTiming;
    try {
      if ('upload' in req) process.stdout.write(`${await upload(new Uint8Array(readFileSync(req.upload)))}\n`);
      else if ('time_upload' in req) process.stdout.write(`${await timeUpload(req)}\n`);
      else if ('time_command' in req) {
        const t0 = performance.now();
        execFileSync(req.time_command[0], req.time_command.slice(1), { stdio: 'ignore' });
        process.stdout.write(`${performance.now() - t0}\n`);
      } else process.stdout.write(`${await roundTrip(req)}\n`);
    } catch (e) {
      process.stdout.write(`error ${(e as Error).message.replace(/\n/g, ' ')}\n`);
    }
  }
  await client.close();
}

main().catch((e) => {
  process.stderr.write(`${e instanceof Error ? e.stack : String(e)}\n`);
  process.exit(1);
});
