/**
 * The differential tester's script generator: seeded random Redis Lua scripts of 3-25 statements
 * over KEYS and ARGV, with branches on replies, loops over KEYS, local helper functions, pcall,
 * early returns and errors, and about forty commands (string, hash, list, set and sorted-set
 * writes, every expiry form and option, deletes, RENAME/COPY, reads used as guards). The
 * generator also writes the miss kinds of issue 12 on purpose: expiries that delete (EXPIREAT in
 * the past, computed TTLs <= 0), `EXPIRE k 0 XX`, returns inside loops over KEYS, deleting every
 * key, COPY/RENAME edge cases and TTLs Redis rejects.
 *
 * A script is a tree of statements ({@link Stmt}) so that the minimizer can remove statements at
 * any depth; {@link render} turns it into Lua. Every key has one Redis type per script (so a
 * script raises WRONGTYPE only when a command moves a key onto another type, which the generator
 * avoids), and the oracle seeds existing keys with a value of that type.
 */

import { createRandom as createCorpusRandom } from '../lua-lint/corpus.js';

/** A statement: one line, or a block (if / for / function) with a body and an optional else. */
export type Stmt =
  | { kind: 'line'; text: string }
  | { kind: 'block'; head: string; body: Stmt[]; orElse?: Stmt[]; tail: string };

/** The Redis type a script uses a key as. */
export type KeyType = 'string' | 'hash' | 'list' | 'set' | 'zset';

/** One key the script may touch: its Lua expression and its name on the server. */
export interface KeySpec {
  expr: string;
  name: string;
  type: KeyType;
}

/** A generated script. */
export interface GeneratedScript {
  /** Index in its batch and the seed that made it, for reruns. */
  id: number;
  seed: number;
  body: Stmt[];
  /** KEYS[1..n] as passed to EVAL, then keys built in the script (name only). */
  keys: KeySpec[];
  /** How many KEYS the script is given (`KEYS[keyCount - extraKeys + 1 ..]` are passed but never named: loops over KEYS reach them). */
  keyCount: number;
  /** Keys passed beyond the ones the script names. */
  extraKeys?: number;
  /** Commands the server must have, when the script uses newer ones (see {@link GeneratorFeatures}). */
  features?: GeneratorFeatures;
}

/**
 * Newer commands the generator may use, decided by the server it runs on (`run.ts` reads its
 * version): without them it generates exactly the scripts it always did, seed for seed.
 */
export interface GeneratorFeatures {
  /** Redis 7.4 hash-field expiration: HEXPIRE, HPEXPIRE, HPERSIST (and the oracle's HTTL). */
  hashFieldExpiration?: boolean;
  /** Redis 8.0: HSETEX, HGETEX. */
  hashFieldWrites?: boolean;
}

/**
 * The corpus' seedable PRNG, with `chance(p)`: true with probability p.
 */
export function createRandom(seed: number) {
  const r = createCorpusRandom(seed);
  return { ...r, chance: (p: number): boolean => r.next() < p };
}

export type Random = ReturnType<typeof createRandom>;

const TYPES: readonly KeyType[] = ['string', 'hash', 'list', 'set', 'zset'];

/** Relative TTLs: literals, ARGV as given (assumed valid), and computations that can go <= 0 or fractional. */
function ttlExpr(r: Random, unit: 's' | 'ms'): string {
  return r.pick([
    unit === 's' ? '60' : '60000',
    unit === 's' ? '1' : '1000',
    'ARGV[1]',
    'tonumber(ARGV[1])',
    'tonumber(ARGV[2])',
    'tonumber(ARGV[2]) - 1',
    'tonumber(ARGV[1]) / 2',
    unit === 's' ? 'math.floor(tonumber(ARGV[2]) / 1000)' : 'tonumber(ARGV[1]) * 1000',
    r.pick(['0', '-1', '1.5']),
  ]);
}

/** Absolute times: ARGV (any unix time, maybe past), server time plus ARGV (maybe whole seconds in the past). */
function atExpr(r: Random, unit: 's' | 'ms'): string {
  return unit === 's'
    ? r.pick(['ARGV[4]', "tonumber(redis.call('TIME')[1]) + tonumber(ARGV[1])", 'tonumber(ARGV[4])'])
    : r.pick(["tonumber(redis.call('TIME')[1]) * 1000 + tonumber(ARGV[2])", 'tonumber(ARGV[4]) * 1000', "tonumber(redis.call('TIME')[1]) * 1000 + 60000"]);
}

const EXPIRE_OPTIONS = ['', '', '', ", 'NX'", ", 'XX'", ", 'GT'", ", 'LT'", ", 'NX', 'GT'", ", 'XX', 'GT'"];

