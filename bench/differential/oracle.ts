/**
 * The differential tester's oracle: runs a script on a real Redis over many pre-states and
 * arguments and records every key that the script left without TTL although it created it, or
 * removed its TTL.
 *
 * Each run, pipelined on one connection: `FLUSHDB`; the pre-state of every key the script may
 * touch (absent, present with a TTL of 100 s, or present without TTL; present keys hold a value of
 * the key's type); `EVALSHA` of the instrumented script; `PTTL` of every key; the set of keys the
 * script made disappear at some point. The instrumentation is one line put before the script: a
 * local `redis` whose `call`/`pcall` run the real command and then note (in a side key) every
 * watched key that no longer exists, so that a key deleted and created again without TTL counts as
 * created by the script even when it existed before. The script's own text is unchanged.
 *
 * A key leaks in a run when its PTTL is -1 at the end and it was absent before, or had a TTL
 * before, or disappeared during the run (https://redis.io/docs/latest/commands/pttl/). Writes made
 * before a command that raises count: Redis does not roll a script back.
 */
import type { Redis } from 'ioredis';
import type { GeneratedScript, KeySpec, KeyType, Random } from './generate.js';
import { createRandom, render } from './generate.js';

/** What a key looks like before a run. */
export type PreState = 'absent' | 'ttl' | 'no-ttl';

/** One run's inputs. */
export interface RunPlan {
  pre: PreState[];
  /** Which of two contents each present key gets (see `seed`). */
  variants: number[];
  argv: string[];
  /** Every ARGV value is a positive integer or a future unix time (what the analyzer assumes). */
  validArgs: boolean;
}

/** One run's outcome. */
export interface RunResult {
  plan: RunPlan;
  /** Names of the keys that leaked. */
  leaked: string[];
  /** The script's error, when it raised. */
  error?: string;
}

/** The oracle's verdict on one script. */
export interface OracleVerdict {
  runs: RunResult[];
  /** Keys that leaked in some run with valid arguments. */
  leakedValid: Set<string>;
  /** Keys that leaked only in runs with invalid arguments (ARGV <= 0, fractional, not a number). */
  leakedInvalidOnly: Set<string>;
  /** The script could not be loaded (a syntax error Redis reports). */
  loadError?: string;
}

const STATUS_KEY = '__differential_status';
const TTL_MS = 100_000;

/** 1 when KEYS[1] is a hash whose every field has a TTL (HTTL, Redis 7.4): it empties itself. */
const FIELDS_ALL_EXPIRE =
  "local t = redis.call('TYPE', KEYS[1]).ok " +
  // gone since the PTTL was read (its last field expired): not a leak; another type: no field TTLs
  "if t == 'none' then return 1 end " +
  "if t ~= 'hash' then return 0 end " +
  "local f = redis.call('HKEYS', KEYS[1]) " +
  // every field expired since the PTTL was read: the hash is going away
  'if #f == 0 then return 1 end ' +
  "local t = redis.call('HTTL', KEYS[1], 'FIELDS', #f, unpack(f)) " +
  // -1: a field without TTL (it keeps the hash); -2: a field that has just expired
  'for i = 1, #t do if t[i] == -1 then return 0 end end return 1';
const FUTURE = '4102444800'; // 2100-01-01
const PAST = '1000000000'; // 2001-09-09

/**
 * The line put before the script (see the module comment). `__status` records, per watched key,
 * the last thing that happened to it: `gone` (it stopped existing) or `moved` (RENAME or COPY
 * brought there a key that existed without TTL before the script and was never deleted since, or
 * was itself moved: the script did not make that key without TTL, it renamed or copied it; the
 * analyzer gives the destination the source's state, see docs/ttl-semantics.md).
 */
