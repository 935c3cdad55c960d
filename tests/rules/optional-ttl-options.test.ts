/**
 * "No-TTL arm of a caller-chosen TTL" (redis-calls/optional-ttl.ts), round 20: the shapes of the
 * eighteenth validation set's false findings. layered-loader's `setMany`: `if
 * (this.config.ttlInMsecs) { ...push(['set', k, v, 'PX', this.config.ttlInMsecs]); return
 * multi(setCommands).exec(); } ... mset(pairs)`: an MSET (a command without TTL syntax) on the arm
 * taken only when the configured TTL is absent, the other arm handing that TTL on (an array element
 * or a call argument), in a way the analyzer cannot read as an expiring write. @effect/experimental's
 * `ttl._tag === "None" ? set(k, v) : set(k, v, "PX", Duration.toMillis(ttl.value))`, and the Option
 * helpers: `Option.isNone(ttl)`, `Option.isSome(ttl)`, `Option.match(ttl, { onNone: () => set(k, v),
 * onSome: (d) => set(k, v, 'PX', d) })`. Near misses stay reported: a plain SET beside an arm that
 * only hands the TTL on (SET has TTL syntax: the arm must write the key with it), an MSET beside an
 * arm that never hands on the TTL it tests or beside a TTL the function computes itself, an MSET on the arm taken when the TTL is given, an
 * `onSome` that writes another key, an `onNone` of a callee not named `match`, and `strict`.
 */
import { describe, expect, it } from 'vitest';
import { lintKeyRules, STRICT_KEY_POLICY } from '../helpers/lint.js';
import { ioredis } from './tester.js';

const lint = lintKeyRules;
const SET = 'redis-ttl/set-requires-ttl-or-keepttl';

// layered-loader's RedisCache.setMany, compiled: MSET only when no TTL is configured
const msetBranch = ioredis(`export class Cache {
  constructor(config) { this.config = config; this.redis = redis; }
  setMany(entries) {
    if (this.config.ttlInMsecs) {
      const setCommands = [];
      for (const entry of entries) setCommands.push(['set', 'c:' + entry.key, entry.value, 'PX', this.config.ttlInMsecs]);
      return this.redis.multi(setCommands).exec();
    }
    // No TTL set
    const pairs = [];
    for (const entry of entries) pairs.push('c:' + entry.key, entry.value);
    return this.redis.mset(pairs);
  }
  setManyElse(entries, ttl) {
    if (!ttl) {
      return this.redis.mset(entries);
    } else {
      return this.redis.multi(entries.map(([k, v]) => ['set', k, v, 'EX', ttl])).exec();
    }
  }
}
`);

// @effect/experimental's Persistence/Redis set, and the Option helpers
const effectStore = ioredis(`import { Option, Duration } from 'effect';
export const set = (key, value, ttl) => ttl._tag === "None" ? redis.set('p:' + key, value) : redis.set('p:' + key, value, "PX", Duration.toMillis(ttl.value));
export const setSome = (key, value, ttl) => Option.isSome(ttl) ? redis.set('p:' + key, value, "PX", ttl.value) : redis.set('p:' + key, value);
export const setNone = (key, value, ttl) => Option.isNone(ttl) ? redis.set('p:' + key, value) : redis.set('p:' + key, value, "PX", ttl.value);
export const setMatch = (key, value, ttl) => Option.match(ttl, {
  onNone: () => redis.set('p:' + key, value),
  onSome: (d) => redis.set('p:' + key, value, "PX", Duration.toMillis(d)),
});
`);

// near misses
// SET has TTL syntax: an arm that only hands the TTL on does not excuse it
const plainSetBeside = ioredis(`export class Cache {
  put(id) {
    if (this.config.ttl) {
      return send(['set', 'c:' + id, 'v', 'PX', this.config.ttl]);
    }
    return redis.set('c:' + id, 'v');
  }
}
`);
// the arm never hands on the TTL it tests
const msetNoHandOn = ioredis(`export function put(pairs, ttl) {
  if (ttl) {
    log('ttl given');
    return;
  }
  return redis.mset(pairs);
}
`);
// a TTL the function computes itself is no caller's choice
const msetComputedTtl = ioredis(`export function put(pairs) {
  const ttl = computeTtl(pairs);
  if (ttl) {
    return send(['set', 'c:x', 'v', 'PX', ttl]);
  }
  return redis.mset(pairs);
}
`);
// the MSET runs when the TTL is given
const msetWrongArm = ioredis(`export function put(pairs, ttl) {
  if (!ttl) {
    return send(['set', 'c:x', 'v', 'PX', ttl]);
  }
  return redis.mset(pairs);
}
`);
// onSome writes another key; a callee not named match
const otherKeyMatch = ioredis(`import { Option } from 'effect';
export const a = (key, value, ttl) => Option.match(ttl, {
  onNone: () => redis.set('p:' + key, value),
  onSome: (d) => redis.set('q:' + key, value, "PX", d),
});
export const b = (key, value, ttl) => Option.fold(ttl, {
  onNone: () => redis.set('p:' + key, value),
  onSome: (d) => redis.set('p:' + key, value, "PX", d),
});
`);
// the Option tag test on the arm taken when a TTL is given
const someTag = ioredis(`export const set = (key, value, ttl) => ttl._tag === "Some" ? redis.set('p:' + key, value) : redis.set('p:' + key, value, "PX", ttl.value);
`);

describe('the no-TTL arm of a caller-chosen TTL, round 20 shapes', () => {
  it('an MSET on the arm taken only when the configured TTL is absent', () => {
    expect(lint(msetBranch)).toEqual([]);
  });

  it('an Effect Option: _tag, isSome / isNone, match', () => {
    expect(lint(effectStore)).toEqual([]);
  });

  it('is reported in strict', () => {
    expect(lint(msetBranch, STRICT_KEY_POLICY)).toEqual([
      [SET, 'msetWithoutTtl', 14, 23],
      [SET, 'msetWithoutTtl', 18, 25],
    ]);
    expect(lint(effectStore, STRICT_KEY_POLICY).map(([, id, line]) => [id, line])).toEqual([
      ['setWithoutTtl', 4],
      ['setWithoutTtl', 5],
      ['setWithoutTtl', 6],
      ['setWithoutTtl', 8],
    ]);
  });
});

describe('near misses stay reported', () => {
  it('a plain SET beside an arm that only hands the TTL on', () => {
    expect(lint(plainSetBeside)).toEqual([[SET, 'setWithoutTtl', 8, 18]]);
  });

  it('an MSET beside an arm that does not hand the TTL on', () => {
    expect(lint(msetNoHandOn)).toEqual([[SET, 'msetWithoutTtl', 8, 16]]);
  });

  it('an MSET beside a TTL the function computes itself', () => {
    expect(lint(msetComputedTtl)).toEqual([[SET, 'msetWithoutTtl', 8, 16]]);
  });

  it('an MSET on the arm taken when the TTL is given', () => {
    expect(lint(msetWrongArm)).toEqual([[SET, 'msetWithoutTtl', 7, 16]]);
  });

  it('an onSome writing another key, an onNone of a callee not named match', () => {
    expect(lint(otherKeyMatch)).toEqual([
      [SET, 'setWithoutTtl', 5, 23],
      [SET, 'setWithoutTtl', 9, 23],
    ]);
  });

  it('the Option tag test on the arm taken when a TTL is given', () => {
    expect(lint(someTag)).toEqual([[SET, 'setWithoutTtl', 3, 69]]);
  });
});
