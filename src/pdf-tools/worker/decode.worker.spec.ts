import { checkBase64Length, decodeBase64 } from '../core/base64';
import { ToolFailure } from '../core/tool-failure';
import { decodeAll } from './decode.worker';
import { transferableBuffers } from '../../common/workers/transfer';

describe('decode worker', () => {
  const pdf = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(300_000, 0xab)]);

  it('gives the bytes of kept items and the same errors as decodeBase64, in order', () => {
    const bad = `${'A'.repeat(100_000)}$$AA`;
    const r = decodeAll({
      items: [
        { label: 'image_base64', base64: pdf.toString('base64'), keep: false },
        { label: 'files[0]', base64: pdf.toString('base64url'), keep: true },
        { label: 'files[1]', base64: bad, keep: true },
        { label: 'files[2]', base64: Buffer.alloc(1001).toString('base64'), keep: true },
      ],
      maxBytes: 1_000_000,
    });
    expect(r[0]).toEqual({ ok: true });
    expect(r[1].ok && Buffer.from(r[1].bytes!).equals(pdf)).toBe(true);
    let error: ToolFailure | undefined;
    try {
      decodeBase64(bad, 'files[1]', 1_000_000);
    } catch (e) {
      error = e as ToolFailure;
    }
    expect(r[2]).toEqual({ ok: false, code: error!.code, message: error!.message, details: error!.details });
    expect(r[2]).toMatchObject({
      code: 'invalid_arguments',
      message: expect.stringMatching(/^files\[1\]: base64 is not valid base64/),
      details: { input: 'files[1]' },
    });
    expect(
      decodeAll({
        items: [{ label: 'file', base64: Buffer.alloc(1001).toString('base64'), keep: true }],
        maxBytes: 1000,
      })[0],
    ).toMatchObject({
      ok: false,
      code: 'file_too_large',
      details: { input: 'file', bytes: 1001, limit: 1000 },
    });
  });

  it('refuses oversize base64 from its length alone, with the message decodeBase64 gives', () => {
    const text = `data:application/pdf;base64,${'A'.repeat(4000)}`;
    expect(() => checkBase64Length(text, 'file', 1000)).toThrow(/^file is 3000 bytes; the limit is 1000 bytes/);
    expect(() => decodeBase64(text, 'file', 1000)).toThrow(/^file is 3000 bytes; the limit is 1000 bytes/);
    expect(() => checkBase64Length('A'.repeat(1336), 'file', 1000)).not.toThrow();
  });

  it('moves only whole buffers of their own, each once, never a shared pool slab', () => {
    const big = new Uint8Array(Buffer.from(pdf.toString('base64'), 'base64'));
    const small = Buffer.from('AAAA', 'base64');
    expect(transferableBuffers([big, big.subarray(10), small])).toEqual([big.buffer]);
  });
});