export function instrument(source: string, watched: readonly string[]): string {
  const list = watched.map((name) => `'${name}'`).join(', ');
  return (
    `local __r = redis; local __watch = { ${list} }; local __pre = {}; ` +
    `for i = 1, #__watch do __pre[__watch[i]] = __r.call('PTTL', __watch[i]) end; ` +
    `local function __check() for i = 1, #__watch do if __r.call('EXISTS', __watch[i]) == 0 then __r.call('HSET', '${STATUS_KEY}', __watch[i], 'gone') end end end; ` +
    `local function __wrap(run) return function(...) local a = {...}; local name = string.upper(tostring(a[1])); local moved = false; ` +
    `if name == 'RENAME' or name == 'RENAMENX' or name == 'COPY' then local from = __r.call('HGET', '${STATUS_KEY}', a[2]); ` +
    `moved = (__pre[a[2]] == -1 and from == false) or from == 'moved' end; ` +
    `local reply = run(...); __check(); ` +
    `if moved and reply ~= 0 and (type(reply) ~= 'table' or reply.ok) and a[2] ~= a[3] then __r.call('HSET', '${STATUS_KEY}', a[3], 'moved') end; ` +
    `return reply end end; ` +
    `local redis = setmetatable({ call = __wrap(__r.call), pcall = __wrap(__r.pcall) }, { __index = __r })\n` +
    source
  );
}

/**
 * Commands that give `name` a value of `type` (one of two contents, so that guards on members and
 * removals that empty a key both happen), and with `ttl` a TTL of 100 s.
 */
function seed(name: string, type: KeyType, ttl: boolean, variant: number): Array<[string, ...Array<string | number>]> {
  const out: Array<[string, ...Array<string | number>]> = [];
  const small = variant % 3 === 1;
  // variant 2: more than ten members (the script's literal ones among them), a long string
  const large = variant % 3 === 2;
  switch (type) {
    case 'string':
      out.push(['SET', name, large ? LONG_NUMBER : small ? '1' : '5']);
      break;
    case 'hash':
      out.push(large ? ['HSET', name, ...MANY.flatMap((m, i) => [m, String(i)])] : small ? ['HSET', name, 'f', '1'] : ['HSET', name, 'g', '1', 'e', '2']);
      break;
    case 'list':
      out.push(large ? ['RPUSH', name, ...MANY] : small ? ['RPUSH', name, 'a'] : ['RPUSH', name, 'b', 'c']);
      break;
    case 'set':
      out.push(large ? ['SADD', name, ...MANY] : small ? ['SADD', name, 'a'] : ['SADD', name, 'b', 'c']);
      break;
    case 'zset':
      out.push(large ? ['ZADD', name, ...MANY.flatMap((m, i) => [i - 3, m])] : small ? ['ZADD', name, 1, 'a'] : ['ZADD', name, 5, 'b', 6, 'c']);
      break;
  }
  if (ttl) out.push(['PEXPIRE', name, TTL_MS]);
  return out;
}

/** Twelve members: the literal members and fields the generator writes, and more. */
const MANY: readonly string[] = ['a', 'b', 'c', 'e', 'f', 'g', 'x', '1', '7', 'm', 'n', 'o'];
/** A string of 18 digits (INCR on it still fits in 64 bits). */
const LONG_NUMBER = '123456789012345678';

const VALID_ARGS: readonly string[][] = [
  ['1', '2', '3', '10', '60', '1000', '60000'], // ARGV[1]: a TTL, a limit
  ['1', '2', '3', '1000', '5000', '60000'], // ARGV[2]: a TTL, an increment
  ['1', '7', LONG_NUMBER], // ARGV[3]: a value (numeric, so INCR on it never raises)
  [FUTURE, PAST, '60'], // ARGV[4]: a unix time (maybe in the past: still a valid argument)
  ['a', 'f', 'g', 'b', 'x', 'm'], // ARGV[5]: a member or field name, often one the script also spells
];
/** What lua-lint assumes ARGV never is: <= 0 (a negative increment too), fractional, not a number, empty. */
const INVALID: readonly string[] = ['0', '-1', '-5', '1.5', 'x', ''];

