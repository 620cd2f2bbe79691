import { readFile, readdir, readlink } from 'node:fs/promises';
import { getPriority, setPriority } from 'node:os';

/**
 * Lowers the scheduling priority of the process's native helper threads (Linux): the libuv thread
 * pool and libvips's workers.
 *
 * Our worker threads are niced (`backgroundPool`), but part of their work does not run in
 * them: sharp queues image decoding and encoding on the libuv thread pool, and libvips runs it on
 * threads of its own. Both are created by whichever thread first needs them, usually the event
 * loop, so they run at its priority and compete with it for the cores. Measured during 20
 * concurrent compress calls: the four pool threads and six libvips threads did most of the PDF CPU
 * work at nice 0, the niced workers a small part.
 *
 * Pool threads are found by asking them: `readlink('/proc/thread-self')` runs on a pool thread and
 * names it. Many concurrent calls reach every idle thread; busy ones are found on a later call.
 * libvips threads are found by name. Nothing happens on other systems. The event loop's own file
 * and DNS work also runs on the libuv pool, so it runs at the lower priority too; it is I/O, not
 * CPU work, and never blocks the event loop.
 */
export class NativeThreadPriority {
  private readonly lowered = new Set<number>();
  /** Threads looked at by name, with how often (a new thread may not have named itself yet: twice). */
  private readonly looked = new Map<number, number>();
  /** libuv pool threads found so far. */
  private readonly poolThreads = new Set<number>();
  private running: Promise<void> | null = null;

  constructor(
    private readonly niceness: number,
    /** Size of the libuv pool (UV_THREADPOOL_SIZE, default 4): probing stops once all are found. */
    private readonly poolSize = Math.max(1, Number(process.env.UV_THREADPOOL_SIZE) || 4),
    private readonly probes = 32,
  ) {}

  /** Thread ids lowered so far. */
  get threads(): number[] {
    return [...this.lowered];
  }

  /**
   * Finds the helper threads not lowered yet and lowers them; never throws, never overlaps itself.
   * Cheap once every pool thread is known: one directory listing, and names of new threads only.
   */
  lower(): Promise<void> {
    if (process.platform !== 'linux' || this.niceness <= 0) return Promise.resolve();
    this.running ??= this.run()
      .catch(() => undefined)
      .finally(() => (this.running = null));
    return this.running;
  }

  private async run(): Promise<void> {
    const found = new Set<number>();
    if (this.poolThreads.size < this.poolSize) {
      const links = await Promise.allSettled(Array.from({ length: this.probes }, () => readlink('/proc/thread-self')));
      for (const link of links) {
        const tid = link.status === 'fulfilled' ? Number(/\/task\/(\d+)$/.exec(link.value)?.[1]) : NaN;
        if (tid && tid !== process.pid) {
          found.add(tid);
          this.poolThreads.add(tid);
        }
      }
    }
    const alive = new Set((await readdir('/proc/self/task')).map(Number));
    for (const known of [this.lowered, this.poolThreads, this.looked]) {
      for (const tid of known.keys()) if (!alive.has(tid)) known.delete(tid); // ended threads
    }
    for (const tid of alive) {
      const looks = this.looked.get(tid) ?? 0;
      if (this.lowered.has(tid) || found.has(tid) || looks >= 2) continue;
      this.looked.set(tid, looks + 1);
      const comm = await readFile(`/proc/self/task/${tid}/comm`, 'utf8').catch(() => '');
      if (comm.startsWith('libvips')) found.add(tid);
    }
    for (const tid of found) {
      if (this.lowered.has(tid)) continue;
      try {
        // On Linux a thread id names one thread here: setpriority(PRIO_PROCESS, tid) is per thread.
        if (getPriority(tid) < this.niceness) setPriority(tid, this.niceness);
        this.lowered.add(tid);
      } catch {
        // the thread ended meanwhile
      }
    }
  }
}
