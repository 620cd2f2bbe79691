import { JsonBytes } from './json-bytes';

async function read(b: JsonBytes): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const c of b.stream()) parts.push(c as Buffer);
  return Buffer.concat(parts);
}

describe('JsonBytes', () => {
  it('writes strings as UTF-8 across chunk boundaries (multi-byte characters and surrogate pairs whole)', async () => {
    const strings: string[] = [];
    // 40,000 short strings of 1-4 bytes per character: several 64 KB chunks, each boundary met by another string.
    for (let i = 0; i < 40_000; i++) strings.push(['a"b', 'é', '漢字', '😀', 'x'.repeat(i % 50)][i % 5] + String(i));
    strings.push('y'.repeat(200_000)); // longer than a chunk
    strings.push('end');
    const b = new JsonBytes();
    for (const s of strings) b.write(s);
    const expected = Buffer.from(strings.join(''));
    expect(b.length).toBe(expected.length);
    expect(b.chunks().length).toBeGreaterThan(5);
    expect(Buffer.concat(b.chunks()).equals(expected)).toBe(true);
    expect((await read(b)).equals(expected)).toBe(true);
    expect(b.toString()).toBe(strings.join(''));
  });

  it('appends the chunks of another without copying them, then writes on', () => {
    const inner = new JsonBytes().write('[1,').write('"é"]');
    const outer = new JsonBytes().write('{"a":').append(inner).write(',"b":null}');
    expect(outer.toString()).toBe('{"a":[1,"é"],"b":null}');
    expect(outer.length).toBe(Buffer.byteLength('{"a":[1,"é"],"b":null}'));
    expect(outer.chunks().map((c) => c.buffer)).toContain(inner.chunks()[0].buffer);
  });

  it('is empty until written', async () => {
    const b = new JsonBytes();
    expect(b.length).toBe(0);
    expect(b.chunks()).toEqual([]);
    expect((await read(b)).length).toBe(0);
    expect(new JsonBytes().append(b).write('').toString()).toBe('');
  });

  it('gives its 64 KB chunks back on release: the next body writes into them, a larger one is not kept', () => {
    const inner = new JsonBytes();
    for (let i = 0; i < 70; i++) inner.write('x'.repeat(1000)); // two chunks of its own
    const outer = new JsonBytes().write('[').append(inner).write(']'); // and two more
    const big = new JsonBytes().write('y'.repeat(200_000)); // one buffer of its size
    const bigBuffer = big.chunks()[0].buffer;
    const used = new Set([...outer.chunks(), ...big.chunks()].map((c) => c.buffer));
    expect(used.size).toBe(5);
    outer.release(); // the appended chunks are the outer body's to give back
    big.release();
    expect(outer.length).toBe(0);
    const next = Array.from({ length: 5 }, () => new JsonBytes().write('z'));
    const reused = next.map((b) => b.chunks()[0].buffer).filter((a) => used.has(a));
    expect(reused).toHaveLength(4);
    expect(reused).not.toContain(bigBuffer);
    expect(next.map((b) => b.toString())).toEqual(['z', 'z', 'z', 'z', 'z']);
    for (const b of next) b.release();
  });
});
