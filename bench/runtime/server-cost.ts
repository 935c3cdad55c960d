/**
 * Server cost of each limiter script and of candidate variants, from Redis' own accounting
 * (`INFO commandstats`: microseconds per EVALSHA, the script's commands included), next to
 * rate-limiter-flexible's script and the INCR + PEXPIRE floor. What decides whether a variant
 * "pays": only the server's time per call, which matters once Redis (not Node) saturates.
 *
 *   node --import tsx bench/runtime/server-cost.ts        (starts a redis-server of its own)
 *   BENCH_CALLS=100000 BENCH_ROUNDS=7 node --import tsx bench/runtime/server-cost.ts
 *
 * Each script runs BENCH_CALLS times (default 50,000) in pipelines of 100, on one hot key and on
 * 10,000 keys, in BENCH_ROUNDS interleaved rounds (default 5); `CONFIG RESETSTAT` before each
 * measurement. The variants (not shipped, kept here with their numbers in runtime/README.md):
 * fixed window and token bucket with their state in one string written by `SET ... PX` (one
 * command less than HSET + PEXPIRE), and with the caller's clock instead of `TIME`.
 */
import { Redis } from 'ioredis';
import { LUA_SOURCES } from '../../runtime/lua.generated.js';
import { startRedisServer } from '../../tests/helpers/redis-server.js';

const CALLS = Number(process.env.BENCH_CALLS ?? 50_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);

/** `now` in ms: the server clock (TIME) when ARGV[arg] is '', else ARGV[arg] (the caller's clock). */
function clock(arg: number): string {
  return [
    'local now',
    `if ARGV[${arg}] == '' then`,
    "  local t = redis.call('TIME')",
    '  now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)',
    'else',
    `  now = tonumber(ARGV[${arg}])`,
    'end',
  ].join('\n');
}

/** The fixed window with its state as 'windowStart:used' in one string, written with SET ... PX. */
const FIXED_WINDOW_STRING = `
local limit = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local cost = tonumber(ARGV[3])
if limit == nil or window == nil or cost == nil then return redis.error_reply('ERR bad arguments') end
${clock(4)}
local start = math.floor(now / window) * window
local reset_ms = start + window - now
local used = 0
local state = redis.call('GET', KEYS[1])
if state then
  local w, n = string.match(state, '^(%d+):(%d+)$')
  if tonumber(w) == start then used = tonumber(n) end
end
if cost > limit or used + cost > limit then return { 0, limit - used, reset_ms, reset_ms } end
used = used + cost
redis.call('SET', KEYS[1], string.format('%d:%d', start, used), 'PX', string.format('%d', reset_ms))
return { 1, limit - used, 0, reset_ms }
`;

/** The token bucket with its state as 'tokens:den:at' in one string, written with SET ... PX. */
const TOKEN_BUCKET_STRING = `
local capacity = tonumber(ARGV[1])
local num = tonumber(ARGV[2])
local den = tonumber(ARGV[3])
local cost = tonumber(ARGV[4])
if capacity == nil or num == nil or den == nil or cost == nil then return redis.error_reply('ERR bad arguments') end
${clock(5)}
local full = capacity * den
local tokens = full
local state = redis.call('GET', KEYS[1])
if state then
  local s, d, t = string.match(state, '^(%d+):(%d+):(%d+)$')
  if s then
    tokens = tonumber(s)
    local elapsed = now - tonumber(t)
    if elapsed > 0 then tokens = math.min(full, tokens + elapsed * num) end
  end
end
local need = cost * den
if tokens < need then return { 0, math.floor(tokens / den), math.ceil((need - tokens) / num), math.ceil((full - tokens) / num) } end
tokens = tokens - need
local ttl = math.ceil((full - tokens) / num)
redis.call('SET', KEYS[1], string.format('%d:%d:%d', tokens, den, now), 'PX', string.format('%d', ttl))
return { 1, math.floor(tokens / den), 0, ttl }
`;

const FLOOR = "local n = redis.call('INCR', KEYS[1]) if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end return n";

/** rate-limiter-flexible's RateLimiterRedis script (v11, `consume` with the default options), as it sends it. */
const RLF = `redis.call('set', KEYS[1], 0, 'EX', ARGV[2], 'NX') \
local consumed = redis.call('incrby', KEYS[1], ARGV[1]) \
local ttl = redis.call('pttl', KEYS[1]) \
if ttl == -1 then \
  redis.call('expire', KEYS[1], ARGV[2]) \
  ttl = 1000 * ARGV[2] \
end \
return {consumed, ttl} `;

