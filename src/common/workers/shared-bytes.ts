import { types } from 'node:util';

/**
 * Bytes in shared memory (a SharedArrayBuffer): handed to a worker thread, they are shared, not
 * copied by the event loop nor moved away from it. Used for the bytes of stored PDF files, which the
 * event loop keeps (to store, cache and serve them) while a PDF worker reads them. Shared bytes are
 * read-only by contract: nobody writes into them once filled; a worker reads its own copy of them
 * ({@link privateCopy}), so what a tool does with its input can never change a stored file.
 *
 * Why: on the machines measured (docs/benchmarks.md) copying megabytes into fresh memory costs
 * 1 ms per MB on the thread that does it, page faults included; on the event loop, one such copy
 * per upload or call delays every other request behind it.
 */
export function isShared(view: Uint8Array): boolean {
  return types.isSharedArrayBuffer(view.buffer);
}

/** A zero-filled Buffer of `size` bytes in shared memory (its pages are touched only when written). */
export function sharedBytes(size: number): Buffer {
  return Buffer.from(new SharedArrayBuffer(size));
}

/** `view` as a Buffer in shared memory: itself when it already is, else a copy. */
export function toShared(view: Uint8Array): Buffer {
  if (isShared(view)) return Buffer.from(view.buffer, view.byteOffset, view.byteLength);
  const out = sharedBytes(view.byteLength);
  out.set(view);
  return out;
}

/** `chunks` (of `size` bytes in all) joined into one Buffer in shared memory. */
export function concatShared(chunks: readonly Uint8Array[], size: number): Buffer {
  const out = sharedBytes(size);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.byteLength;
  }
  return out;
}

/** A copy of shared bytes in this thread's own memory (a worker's input); other bytes as they are. */
export function privateCopy(view: Uint8Array): Uint8Array {
  return isShared(view) ? new Uint8Array(view) : view;
}
