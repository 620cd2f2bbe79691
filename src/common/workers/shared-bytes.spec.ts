import { concatShared, isShared, privateCopy, sharedBytes, toShared } from './shared-bytes';

describe('shared bytes', () => {
  it('puts bytes in shared memory once, and gives a worker its own copy', () => {
    const plain = Buffer.from('%PDF-1.7 some bytes');
    const shared = toShared(plain);
    expect(isShared(shared)).toBe(true);
    expect(shared.equals(plain)).toBe(true);
    expect(toShared(shared.subarray(2)).buffer).toBe(shared.buffer); // already shared: no copy
    const own = privateCopy(shared);
    expect(isShared(own)).toBe(false);
    own[0] = 0;
    expect(shared[0]).toBe(0x25); // the copy is the worker's own
    expect(privateCopy(plain)).toBe(plain);
  });

  it('joins chunks into shared memory', () => {
    const joined = concatShared([Buffer.from('ab'), Buffer.from('cde')], 5);
    expect(isShared(joined)).toBe(true);
    expect(joined.toString()).toBe('abcde');
    expect(sharedBytes(3)).toEqual(Buffer.alloc(3));
  });
});