/** A value for a string key: numeric, so INCR on it never raises. */
function value(r: Random): string {
  return r.pick(['ARGV[3]', "'1'", "'7'"]);
}

interface Ctx {
  r: Random;
  keys: KeySpec[];
  call: () => string;
  /** Names of helper functions defined so far, with the key type each takes. */
  helpers: Array<{ name: string; type: KeyType }>;
  locals: number;
  inLoop: boolean;
  loopKey?: string;
  /** Every KEYS key has this type (so loops over KEYS may write). */
  uniform?: KeyType;
  features: GeneratorFeatures;
}

/** A write or expiry command on key `k` of type `type`, as a Lua expression. */
function command(c: Ctx, k: string, type: KeyType, sameType: KeySpec[]): string {
  const { r } = c;
  const call = c.call();
  const other = sameType.length > 0 ? r.pick(sameType).expr : k;
  const byType: Record<KeyType, string[]> = {
    string: [
      `${call}('INCR', ${k})`,
      `${call}('INCRBY', ${k}, ${r.pick(['ARGV[2]', '2', 'tonumber(ARGV[2])', '-2'])})`,
      `${call}('DECR', ${k})`,
      `${call}('APPEND', ${k}, '1')`,
      `${call}('SET', ${k}, ${value(r)})`,
      `${call}('SET', ${k}, ${value(r)}, 'NX')`,
      `${call}('SET', ${k}, ${value(r)}, 'XX')`,
      `${call}('SET', ${k}, ${value(r)}, 'EX', ${ttlExpr(r, 's')})`,
      `${call}('SET', ${k}, ${value(r)}, 'PX', ${ttlExpr(r, 'ms')})`,
      `${call}('SET', ${k}, ${value(r)}, 'NX', 'PX', ${ttlExpr(r, 'ms')})`,
      `${call}('SET', ${k}, ${value(r)}, 'KEEPTTL')`,
      `${call}('SET', ${k}, ${value(r)}, 'XX', 'KEEPTTL')`,
      `${call}('SET', ${k}, ${value(r)}, 'PXAT', ${atExpr(r, 'ms')})`,
      `${call}('SET', ${k}, ${value(r)}, 'EXAT', ${atExpr(r, 's')})`,
      `${call}('SETNX', ${k}, ${value(r)})`,
      `${call}('GETSET', ${k}, ${value(r)})`,
      `${call}('SETEX', ${k}, ${ttlExpr(r, 's')}, ${value(r)})`,
      `${call}('PSETEX', ${k}, ${ttlExpr(r, 'ms')}, ${value(r)})`,
      `${call}('GETEX', ${k}, 'EX', ${ttlExpr(r, 's')})`,
      `${call}('GETEX', ${k}, 'EXAT', ${atExpr(r, 's')})`,
      `${call}('GETDEL', ${k})`,
      `${call}('MSET', ${k}, ${value(r)})`,
      `${call}('MSETNX', ${k}, ${value(r)})`,
      `${call}('COPY', ${other}, ${k}${r.pick(['', ", 'REPLACE'"])})`,
    ],
    hash: [
      `${call}('HSET', ${k}, 'f', ${value(r)})`,
      `${call}('HSET', ${k}, ARGV[3], '1')`,
      `${call}('HSET', ${k}, ARGV[5], '1')`,
      `${call}('HDEL', ${k}, ARGV[5])`,
      `${call}('HINCRBY', ${k}, 'f', 1)`,
      `${call}('HSETNX', ${k}, 'g', '1')`,
      `${call}('HDEL', ${k}, 'f')`,
      ...(c.features.hashFieldExpiration
        ? [
            `${call}('HEXPIRE', ${k}, ${ttlExpr(r, 's')}, 'FIELDS', 1, 'f')`,
            `${call}('HPEXPIRE', ${k}, ${ttlExpr(r, 'ms')}, 'FIELDS', 2, 'f', 'g')`,
            `${call}('HPEXPIRE', ${k}, ${ttlExpr(r, 'ms')}, ${r.pick(["'NX'", "'XX'", "'GT'", "'LT'"])}, 'FIELDS', 1, 'f')`,
            `${call}('HPERSIST', ${k}, 'FIELDS', 1, 'f')`,
          ]
        : []),
      ...(c.features.hashFieldWrites
        ? [
            `${call}('HSETEX', ${k}, 'PX', ${ttlExpr(r, 'ms')}, 'FIELDS', 1, 'f', ${value(r)})`,
            `${call}('HSETEX', ${k}, ${r.pick(["'FNX', ", "'FXX', ", ''])}'EX', ${ttlExpr(r, 's')}, 'FIELDS', 2, 'f', '1', 'g', '2')`,
            `${call}('HSETEX', ${k}, ${r.pick(["'KEEPTTL', ", ''])}'FIELDS', 1, 'g', '1')`,
            `${call}('HGETEX', ${k}, 'PX', ${ttlExpr(r, 'ms')}, 'FIELDS', 1, 'f')`,
          ]
        : []),
    ],
    list: [
      `${call}('LPUSH', ${k}, ${value(r)})`,
      `${call}('RPUSH', ${k}, 'a', 'b')`,
      `${call}('LPUSHX', ${k}, 'x')`,
      `${call}('RPUSHX', ${k}, 'x')`,
      `${call}('LPOP', ${k})`,
      `${call}('RPOP', ${k})`,
      `${call}('LMOVE', ${other}, ${k}, 'LEFT', 'RIGHT')`,
      `${call}('RPOPLPUSH', ${other}, ${k})`,
    ],
    set: [
      `${call}('SADD', ${k}, ${value(r)})`,
      `${call}('SADD', ${k}, 'a', 'b')`,
      `${call}('SREM', ${k}, 'a')`,
      `${call}('SADD', ${k}, ARGV[5])`,
      `${call}('SREM', ${k}, ARGV[5])`,
      `${call}('SPOP', ${k})`,
      `${call}('SMOVE', ${other}, ${k}, 'a')`,
      `${call}('SUNIONSTORE', ${k}, ${other})`,
    ],
    zset: [
      `${call}('ZADD', ${k}, 1, ${value(r)})`,
      `${call}('ZADD', ${k}, 'XX', 2, 'a')`,
      `${call}('ZINCRBY', ${k}, 1, 'a')`,
      `${call}('ZREM', ${k}, 'a')`,
      `${call}('ZADD', ${k}, 2, ARGV[5])`,
      `${call}('ZREM', ${k}, ARGV[5])`,
      `${call}('ZREMRANGEBYSCORE', ${k}, '-inf', 1)`,
    ],
  };
  const any = [
    `${call}('EXPIRE', ${k}, ${ttlExpr(r, 's')}${r.pick(EXPIRE_OPTIONS)})`,
    `${call}('PEXPIRE', ${k}, ${ttlExpr(r, 'ms')}${r.pick(EXPIRE_OPTIONS)})`,
    `${call}('EXPIREAT', ${k}, ${atExpr(r, 's')})`,
    `${call}('PEXPIREAT', ${k}, ${atExpr(r, 'ms')})`,
    `${call}('PERSIST', ${k})`,
    `${call}('DEL', ${k})`,
    `${call}('UNLINK', ${k})`,
    `${call}('RENAME', ${k}, ${other})`,
    `${call}('RENAMENX', ${k}, ${other})`,
  ];
  const own = byType[type];
  // Writes twice as often as key-agnostic commands; expiries are among the latter.
  return r.chance(0.6) ? r.pick(own) : r.pick(any);
}

