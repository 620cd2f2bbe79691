/** One progress notification's fields (MCP `notifications/progress`) (the token is added by whoever sends it). */
export interface ProgressUpdate {
  progress: number;
  total?: number;
  message?: string;
}

/** Sends a progress notification to the client (MCP `notifications/progress` for the call's token). */
export type ProgressSink = (update: ProgressUpdate) => Promise<void>;

/**
 * The progress of one tool call, in percent of the whole call (total 100), for a client that gave a
 * `progressToken`. Phases (download, processing, storing) each own a span of the percentage, so the
 * value only grows; a notification goes out only when the whole percent grows (at most 101 per
 * call). Without a sink every method is a no-op. A failing send never fails the call.
 */
export class CallProgress {
  private last = -1;

  constructor(private readonly sink?: ProgressSink) {}

  get enabled(): boolean {
    return this.sink !== undefined;
  }

  /** Reports `percent` of the whole call (ignored unless it grows by a whole percent). */
  report(percent: number, message: string): void {
    if (!this.sink) return;
    const p = Math.floor(Math.max(0, Math.min(100, percent)));
    if (p <= this.last) return;
    this.last = p;
    this.sink({ progress: p, total: 100, message }).catch(() => undefined);
  }

  /** A reporter for one phase spanning [from, to] percent: `done` of `total` steps of it. */
  span(from: number, to: number): (done: number, total: number, message: string) => void {
    return (done, total, message) =>
      this.report(from + (to - from) * (total > 0 ? Math.min(1, done / total) : 0), message);
  }
}
