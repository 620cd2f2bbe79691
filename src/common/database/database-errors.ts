/**
 * Errors that mean "the database is not reachable right now" (as opposed to a bad query): the
 * server shut down or restarted (admin_shutdown 57P01, crash_shutdown 57P02, cannot_connect_now
 * 57P03), any connection exception (class 08), a refused, reset or timed-out connection, or a
 * connection the driver saw end. Such a request is answered 503 service_unavailable with
 * Retry-After instead of 500; a transaction on the lost connection was rolled back by the server.
 */
const UNAVAILABLE_SQLSTATES = new Set(['57P01', '57P02', '57P03']);
const UNAVAILABLE_ERRNOS = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);
const UNAVAILABLE_MESSAGES = [
  /Connection terminated/i, // node-postgres: "Connection terminated unexpectedly" / "due to connection timeout"
  /timeout exceeded when trying to connect/i, // pg-pool connectionTimeoutMillis
  /Client has encountered a connection error and is not queryable/i,
  /the database system is (starting up|shutting down|in recovery mode)/i,
  /terminating connection due to administrator command/i,
];

/** Seconds a client is told to wait when the database is not reachable. */
export const DATABASE_RETRY_AFTER_S = 5;

interface MaybeDbError {
  code?: unknown;
  message?: unknown;
  driverError?: unknown;
  cause?: unknown;
}

/** True when `error` (a pg error, a TypeORM wrapper of one, or a socket error) means the database is unreachable. */
export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (!error || typeof error !== 'object' || depth > 3) return false;
  const e = error as MaybeDbError;
  if (typeof e.code === 'string') {
    if (UNAVAILABLE_SQLSTATES.has(e.code) || /^08[0-9A-Z]{3}$/.test(e.code) || UNAVAILABLE_ERRNOS.has(e.code))
      return true;
  }
  if (typeof e.message === 'string' && UNAVAILABLE_MESSAGES.some((m) => m.test(e.message as string))) return true;
  return isDatabaseUnavailable(e.driverError, depth + 1) || isDatabaseUnavailable(e.cause, depth + 1);
}
