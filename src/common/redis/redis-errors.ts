/**
 * Errors of ioredis that mean "Redis is not reachable right now" (not a bad command): a command sent
 * while disconnected (no offline queue), a command past REDIS_COMMAND_TIMEOUT_MS, a connection
 * closed under it, retries exhausted. A request that meets one is answered 503
 * service_unavailable with Retry-After, never 500; features that can do without Redis use
 * RedisService.orFallback instead and never see these.
 */
const UNAVAILABLE_MESSAGES = [
  /^Stream isn't writeable and enableOfflineQueue options is false/,
  /^Command timed out$/,
  /^Connection is closed\.?$/,
  /^Reached the max retries per request limit/,
];

/** Seconds a client is told to wait when a request needed Redis and it was not reachable. */
export const REDIS_RETRY_AFTER_S = 2;

export function isRedisUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  return error.name === 'MaxRetriesPerRequestError' || UNAVAILABLE_MESSAGES.some((m) => m.test(error.message));
}
