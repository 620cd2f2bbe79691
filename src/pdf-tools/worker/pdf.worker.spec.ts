import { createHash } from 'node:crypto';
import Piscina from 'piscina';
import { toShared } from '../../common/workers/shared-bytes';
import { formPdf, textPdf } from '../../../test/pdf-tools/helpers';
import { imagePdf, photoJpeg } from '../../../test/pdf-tools/fixtures';
import { PDF_TOOLS_BY_NAME } from '../tools';
import runTask, { type WorkerResult } from './pdf.worker';

const digest = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const LIMITS = { maxBytes: 20 * 1024 * 1024, maxPages: 200 };

/**
 * Stored files reach the PDF workers in shared memory (the event loop keeps serving the same
 * bytes): whatever a tool does, the stored bytes stay as they were.
 */
describe('pdf worker: stored files in shared memory', () => {
  let pdf: Buffer;
  let form: Buffer;
  let text: Buffer;
  let jpeg: string;

  beforeAll(async () => {
    pdf = toShared(await imagePdf(4, 300, 80));
    form = toShared(await formPdf());
    text = toShared(await textPdf(2));
    jpeg = (await photoJpeg(64)).toString('base64');
  });

  const calls: [string, Record<string, unknown>, () => Buffer[]][] = [
    ['pdf_metadata', { file: {} }, () => [pdf]],
    ['merge_pdfs', { files: [{}, {}] }, () => [pdf, pdf]],
    ['split_pdf', { file: {}, mode: 'every', every: 1 }, () => [pdf]],
    ['rotate_pages', { file: {}, angle: 90 }, () => [pdf]],
    ['remove_pages', { file: {}, pages: '2' }, () => [pdf]],
    ['compress_pdf', { file: {}, level: 'extreme' }, () => [pdf]],
    ['add_watermark', { file: {}, text: 'Конфиденциально 機密' }, () => [pdf]],
    ['add_watermark', { file: {}, image_base64: 'IMAGE', tiled: true }, () => [pdf]],
    ['add_page_numbers', { file: {} }, () => [pdf]],
    ['flatten_form', { file: {} }, () => [form]],
    ['read_pdf', { file: {} }, () => [text]],
  ];

  it('covers every tool', () => {
    expect(new Set(calls.map(([name]) => name))).toEqual(new Set(PDF_TOOLS_BY_NAME.keys()));
  });

  it.each(calls)('%s leaves its input in shared memory as it was (%j)', async (name, raw, files) => {
    const inputs = files();
    const before = inputs.map(digest);
    const args = PDF_TOOLS_BY_NAME.get(name)!.input.parse(JSON.parse(JSON.stringify(raw).replace('IMAGE', jpeg)));
    const answer = await runTask({
      tool: name,
      args,
      inputs: inputs.map((bytes, i) => ({ label: `files[${i}]`, name: 'in.pdf', bytes })),
      limits: LIMITS,
    });
    // Outputs are wrapped to move to the main thread; piscina unwraps them there.
    const result = ((answer as unknown as Record<symbol, unknown>)[Piscina.valueSymbol] ?? answer) as WorkerResult;
    expect(result.ok ? 'ok' : result.message).toBe('ok');
    expect(inputs.map(digest)).toEqual(before);
    for (const file of (result as Extract<WorkerResult, { ok: true }>).files)
      expect(file.sha256).toBe(digest(file.bytes));
  });
});
