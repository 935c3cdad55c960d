/**
 * "No-TTL arm of a caller-chosen TTL" read through a nullish or number predicate
 * (`allowOptionalTtl`, redis-calls/optional-ttl.ts). A cache store's `set(key, value, ttl?)` /
 * `mset(entries, ttl?)` writes `SETEX key ttl value` when the caller (or the store's configured
 * default) gives a TTL, and a plain `SET` only when none was given: the cache-manager contract for
 * "kept until deleted". The test of "none" is often a call: Node's `util.isNullOrUndefined`,
 * lodash's `isNil` / `isUndefined` / `isNull` (also `lodash/isNil` default imports, `_.isNil`),
 * a `(0, common_1.isNullOrUndefined)(ttl)` of compiled CommonJS, `Number.isFinite` /
 * `Number.isInteger` / `isNumber` (false: not a number), `isDefined` (false: absent). Such a test
 * reads like `ttl == null` / `typeof ttl === 'number'`. Near misses stay reported: the predicate
 * of another value than the TTL, the write in the arm taken when the TTL is given, a predicate
 * that says nothing about absence (`isValid(ttl)`), an arm also taken for a large TTL, a store
 * with no TTL arm, and `strict`.
 */
import { describe, expect, it } from 'vitest';
import { lintKeyRules, STRICT_KEY_POLICY } from '../helpers/lint.js';
import { ioredis, nodeRedis } from './tester.js';

const lint = lintKeyRules;
const STRICT = STRICT_KEY_POLICY;

const SET = 'redis-ttl/set-requires-ttl-or-keepttl';

// @anchan828/nest-cache-manager-ioredis, compiled CommonJS: the caller's ttl, else the store's
// configured default; SETEX when one is given, plain SET for -1 or none at all, nothing for 0
const compiledStore = `"use strict";
const common_1 = require("@anchan828/nest-cache-common");
const ioredis_1 = require("ioredis");
class RedisStore {
  constructor(args) { this.args = args; this.store = new ioredis_1.default(args); }
  async set(key, value, ttl) {
    if ((0, common_1.isNullOrUndefined)(ttl) && !(0, common_1.isNullOrUndefined)(this.args.ttl)) {
      ttl = this.args.ttl;
    }
    if (!(0, common_1.isNullOrUndefined)(ttl) && ttl !== 0 && ttl !== -1) {
      await this.store.setex(key, ttl, value);
    }
    else if (ttl !== 0) {
      await this.store.set(key, value);
    }
    else {
      return;
    }
  }
  async mset(entries, ttl) {
    if ((0, common_1.isNullOrUndefined)(ttl) && !(0, common_1.isNullOrUndefined)(this.args.ttl)) {
      ttl = this.args.ttl;
    }
    if (ttl === 0) return;
    for (const [key, value] of entries) {
      if (!(0, common_1.isNullOrUndefined)(ttl) && ttl !== -1) {
        await this.store.setex(key, ttl, value);
      }
      else {
        await this.store.set(key, value);
      }
    }
  }
}
exports.RedisStore = RedisStore;
`;

// surmon-china/nodepress: lodash default imports, the caller's ttl or the configured default, a
// node-redis option object in one arm, SET (and MSET) without one in the other
const lodashStore = nodeRedis(`import _isNil from 'lodash/isNil';
import _isUndefined from 'lodash/isUndefined';
export const createRedisStore = (options?: { namespace?: string; defaultTTL?: number }) => {
  const getKeyName = (key: string): string => (options?.namespace ? \`\${options.namespace}:\${key}\` : key);
  const set = async (key: string, value: string, ttl?: number): Promise<void> => {
    const _key = getKeyName(key);
    const _ttl = _isUndefined(ttl) ? options?.defaultTTL : ttl;
    if (!_isNil(_ttl) && _ttl !== 0) {
      await client.set(_key, value, { expiration: { type: 'EX', value: _ttl } });
    } else {
      await client.set(_key, value);
    }
  };
  const mset = async (kvs: [string, string][], ttl?: number): Promise<void> => {
    const _ttl = _isUndefined(ttl) ? options?.defaultTTL : ttl;
    if (!_isNil(_ttl) && _ttl !== 0) {
      const multi = client.multi();
      for (const [key, value] of kvs) multi.set(getKeyName(key), value, { expiration: { type: 'EX', value: _ttl } });
      await multi.exec();
    } else {
      await client.mSet(kvs.map(([key, value]) => [getKeyName(key), value] as [string, string]));
    }
  };
  return { set, mset };
};
`);

