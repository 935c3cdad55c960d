-- sliding_window_log: at most `limit` cost in any interval of `windowMs` milliseconds, exactly.
--
-- KEYS[1]  the limiter key: a sorted set with one member per admitted call, scored by its time
--          (ms); the member is "<before>:<cost>", where <before> is the cost admitted before this
--          call since the window was last empty, zero-padded to 16 digits (so members of one
--          millisecond sort in admission order and <before> grows with the rank)
-- ARGV[1]  limit      integer in [1, 10^9]
-- ARGV[2]  windowMs   integer >= 1, milliseconds
-- ARGV[3]  cost       integer >= 1
-- ARGV[4]  now        '' to use the server clock (TIME), else integer milliseconds (tests only)
-- Returns  { allowed 0|1, remaining, retryAfterMs (-1: never), resetAfterMs }
--
-- A call at time t counts the members scored in (t - windowMs, t]: the cost admitted in the window
-- is <before> + cost of the newest member minus <before> of the oldest one in the window: the set's
-- first and last members while none has left the window (one lookup when it holds one member),
-- ZCOUNT and a third lookup by rank when some have. The retry time of a denied call is the time the
-- oldest members whose costs add up to what is missing leave the window: a binary search over the
-- ranks (at most 14 lookups with 10,000 members; none when the oldest member in the window covers
-- what is missing, as for a call of cost 1 at the limit, and one when every call cost 1). A denied
-- call writes nothing. An admitted call prunes at most 64 members that have left the window, adds
-- its own and moves the TTL to when it leaves the window (PEXPIRE only when that moved: not for a
-- second call in the same millisecond). Every call does O(log n) work whatever its cost or the
-- limit. Bounded shape: the window holds at most 10,000 members (Redis frees a set of 20,000
-- members, these and the ones left to prune, in about a millisecond when the key expires). An
-- admission beyond that is merged into the newest member, which takes the new time: its older cost
-- then counts as admitted now, so the log can only deny earlier than exact, never admit more. Exact
-- as long as at most 10,000 calls are admitted per window.
-- ZRANGE: https://redis.io/docs/latest/commands/zrange/ ; TIME: https://redis.io/docs/latest/commands/time/
local MAX = 9007199254740991
local limit = tonumber(ARGV[1])
if limit == nil or limit % 1 ~= 0 or limit < 1 or limit > 1000000000 then
  return redis.error_reply('ERR redis-ttl sliding_window_log: limit must be an integer >= 1 and <= 10^9')
end
local window = tonumber(ARGV[2])
if window == nil or window % 1 ~= 0 or window < 1 or window > MAX then
  return redis.error_reply('ERR redis-ttl sliding_window_log: windowMs must be an integer >= 1')
end
local cost = tonumber(ARGV[3])
if cost == nil or cost % 1 ~= 0 or cost < 1 or cost > MAX then
  return redis.error_reply('ERR redis-ttl sliding_window_log: cost must be an integer >= 1')
end
local now
if ARGV[4] == '' then
  local t = redis.call('TIME')
  -- the two decimal strings of TIME are coerced by the arithmetic (no tonumber call)
  now = t[1] * 1000 + math.floor(t[2] / 1000)
else
  now = tonumber(ARGV[4])
  if now == nil or now % 1 ~= 0 or now < 0 or now > MAX then
    return redis.error_reply('ERR redis-ttl sliding_window_log: now must be an integer >= 0')
  end
end

-- <before> and <cost> of a member; nil, nil for a member this script did not write
local function parse(member)
  local before, own = string.match(member, '^(%d+):(%d+)$')
  return tonumber(before), tonumber(own)
end
local FOREIGN = 'ERR redis-ttl sliding_window_log: the key holds a member this script did not write'