/** A condition over a key (a guard on a reply) or over ARGV. */
function condition(c: Ctx, key: KeySpec): string {
  const { r } = c;
  const k = key.expr;
  const call = 'redis.call';
  const common = [
    `${call}('EXISTS', ${k}) == 0`,
    `${call}('EXISTS', ${k}) == 1`,
    `${call}('TTL', ${k}) == -1`,
    `${call}('PTTL', ${k}) < 0`,
    `${call}('TTL', ${k}) == -2`,
    `${call}('PTTL', ${k}) > 0`,
    `tonumber(ARGV[1]) > 5`,
    `ARGV[3] == '1'`,
    `not ${call}('EXISTS', ${k}) == 1`,
  ];
  const byType: Record<KeyType, string[]> = {
    string: [
      `${call}('INCR', ${k}) == 1`,
      `${call}('INCR', ${k}) == ARGV[1]`,
      `${call}('INCRBY', ${k}, ARGV[2]) == tonumber(ARGV[2])`,
      `${call}('GET', ${k})`,
      `not ${call}('GET', ${k})`,
      `${call}('SETNX', ${k}, '1') == 1`,
      `${call}('SET', ${k}, '1', 'NX', 'PX', 1000)`,
      `tonumber(${call}('GET', ${k}) or 0) > 0`,
      `${call}('MSET', ${k}, '1')`,
    ],
    hash: [`${call}('HGET', ${k}, 'f')`, `${call}('HLEN', ${k}) == 0`, `${call}('HSET', ${k}, 'f', '1') == 1`, `#${call}('HGETALL', ${k}) == 2`],
    list: [`${call}('LLEN', ${k}) > 0`, `${call}('LPUSH', ${k}, 'a') == 1`, `${call}('RPOPLPUSH', ${k}, ${k})`],
    set: [`${call}('SCARD', ${k}) == 0`, `${call}('SADD', ${k}, 'a') == 1`, `${call}('SISMEMBER', ${k}, 'a') == 1`, `${call}('SISMEMBER', ${k}, ARGV[5]) == 1`],
    zset: [`${call}('ZCARD', ${k}) == 0`, `${call}('ZADD', ${k}, 1, 'a') == 1`, `${call}('ZSCORE', ${k}, 'a')`],
  };
  return r.chance(0.5) ? r.pick(common) : r.pick(byType[key.type]);
}

