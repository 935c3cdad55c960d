/** Billable seconds per account, added on every request and collected periodically. */
import type { Redis } from 'ioredis';

const USAGE_TTL_SECONDS = 3600;

function usageKey(account: string): string {
  return `billing:{${account}}:seconds`;
}

/** Adds `seconds` to the account's pending usage and returns the new total. */
export async function recordUsage(redis: Redis, account: string, seconds: number): Promise<number> {
  const key = usageKey(account);
  // LEAK: the expiry is a second round trip
  const total = await redis.incrby(key, seconds);
  await redis.expire(key, USAGE_TTL_SECONDS);
  return total;
}

/** Takes the account's pending usage and resets it to zero. */
export async function collectUsage(redis: Redis, account: string): Promise<number> {
  // LEAK: GETSET drops the key's TTL, and creates '0' without TTL when the key is missing
  const pending = await redis.getset(usageKey(account), '0');
  return Number(pending ?? 0);
}
