-- leaky_bucket: a bucket of `capacity` units that leaks continuously; a call pours `cost` units
-- in and is admitted only if the bucket does not overflow (the leaky bucket as a meter).
--
-- KEYS[1]  the limiter key (format 2, `...:lb2:...`): a string "<l>:<t>:<den>", l = level * den
--          (an integer) at time t (ms, the latest time the bucket has seen), den the rate's
--          denominator it was written with; its TTL is the time the bucket takes to drain empty
-- ARGV[1]  capacity   integer >= 1, units
-- ARGV[2]  num        integer >= 1  } the leak rate is num/den units per millisecond
-- ARGV[3]  den        integer >= 1  } (leakPerSecond / 1000, as an exact fraction)
-- ARGV[4]  cost       integer >= 1, units; absent: 1
-- ARGV[5]  now        absent: the server clock (TIME); else integer milliseconds (tests only)
-- Returns  l, the level * den after an admitted call, or -l - 1 (l before the call) for a denied
--          one: an integer, from which the caller, who knows the parameters and the cost, computes
--          remaining, retryAfterMs and resetAfterMs (runtime/decode.ts); the table
--          { that integer, lag } when the clock is `lag` ms behind the bucket's time t.
--
-- The level is kept in units of 1/den, so leaking and waits are exact integers. A missing key is
-- an empty bucket. A denied call writes nothing. An admitted call writes the state and its TTL in
-- one `SET ... PX`: the time until the bucket is empty, after which a missing key means the same.
-- A clock that steps back (a step of the server clock, a failover to a replica whose clock lags)
-- drains nothing: the call is decided as at t, and retry and reset times and the TTL include the
-- time the clock needs to catch up (the lag). Arguments are coerced by arithmetic (an argument
-- that is not a number is Redis' script error) and checked before anything is written.
-- TIME: https://redis.io/docs/latest/commands/time/ ; SET: https://redis.io/docs/latest/commands/set/
local MAX = 9007199254740991
local capacity = ARGV[1] + 0
if capacity % 1 ~= 0 or capacity < 1 or capacity > MAX then
  return redis.error_reply('ERR redis-ttl leaky_bucket: capacity must be an integer >= 1')
end
local num = ARGV[2] + 0
if num % 1 ~= 0 or num < 1 or num > MAX then
  return redis.error_reply('ERR redis-ttl leaky_bucket: rate numerator must be an integer >= 1')
end
local den = ARGV[3] + 0
if den % 1 ~= 0 or den < 1 or capacity * den > MAX then
  return redis.error_reply('ERR redis-ttl leaky_bucket: rate denominator must be an integer >= 1 and capacity * den < 2^53')
end
local cost = 1
if ARGV[4] then
  cost = ARGV[4] + 0
  if cost % 1 ~= 0 or cost < 1 or cost > MAX then
    return redis.error_reply('ERR redis-ttl leaky_bucket: cost must be an integer >= 1')
  end
end
local now
if ARGV[5] then
  now = ARGV[5] + 0
  if now % 1 ~= 0 or now < 0 or now > MAX then
    return redis.error_reply('ERR redis-ttl leaky_bucket: now must be an integer >= 0')
  end
else
  local t = redis.call('TIME')
  -- the two decimal strings of TIME are coerced by the arithmetic (no tonumber call)
  now = t[1] * 1000 + math.floor(t[2] / 1000)
end

local full = capacity * den
local level = 0
-- ms the clock must move before it reaches the bucket's time again (0 unless it went back)
local lag = 0
local state = redis.call('GET', KEYS[1])
if state then
  local stored, at, stored_den = string.match(state, '^(%d+):(%d+):(%d+)$')
  if stored == nil then
    return redis.error_reply('ERR redis-ttl leaky_bucket: the key holds a value this script did not write')
  end
  level = stored + 0
  at = at + 0
  if at > now then
    -- the clock went back: decide as at the bucket's time, so that the time stepped over is
    -- never counted twice (no leak until the clock passes it again)
    lag = at - now
    now = at
  end
  if stored_den ~= ARGV[3] and stored_den + 0 ~= den then
    -- written under another leak rate: convert, rounding up (towards a fuller bucket)
    level = math.ceil(level / stored_den * den)
  end
  if level > full then
    level = full
  end
  if level > 0 then
    -- leak; a product past 2^53 is inexact but still above the level
    local leaked = (now - at) * num
    if leaked >= level then
      level = 0
    else
      level = level - leaked
    end
  end
end

local need = cost * den
if cost > capacity or level + need > full then
  if lag > 0 then
    return { -level - 1, lag }
  end
  return -level - 1
end
level = level + need
-- numbers go to Redis as '%d' strings: exact integers, and cheaper than Redis' own %.17g conversion
-- the TTL: ceil(level / num) ms until empty, the float division corrected for rounding
local ttl_ms = math.ceil(level / num)
if ttl_ms * num < level then
  ttl_ms = ttl_ms + 1
elseif (ttl_ms - 1) * num >= level then
  ttl_ms = ttl_ms - 1
end
redis.call('SET', KEYS[1], string.format('%d:%d:%d', level, now, den), 'PX', string.format('%d', ttl_ms + lag))
if lag > 0 then
  return { level, lag }
end
return level