// the other spellings of the same tests: a lodash namespace, Node's util, a renamed import, a
// number check (false: not a number), a presence check (false: absent), a member TTL
const spellings = ioredis(`import _ from 'lodash';
import util from 'node:util';
import { isNil as nil } from 'lodash-es';
import { isDefined } from 'class-validator';
export const viaLodash = (key: string, v: string, ttl?: number) => (_.isNil(ttl) ? redis.set(key, v) : redis.setex(key, ttl, v));
export const viaUtil = (key: string, v: string, ttl?: number) => (util.isNullOrUndefined(ttl) ? redis.set(key, v) : redis.set(key, v, 'EX', ttl));
export async function renamed(key: string, v: string, ttl?: number) {
  if (nil(ttl)) return redis.set(key, v);
  return redis.set(key, v, 'PX', ttl);
}
export const finite = (key: string, v: string, ttl?: number) => (Number.isFinite(ttl) && ttl! > 0 ? redis.setex(key, ttl!, v) : redis.set(key, v));
export const integer = (key: string, v: string, ttl?: number) => (Number.isInteger(ttl) ? redis.setex(key, ttl!, v) : redis.set(key, v));
export const defined = (key: string, v: string, ttl?: number) => (isDefined(ttl) ? redis.setex(key, ttl!, v) : redis.set(key, v));
export class Store {
  constructor(private options: { ttl?: number }) {}
  async put(key: string, v: string) {
    if (_.isUndefined(this.options.ttl)) await redis.set(key, v);
    else await redis.set(key, v, 'EX', this.options.ttl);
  }
}
`);

// near misses
// the predicate is of the value, not of the TTL the other arm passes
const otherValue = ioredis(`import isNil from 'lodash/isNil';
export async function put(key: string, v: string | null, ttl: number) {
  if (!isNil(v)) await redis.setex(key, ttl, v);
  else await redis.set(key, '');
}
`);
// the write without TTL runs when the caller gave one
const wrongArm = ioredis(`import { isNil } from 'lodash';
export async function put(key: string, v: string, ttl?: number) {
  if (!isNil(ttl)) await redis.set(key, v);
  else await redis.set(key, v, 'EX', ttl);
}
`);
// a predicate that says nothing about absence: isValid(-5) may be false while a TTL was given
const unknownPredicate = ioredis(`import { isValid } from './ttl';
export async function put(key: string, v: string, ttl: number) {
  if (isValid(ttl)) await redis.setex(key, ttl, v);
  else await redis.set(key, v);
}
`);
// the no-TTL arm also runs for a TTL of an hour or more
const largeTtl = ioredis(`import { isNil } from 'lodash';
export async function put(key: string, v: string, ttl?: number) {
  if (!isNil(ttl) && ttl < 3600) await redis.setex(key, ttl, v);
  else await redis.set(key, v);
}
`);
// a store with no TTL arm at all: the null check is of the value
const noTtlArm = nodeRedis(`import _isNil from 'lodash/isNil';
export async function save(key: string, value: string | null) {
  if (!_isNil(value)) await client.set(key, value);
}
`);

describe('a no-TTL arm behind a nullish or number predicate of the caller\'s TTL', () => {
  it('is the caller\'s choice in a compiled cache-manager store (set and mset)', () => {
    expect(lint(compiledStore)).toEqual([]);
  });

  it('is the caller\'s choice behind lodash default imports, with a configured default', () => {
    expect(lint(lodashStore)).toEqual([]);
  });

  it('reads lodash, Node util, renamed, number and presence predicates, of a member too', () => {
    expect(lint(spellings)).toEqual([]);
  });

  it('is reported in strict', () => {
    expect(lint(compiledStore, STRICT)).toEqual([
      [SET, 'setWithoutTtl', 14, 24],
      [SET, 'setWithoutTtl', 30, 26],
    ]);
    expect(lint(lodashStore, STRICT)).toEqual([
      [SET, 'setWithoutTtl', 13, 20],
      [SET, 'msetWithoutTtl', 23, 20],
    ]);
  });
});

describe('near misses stay reported', () => {
  it('a predicate of another value than the TTL', () => {
    expect(lint(otherValue)).toEqual([[SET, 'setWithoutTtl', 6, 20]]);
  });

  it('the write in the arm taken when a TTL is given', () => {
    expect(lint(wrongArm)).toEqual([[SET, 'setWithoutTtl', 5, 32]]);
  });

  it('a predicate that says nothing about absence', () => {
    expect(lint(unknownPredicate)).toEqual([[SET, 'setWithoutTtl', 6, 20]]);
  });

  it('an arm also taken when a large TTL is given', () => {
    expect(lint(largeTtl)).toEqual([[SET, 'setWithoutTtl', 6, 20]]);
  });

  it('a store with no TTL arm', () => {
    expect(lint(noTtlArm)).toEqual([[SET, 'setWithoutTtl', 5, 36]]);
  });
});
