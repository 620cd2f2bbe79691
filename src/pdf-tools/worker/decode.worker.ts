/**
 * Entry of the base64 decoding thread (a small piscina pool of its own, beside the PDF workers):
 * decodes and size-checks the base64 arguments of a call before its quota is reserved, so the
 * event loop never runs a decoder or a regex over megabytes of text, and decoding never waits
 * behind a PDF run. The bytes move back to the main thread (transferred, not copied).
 */
import { decodeBase64 } from '../core/base64';
import { ToolFailure } from '../core/tool-failure';
import { moving } from '../../common/workers/transfer';

/** Base64 arguments to decode and size-check (`keep: false`: check only, e.g. a watermark image). */
export interface DecodeTask {
  items: { label: string; base64: string; keep: boolean }[];
  maxBytes: number;
}

/** Per item, in order: its bytes (when kept) or the {@link ToolFailure} of decodeBase64. */
export type DecodeResult = (
  | { ok: true; bytes?: Uint8Array }
  | { ok: false; code: ToolFailure['code']; message: string; details: Record<string, unknown> }
)[];

/** Decodes every item like `decodeBase64` (same checks, same errors), as values. */
export function decodeAll(task: DecodeTask): DecodeResult {
  return task.items.map(({ label, base64, keep }) => {
    try {
      const bytes = decodeBase64(base64, label, task.maxBytes);
      return keep ? { ok: true, bytes } : { ok: true };
    } catch (e) {
      if (e instanceof ToolFailure) return { ok: false, code: e.code, message: e.message, details: e.details };
      throw e;
    }
  });
}

export default function decodeInputs(task: DecodeTask): DecodeResult {
  const result = decodeAll(task);
  return moving(
    result,
    result.flatMap((r) => (r.ok && r.bytes ? [r.bytes] : [])),
  );
}
