-- fixed_window: at most `limit` cost per epoch-aligned window of `windowMs` milliseconds.
--
-- KEYS[1]  the limiter key: a hash { w = window start (ms), n = admitted cost in that window }
-- ARGV[1]  limit      integer >= 1
-- ARGV[2]  windowMs   integer >= 1, milliseconds
-- ARGV[3]  cost       integer >= 1
-- ARGV[4]  now        '' to use the server clock (TIME), else integer milliseconds (tests only)
-- Returns  { allowed 0|1, remaining, retryAfterMs (-1: never), resetAfterMs }
--
-- A denied call writes nothing. The first admitted call of a window writes the hash and sets its
-- TTL to the end of the window in the same script, so the key never outlives its window and never
-- lacks a TTL; later calls of the window only update `n` (HSET keeps the TTL, which is already the
-- window's end). A clock that steps back never opens a new window: while the clock is before the
-- stored window's start, that window stays the current one (retry and reset times then include
-- the time the clock needs to catch up, as the key's TTL does: Redis keeps expiries as absolute
-- times).
-- TIME: https://redis.io/docs/latest/commands/time/ ; PEXPIRE: https://redis.io/docs/latest/commands/pexpire/
local MAX = 9007199254740991
local limit = tonumber(ARGV[1])
if limit == nil or limit % 1 ~= 0 or limit < 1 or limit > MAX then
  return redis.error_reply('ERR redis-ttl fixed_window: limit must be an integer >= 1')
end
local window = tonumber(ARGV[2])
if window == nil or window % 1 ~= 0 or window < 1 or window > MAX then
  return redis.error_reply('ERR redis-ttl fixed_window: windowMs must be an integer >= 1')
end
local cost = tonumber(ARGV[3])
if cost == nil or cost % 1 ~= 0 or cost < 1 or cost > MAX then
  return redis.error_reply('ERR redis-ttl fixed_window: cost must be an integer >= 1')
end
local now
if ARGV[4] == '' then
  local t = redis.call('TIME')
  -- the two decimal strings of TIME are coerced by the arithmetic (no tonumber call)
  now = t[1] * 1000 + math.floor(t[2] / 1000)
else
  now = tonumber(ARGV[4])
  if now == nil or now % 1 ~= 0 or now < 0 or now > MAX then
    return redis.error_reply('ERR redis-ttl fixed_window: now must be an integer >= 0')
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

local start = idiv(now, window) * window
local state = redis.call('HMGET', KEYS[1], 'w', 'n')
local stored_start = tonumber(state[1])
if stored_start ~= nil and stored_start > start then
  -- the clock went back (a step of the server clock, a failover to a replica whose clock lags):
  -- the stored window is not over and stays the current one until the clock passes its end
  start = stored_start
end
local reset_ms = start + window - now
local used = 0
local same = stored_start == start
if same then
  used = tonumber(state[2]) or 0
end
local remaining = limit - used
if remaining < 0 then
  remaining = 0
end
local idle_reset = 0
if used > 0 then
  idle_reset = reset_ms
end

if cost > limit then
  return { 0, remaining, -1, idle_reset }
end
if used + cost > limit then
  return { 0, remaining, reset_ms, idle_reset }
end

used = used + cost
-- numbers go to Redis as '%d' strings: exact integers, and cheaper than Redis' own %.17g conversion
if state[1] and same then
  -- the key was written in this window, and its TTL then set to this window's end, which has not
  -- moved: HSET keeps it (one command less per admitted call)
  redis.call('HSET', KEYS[1], 'n', string.format('%d', used))
else
  redis.call('HSET', KEYS[1], 'w', string.format('%d', start), 'n', string.format('%d', used))
  redis.call('PEXPIRE', KEYS[1], string.format('%d', reset_ms))
end
return { 1, limit - used, 0, reset_ms }
