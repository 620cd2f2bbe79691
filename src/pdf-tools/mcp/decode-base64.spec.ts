import { ToolFailure } from '../core/tool-failure';
import { decodeBase64 } from '../core/base64';

describe('decodeBase64', () => {
  const bytes = Buffer.from('%PDF-1.7 some bytes \u00ff\u0000', 'latin1');
  const dec = (s: string, max = 1000) => Buffer.from(decodeBase64(s, 'file', max));

  it('decodes standard, unpadded, URL-safe, data: URL and line-wrapped base64', () => {
    const std = bytes.toString('base64');
    expect(dec(std).equals(bytes)).toBe(true);
    expect(dec(std.replace(/=+$/, '')).equals(bytes)).toBe(true);
    expect(dec(bytes.toString('base64url')).equals(bytes)).toBe(true);
    expect(dec(`data:application/pdf;base64,${std}`).equals(bytes)).toBe(true);
    expect(dec(std.replace(/(.{8})/g, '$1\r\n')).equals(bytes)).toBe(true);
    expect(dec('').length).toBe(0);
  });

  it('rejects what is not base64 as invalid_arguments naming the input', () => {
    for (const bad of ['%%%', 'abc$def', 'A', 'ab cd!']) {
      expect(() => dec(bad)).toThrow(ToolFailure);
      expect(() => dec(bad)).toThrow(/file: base64 is not valid base64/);
    }
  });

  it('rejects oversized input before and after decoding', () => {
    expect(() => dec('A'.repeat(4000), 1000)).toThrow(/file_too_large|limit is 1000 bytes/);
    try {
      dec(Buffer.alloc(1001).toString('base64'), 1000);
      throw new Error('accepted');
    } catch (e) {
      expect((e as ToolFailure).code).toBe('file_too_large');
    }
  });
});
