-- token_bucket: a bucket of `capacity` tokens refilled continuously; a call takes `cost` tokens.
--
-- KEYS[1]  the limiter key (format 3, `...:tb3:...`): 24 bytes, `struct.pack('<ddd', s, t, den)`,
--          s = tokens * den (an integer) at time t (ms, the latest time the bucket has seen), den
--          the rate's denominator it was written with, three little-endian IEEE doubles (exact
--          integers below 2^53); its TTL is the time the bucket takes to be full again
-- ARGV[1]  capacity   integer >= 1, tokens
-- ARGV[2]  num        integer >= 1  } the refill rate is num/den tokens per millisecond
-- ARGV[3]  den        integer >= 1  } (refillPerSecond / 1000, as an exact fraction)
-- ARGV[4]  cost       integer >= 1, tokens; absent: 1
-- ARGV[5]  now        absent: the server clock (TIME); else integer milliseconds (tests only)
-- Returns  s, the tokens * den left after an admitted call, or -s - 1 (s before the call) for a
--          denied one: an integer, from which the caller, who knows the parameters and the cost,
--          computes remaining, retryAfterMs and resetAfterMs (runtime/decode.ts); the table
--          { that integer, lag } when the clock is `lag` ms behind the bucket's time t.
--
-- Tokens are kept in units of 1/den token, so refill and waits are exact integers: a call that
-- waits retryAfterMs succeeds and one that waits 1 ms less does not. A missing key is a full
-- bucket. A denied call writes nothing. An admitted call writes the state and its TTL in one
-- `SET ... PX`: the time until the bucket is full again, after which a missing key means the
-- same thing. A clock that steps back (a step of the server clock, a failover to a replica whose
-- clock lags) refills nothing: the call is decided as at t, and retry and reset times and the TTL
-- include the time the clock needs to catch up (the lag). Arguments are coerced by arithmetic (an
-- argument that is not a number is Redis' script error) and checked before anything is written.
-- The state is binary (format 3; format 2 was the text "<s>:<t>:<den>"): one struct.unpack reads
-- the three numbers and one struct.pack writes them (struct is one of the libraries Redis loads
-- into its Lua), where string.match made three strings to coerce and string.format ran sprintf
-- three times: -8,000 of ~62,000 instructions per call on a key that holds state (Redis 7.0). A
-- state that is not 24 bytes of three integers in range is a value this script did not write.
-- TIME: https://redis.io/docs/latest/commands/time/ ; SET: https://redis.io/docs/latest/commands/set/
-- Lua libraries in Redis (struct): https://redis.io/docs/latest/develop/programmability/lua-api/
local MAX = 9007199254740991
local capacity = ARGV[1] + 0
if capacity % 1 ~= 0 or capacity < 1 or capacity > MAX then
  return redis.error_reply('ERR redis-ttl token_bucket: capacity must be an integer >= 1')
end
local num = ARGV[2] + 0
if num % 1 ~= 0 or num < 1 or num > MAX then
  return redis.error_reply('ERR redis-ttl token_bucket: rate numerator must be an integer >= 1')
end
local den = ARGV[3] + 0
if den % 1 ~= 0 or den < 1 or capacity * den > MAX then
  return redis.error_reply('ERR redis-ttl token_bucket: rate denominator must be an integer >= 1 and capacity * den < 2^53')
end
local cost = 1
if ARGV[4] then
  cost = ARGV[4] + 0
  if cost % 1 ~= 0 or cost < 1 or cost > MAX then
    return redis.error_reply('ERR redis-ttl token_bucket: cost must be an integer >= 1')
  end
end
local now
if ARGV[5] then
  now = ARGV[5] + 0
  if now % 1 ~= 0 or now < 0 or now > MAX then
    return redis.error_reply('ERR redis-ttl token_bucket: now must be an integer >= 0')
  end
else
  local t = redis.call('TIME')
  -- the two decimal strings of TIME are coerced by the arithmetic (no tonumber call)
  now = t[1] * 1000 + math.floor(t[2] / 1000)
end

local full = capacity * den
local tokens = full
-- ms the clock must move before it reaches the bucket's time again (0 unless it went back)
local lag = 0
local state = redis.call('GET', KEYS[1])
if state then
  local at, stored_den
  if #state == 24 then
    tokens, at, stored_den = struct.unpack('<ddd', state)
  end
  -- NaN fails every comparison: a value of 24 other bytes is refused too
  if not (stored_den and tokens % 1 == 0 and tokens >= 0 and tokens <= MAX and at % 1 == 0 and at >= 0 and at <= MAX
      and stored_den % 1 == 0 and stored_den >= 1 and stored_den <= MAX) then
    return redis.error_reply('ERR redis-ttl token_bucket: the key holds a value this script did not write')
  end
  if at > now then
    -- the clock went back: decide as at the bucket's time, so that the time stepped over is
    -- never counted twice (no refill until the clock passes it again)
    lag = at - now
    now = at
  end
  if stored_den ~= den then
    -- written under another refill rate: convert, rounding down (towards fewer tokens)
    tokens = math.floor(tokens / stored_den * den)
  end
  if tokens < full then
    -- refill; a product past 2^53 is inexact but still above what is missing
    local refill = (now - at) * num
    if refill >= full - tokens then
      tokens = full
    else
      tokens = tokens + refill
    end
  elseif tokens > full then
    tokens = full
  end
end

local need = cost * den
if cost > capacity or tokens < need then
  if lag > 0 then
    return { -tokens - 1, lag }
  end
  return -tokens - 1
end
tokens = tokens - need
-- the TTL goes to Redis as a '%d' string: exact, and cheaper than Redis' own %.17g conversion;
-- the TTL: ceil((full - tokens) / num) ms until full again, the float division corrected for
-- rounding; with num = 1 (a rate of one token per whole ms or slower: 2 per second is 1/500) it is
-- the gap itself, without the math.ceil call
local gap = full - tokens
local ttl_ms = gap
if num ~= 1 then
  ttl_ms = math.ceil(gap / num)
  if ttl_ms * num < gap then
    ttl_ms = ttl_ms + 1
  elseif (ttl_ms - 1) * num >= gap then
    ttl_ms = ttl_ms - 1
  end
end
redis.call('SET', KEYS[1], struct.pack('<ddd', tokens, now, den), 'PX', string.format('%d', ttl_ms + lag))
if lag > 0 then
  return { tokens, lag }
end
return tokens
