import { readFileSync, readdirSync } from 'node:fs';
import { getPriority } from 'node:os';
import sharp from 'sharp';
import { NativeThreadPriority } from './native-threads';

const linux = process.platform === 'linux';

/** Thread ids of this process whose name starts with `prefix`. */
function threadsNamed(prefix: string): number[] {
  return readdirSync('/proc/self/task')
    .filter((tid) => readFileSync(`/proc/self/task/${tid}/comm`, 'utf8').startsWith(prefix))
    .map(Number);
}

(linux ? describe : describe.skip)('NativeThreadPriority (Linux)', () => {
  it('lowers the libuv pool and libvips threads, never the event loop', async () => {
    const eventLoop = getPriority(process.pid);
    // Image work as the PDF tools do it: libvips threads appear, work runs on the libuv pool.
    await sharp({ create: { width: 64, height: 64, channels: 3, background: '#808080' } })
      .jpeg()
      .toBuffer();
    const vips = threadsNamed('libvips');
    expect(vips.length).toBeGreaterThan(0);

    // Lower than the app's niceness (10), so that threads an earlier test file in this jest
    // worker lowered already are changed again.
    const priority = new NativeThreadPriority(eventLoop + 12);
    await priority.lower();

    expect(priority.threads).not.toContain(process.pid);
    expect(getPriority(process.pid)).toBe(eventLoop);
    const pool = priority.threads.filter((tid) => !vips.includes(tid));
    expect(pool.length).toBeGreaterThan(0); // found by asking the pool threads who they are
    for (const tid of priority.threads) expect(getPriority(tid)).toBe(eventLoop + 12);
    for (const tid of vips) expect(priority.threads).toContain(tid);
  });

  it('runs once at a time and never raises a thread already lower', async () => {
    const base = getPriority(process.pid);
    const first = new NativeThreadPriority(base + 13);
    await first.lower();
    expect(first.threads.length).toBeGreaterThan(0);
    const again = new NativeThreadPriority(base + 2);
    const [a, b] = [again.lower(), again.lower()];
    expect(a).toBe(b);
    await a;
    for (const tid of again.threads) expect(getPriority(tid)).toBeGreaterThanOrEqual(base + 2);
    for (const tid of first.threads) expect(getPriority(tid)).toBe(base + 13); // not raised back
  });
});
