/**
 * What a read command replies when its key does not exist: the value a client hands back in place
 * of a reply that would say the key is there. A branch the code cannot take with that reply runs
 * only when the key existed at the time of the read (and, in a later round trip, may be gone by
 * then: an expiry in between).
 *
 * - `null` (nil): GET, HGET, ZSCORE, LINDEX, ZRANK / ZREVRANK, JSON.GET
 *   (https://redis.io/docs/latest/commands/get/, .../hget/, .../zscore/, .../lindex/, .../zrank/).
 * - `0`: EXISTS ("the number of keys that exist"), HLEN / SCARD / LLEN / ZCARD / XLEN / STRLEN /
 *   HSTRLEN / ZCOUNT / ZLEXCOUNT / PFCOUNT / BITCOUNT (a missing key counts as empty),
 *   HEXISTS / SISMEMBER (0: "the key does not exist"). An existing key can reply 0 too (an empty
 *   string's STRLEN, a ZCOUNT range with no member, a stream trimmed to nothing): only the
 *   other way round is used, a branch that 0 cannot take runs on an existing key.
 *   node-redis hands HEXISTS / SISMEMBER back as `false`, the same falsy reply.
 * - `-2`: TTL, PTTL, EXPIRETIME, PEXPIRETIME ("-2 if the key does not exist",
 *   https://redis.io/docs/latest/commands/ttl/).
 *
 * A read whose missing reply is no scalar (HGETALL's `{}`, LRANGE's `[]`, MGET) is not listed:
 * the code tests it in ways a scalar cannot stand for.
 */
export const MISSING_KEY_REPLY: ReadonlyMap<string, null | number> = new Map<string, null | number>([
  ...['GET', 'HGET', 'ZSCORE', 'LINDEX', 'ZRANK', 'ZREVRANK', 'JSON.GET'].map((c): [string, null] => [c, null]),
  ...['EXISTS', 'HLEN', 'SCARD', 'LLEN', 'ZCARD', 'XLEN', 'STRLEN', 'HSTRLEN', 'ZCOUNT', 'ZLEXCOUNT', 'PFCOUNT', 'BITCOUNT', 'HEXISTS', 'SISMEMBER'].map(
    (c): [string, number] => [c, 0],
  ),
  ...['TTL', 'PTTL', 'EXPIRETIME', 'PEXPIRETIME'].map((c): [string, number] => [c, -2]),
]);

/**
 * Every reply a read may hand back for a missing key, one per client family: the scalar of
 * {@link MISSING_KEY_REPLY}, or for HGETALL an empty object (ioredis and node-redis turn the empty
 * array reply into `{}`) or `null` (@upstash/redis hands back `null` for a missing hash). Reads
 * whose reply is a list (LRANGE, SMEMBERS, ZRANGE) are not listed. Code that stops on a missing key
 * must stop on each of them: `if (!data) return` lets node-redis's `{}` through, `if (!data ||
 * Object.keys(data).length === 0) return` stops on both
 * (https://redis.io/docs/latest/commands/hgetall/: "empty list when key does not exist").
 */
export function missingKeyReplies(command: string): readonly unknown[] | undefined {
  if (MISSING_KEY_REPLY.has(command)) return [MISSING_KEY_REPLY.get(command)];
  if (command === 'HGETALL') return [{}, null];
  return undefined;
}
