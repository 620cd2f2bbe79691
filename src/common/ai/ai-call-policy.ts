import { AiProviderError, PLATFORM_NAMES } from './ai-provider-error';
import type { AiAnswer, AiAskRequest, AiPlatform, AiProvider } from './ai.types';
import { fromSdkError } from './sdk-errors';

export interface AiCallPolicyOptions {
  /** Calls in flight per platform. */
  concurrency: number;
  /** Further attempts after a retryable failure (429, 5xx, timeout, unreachable). */
  maxRetries: number;
  /** First backoff without Retry-After; doubled each attempt, with jitter (50-100 %). */
  retryBaseMs: number;
  /** Longest wait before a retry; a platform asking for longer fails the call at once. */
  retryMaxMs: number;
  /** Time limit of one attempt. */
  timeoutMs: number;
}

/** A counting semaphore, first come first served. */
class Slots {
  private used = 0;
  private readonly waiting: Array<() => void> = [];
  /** A platform's Retry-After holds every call to it, not only the one that got the 429. */
  pausedUntil = 0;

  constructor(private readonly size: number) {}

  async acquire(): Promise<void> {
    if (this.used < this.size) {
      this.used++;
      return;
    }
    await new Promise<void>((resolve) => this.waiting.push(resolve));
  }

  release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.used--;
  }
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const done = (): void => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    };
    const timer = setTimeout(done, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(new AiProviderError('ai_timeout', 'The call was cancelled.'));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * How every call to an AI platform is made: at most `concurrency` in flight per platform (on this
 * instance), each attempt bounded by `timeoutMs`, retryable failures (429, 5xx, timeouts,
 * unreachable) tried again after the platform's Retry-After or an exponential backoff with
 * jitter, at most `maxRetries` times. A bad key, a malformed answer or a cancelled call are not
 * retried. The error of the last attempt is what the caller gets.
 */
export class AiCallPolicy {
  private readonly slots = new Map<AiPlatform, Slots>();

  constructor(private readonly options: AiCallPolicyOptions) {}

  /** The provider with this policy around every `ask`. */
  wrap(provider: AiProvider): AiProvider {
    return { platform: provider.platform, ask: (req) => this.run(provider, req) };
  }

  async run(provider: AiProvider, req: AiAskRequest): Promise<AiAnswer> {
    const { platform } = provider;
    const slots = this.slotsOf(platform);
    for (let attempt = 0; ; attempt++) {
      await sleep(slots.pausedUntil - Date.now(), req.signal);
      await slots.acquire();
      let failure: AiProviderError;
      try {
        return await this.attempt(provider, req);
      } catch (e) {
        failure = e as AiProviderError;
      } finally {
        slots.release();
      }
      if (req.signal?.aborted || !failure.retryable || attempt >= this.options.maxRetries) throw failure;
      const asked = failure.retryAfterMs;
      if (asked !== undefined && asked > this.options.retryMaxMs) {
        throw new AiProviderError(
          failure.code,
          `${failure.message} It asks to wait ${Math.ceil(asked / 1000)} s, longer than Beacon waits (AI_RETRY_MAX_MS).`,
          failure.details,
        );
      }
      const backoff = Math.min(
        this.options.retryMaxMs,
        this.options.retryBaseMs * 2 ** attempt * (0.5 + Math.random() / 2),
      );
      const wait = asked ?? backoff;
      if (asked !== undefined) slots.pausedUntil = Math.max(slots.pausedUntil, Date.now() + asked);
      await sleep(wait, req.signal);
    }
  }

  private async attempt(provider: AiProvider, req: AiAskRequest): Promise<AiAnswer> {
    const timeout = AbortSignal.timeout(this.options.timeoutMs);
    const signal = req.signal ? AbortSignal.any([req.signal, timeout]) : timeout;
    try {
      return await provider.ask({ ...req, signal });
    } catch (e) {
      if (timeout.aborted && !req.signal?.aborted) {
        const name = PLATFORM_NAMES[provider.platform];
        throw new AiProviderError(
          'ai_timeout',
          `${name} did not answer within ${Math.round(this.options.timeoutMs / 100) / 10} s.`,
          {
            platform: provider.platform,
          },
        );
      }
      throw fromSdkError(provider.platform, e);
    }
  }

  private slotsOf(platform: AiPlatform): Slots {
    let s = this.slots.get(platform);
    if (!s) this.slots.set(platform, (s = new Slots(this.options.concurrency)));
    return s;
  }
}