function pickKey(c: Ctx): KeySpec {
  return c.r.pick(c.keys);
}

function sameTypeAs(c: Ctx, key: KeySpec): KeySpec[] {
  return c.keys.filter((k) => k.type === key.type && k.name !== key.name);
}

/** One statement; `budget` is how many statements (nested ones included) it may use. */
function statement(c: Ctx, budget: number, depth: number): Stmt[] {
  const { r } = c;
  const roll = r.next();
  if (depth < 2 && budget >= 3 && roll < 0.2) {
    const key = pickKey(c);
    const bodySize = r.int(1, Math.min(3, budget - 1));
    const body = block(c, bodySize, depth + 1);
    const orElse = r.chance(0.3) ? block(c, 1, depth + 1) : undefined;
    return [{ kind: 'block', head: `if ${condition(c, key)} then`, body, ...(orElse ? { orElse } : {}), tail: 'end' }];
  }
  if (depth < 2 && !c.inLoop && budget >= 2 && roll < 0.3) {
    const numeric = r.chance(0.5);
    const inner: Ctx = { ...c, inLoop: true, loopKey: numeric ? 'KEYS[i]' : 'k' };
    const head = numeric ? 'for i = 1, #KEYS do' : 'for _, k in ipairs(KEYS) do';
    const body = loopBody(inner, r.int(1, Math.min(3, budget - 1)));
    return [{ kind: 'block', head, body, tail: 'end' }];
  }
  if (depth === 0 && budget >= 3 && roll < 0.36) {
    // a local helper over one key type, called on one or two keys of that type
    const key = pickKey(c);
    const name = `h${c.helpers.length + 1}`;
    const helper: Ctx = { ...c, keys: [{ ...key, expr: 'k' }] };
    const body = [line(helper, 'k', key.type, sameTypeAs(c, key)), ...(r.chance(0.5) ? [line(helper, 'k', key.type, sameTypeAs(c, key))] : [])];
    c.helpers.push({ name, type: key.type });
    const callers = c.keys.filter((k) => k.type === key.type);
    return [
      { kind: 'block', head: `local function ${name}(k)`, body, tail: 'end' },
      { kind: 'line', text: `${name}(${r.pick(callers).expr})` },
    ];
  }
  if (roll < 0.42 && depth > 0) return [exitStatement(c)];
  if (roll < 0.46 && c.inLoop) return [{ kind: 'line', text: 'break' }];
  const key = pickKey(c);
  return [line(c, key.expr, key.type, sameTypeAs(c, key))];
}

function exitStatement(c: Ctx): Stmt {
  return {
    kind: 'line',
    text: c.r.pick(['return 0', 'return 1', "return redis.error_reply('denied')", "error('failed')", 'return redis.call(\'TIME\')[1]']),
  };
}

function line(c: Ctx, k: string, type: KeyType, sameType: KeySpec[]): Stmt {
  const text = command(c, k, type, sameType);
  if (c.r.chance(0.2)) return { kind: 'line', text: `local r${++c.locals} = ${text}` };
  return { kind: 'line', text };
}

function loopBody(c: Ctx, size: number): Stmt[] {
  const { r } = c;
  const k = c.loopKey!;
  const out: Stmt[] = [];
  for (let i = 0; i < size; i++) {
    const roll = r.next();
    if (roll < 0.15) out.push({ kind: 'block', head: `if redis.call('EXISTS', ${k}) == 0 then`, body: [r.chance(0.5) ? exitStatement(c) : { kind: 'line', text: 'break' }], tail: 'end' });
    else if (roll < 0.25) out.push(r.chance(0.5) ? exitStatement(c) : { kind: 'line', text: 'break' });
    else if (roll < 0.35) out.push({ kind: 'block', head: `if redis.call('TTL', ${k}) == -1 then`, body: [{ kind: 'line', text: `redis.call('EXPIRE', ${k}, 60)` }], tail: 'end' });
    else if (c.uniform && roll < 0.65) out.push({ kind: 'line', text: command(c, k, c.uniform, []) });
    else {
      const call = c.call();
      out.push({
        kind: 'line',
        text: r.pick([
          `${call}('EXPIRE', ${k}, ${ttlExpr(r, 's')}${r.pick(EXPIRE_OPTIONS)})`,
          `${call}('PEXPIRE', ${k}, ${ttlExpr(r, 'ms')})`,
          `${call}('DEL', ${k})`,
          `${call}('UNLINK', ${k})`,
          `${call}('PERSIST', ${k})`,
          `${call}('EXPIREAT', ${k}, ${atExpr(r, 's')})`,
        ]),
      });
    }
  }
  return out;
}

