import { MemoCache } from './memo-cache';

describe('MemoCache', () => {
  it('loads once per key and evicts the least recently used beyond its bound', async () => {
    const c = new MemoCache<number>(2);
    let loads = 0;
    const load = (v: number) => async () => {
      loads++;
      return v;
    };
    expect(await c.get('a', load(1))).toBe(1);
    expect(await c.get('a', load(9))).toBe(1);
    await c.get('b', load(2));
    await c.get('a', load(9)); // a is now the most recent
    await c.get('c', load(3)); // evicts b
    expect(c.size).toBe(2);
    expect(await c.get('b', load(4))).toBe(4);
    expect(await c.get('c', load(9))).toBe(3);
    expect(loads).toBe(4);
  });
});
