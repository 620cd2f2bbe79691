import type { ToolFailed, ToolSuccess } from '../run/tool-outcome';
import { mcpResult } from './mcp-result';

const quota = { tool: 'split_pdf', limit: 50, remaining: 49, resets_at: '2026-01-02T00:00:00.000Z' };
const file = (n: number, bytes = 3) => ({
  file_id: `id${n}`.padEnd(43, 'x'),
  download_url: `https://beacon.test/files/id${n}`,
  expires_at: '2026-01-01T13:00:00.000Z',
  filename: `part-${n}.pdf`,
  bytes,
  pages: 1,
  sha256: 'ab'.repeat(32),
  extra: { source_pages: [n] },
  content: new Uint8Array(bytes).fill(n),
});

describe('mcpResult: a tool outcome as an MCP result', () => {
  it("a list of files: structuredContent in the order it always had (files with their own fields, the tool's fields, quota), a link per file", () => {
    const o: ToolSuccess = {
      ok: true,
      tool: 'split_pdf',
      shape: 'files',
      summary: 'Split into 2 documents.',
      files: [file(1), file(2)],
      data: { mode: 'every', note: 'N.' },
      note: 'N.',
      inline: false,
      opened: [],
      quota,
    };
    const r = mcpResult(o, 1000);
    expect(JSON.stringify(r.structuredContent)).toBe(
      JSON.stringify({
        files: [1, 2].map((n) => {
          const { extra, content: _c, ...stored } = file(n);
          return { ...stored, ...extra };
        }),
        mode: 'every',
        note: 'N.',
        quota,
      }),
    );
    expect(r.content.map((c) => c.type)).toEqual(['text', 'resource_link', 'resource_link']);
    expect(r.isError).toBeUndefined();
  });

  it("one file: the tool's fields, then the file's, then changed (optional file) and quota; bytes embedded only with inline and under the limit", () => {
    const o: ToolSuccess = {
      ok: true,
      tool: 'pdf_metadata',
      shape: 'optional-file',
      summary: 'Saved.',
      files: [{ ...file(1), extra: {} }],
      data: { metadata: { title: 'T' } },
      inline: true,
      opened: [],
      quota,
    };
    const r = mcpResult(o, 1000);
    expect(Object.keys(r.structuredContent!)).toEqual([
      'metadata',
      'file_id',
      'download_url',
      'expires_at',
      'filename',
      'bytes',
      'pages',
      'sha256',
      'changed',
      'quota',
    ]);
    expect(r.content.map((c) => c.type)).toEqual(['text', 'resource_link', 'resource']);
    const big = mcpResult({ ...o, files: [{ ...file(1, 2000), extra: {} }] }, 1000);
    expect(big.content.map((c) => c.type)).toEqual(['text', 'resource_link']);
    expect((big.structuredContent as { note: string }).note).toBe(
      'Not embedded (inline): part-1.pdf is 2000 bytes, over the inline limit of 1000 bytes; download it from its link.',
    );
  });

  it('a failure: "Error <code>: <message>", then error, message, details, refunded, quota', () => {
    const f: ToolFailed = {
      ok: false,
      tool: 'rotate_pages',
      code: 'encrypted',
      message: 'File needs a password. Refunded.',
      details: { input: 'file', password_given: false },
      inputIndex: 0,
      passwordGiven: false,
      refunded: true,
      quota,
    };
    const r = mcpResult(f, 1000);
    expect(r.isError).toBe(true);
    expect(r.content).toEqual([{ type: 'text', text: 'Error encrypted: File needs a password. Refunded.' }]);
    expect(JSON.stringify(r.structuredContent)).toBe(
      JSON.stringify({
        error: 'encrypted',
        message: 'File needs a password. Refunded.',
        input: 'file',
        password_given: false,
        refunded: true,
        quota,
      }),
    );
    const before = mcpResult({ ...f, refunded: undefined, code: 'invalid_arguments', details: {} }, 1000);
    expect(Object.keys(before.structuredContent!)).toEqual(['error', 'message', 'quota']);
  });

  it('a text result (read_pdf): summary, quota and note first, then the text; the text is not repeated in structuredContent', () => {
    const o: ToolSuccess = {
      ok: true,
      tool: 'read_pdf',
      shape: 'text',
      summary: 'Read page 1 of 1.',
      files: [],
      data: { pages_read: [1], next_cursor: null },
      text: '<!-- page 1 -->\n\nHello',
      inline: false,
      opened: [],
      quota,
    };
    const r = mcpResult(o, 1000);
    expect(r.content).toEqual([
      {
        type: 'text',
        text: 'Read page 1 of 1.\nQuota: 49 of 50 read_pdf calls left today.\n\n<!-- page 1 -->\n\nHello',
      },
    ]);
    expect(r.structuredContent).toEqual({ pages_read: [1], next_cursor: null, quota });
  });
});