interface Variant {
  name: string;
  lua: string;
  args: (now: number) => string[];
}

const big = '1000000000';
const variants: Variant[] = [
  { name: 'floor: INCR + PEXPIRE', lua: FLOOR, args: () => ['60000'] },
  { name: 'rate-limiter-flexible', lua: RLF, args: () => ['1', '60'] },
  { name: 'fixed_window (hash: HMGET, HSET, PEXPIRE, TIME)', lua: LUA_SOURCES.fixed_window, args: () => [big, '60000', '1', ''] },
  { name: 'fixed_window, string + SET PX', lua: FIXED_WINDOW_STRING, args: () => [big, '60000', '1', ''] },
  { name: 'fixed_window, string + SET PX, client clock', lua: FIXED_WINDOW_STRING, args: (now) => [big, '60000', '1', String(now)] },
  { name: 'sliding_window_log', lua: LUA_SOURCES.sliding_window_log, args: () => [big, '60000', '1', ''] },
  { name: 'sliding_window_counter', lua: LUA_SOURCES.sliding_window_counter, args: () => [big, '60000', '1', ''] },
  { name: 'token_bucket (hash)', lua: LUA_SOURCES.token_bucket, args: () => [big, '1', '1', '1', ''] },
  { name: 'token_bucket, string + SET PX', lua: TOKEN_BUCKET_STRING, args: () => [big, '1', '1', '1', ''] },
  { name: 'token_bucket, string + SET PX, client clock', lua: TOKEN_BUCKET_STRING, args: (now) => [big, '1', '1', '1', String(now)] },
  { name: 'gcra (string + SET PX already)', lua: LUA_SOURCES.gcra, args: () => [big, '1', '1000', '1', ''] },
  { name: 'leaky_bucket (hash)', lua: LUA_SOURCES.leaky_bucket, args: () => [big, '1', '1', '1', ''] },
];

function usecPerCall(info: string): number {
  return Number(/cmdstat_evalsha:calls=\d+,usec=\d+,usec_per_call=([\d.]+)/.exec(info)?.[1] ?? NaN);
}

const handle = await startRedisServer();
const r = new Redis(handle.url);
try {
  const shas = await Promise.all(variants.map((v) => r.script('LOAD', v.lua) as Promise<string>));
  const results = new Map<string, number[]>();
  for (const keys of [1, 10_000]) {
    for (let round = 0; round < ROUNDS; round += 1) {
      for (const [k, v] of variants.entries()) {
        await r.flushdb();
        await r.config('RESETSTAT');
        for (let from = 0; from < CALLS; from += 100) {
          const pipeline = r.pipeline();
          const now = Date.now();
          for (let i = from; i < from + 100; i += 1) pipeline.evalsha(shas[k]!, 1, `k:${i % keys}`, ...v.args(now));
          for (const [error] of (await pipeline.exec()) ?? []) if (error) throw error;
        }
        const label = `${keys}|${v.name}`;
        results.set(label, [...(results.get(label) ?? []), usecPerCall(await r.info('commandstats'))]);
      }
    }
  }
  const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)]!;
  console.log(`Redis ${/redis_version:(\S+)/.exec(await r.info('server'))?.[1]}: server µs per EVALSHA (INFO commandstats), median of ${ROUNDS} interleaved rounds of ${CALLS.toLocaleString('en-US')} calls.\n`);
  console.log('| script | hot key µs | / floor | 10,000 keys µs | / floor |');
  console.log('| --- | ---: | ---: | ---: | ---: |');
  const floorHot = median(results.get(`1|${variants[0]!.name}`)!);
  const floorMany = median(results.get(`10000|${variants[0]!.name}`)!);
  for (const v of variants) {
    const hot = median(results.get(`1|${v.name}`)!);
    const many = median(results.get(`10000|${v.name}`)!);
    console.log(`| ${v.name} | ${hot.toFixed(2)} | ${(hot / floorHot).toFixed(2)} | ${many.toFixed(2)} | ${(many / floorMany).toFixed(2)} |`);
  }
} finally {
  r.disconnect();
  await handle.stop();
}
