/**
 * Load generator for bench/pdf/run.ts, in its own process so its work (building and parsing
 * megabyte JSON bodies) does not land on the measured server's event loop. Sends batches of 20
 * concurrent compress_pdf calls to the MCP endpoint in argv[2] until it gets SIGTERM; prints
 * "ready" once warmed up and "calls <n> failed <m>" at the end.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { imagePdf } from '../../test/pdf-tools/fixtures';

async function main(): Promise<void> {
  const url = new URL(process.argv[2]);
  const pdf = Buffer.from(await imagePdf(10, 800, 92)).toString('base64');
  const client = new Client({ name: 'bench-load', version: '1' });
  await client.connect(new StreamableHTTPClientTransport(url));
  const callOnce = () => client.callTool({ name: 'compress_pdf', arguments: { file: { base64: pdf }, level: 'recommended' } });
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
