import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { plural } from '../../common/text/plural';
import type { ToolFailed, ToolOutcome, ToolSuccess } from '../run/tool-outcome';
import type { StoredFileInfo } from '../tools/tool';
import { resultText } from './result-text';

/**
 * A tool run's outcome as an MCP `tools/call` result. Failure: `isError`, the text "Error <code>:
 * <message>" and structuredContent `{error, message, ...details, refunded?, quota}`. Success:
 * `structuredContent` (every field), one `resource_link` per file and one short text (under
 * TEXT_MAX_BYTES whatever the number of files and notes, see resultText). The bytes are embedded
 * only when the call asked (`inline: true`) and the file is at most `inlineMaxBytes`.
 */
export function mcpResult(outcome: ToolOutcome, inlineMaxBytes: number): CallToolResult {
  return outcome.ok ? success(outcome, inlineMaxBytes) : failure(outcome);
}

function failure(f: ToolFailed): CallToolResult {
  return {
    isError: true,
    content: [{ type: 'text', text: `Error ${f.code}: ${f.message}` }],
    structuredContent: {
      error: f.code,
      message: f.message,
      ...f.details,
      ...(f.refunded === undefined ? {} : { refunded: f.refunded }),
      quota: f.quota,
    },
  };
}

/** A file's stored-file fields, in the order structuredContent shows them. */
function storedFields(f: StoredFileInfo): StoredFileInfo {
  return {
    file_id: f.file_id,
    download_url: f.download_url,
    expires_at: f.expires_at,
    filename: f.filename,
    bytes: f.bytes,
    pages: f.pages,
    sha256: f.sha256,
  };
}

/**
 * A reading tool's result (read_pdf): the summary (with the cursor to read on), the quota and the
 * note first, then the document's text (bounded by the call's character budget); structuredContent
 * has the fields without the text, so the text reaches the model once.
 */
function textResult(o: ToolSuccess): CallToolResult {
  const head = resultText({
    summary: o.summary,
    files: [],
    quota: `Quota: ${o.quota.remaining} of ${o.quota.limit} ${o.tool} calls left today.`,
    note: o.note,
  });
  return {
    content: [{ type: 'text', text: o.text ? `${head}\n\n${o.text}` : head }],
    structuredContent: { ...o.data, quota: o.quota },
  };
}

function success(o: ToolSuccess, limit: number): CallToolResult {
  if (o.shape === 'text') return textResult(o);
  const stored = o.files.map(storedFields);
  const quota = o.quota;
  let structured: Record<string, unknown>;
  if (o.shape === 'files')
    structured = { files: o.files.map((f, i) => ({ ...stored[i], ...f.extra })), ...o.data, quota };
  else
    structured = {
      ...o.data,
      ...(stored[0] ?? {}),
      ...(o.shape === 'optional-file' && stored[0] ? { changed: true } : {}),
      quota,
    };
  const tooBig = o.inline ? o.files.filter((f) => f.content.length > limit) : [];
  const remarks = tooBig.length
    ? [
        `Not embedded (inline): ${tooBig.map((s) => `${s.filename} is ${plural(s.bytes, 'byte')}`).join(', ')}, over the inline limit of ${plural(limit, 'byte')}; download ${tooBig.length === 1 ? 'it from its link' : 'them from their links'}.`,
      ]
    : [];
  if (remarks.length) structured.note = [structured.note, ...remarks].filter(Boolean).join(' ');
  const content: CallToolResult['content'] = [
    {
      type: 'text',
      text: resultText({
        summary: o.summary,
        files: stored,
        quota: `Quota: ${quota.remaining} of ${quota.limit} ${o.tool} calls left today.`,
        remarks,
        note: o.note,
      }),
    },
  ];
  o.files.forEach((s) => {
    content.push({
      type: 'resource_link',
      uri: s.download_url,
      name: s.filename,
      mimeType: 'application/pdf',
      description: `${plural(s.pages, 'page')}, ${plural(s.bytes, 'byte')}; file_id ${s.file_id}; available until ${s.expires_at}.`,
    });
    if (o.inline && s.content.length <= limit) {
      content.push({
        type: 'resource',
        resource: { uri: s.download_url, mimeType: 'application/pdf', blob: Buffer.from(s.content).toString('base64') },
      });
    }
  });
  return { content, structuredContent: structured };
}
