-- sliding_window_log: at most `limit` cost in any interval of `windowMs` milliseconds, exactly.
--
-- KEYS[1]  the limiter key (format 3, `...:swl3:...`): a list with one element per admitted call,
--          oldest first, "<at>:<before>:<cost>:<first>": its time (ms; never before the element
--          ahead of it), the cost admitted before it since the window was last empty, its cost,
--          and <first> the "<at>:<before>:<cost>" of the list's first element when it was added;
--          the key's TTL ends when the newest element leaves the window
-- ARGV[1]  limit      integer in [1, 10^9]
-- ARGV[2]  windowMs   integer >= 1, milliseconds
-- ARGV[3]  cost       integer >= 1; absent: 1
-- ARGV[4]  now        absent: the server clock (TIME); else integer milliseconds (tests only)
-- Returns  u, the cost admitted in the window before this call, for an admitted call filed at
--          now (an integer: the caller, who knows the limit, the window and the cost, computes
--          remaining, retryAfterMs 0 and resetAfterMs windowMs); else the table { x, retry,
--          reset } with x = u for an admitted call and -u - 1 for a denied one, retry the
--          retryAfterMs of a denied call (-1: never) and reset its resetAfterMs.
--
-- A call at time t counts the elements timed in (t - windowMs, t]: the cost admitted in the window
-- is <before> + cost of the newest element minus <before> of the oldest one in the window (the
-- list's first element unless some have left the window: then the second, or a binary search over
-- the indexes). The retry time of a denied call is the time the oldest elements whose costs add up
-- to what is missing leave the window: the oldest element in the window when it covers what is
-- missing (a call of cost 1 at the limit), else the index where calls of cost 1 put it, else a
-- binary search over the indexes (at most 14 lookups with 10,000 elements). A denied call writes
-- nothing. An admitted call removes the elements that left the window (LTRIM), appends its own
-- (RPUSH) and moves the TTL to when it leaves the window (PEXPIRE only when that moved: not for a
-- second call in the same millisecond). Every call does O(log n) lookups whatever its cost or the
-- limit. Bounded shape: the window holds at most 10,000 elements; an admission beyond that is
-- merged into the newest element (LSET), which takes the new time: its older cost then counts as
-- admitted now, so the log can only deny earlier than exact, never admit more. Exact as long as
-- at most 10,000 calls are admitted per window. A clock that steps back never files a call before
-- the newest one, so the window never reopens. Arguments are coerced by arithmetic (an argument
-- that is not a number is Redis' script error) and checked before anything is written.
-- LINDEX: https://redis.io/docs/latest/commands/lindex/ ; TIME: https://redis.io/docs/latest/commands/time/
local MAX = 9007199254740991
local limit = ARGV[1] + 0
if limit % 1 ~= 0 or limit < 1 or limit > 1000000000 then
  return redis.error_reply('ERR redis-ttl sliding_window_log: limit must be an integer >= 1 and <= 10^9')
end
local window = ARGV[2] + 0
if window % 1 ~= 0 or window < 1 or window > MAX then
  return redis.error_reply('ERR redis-ttl sliding_window_log: windowMs must be an integer >= 1')
end
local cost = 1
if ARGV[3] then
  cost = ARGV[3] + 0
  if cost % 1 ~= 0 or cost < 1 or cost > MAX then
    return redis.error_reply('ERR redis-ttl sliding_window_log: cost must be an integer >= 1')
  end
end
local now
if ARGV[4] then
  now = ARGV[4] + 0
  if now % 1 ~= 0 or now < 0 or now > MAX then
    return redis.error_reply('ERR redis-ttl sliding_window_log: now must be an integer >= 0')
  end
else
  local t = redis.call('TIME')
  -- the two decimal strings of TIME are coerced by the arithmetic (no tonumber call)
  now = t[1] * 1000 + math.floor(t[2] / 1000)
end

local key = KEYS[1]
-- indexes and numbers go to Redis as strings ('-1', '%d'): exact integers, and cheaper than the
-- %.17g conversion Redis gives a Lua number (about 2,000 instructions each)
local FOREIGN = 'ERR redis-ttl sliding_window_log: the key holds a value this script did not write'
-- an element: its own <at>:<before>:<cost>, then the list's first element's when it was added
local NEWEST = '^(%d+):(%d+):(%d+):((%d+):(%d+):%d+)$'
local ANY = '^((%d+):(%d+):(%d+)):%d+:%d+:%d+$'

local cutoff = now - window
-- the list's length, once asked (LLEN)
local size = nil
-- elements that left the window (timed <= cutoff): they come first
local stale = 0
local used = 0
local total = 0
local base = 0
local newest_at = nil
local newest_before = 0
local newest_own = 0
-- the oldest element in the window: its time, and its <at>:<before>:<cost>
local oldest_at = nil
local oldest = nil
local newest = redis.call('LINDEX', key, '-1')
if newest then
  local at, before, own, first, first_at, first_before = string.match(newest, NEWEST)
  if at == nil then
    return redis.error_reply(FOREIGN)
  end
  newest_at = at + 0
  newest_before = before + 0
  newest_own = own + 0
  total = newest_before + newest_own
  if newest_at > cutoff then
    -- the newest element is in the window. The list's first element, copied into the newest one
    -- when it was added (every admission removes the elements that left the window), is the
    -- oldest one in the window, unless it has left it since.
    oldest_at = first_at + 0
    base = first_before + 0
    oldest = first
    if oldest_at <= cutoff then
      -- it has: the second element, else a binary search between an index that left the window
      -- (lo) and one in it (hi, at first the newest)
      stale = 1
      local element = redis.call('LINDEX', key, '1')
      oldest, at, before = string.match(element, ANY)
      if oldest == nil then
        return redis.error_reply(FOREIGN)
      end
      oldest_at = at + 0
      base = before + 0
      if oldest_at <= cutoff then
        size = redis.call('LLEN', key)
        local lo = 1
        local hi = size - 1
        oldest_at = newest_at
        base = newest_before
        oldest = string.match(newest, '^(%d+:%d+:%d+):')
        while hi - lo > 1 do
          local mid = lo + math.floor((hi - lo) / 2)
          element = redis.call('LINDEX', key, string.format('%d', mid))
          local self
          self, at, before = string.match(element, ANY)
          if self == nil then
            return redis.error_reply(FOREIGN)
          end
          if at + 0 > cutoff then
            hi = mid
            oldest, oldest_at, base = self, at + 0, before + 0
          else
            lo = mid
          end
        end
        stale = hi
      end
    end
    used = total - base
  end
end

local idle_reset = 0
if used > 0 then
  idle_reset = newest_at + window - now
end
if cost > limit then
  return { -used - 1, -1, idle_reset }
end
if used + cost > limit then
  -- the last element that must leave is the newest one whose <before> is below `target`
  local target = base + used + cost - limit
  local lo_at = oldest_at
  if base + string.match(oldest, '^%d+:%d+:(%d+)$') < target then
    -- the oldest element alone does not cover what is missing (it always does for a call of cost
    -- 1 at the limit): search the indexes after it, where <before> grows by each element's cost
    if size == nil then
      size = redis.call('LLEN', key)
    end
    local lo = stale + 1
    local hi = size - 1
    lo_at = nil
    -- with calls of cost 1, <before> grows by 1 per index: that index first, then a binary search
    -- (`lo` always holds an index whose <before> is below `target`)
    local index = stale + target - base - 1
    while lo < hi do
      if index <= lo or index > hi then
        index = lo + math.floor((hi - lo + 1) / 2)
      end
      local self, at, before = string.match(redis.call('LINDEX', key, string.format('%d', index)), ANY)
      if self == nil then
        return redis.error_reply(FOREIGN)
      end
      before = before + 0
      if before < target then
        lo = index
        lo_at = at + 0
        if before == target - 1 then
          -- the next index's <before> is at least `target`: this is the one
          hi = index
        end
      else
        hi = index - 1
      end
      index = -1
    end
    if lo_at == nil then
      local self, at = string.match(redis.call('LINDEX', key, string.format('%d', lo)), ANY)
      if self == nil then
        return redis.error_reply(FOREIGN)
      end
      lo_at = at + 0
    end
  end
  return { -used - 1, lo_at + window - now, idle_reset }
end

-- a clock that went back never files a call before the newest one (the order <before> relies on)
local at = now
if newest_at ~= nil and newest_at > now then
  at = newest_at
end
if newest and used > 0 and total + cost <= MAX then
  if stale > 0 then
    redis.call('LTRIM', key, string.format('%d', stale), '-1')
  end
  -- elements in the window (each costs at least 1: fewer than 10,000 while less was admitted)
  local count = 0
  if used >= 10000 then
    if size == nil then
      count = redis.call('LLEN', key)
    else
      count = size - stale
    end
  end
  if count >= 10000 then
    -- 10,000 elements in the window: merge into the newest one, which takes the new time
    redis.call('LSET', key, '-1', string.format('%d:%d:%d:%s', at, newest_before, newest_own + cost, oldest))
  else
    local element
    if cost == 1 then
      element = string.format('%d:%d:1:%s', at, total, oldest)
    else
      element = string.format('%d:%d:%d:%s', at, total, cost, oldest)
    end
    -- lua-lint-disable-next-line write-path-needs-ttl -- the list exists: LTRIM keeps its newest element
    redis.call('RPUSH', key, element)
  end
  -- the deadline moves only when the newest call's time does: when the key held a call of this
  -- same millisecond, its admission set the TTL to at + window, which RPUSH, LSET and LTRIM keep
  -- (LTRIM never empties the list: the newest element is in the window)
  if newest_at ~= at then
    redis.call('PEXPIRE', key, string.format('%d', at + window - now))
  end
else
  -- nothing in the window (what is left of the list has left it), or 2^53 admitted without one
  -- empty window (9 million full windows at the largest limit): the running total starts over
  if newest then
    redis.call('UNLINK', key)
  end
  local element = string.format('%d:0:%d', at, cost)
  redis.call('RPUSH', key, element .. ':' .. element)
  redis.call('PEXPIRE', key, string.format('%d', at + window - now))
end
if at == now then
  return used
end
return { used, 0, at + window - now }
