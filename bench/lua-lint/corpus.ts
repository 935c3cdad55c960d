/**
 * A deterministic corpus of realistic Redis Lua scripts for the lua-lint benchmark: rate limiters
 * (fixed window, sliding log, token bucket, GCRA), counters, locks, loops over KEYS, local helper
 * functions, deny branches, collect scripts and Redis 7 function libraries. Most scripts keep the
 * TTL promise and some leak, as in real code bases. The same seed always yields the same text.
 */

/** One generated script. */
export interface CorpusScript {
  name: string;
  source: string;
}

/** A small, fast, seedable PRNG (mulberry32). */
export function createRandom(seed: number) {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number): number => min + Math.floor(next() * (max - min + 1));
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
  return { next, int, pick };
}

type Random = ReturnType<typeof createRandom>;

/** What a block may use: the key expression to write and a unique suffix for its locals. */
interface BlockContext {
  key: string;
  /** `KEYS` in a script, `keys` in a library function. */
  keys: string;
  arg: (n: number) => string;
  id: string;
  r: Random;
  call: string;
}

const COMMENTS = [
  'Keys are hash-tagged so that every key of one client lives in one cluster slot.',
  'The TTL is refreshed on every write, so an idle client costs nothing after the window.',
  'Replies: 1 = allowed, 0 = denied; the second value is what the client may still spend.',
  'ARGV values are strings: compare them only after tonumber().',
  'redis.call raises on a wrong type; the writes before it are not rolled back.',
  'All times are in milliseconds, taken from the server clock (TIME) to avoid skew.',
  'This block was ported from the Python implementation; keep both in sync.',
  'Do not use KEYS other than the ones declared by the caller: Redis Cluster routes by them.',
];

const BLOCKS: Array<(c: BlockContext) => string> = [
  // fixed window, expiry on create
  ({ key, arg, id, call }) => `do
  local count_${id} = ${call}('INCR', ${key})
  if count_${id} == 1 then
    ${call}('PEXPIRE', ${key}, ${arg(1)})
  end
  if count_${id} > tonumber(${arg(2)}) then
    return { 0, count_${id}, ${call}('PTTL', ${key}) }
  end
end`,
  // sliding-window log
  ({ key, arg, id, call }) => `do
  local now_${id} = tonumber(${arg(1)})
  local window_${id} = tonumber(${arg(2)})
  ${call}('ZREMRANGEBYSCORE', ${key}, '-inf', now_${id} - window_${id})
  local used_${id} = ${call}('ZCARD', ${key})
  if used_${id} >= tonumber(${arg(3)}) then
    ${call}('PEXPIRE', ${key}, window_${id})
    return 0
  end
  ${call}('ZADD', ${key}, now_${id}, ${arg(4)})
  ${call}('PEXPIRE', ${key}, window_${id})
end`,
  // token bucket
  ({ key, arg, id, call }) => `do
  local capacity_${id} = tonumber(${arg(1)})
  local rate_${id} = tonumber(${arg(2)})
  local t_${id} = ${call}('TIME')
  local now_${id} = tonumber(t_${id}[1]) * 1000 + math.floor(tonumber(t_${id}[2]) / 1000)
  local state_${id} = ${call}('HMGET', ${key}, 'tokens', 'ts')
  local tokens_${id} = tonumber(state_${id}[1]) or capacity_${id}
  local ts_${id} = tonumber(state_${id}[2]) or now_${id}
  tokens_${id} = math.min(capacity_${id}, tokens_${id} + math.max(0, now_${id} - ts_${id}) * rate_${id} / 1000)
  local allowed_${id} = 0
  if tokens_${id} >= 1 then
    tokens_${id} = tokens_${id} - 1
    allowed_${id} = 1
  end
  ${call}('HSET', ${key}, 'tokens', tokens_${id}, 'ts', now_${id})
  ${call}('PEXPIRE', ${key}, math.ceil(capacity_${id} / rate_${id} * 1000) + 1000)
  if allowed_${id} == 0 then
    return { 0, math.floor(tokens_${id}) }
  end
end`,
  // GCRA
  ({ key, arg, id, call }) => `do
  local now_${id} = tonumber(${arg(1)})
  local emission_${id} = tonumber(${arg(2)})
  local tolerance_${id} = tonumber(${arg(3)})
  local tat_${id} = tonumber(${call}('GET', ${key}) or now_${id})
  local new_tat_${id} = math.max(tat_${id}, now_${id}) + emission_${id}
  if new_tat_${id} - now_${id} > tolerance_${id} then
    return { 0, new_tat_${id} - now_${id} - tolerance_${id} }
  end
  ${call}('SET', ${key}, new_tat_${id}, 'PX', math.ceil(new_tat_${id} - now_${id}))
end`,
  // lock with lease and renewal
  ({ key, arg, id, call }) => `do
  local owner_${id} = ${arg(1)}
  if not ${call}('SET', ${key}, owner_${id}, 'NX', 'PX', ${arg(2)}) then
    if ${call}('GET', ${key}) ~= owner_${id} then
      return 0
    end
    ${call}('PEXPIRE', ${key}, ${arg(2)})
  end
end`,
  // loop over every key
  ({ keys, arg, id, call }) => `do
  local total_${id} = 0
  for i = 1, #${keys} do
    total_${id} = total_${id} + ${call}('INCRBY', ${keys}[i], ${arg(1)})
  end
  for i = 1, #${keys} do
    ${call}('PEXPIRE', ${keys}[i], ${arg(2)})
  end
end`,
  // ipairs loop with a hash per key
  ({ keys, arg, id, call }) => `do
  for idx_${id}, k_${id} in ipairs(${keys}) do
    ${call}('HINCRBY', k_${id}, 'hits', 1)
    ${call}('HSET', k_${id}, 'last', ${arg(1)}, 'slot', idx_${id})
    ${call}('EXPIRE', k_${id}, 3600)
  end
end`,
  // helper function use
  ({ key, arg, id, call }) => `do
  local function bump_${id}(k, amount, ttl)
    local v = ${call}('INCRBYFLOAT', k, amount)
    ${call}('PEXPIRE', k, ttl)
    return v
  end
  local value_${id} = bump_${id}(${key}, ${arg(1)}, ${arg(2)})
  if tonumber(value_${id}) < 0 then
    ${call}('SET', ${key}, 0, 'KEEPTTL')
  end
end`,
  // deny branch that records a statistic without expiry (a leak)
  ({ key, keys, arg, id, call }) => `do
  local over_${id} = tonumber(${call}('GET', ${key}) or '0') > tonumber(${arg(1)})
  if over_${id} then
    ${call}('HINCRBY', ${keys}[#${keys}], 'rejected', 1)
    return 0
  end
  ${call}('SET', ${key}, ${arg(1)}, 'EX', 60)
end`,
  // guarded collect
  ({ key, id, call }) => `do
  local pending_${id} = ${call}('GET', ${key})
  if pending_${id} then
    ${call}('SET', ${key}, '0', 'KEEPTTL')
  end
end`,
  // queue with JSON payload and a persistent-on-purpose job hash
  ({ keys, arg, id, call }) => `do
  local job_${id} = cjson.decode(${arg(1)})
  local queued_${id} = ${call}('LPUSH', ${keys}[1], job_${id}.id)
  ${call}('PEXPIRE', ${keys}[1], 86400000)
  -- redis-ttl persistent: ${keys}[2]
  ${call}('HSET', ${keys}[2], 'payload', ${arg(1)}, 'state', 'queued', 'position', queued_${id})
end`,
  // string work without redis calls
  ({ arg, id }) => `do
  local parts_${id} = {}
  for piece in string.gmatch(${arg(1)}, '[^:]+') do
    parts_${id}[#parts_${id} + 1] = string.upper(piece)
  end
  local joined_${id} = table.concat(parts_${id}, '/')
  if #joined_${id} > 64 then
    return redis.error_reply('identity too long: ' .. string.sub(joined_${id}, 1, 16))
  end
end`,
];

