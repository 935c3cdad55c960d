/**
 * Commands that delete every key at once, and the glob patterns that list every key: what
 * `redis-calls/scheduled-flush.ts` reads as a wipe of the whole keyspace.
 */

/**
 * Commands that delete every key without naming one, and what they delete:
 * - FLUSHDB, "Delete all the keys of the currently selected DB"
 *   (https://redis.io/docs/latest/commands/flushdb/): `'database'`, the database the connection
 *   selected (SELECT, the client's `db` option);
 * - FLUSHALL, "Delete all the keys of all the existing databases, not just the currently selected
 *   one" (https://redis.io/docs/latest/commands/flushall/): `'all'`, whatever database a write
 *   went to.
 */
export const KEYSPACE_WIPES: Readonly<Record<string, 'database' | 'all'>> = {
  FLUSHDB: 'database',
  FLUSHALL: 'all',
};

/**
 * Whether `arg` is an argument FLUSHDB / FLUSHALL take: the mode `ASYNC` or `SYNC`, in any case
 * (https://redis.io/docs/latest/commands/flushdb/, https://redis.io/docs/latest/commands/flushall/:
 * `FLUSHDB [ASYNC | SYNC]`). A method of that name given anything else (a queue's
 * `flushAll(error)`) sends no such command.
 */
export function isWipeMode(arg: string): boolean {
  return /^(?:a?sync)$/i.test(arg);
}

/**
 * Whether a KEYS / SCAN ... MATCH glob pattern matches every key: made of `*` only. In Redis' glob
 * `*` matches any run of characters, the empty one included (https://redis.io/docs/latest/commands/keys/:
 * "h*llo matches hllo and heeeello"), so `*` (and `**`) matches every key of the database, as does
 * a SCAN without MATCH (https://redis.io/docs/latest/commands/scan/: the pattern is optional, and
 * every element is returned without it).
 */
export function matchesEveryKey(pattern: string): boolean {
  return /^\*+$/.test(pattern);
}