function block(c: Ctx, size: number, depth: number): Stmt[] {
  const out: Stmt[] = [];
  let used = 0;
  while (used < size) {
    const stmts = statement(c, size - used, depth);
    out.push(...stmts);
    used += stmts.reduce((n, s) => n + count(s), 0);
  }
  return out;
}

/** How many statements a statement holds, itself included. */
export function count(s: Stmt): number {
  return s.kind === 'line' ? 1 : 1 + s.body.reduce((n, x) => n + count(x), 0) + (s.orElse ?? []).reduce((n, x) => n + count(x), 0);
}

/**
 * Generates script `id` of the batch of `seed`: the same (seed, id) always gives the same script.
 */
export function generateScript(seed: number, id: number, features: GeneratorFeatures = {}): GeneratedScript {
  const r = createRandom((seed * 100_003 + id * 7919) >>> 0);
  const uniform = r.chance(0.3) ? r.pick(TYPES) : undefined;
  const keyCount = 3;
  const keys: KeySpec[] = [];
  for (let i = 1; i <= keyCount; i++) keys.push({ expr: `KEYS[${i}]`, name: `k${i}`, type: uniform ?? r.pick(TYPES) });
  if (r.chance(0.2)) keys.push({ expr: "KEYS[1] .. ':d'", name: 'k1:d', type: r.pick(TYPES) });
  const pcallShare = r.chance(0.2) ? 0.3 : 0;
  const c: Ctx = {
    r,
    keys,
    call: () => (r.chance(pcallShare) ? 'redis.pcall' : 'redis.call'),
    helpers: [],
    locals: 0,
    inLoop: false,
    ...(uniform ? { uniform } : {}),
    features,
  };
  const size = r.int(3, 25);
  const body = block(c, size, 0);
  // Half of the scripts end with an explicit return (as most real scripts do).
  if (r.chance(0.5)) body.push({ kind: 'line', text: 'return 1' });
  const used = features.hashFieldExpiration || features.hashFieldWrites ? { features } : {};
  // A quarter are given more keys than they name: only a loop over KEYS reaches those.
  const extraKeys = r.chance(0.25) ? 2 : 0;
  const named = keys.slice(0, keyCount);
  const extra: KeySpec[] = Array.from({ length: extraKeys }, (_, i) => ({ expr: `KEYS[${keyCount + i + 1}]`, name: `k${keyCount + i + 1}`, type: uniform ?? r.pick(TYPES) }));
  const all = [...named, ...extra, ...keys.slice(keyCount)];
  return { id, seed, body: normalize(body), keys: all, keyCount: keyCount + extraKeys, ...(extraKeys > 0 ? { extraKeys } : {}), ...used };
}

/** The Lua text of a statement list. */
export function render(body: readonly Stmt[], indent = ''): string {
  const out: string[] = [];
  for (const s of body) {
    if (s.kind === 'line') out.push(indent + s.text);
    else {
      out.push(indent + s.head);
      out.push(render(s.body, indent + '  '));
      if (s.orElse) {
        out.push(indent + 'else');
        out.push(render(s.orElse, indent + '  '));
      }
      out.push(indent + s.tail);
    }
  }
  return out.filter((l) => l !== '').join('\n');
}

/**
 * Lua 5.1 wants `return` and `break` last in their block: anything after them is dropped (the
 * generator and the minimizer both call this before rendering).
 */
export function normalize(body: readonly Stmt[]): Stmt[] {
  const out: Stmt[] = [];
  for (const s of body) {
    if (s.kind === 'block') {
      const next: Stmt = { ...s, body: normalize(s.body) };
      if (s.orElse) (next as Extract<Stmt, { kind: 'block' }>).orElse = normalize(s.orElse);
      out.push(next);
    } else out.push(s);
    if (s.kind === 'line' && /^(return\b|break$)/.test(s.text)) break;
  }
  return out;
}
