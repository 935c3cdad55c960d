/** A fixed-window rate limiter for the API, written the classic way. */
import type { Redis } from 'ioredis';
import { buildKey } from 'redis-ttl-runtime';

const WINDOW_SECONDS = 60;
export const LIMIT = 20;

/** Whether `apiKey` may make one more call in the current window. */
export async function allow(redis: Redis, apiKey: string): Promise<boolean> {
  const key = buildKey({ namespace: 'app', algorithm: 'fw', version: 'v1', identity: apiKey, scope: 'api' });
  // LEAK: INCR and EXPIRE are two round trips; a crash (or a lost reply) between them leaves the
  // counter without TTL, and the `=== 1` guard never runs again for that key
  const hits = await redis.incr(key);
  if (hits === 1) {
    await redis.expire(key, WINDOW_SECONDS);
  }
  return hits <= LIMIT;
}