/** The runs of one script: pre-states and arguments, seeded. */
export function planRuns(script: GeneratedScript, count: number, seedValue: number): RunPlan[] {
  const r: Random = createRandom((seedValue * 31 + script.id * 131 + 17) >>> 0);
  const states: PreState[] = ['absent', 'ttl', 'no-ttl'];
  const plans: RunPlan[] = [];
  const covering = 3 * script.keys.length;
  // after those, every invalid value at each of the first four ARGV positions once (ARGV <= 0, a
  // negative increment, ...): a report that needs one of them is witnessed, not "never leaked"
  const dedicated: Array<[number, string]> = [];
  for (let position = 0; position < 4; position++) for (const bad of INVALID) dedicated.push([position, bad]);
  for (let i = 0; i < count; i++) {
    // The first runs cover each key in each state with the others varied; then random.
    const pre = script.keys.map((_, k) => (i < covering && Math.floor(i / 3) === k ? states[i % 3]! : r.pick(states)));
    const argv = VALID_ARGS.map((pool) => r.pick(pool));
    const forced = i >= covering && i - covering < dedicated.length && count >= covering + 2 * dedicated.length ? dedicated[i - covering] : undefined;
    const invalid = forced !== undefined || (i >= count / 2 && r.chance(0.25));
    if (forced) argv[forced[0]] = forced[1];
    else if (invalid) argv[r.int(0, 3)] = r.pick(INVALID);
    const variants = script.keys.map(() => r.int(0, 2));
    plans.push({ pre, variants, argv, validArgs: !invalid });
  }
  return plans;
}

/**
 * Runs `script` once per plan on `redis` (whose current database is flushed between runs: use a
 * server of its own) and collects the leaks.
 */
export async function runScript(redis: Redis, script: GeneratedScript, plans: readonly RunPlan[]): Promise<OracleVerdict> {
  const names = script.keys.map((k) => k.name);
  const source = instrument(render(script.body), names);
  let sha: string;
  try {
    sha = (await redis.script('LOAD', source)) as string;
  } catch (error) {
    return { runs: [], leakedValid: new Set(), leakedInvalidOnly: new Set(), loadError: String(error) };
  }
  const keyArgs = script.keys.slice(0, script.keyCount).map((k) => k.name);
  const pipeline = redis.pipeline();
  for (const plan of plans) {
    pipeline.flushdb();
    script.keys.forEach((key: KeySpec, i) => {
      const state = plan.pre[i]!;
      if (state !== 'absent') for (const [command, ...args] of seed(key.name, key.type, state === 'ttl', plan.variants[i]!)) pipeline.call(command, ...args);
    });
    pipeline.evalsha(sha, keyArgs.length, ...keyArgs, ...plan.argv);
    for (const name of names) pipeline.pttl(name);
    pipeline.hgetall(STATUS_KEY);
    // Redis 7.4+: a hash whose every field has a TTL is deleted with its last field (not a leak)
    if (script.features?.hashFieldExpiration) for (const name of names) pipeline.eval(FIELDS_ALL_EXPIRE, 1, name);
  }
  const replies = (await pipeline.exec()) ?? [];
  const runs: RunResult[] = [];
  let at = 0;
  for (const plan of plans) {
    at += 1; // FLUSHDB
    script.keys.forEach((key, i) => {
      const state = plan.pre[i]!;
      if (state !== 'absent') at += seed(key.name, key.type, state === 'ttl', plan.variants[i]!).length;
    });
    const [evalError] = replies[at++] ?? [];
    const pttls = names.map(() => replies[at++]?.[1] as number);
    const status = (replies[at++]?.[1] as Record<string, string> | undefined) ?? {};
    const emptiesItself = script.features?.hashFieldExpiration ? names.map(() => replies[at++]?.[1] === 1) : names.map(() => false);
    const leaked = names.filter(
      (name, i) => pttls[i] === -1 && !emptiesItself[i] && status[name] !== 'moved' && (plan.pre[i] !== 'no-ttl' || status[name] === 'gone'),
    );
    runs.push({ plan, leaked, ...(evalError ? { error: String((evalError as Error).message ?? evalError) } : {}) });
  }
  const leakedValid = new Set<string>();
  const leakedAny = new Set<string>();
  for (const run of runs) for (const name of run.leaked) (run.plan.validArgs ? leakedValid : leakedAny).add(name);
  const leakedInvalidOnly = new Set([...leakedAny].filter((name) => !leakedValid.has(name)));
  return { runs, leakedValid, leakedInvalidOnly };
}