local cutoff = now - window
local size = redis.call('ZCARD', KEYS[1])
-- members that left the window (scored <= cutoff): they come first in the set
local stale = 0
local used = 0
local base = 0
local total = 0
local newest = nil
local newest_before = 0
local newest_own = 0
local newest_at = nil
-- the oldest member in the window: its cost and time
local oldest_own = 0
local oldest_at = nil
if size > 0 then
  -- the oldest member of the set: while it is in the window, nothing is stale and it is the
  -- oldest one in the window (no ZCOUNT, and no third lookup)
  local first = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
  newest = first
  if size > 1 then
    newest = redis.call('ZRANGE', KEYS[1], -1, -1, 'WITHSCORES')
  end
  newest_before, newest_own = parse(newest[1])
  if newest_before == nil or newest_own == nil then
    return redis.error_reply(FOREIGN)
  end
  total = newest_before + newest_own
  newest_at = tonumber(newest[2])
  local oldest = first
  if tonumber(first[2]) <= cutoff then
    stale = redis.call('ZCOUNT', KEYS[1], '-inf', string.format('%d', cutoff))
    oldest = nil
    if newest_at > cutoff then
      oldest = redis.call('ZRANGE', KEYS[1], stale, stale, 'WITHSCORES')
    end
  end
  if oldest ~= nil then
    if oldest[1] == newest[1] then
      -- the newest member is the only one in the window
      base = newest_before
      oldest_own = newest_own
    else
      base, oldest_own = parse(oldest[1])
      if base == nil or oldest_own == nil then
        return redis.error_reply(FOREIGN)
      end
    end
    oldest_at = tonumber(oldest[2])
    used = total - base
  end
end
local remaining = limit - used
if remaining < 0 then
  remaining = 0
end
local idle_reset = 0
if used > 0 then
  idle_reset = newest_at + window - now
end

if cost > limit then
  return { 0, remaining, -1, idle_reset }
end
if used + cost > limit then
  -- the last member that must leave is the newest one whose <before> is below `target`
  local target = base + used + cost - limit
  local lo = stale
  local lo_at = oldest_at
  if base + oldest_own < target then
    -- the oldest member alone does not cover what is missing (it always does for a call of cost 1
    -- at the limit): search the ranks after it, where <before> grows by each member's cost
    lo = stale + 1
    lo_at = nil
    local hi = size - 1
    -- with calls of cost 1, <before> grows by 1 per rank: that rank first, then a binary search
    -- (`lo` always holds a rank whose <before> is below `target`)
    local rank = stale + target - base - 1
    while lo < hi do
      if rank <= lo or rank > hi then
        rank = lo + math.floor((hi - lo + 1) / 2)
      end
      local m = redis.call('ZRANGE', KEYS[1], rank, rank, 'WITHSCORES')
      local before = parse(m[1])
      if before == nil then
        return redis.error_reply(FOREIGN)
      end
      if before < target then
        lo = rank
        lo_at = tonumber(m[2])
        if before == target - 1 then
          -- the next rank's <before> is at least `target`: this is the one
          hi = rank
        end
      else
        hi = rank - 1
      end
      rank = -1
    end
    if lo_at == nil then
      lo_at = tonumber(redis.call('ZRANGE', KEYS[1], lo, lo, 'WITHSCORES')[2])
    end
  end
  return { 0, remaining, lo_at + window - now, idle_reset }
end

if stale > 0 then
  local prune = stale
  if prune > 64 then
    prune = 64
  end
  redis.call('ZREMRANGEBYRANK', KEYS[1], 0, prune - 1)
end
-- a clock that went back never files a call before the newest one (the order <before> relies on)
local at = now
if newest_at ~= nil and newest_at > now then
  at = newest_at
end
local member
local restarted = false
if used == 0 then
  -- nothing in the window: the running total starts over (what is left of the set has left the window)
  member = string.format('%016d:%d', 0, cost)
elseif size - stale >= 10000 then
  redis.call('ZREM', KEYS[1], newest[1])
  member = string.format('%016d:%d', newest_before, newest_own + cost)
elseif total + cost > MAX then
  -- 2^53 admitted without one empty window (9 million full windows at the largest limit):
  -- start over, forgetting this window
  redis.call('UNLINK', KEYS[1])
  restarted = true
  member = string.format('%016d:%d', 0, cost)
else
  member = string.format('%016d:%d', total, cost)
end
-- numbers go to Redis as '%d' strings: exact integers, and cheaper than Redis' own %.17g conversion
-- lua-lint-disable-next-line write-path-needs-ttl -- PEXPIRE is skipped only when the key exists (below)
redis.call('ZADD', KEYS[1], string.format('%d', at), member)
-- The deadline moves only when the newest call's time does: when the key held a call of this same
-- millisecond, its admission set the TTL to at + window, and ZADD keeps it (what was pruned had
-- left the window, so the set was not emptied; UNLINK above restarts it). On a hot key most calls
-- share their millisecond with the one before.
if restarted or newest_at ~= at then
  redis.call('PEXPIRE', KEYS[1], string.format('%d', at + window - now))
end
return { 1, limit - used - cost, 0, at + window - now }
