-- sliding_window_counter: the previous window's count weighted by how much of it still overlaps
-- the sliding window, plus the current window's count, must stay <= `limit`.
--
-- KEYS[1]  the limiter key: a hash { w = current window start (ms), c = its admitted cost,
--          p = the previous window's admitted cost }
-- ARGV[1]  limit      integer >= 1
-- ARGV[2]  windowMs   integer >= 1, milliseconds (limit * windowMs must stay below 2^53)
-- ARGV[3]  cost       integer >= 1
-- ARGV[4]  now        '' to use the server clock (TIME), else integer milliseconds (tests only)
-- Returns  { allowed 0|1, remaining, retryAfterMs (-1: never), resetAfterMs }
--
-- Admission test, in integers (no rounding): p * (windowMs - e) + (c + cost) * windowMs
-- <= limit * windowMs, where e is the time elapsed in the current window. A denied call writes
-- nothing. The first admitted call of a window writes the hash and sets its TTL to the end of
-- the NEXT window, the last moment its count matters (as the previous window's count): at most
-- 2 * windowMs. Later calls of the window only update `c` (HSET keeps that TTL). A clock that
-- steps back never opens a new window: while the clock is before the stored window's start, that
-- window stays the current one, as at its start (retry and reset times include the time the clock
-- needs to catch up, as the key's TTL does: Redis keeps expiries as absolute times).
-- TIME: https://redis.io/docs/latest/commands/time/ ; PEXPIRE: https://redis.io/docs/latest/commands/pexpire/
local MAX = 9007199254740991
local limit = tonumber(ARGV[1])
if limit == nil or limit % 1 ~= 0 or limit < 1 or limit > MAX then
  return redis.error_reply('ERR redis-ttl sliding_window_counter: limit must be an integer >= 1')
end
local window = tonumber(ARGV[2])
if window == nil or window % 1 ~= 0 or window < 1 or limit * window > MAX then
  return redis.error_reply('ERR redis-ttl sliding_window_counter: windowMs must be an integer >= 1 and limit * windowMs < 2^53')
end
local cost = tonumber(ARGV[3])
if cost == nil or cost % 1 ~= 0 or cost < 1 or cost > MAX then
  return redis.error_reply('ERR redis-ttl sliding_window_counter: cost must be an integer >= 1')
end
local now
if ARGV[4] == '' then
  local t = redis.call('TIME')
  -- the two decimal strings of TIME are coerced by the arithmetic (no tonumber call)
  now = t[1] * 1000 + math.floor(t[2] / 1000)
else
  now = tonumber(ARGV[4])
  if now == nil or now % 1 ~= 0 or now < 0 or now > MAX then
    return redis.error_reply('ERR redis-ttl sliding_window_counter: now must be an integer >= 0')
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
local state = redis.call('HMGET', KEYS[1], 'w', 'c', 'p')
local stored_start = tonumber(state[1])
-- ms the clock must move before it reaches the stored window again (0 unless it went back)
local lag = 0
if stored_start ~= nil and stored_start > start then
  -- the clock went back (a step of the server clock, a failover to a replica whose clock lags):
  -- the stored window stays the current one, decided as at its start at the earliest (its
  -- previous count weighs most there), never as a new window
  start = stored_start
  if now < start then
    lag = start - now
  end
end
local elapsed = now + lag - start
local curr = 0
local prev = 0
if stored_start == start then
  curr = tonumber(state[2]) or 0
  prev = tonumber(state[3]) or 0
elseif stored_start == start - window then
  prev = tonumber(state[2]) or 0
end

-- cost still admissible, in whole units, at `elapsed` with counts p (previous) and c (current)
local function room(p, c, e)
  return idiv(limit * window - p * (window - e) - c * window, window)
end

-- the smallest e' >= e in this window's frame with p * (window - e') + (c + cost) * window
-- <= limit * window; may be >= window (then it is not reachable in this window); nil if never
local function first_fit(p, c, e)
  local spare = (limit - c - cost) * window
  if spare < 0 then
    return nil
  end
  if p == 0 then
    return e
  end
  local need = window - idiv(spare, p)
  if need < e then
    need = e
  end
  return need
end

local function idle_reset(p, c)
  if c > 0 then
    return start + 2 * window - now
  elseif p > 0 then
    return start + window - now
  end
  return 0
end

local remaining = room(prev, curr, elapsed)
if remaining < 0 then
  remaining = 0
end

if cost > limit then
  return { 0, remaining, -1, idle_reset(prev, curr) }
end
if remaining < cost then
  local retry
  local here = first_fit(prev, curr, elapsed)
  if here ~= nil and here < window then
    retry = here - elapsed
  else
    -- next window: this window's count becomes the previous one, the current count starts at 0;
    -- first_fit answers at most `window`, the start of the window after, where both are 0
    retry = window - elapsed + first_fit(curr, 0, 0)
  end
  return { 0, remaining, retry + lag, idle_reset(prev, curr) }
end

curr = curr + cost
-- numbers go to Redis as '%d' strings: exact integers, and cheaper than Redis' own %.17g conversion
if state[1] and stored_start == start then
  -- written in this window, when its TTL was set to the end of the next window, which has not
  -- moved: HSET keeps it (one command less per admitted call)
  redis.call('HSET', KEYS[1], 'c', string.format('%d', curr))
else
  redis.call('HSET', KEYS[1], 'w', string.format('%d', start), 'c', string.format('%d', curr), 'p', string.format('%d', prev))
  redis.call('PEXPIRE', KEYS[1], string.format('%d', start + 2 * window - now))
end
return { 1, room(prev, curr, elapsed), 0, start + 2 * window - now }
