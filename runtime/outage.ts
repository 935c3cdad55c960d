/**
 * The outage policy: what a limiter answers when Redis does not.
 *
 * Every limiter call races the Redis round trip against a timer of `timeoutMs`. Racing (rather
 * than reconfiguring the client) is deliberate: the client belongs to the application, and with
 * ioredis' defaults (`enableOfflineQueue: true`, `maxRetriesPerRequest: 20`) a command issued while
 * disconnected waits in the offline queue for as long as reconnection takes. The timer bounds
 * every call whatever the client's settings. The abandoned command is not cancelled: if it
 * reaches Redis later it still runs (an admission may be recorded that the caller never saw).
 * Creating the client with `enableOfflineQueue: false` makes such calls fail at once instead of
 * queueing (https://github.com/redis/ioredis#offline-queue), which also keeps the queue from
 * growing during an outage.
 *
 * @internal
 */

/** Where a limiter's answer came from when it is not Redis'. */
export type OutageReason = 'redis-unavailable';

/** `'fail-closed'`: deny while Redis is unavailable. `'fail-open'`: allow. */
export type OutagePolicy = 'fail-closed' | 'fail-open';

class Timeout extends Error {
  constructor(ms: number) {
    super(`Redis did not answer within ${ms} ms`);
    this.name = 'RedisTtlTimeout';
  }
}

/** Server error replies that mean "this node can not serve right now", not "your call is wrong". */
const UNAVAILABLE_REPLY = /^(CLUSTERDOWN|LOADING|MASTERDOWN|TRYAGAIN|BUSY|READONLY|NOREPLICAS)\b/;

/**
 * Decides whether `error` means Redis is unavailable (connection refused or closed, offline
 * queue disabled, retries exhausted, timeout, cluster down, loading) as opposed to a reply that
 * reports a bug (WRONGTYPE, a script's validation error), which must surface to the caller.
 */
export function isUnavailable(error: unknown): boolean {
  if (error instanceof Timeout) return true;
  if (!(error instanceof Error)) return false;
  if (error.name === 'ReplyError') return UNAVAILABLE_REPLY.test(error.message);
  return true;
}

/**
 * Resolves with `{ ok: true, value }` when `promise` settles in time, `{ ok: false }` when it
 * times out after `timeoutMs` ms or rejects with an unavailability error (see
 * {@link isUnavailable}); rethrows any other rejection.
 */
export async function withDeadline<T>(
  start: () => Promise<T>,
  timeoutMs: number,
): Promise<{ ok: true; value: T } | { ok: false; error: unknown }> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Timeout(timeoutMs)), timeoutMs);
  });
  let pending: Promise<T> | undefined;
  try {
    pending = start();
    return { ok: true, value: await Promise.race([pending, deadline]) };
  } catch (error) {
    // the abandoned command may still reject later; nobody is waiting for it any more
    pending?.catch(() => undefined);
    if (isUnavailable(error)) return { ok: false, error };
    throw error;
  } finally {
    clearTimeout(timer);
  }
}
