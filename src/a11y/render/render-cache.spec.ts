import { RenderCache } from './render-cache';

describe('RenderCache', () => {
  const buf = (n: number) => Buffer.alloc(n);

  it('renders once per key and answers from memory after', async () => {
    const c = new RenderCache(1000);
    let renders = 0;
    const render = async () => (renders++, buf(10));
    await c.get('a', 100, 0, render);
    await c.get('a', 100, 50, render);
    expect(renders).toBe(1);
    await c.get('a', 100, 100, render); // the report expired
    expect(renders).toBe(2);
  });

  it('stays within its byte bound, least recently used out first', async () => {
    const c = new RenderCache(100);
    await c.get('a', 1e9, 0, async () => buf(40));
    await c.get('b', 1e9, 0, async () => buf(40));
    await c.get('a', 1e9, 0, async () => buf(40)); // a is now the most recent
    await c.get('c', 1e9, 0, async () => buf(40));
    expect(c.size).toEqual({ entries: 2, bytes: 80 });
    let rendered = false;
    await c.get('a', 1e9, 0, async () => ((rendered = true), buf(40)));
    expect(rendered).toBe(false);
    await c.get('huge', 1e9, 0, async () => buf(500)); // larger than the bound: served, not kept
    expect(c.size.bytes).toBeLessThanOrEqual(100);
  });
});
