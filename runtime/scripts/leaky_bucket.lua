-- leaky_bucket: a bucket of `capacity` units that leaks continuously; a call pours `cost` units
-- in and is admitted only if the bucket does not overflow (the leaky bucket as a meter).
--
-- KEYS[1]  the limiter key (format 3, `...:lb3:...`): 24 bytes, `struct.pack('<ddd', l, t, den)`,
--          l = level * den (an integer) at time t (ms, the latest time the bucket has seen), den
--          the rate's denominator it was written with, three little-endian IEEE doubles (exact
--          integers below 2^53); its TTL is the time the bucket takes to drain empty
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
-- The state is binary (format 3; format 2 was the text "<l>:<t>:<den>"): one struct.unpack reads
-- the three numbers and one struct.pack writes them (struct is one of the libraries Redis loads
-- into its Lua), where string.match made three strings to coerce and string.format ran sprintf
-- three times: -8,000 of ~62,000 instructions per call on a key that holds state (Redis 7.0). A
-- state that is not 24 bytes of three integers in range is a value this script did not write.
-- TIME: https://redis.io/docs/latest/commands/time/ ; SET: https://redis.io/docs/latest/commands/set/
-- Lua libraries in Redis (struct): https://redis.io/docs/latest/develop/programmability/lua-api/
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
  local at, stored_den
  if #state == 24 then
    level, at, stored_den = struct.unpack('<ddd', state)
  end
  -- NaN fails every comparison: a value of 24 other bytes is refused too
  if not (stored_den and level % 1 == 0 and level >= 0 and level <= MAX and at % 1 == 0 and at >= 0 and at <= MAX
      and stored_den % 1 == 0 and stored_den >= 1 and stored_den <= MAX) then
    return redis.error_reply('ERR redis-ttl leaky_bucket: the key holds a value this script did not write')
  end
  if at > now then
    -- the clock went back: decide as at the bucket's time, so that the time stepped over is
    -- never counted twice (no leak until the clock passes it again)
    lag = at - now
    now = at
  end
  if stored_den ~= den then
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
-- the TTL goes to Redis as a '%d' string: exact, and cheaper than Redis' own %.17g conversion;
-- the TTL: ceil(level / num) ms until empty, the float division corrected for rounding; with
-- num = 1 (a leak of one unit per whole ms or slower: 2 per second is 1/500) it is the level
-- itself, without the math.ceil call
local ttl_ms = level
if num ~= 1 then
  ttl_ms = math.ceil(level / num)
  if ttl_ms * num < level then
    ttl_ms = ttl_ms + 1
  elseif (ttl_ms - 1) * num >= level then
    ttl_ms = ttl_ms - 1
  end
end
redis.call('SET', KEYS[1], struct.pack('<ddd', level, now, den), 'PX', string.format('%d', ttl_ms + lag))
if lag > 0 then
  return { level, lag }
end
return level
