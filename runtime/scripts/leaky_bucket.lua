-- leaky_bucket: a bucket of `capacity` units that leaks continuously; a call pours `cost` units
-- in and is admitted only if the bucket does not overflow (the leaky bucket as a meter).
--
-- KEYS[1]  the limiter key: a hash { l = level * den (integer), d = den, t = time of l (ms) }
-- ARGV[1]  capacity   integer >= 1, units
-- ARGV[2]  num        integer >= 1  } the leak rate is num/den units per millisecond
-- ARGV[3]  den        integer >= 1  } (leakPerSecond / 1000, as an exact fraction)
-- ARGV[4]  cost       integer >= 1, units
-- ARGV[5]  now        '' to use the server clock (TIME), else integer milliseconds (tests only)
-- Returns  { allowed 0|1, remaining room, retryAfterMs (-1: never), resetAfterMs }
--
-- The level is kept in units of 1/den, so leaking and waits are exact integers. A missing key is
-- an empty bucket. A denied call writes nothing. An admitted call writes the hash and sets its
-- TTL to the time the bucket takes to drain empty, after which a missing key means the same.
-- A clock that steps back (a step of the server clock, a failover to a replica whose clock lags)
-- drains nothing: the call is decided as at the last admission (`t`, the latest time the bucket
-- has seen), and retry and reset times and the TTL include the time the clock needs to catch up.
-- TIME: https://redis.io/docs/latest/commands/time/ ; PEXPIRE: https://redis.io/docs/latest/commands/pexpire/
local MAX = 9007199254740991
local capacity = tonumber(ARGV[1])
if capacity == nil or capacity % 1 ~= 0 or capacity < 1 or capacity > MAX then
  return redis.error_reply('ERR redis-ttl leaky_bucket: capacity must be an integer >= 1')
end
local num = tonumber(ARGV[2])
if num == nil or num % 1 ~= 0 or num < 1 or num > MAX then
  return redis.error_reply('ERR redis-ttl leaky_bucket: rate numerator must be an integer >= 1')
end
local den = tonumber(ARGV[3])
if den == nil or den % 1 ~= 0 or den < 1 or capacity * den > MAX then
  return redis.error_reply('ERR redis-ttl leaky_bucket: rate denominator must be an integer >= 1 and capacity * den < 2^53')
end
local cost = tonumber(ARGV[4])
if cost == nil or cost % 1 ~= 0 or cost < 1 or cost > MAX then
  return redis.error_reply('ERR redis-ttl leaky_bucket: cost must be an integer >= 1')
end
local now
if ARGV[5] == '' then
  local t = redis.call('TIME')
  -- the two decimal strings of TIME are coerced by the arithmetic (no tonumber call)
  now = t[1] * 1000 + math.floor(t[2] / 1000)
else
  now = tonumber(ARGV[5])
  if now == nil or now % 1 ~= 0 or now < 0 or now > MAX then
    return redis.error_reply('ERR redis-ttl leaky_bucket: now must be an integer >= 0')
  end
end

-- floor(a / b) for integers below 2^53, corrected for rounding of the float division
local function idiv(a, b)
  local q = math.floor(a / b)
  if q * b > a then
    q = q - 1
  elseif (q + 1) * b <= a then
    q = q + 1
  end
  return q
end
local function cdiv(a, b)
  return -idiv(-a, b)
end

local full = capacity * den
local level = 0
local state = redis.call('HMGET', KEYS[1], 'l', 'd', 't')
local stored = tonumber(state[1])
local stored_den = tonumber(state[2])
local stored_at = tonumber(state[3])
-- ms the clock must move before it reaches the last admission again (0 unless it went back)
local lag = 0
if stored ~= nil and stored_den ~= nil and stored_den >= 1 and stored_at ~= nil then
  if stored_at > now then
    -- the clock went back (a step of the server clock, a failover to a replica whose clock lags):
    -- decide as at the last admission, the latest time this bucket has seen, so that the time
    -- stepped over is never counted twice (no refill until the clock passes it again)
    lag = stored_at - now
    now = stored_at
  end
  level = stored
  if stored_den ~= den then
    -- written under another leak rate: convert (rounding up, towards a fuller bucket)
    level = math.ceil(stored / stored_den * den)
  end
  if level > full then
    level = full
  end
  if level > 0 then
    local elapsed = now - stored_at
    if elapsed > 0 then
      local to_empty = cdiv(level, num)
      if elapsed > to_empty then
        elapsed = to_empty
      end
      level = level - elapsed * num
    end
  end
  if level < 0 then
    level = 0
  end
end

local need = cost * den
if cost > capacity or level + need > full then
  -- times on the clock as it is: the time it needs to catch up (lag) comes first
  local reset = cdiv(level, num)
  if reset > 0 then
    reset = reset + lag
  end
  if cost > capacity then
    return { 0, idiv(full - level, den), -1, reset }
  end
  return { 0, idiv(full - level, den), cdiv(level + need - full, num) + lag, reset }
end

level = level + need
local ttl_ms = cdiv(level, num) + lag
-- numbers go to Redis as '%d' strings: exact integers, and cheaper than Redis' own %.17g conversion
redis.call('HSET', KEYS[1], 'l', string.format('%d', level), 'd', string.format('%d', den), 't', string.format('%d', now))
redis.call('PEXPIRE', KEYS[1], string.format('%d', ttl_ms))
return { 1, idiv(full - level, den), 0, ttl_ms }
