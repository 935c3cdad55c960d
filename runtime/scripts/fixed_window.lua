-- fixed_window: at most `limit` cost per window of `windowMs` milliseconds; a window starts at
-- its first admission and is the key's own TTL (as rate-limiter-flexible's fixed window).
--
-- KEYS[1]  the limiter key (format 2, `...:fw2:...`): a string, the cost admitted in the current
--          window (a decimal integer); its TTL is the time left in the window, less 1 ms
-- ARGV[1]  limit      integer >= 1
-- ARGV[2]  windowMs   integer >= 1, milliseconds
-- ARGV[3]  cost       integer >= 1; absent: 1
-- Returns  an integer when it fits below 2^53 (always, unless `limit * windowMs` comes near
--          2^53): u * (windowMs + 1) + p for an admitted call, -(u * (windowMs + 1) + p) - 1
--          for a denied one, where u is the cost admitted in the window (after the call when
--          admitted) and p the ms until the next window opens (0 when nothing was admitted; at
--          most windowMs, unless the window is 1 ms or the clock stepped back); else the table
--          { allowed 0|1, u, p }. The caller knows limit, windowMs and cost: these give
--          remaining, retryAfterMs and resetAfterMs (runtime/decode.ts).
--
-- No clock of its own: the first admission of a window creates the key with `SET ... PX` and
-- later ones `INCRBY` it, which keeps its TTL; the key expires when the window ends, which opens
-- the next one. Redis keeps a key up to and including the millisecond of its expiry, so the TTL
-- of a window of windowMs is windowMs - 1 (a window of 1 ms lasts 2: a TTL is at least 1 ms) and
-- `PTTL` + 1 is the time until the next window (the retry time of a denied call). Redis keeps an
-- expiry as an absolute time of its own clock, so a step of the server clock back (NTP, a
-- failover to a replica whose clock lags) makes the window longer, never reopens it; a step
-- forward ends it early, as time passing would. A denied call writes nothing, except to give a
-- key that lost its TTL (PERSIST by hand) a window again. Arguments are coerced by arithmetic (an
-- argument that is not a number is Redis' script error) and checked before anything is written.
-- SET: https://redis.io/docs/latest/commands/set/ ; INCRBY: https://redis.io/docs/latest/commands/incrby/ ;
-- PTTL: https://redis.io/docs/latest/commands/pttl/
local MAX = 9007199254740991
local limit = ARGV[1] + 0
if limit % 1 ~= 0 or limit < 1 or limit > MAX then
  return redis.error_reply('ERR redis-ttl fixed_window: limit must be an integer >= 1')
end
local window = ARGV[2] + 0
if window % 1 ~= 0 or window < 1 or window > MAX then
  return redis.error_reply('ERR redis-ttl fixed_window: windowMs must be an integer >= 1')
end
local cost = 1
-- numbers go to Redis as '%d' strings: exact integers, and cheaper than Redis' own %.17g conversion
local by = '1'
if ARGV[3] then
  cost = ARGV[3] + 0
  if cost % 1 ~= 0 or cost < 1 or cost > MAX then
    return redis.error_reply('ERR redis-ttl fixed_window: cost must be an integer >= 1')
  end
  by = string.format('%d', cost)
end

-- the reply: u and p in one integer (the caller decodes it), or a table when that would pass 2^53
local function reply(allowed, u, p)
  local packed = u * (window + 1) + p
  if p < 0 or p > window or packed > MAX then
    return { allowed, u, p }
  end
  if allowed == 1 then
    return packed
  end
  return -packed - 1
end

-- the key's TTL for a new window: the window less the millisecond of the expiry itself
local ttl = window - 1
if ttl < 1 then
  ttl = 1
end
local stored = redis.call('GET', KEYS[1])
if not stored then
  if cost > limit then
    return reply(0, 0, 0)
  end
  redis.call('SET', KEYS[1], by, 'PX', string.format('%d', ttl))
  return reply(1, cost, ttl + 1)
end
local used = tonumber(stored)
if used == nil or used % 1 ~= 0 or used < 0 then
  return redis.error_reply('ERR redis-ttl fixed_window: the key holds a value this script did not write')
end
if cost > limit or used + cost > limit then
  local left = redis.call('PTTL', KEYS[1])
  if left < 0 then
    -- a key left without TTL by other code: the window it lost, from now
    redis.call('PEXPIRE', KEYS[1], string.format('%d', ttl))
    left = ttl
  end
  return reply(0, used, left + 1)
end
used = redis.call('INCRBY', KEYS[1], by)
local left = redis.call('PTTL', KEYS[1])
if left < 0 then
  redis.call('PEXPIRE', KEYS[1], string.format('%d', ttl))
  left = ttl
end
return reply(1, used, left + 1)