function block(r: Random, index: number, call: string, keysName: string, argsName: string): string {
  const template = r.pick(BLOCKS);
  const keyIndex = r.int(1, 3);
  const key = r.next() < 0.2 ? `key_${index}` : `${keysName}[${keyIndex}]`;
  const alias = key.startsWith('key_') ? `local key_${index} = ${keysName}[${keyIndex}]\n` : '';
  const comment = r.next() < 0.6 ? `-- ${r.pick(COMMENTS)}\n` : '';
  return comment + alias + template({ key, keys: keysName, arg: (n) => `${argsName}[${n + r.int(0, 2)}]`, id: String(index), r, call });
}

function script(r: Random, index: number): string {
  const call = r.next() < 0.25 ? 'rcall' : 'redis.call';
  const header = Array.from({ length: r.int(3, 8) }, () => `-- ${r.pick(COMMENTS)}`).join('\n');
  const prelude = call === 'rcall' ? 'local rcall = redis.call\n' : '';
  const blocks = Array.from({ length: r.int(6, 14) }, (_, i) => block(r, i, call, 'KEYS', 'ARGV')).join('\n\n');
  return `${header}\n-- script #${index}\n${prelude}\n${blocks}\n\nreturn 1\n`;
}

function library(r: Random, index: number): string {
  const functions = r.int(2, 5);
  const parts = [`#!lua name=lib${index}`, `-- ${r.pick(COMMENTS)}`, ''];
  for (let f = 0; f < functions; f++) {
    const blocks = Array.from({ length: r.int(3, 6) }, (_, i) => block(r, f * 10 + i, 'redis.call', 'keys', 'args'));
    const body = blocks.join('\n\n').replace(/^/gm, '  ');
    parts.push(`local function fn${f}(keys, args)\n${body}\n  return 1\nend\n`);
  }
  for (let f = 0; f < functions; f++) {
    parts.push(r.next() < 0.5 ? `redis.register_function('fn${f}', fn${f})` : `redis.register_function{ function_name = 'fn${f}', callback = fn${f} }`);
  }
  return `${parts.join('\n')}\n`;
}

/**
 * Generates `count` scripts from `seed`; about one in six is a function library.
 * @returns the scripts, named `script-<n>.lua` / `library-<n>.lua`
 */
export function generateCorpus(count: number, seed: number): CorpusScript[] {
  const r = createRandom(seed);
  return Array.from({ length: count }, (_, index) => {
    const isLibrary = r.next() < 1 / 6;
    return isLibrary
      ? { name: `library-${index}.lua`, source: library(r, index) }
      : { name: `script-${index}.lua`, source: script(r, index) };
  });
}
