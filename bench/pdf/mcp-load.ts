/**
 * Load generator for bench/pdf/run.ts, in its own process so its work (building and parsing
 * megabyte bodies) does not land on the measured server's event loop. Sends batches of 20
 * concurrent uploads (POST /files) each followed by a compress_pdf call with the upload's file_id
 * to the MCP endpoint in argv[2] until it gets SIGTERM; prints
 * "ready" once warmed up and "calls <n> failed <m>" at the end.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { imagePdf } from '../../test/pdf-tools/fixtures';

async function main(): Promise<void> {
  const url = new URL(process.argv[2]);
  const pdf = await imagePdf(10, 800, 92);
  const client = new Client({ name: 'bench-load', version: '1' });
  await client.connect(new StreamableHTTPClientTransport(url));
  // What an agent with a shell does: upload the file (POST /files), then call the tool with its file_id.
  const callOnce = async () => {
    const res = await fetch(new URL('/files', url), {
      method: 'POST',
      headers: { 'content-type': 'application/pdf' },
      body: pdf,
    });
    if (res.status !== 201) return { isError: true };
    const { file_id } = (await res.json()) as { file_id: string };
    return client.callTool({ name: 'compress_pdf', arguments: { file: { file_id }, level: 'recommended' } });
  };
  await Promise.all([callOnce(), callOnce()]); // warm the workers
  let stop = false;
  let calls = 0;
  let failed = 0;
  process.on('SIGTERM', () => {
    stop = true;
  });
  process.stdout.write('ready\n');
  while (!stop) {
    const batch = await Promise.all(Array.from({ length: 20 }, callOnce));
    calls += batch.length;
    failed += batch.filter((r) => r.isError).length;
  }
  process.stdout.write(`calls ${calls} failed ${failed}\n`);
  await client.close();
}

main().catch((e) => {
  process.stderr.write(`${e instanceof Error ? e.stack : String(e)}\n`);
  process.exit(1);
});
