/**
 * Groups of key effects ({@link KeyEffect}, `command-description.ts`) that the rules and the Lua
 * analyzer ask about: which effects write a key, write it without a TTL, keep, clear or set its
 * TTL, or delete it; and {@link movedTo}, the key a RENAME moves its source to. What each effect
 * does is {@link KeyEffect}'s, with its redis.io pages; a group that rests on a further page (EXPIRE
 * on what keeps a TTL, DEL, RENAME) cites it. Imported through `commands.ts`.
 */

import type { CommandDescription, KeyEffect } from './command-description.js';

/** Effects that can leave a key without TTL: the key may be created without one or lose it. */
export const EFFECTS_THAT_CAN_LEAVE_NO_TTL: ReadonlySet<KeyEffect> = new Set<KeyEffect>([
  'create-in-place',
  'create-if-missing',
  'overwrite',
  'clear-ttl-if-present',
  'keep-ttl',
  'remove-ttl',
]);

/**
 * Effects that write the key: every effect but reads, deletions and expiries of an existing key
 * (what a key inventory lists as a write site with a TTL status).
 */
export const WRITE_EFFECTS: ReadonlySet<KeyEffect> = new Set<KeyEffect>([
  'create-in-place',
  'create-if-missing',
  'overwrite',
  'clear-ttl-if-present',
  'transfer-ttl',
  'create-with-ttl',
  'create-if-missing-with-ttl',
  'keep-ttl',
  'remove-ttl',
  'create-with-field-ttl',
]);

/**
 * Effects that write the key without a TTL of the command's own (a new key, or an overwrite that
 * clears the old TTL): the key lives forever unless something expires it. `keep-ttl` and
 * `remove-ttl` are not here: the first keeps whatever TTL there was, the second removes it on purpose.
 */
export const EFFECTS_THAT_WRITE_WITHOUT_TTL: ReadonlySet<KeyEffect> = new Set<KeyEffect>([
  'create-in-place',
  'create-if-missing',
  'overwrite',
  'clear-ttl-if-present',
]);

/**
 * Effects that delete the whole key, whatever its type: DEL, UNLINK, GETDEL
 * (https://redis.io/docs/latest/commands/del/), an EXPIRE with a literal timeout <= 0. Not HDEL,
 * SREM, ZREM, LREM ..., which remove members (`mayDelete`: the key goes only with its last one).
 */
export const EFFECTS_THAT_DELETE_KEY: ReadonlySet<KeyEffect> = new Set<KeyEffect>(['delete']);

/**
 * The argument index of the key the source key at `arg` is moved to, when the command moves the
 * whole key: RENAME / RENAMENX key newkey ("Renames key to newkey", https://redis.io/docs/latest/commands/rename/,
 * https://redis.io/docs/latest/commands/renamenx/): the source key is gone afterwards, but its
 * value, and its TTL or lack of one, live on under the destination. `undefined` for any other
 * action: a DEL, which ends the value; COPY, whose source stays.
 */
export function movedTo(description: Pick<CommandDescription, 'keys'>, arg: number): number | undefined {
  const source = description.keys.find((key) => key.arg === arg);
  if (!source || !EFFECTS_THAT_DELETE_KEY.has(source.effect)) return undefined;
  return description.keys.find((key) => key.effect === 'transfer-ttl' && key.sourceArg === arg)?.arg;
}

/**
 * Effects after which an existing key still has the TTL it had: `create-in-place` (HSET, HINCRBY,
 * SADD, LPUSH ... on an existing key) and `modify-if-present` (LPUSHX, ZADD XX ...): only the
 * value changes (https://redis.io/docs/latest/commands/expire/: "The timeout will only be cleared
 * by commands that delete or overwrite the contents of the key, including DEL, SET, GETSET and all
 * the *STORE commands ... all the operations that conceptually alter the value stored at the key
 * without replacing it with a new one will leave the timeout untouched"). Not `overwrite` (SET,
 * GETSET, the STORE commands), `clear-ttl-if-present` (SET ... XX) nor `remove-ttl` (PERSIST).
 */
export const EFFECTS_THAT_KEEP_TTL: ReadonlySet<KeyEffect> = new Set<KeyEffect>(['create-in-place', 'modify-if-present']);

/** Effects that leave an existing key without the TTL it had: SET, GETSET, the STOREs, SET ... XX, PERSIST. */
export const EFFECTS_THAT_CLEAR_TTL: ReadonlySet<KeyEffect> = new Set<KeyEffect>(['overwrite', 'clear-ttl-if-present', 'remove-ttl']);

/** Effects after which the key certainly has a TTL if it exists. */
export const EFFECTS_THAT_SET_TTL: ReadonlySet<KeyEffect> = new Set<KeyEffect>([
  'create-with-ttl',
  'set-ttl',
]);

/**
 * Effects that give a key a TTL (also when only an existing TTL is changed): {@link EFFECTS_THAT_SET_TTL},
 * SET ... NX EX (`create-if-missing-with-ttl`) and EXPIRE ... XX / GT (`set-ttl-if-has-ttl`).
 */
export const EXPIRY_EFFECTS: ReadonlySet<KeyEffect> = new Set<KeyEffect>([...EFFECTS_THAT_SET_TTL, 'create-if-missing-with-ttl', 'set-ttl-if-has-ttl']);

/**
 * Effects that give a key that already exists a TTL, without writing it: EXPIRE, PEXPIRE,
 * EXPIREAT, PEXPIREAT (`set-ttl`) and their XX / GT forms (`set-ttl-if-has-ttl`); a sliding TTL is
 * refreshed this way (https://redis.io/docs/latest/commands/expire/).
 */
export const EFFECTS_THAT_EXPIRE_EXISTING_KEY: ReadonlySet<KeyEffect> = new Set<KeyEffect>(['set-ttl', 'set-ttl-if-has-ttl']);
