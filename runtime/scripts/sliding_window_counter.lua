-- sliding_window_counter: the previous window's count weighted by how much of it still overlaps
-- the sliding window, plus the current window's count, must stay <= `limit`.
--
-- KEYS[1]  the limiter key (format 2, `...:swc2:...`): a hash { w = current window start (ms),
--          c = its admitted cost, p = the previous window's admitted cost }
-- ARGV[1]  limit      integer >= 1
-- ARGV[2]  windowMs   integer >= 1, milliseconds (limit * windowMs must stay below 2^53)
-- ARGV[3]  cost       integer >= 1; absent: 1
-- ARGV[4]  now        absent: the server clock (TIME); else integer milliseconds (tests only)
-- Returns  for an admitted call, r * windowMs + e, where r is the cost still admissible after it
--          and e the ms elapsed in the current window; for a denied one, -x - 1 with
--          x = (p * (limit + 1) + c) * windowMs + e, where p and c are the previous and current
--          window's cost: integers, from which the caller, who knows the parameters and the cost,
--          computes remaining, retryAfterMs and resetAfterMs (runtime/decode.ts); the table
--          { allowed 0|1, p, c, e, lag } when the clock is `lag` ms behind the stored window's
--          start, or for a denial when x would pass 2^53 (large limits) or c > limit (the limit
--          was lowered within a window).
--
-- Windows are aligned to the Unix epoch on the server clock. Admission test, in integers (no
-- rounding): p * (windowMs - e) + (c + cost) * windowMs <= limit * windowMs. A denied call writes
-- nothing. The first admitted call of a window writes the hash and sets its TTL to the end of the
-- NEXT window, the last moment its count matters (as the previous window's count): at most
-- 2 * windowMs. Later calls of the window only add to `c` (HINCRBY keeps that TTL). A clock that
-- steps back never opens a new window: while the clock is before the stored window's start, that
-- window stays the current one, as at its start (retry and reset times include the time the clock
-- needs to catch up, as the key's TTL does: Redis keeps expiries as absolute times). Arguments are
-- coerced by arithmetic (an argument that is not a number is Redis' script error) and checked
-- before anything is written.
-- TIME: https://redis.io/docs/latest/commands/time/ ; HINCRBY: https://redis.io/docs/latest/commands/hincrby/
local MAX = 9007199254740991
local limit = ARGV[1] + 0
if limit % 1 ~= 0 or limit < 1 or limit > MAX then
  return redis.error_reply('ERR redis-ttl sliding_window_counter: limit must be an integer >= 1')
end
local window = ARGV[2] + 0
if window % 1 ~= 0 or window < 1 or limit * window > MAX then
  return redis.error_reply('ERR redis-ttl sliding_window_counter: windowMs must be an integer >= 1 and limit * windowMs < 2^53')
end
local cost = 1
-- numbers go to Redis as '%d' strings: exact integers, and cheaper than Redis' own %.17g conversion
local by = '1'
if ARGV[3] then
  cost = ARGV[3] + 0
  if cost % 1 ~= 0 or cost < 1 or cost > MAX then
    return redis.error_reply('ERR redis-ttl sliding_window_counter: cost must be an integer >= 1')
  end
  by = string.format('%d', cost)
end
local now
if ARGV[4] then
  now = ARGV[4] + 0
  if now % 1 ~= 0 or now < 0 or now > MAX then
    return redis.error_reply('ERR redis-ttl sliding_window_counter: now must be an integer >= 0')
  end
else
  local t = redis.call('TIME')
  -- the two decimal strings of TIME are coerced by the arithmetic (no tonumber call)
  now = t[1] * 1000 + math.floor(t[2] / 1000)
end

-- the window holding `now`: floor(now / window) * window, corrected for rounding of the division
local start = math.floor(now / window) * window
if start > now then
  start = start - window
elseif start + window <= now then
  start = start + window
end
local state = redis.call('HMGET', KEYS[1], 'w', 'c', 'p')
local stored_start = tonumber(state[1])
-- ms the clock must move before it reaches the stored window again (0 unless it went back)
local lag = 0
local curr = 0
local prev = 0
if stored_start ~= nil then
  if stored_start > start then
    -- the clock went back (a step of the server clock, a failover to a replica whose clock lags):
    -- the stored window stays the current one, decided as at its start at the earliest (its
    -- previous count weighs most there), never as a new window
    start = stored_start
    if now < start then
      lag = start - now
    end
  end
  if stored_start == start then
    curr = tonumber(state[2]) or 0
    prev = tonumber(state[3]) or 0
  elseif stored_start == start - window then
    prev = tonumber(state[2]) or 0
  end
end
local elapsed = now + lag - start

local allowed = 0
if cost <= limit and prev * (window - elapsed) + (curr + cost) * window <= limit * window then
  allowed = 1
  if state[1] and stored_start == start then
    -- written in this window, when its TTL was set to the end of the next window, which has not
    -- moved: HINCRBY keeps it (one command per admitted call)
    curr = redis.call('HINCRBY', KEYS[1], 'c', by)
  else
    curr = curr + cost
    redis.call('HSET', KEYS[1], 'w', string.format('%d', start), 'c', string.format('%d', curr), 'p', string.format('%d', prev))
    redis.call('PEXPIRE', KEYS[1], string.format('%d', start + 2 * window - now))
  end
end

if lag == 0 then
  if allowed == 1 then
    -- the cost still admissible after this call (>= 0), and e: below limit * windowMs < 2^53
    local room = limit * window - prev * (window - elapsed) - curr * window
    local left = math.floor(room / window)
    if left * window > room then
      left = left - 1
    elseif (left + 1) * window <= room then
      left = left + 1
    end
    return left * window + elapsed
  end
  local packed = (prev * (limit + 1) + curr) * window + elapsed
  if curr <= limit and packed <= MAX then
    return -packed - 1
  end
end
return { allowed, prev, curr, elapsed, lag }
