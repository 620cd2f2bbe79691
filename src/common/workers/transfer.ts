import { types } from 'node:util';
import Piscina from 'piscina';

/**
 * The ArrayBuffers behind `views` that can be moved to another thread instead of copied: each
 * once, and never one of Node's shared pool slabs (only buffers larger than a slab, whose views
 * are the only users). After the move the views are unusable in the sending thread.
 */
export function transferableBuffers(views: Iterable<Uint8Array>): ArrayBuffer[] {
  const out = new Set<ArrayBuffer>();
  for (const view of views) {
    const buffer = view.buffer;
    if (types.isArrayBuffer(buffer) && buffer.byteLength > Buffer.poolSize) out.add(buffer);
  }
  return [...out];
}

/** A worker's answer whose byte arrays move to the main thread (piscina transfer) instead of being copied. */
export function moving<T extends object>(value: T, views: Iterable<Uint8Array>): T {
  const buffers = transferableBuffers(views);
  if (!buffers.length) return value;
  const wrapped = { [Piscina.transferableSymbol]: buffers, [Piscina.valueSymbol]: value };
  return Piscina.move(wrapped as unknown as ArrayBuffer) as unknown as T;
}
