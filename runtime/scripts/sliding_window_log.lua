-- sliding_window_log: at most `limit` cost in any interval of `windowMs` milliseconds, exactly.
--
-- KEYS[1]  the limiter key: a sorted set with one member per admitted unit of cost, scored by
--          its time (ms); members are "<time>:<seq>"
-- ARGV[1]  limit      integer >= 1
-- ARGV[2]  windowMs   integer >= 1, milliseconds
-- ARGV[3]  cost       integer >= 1
-- ARGV[4]  now        '' to use the server clock (TIME), else integer milliseconds (tests only)
-- Returns  { allowed 0|1, remaining, retryAfterMs (-1: never), resetAfterMs }
--
-- A call at time t counts the members scored in (t - windowMs, t]. A denied call writes nothing.
-- An admitted call prunes members older than the window, adds its own, and renews the TTL to
-- windowMs: the newest member is the last one that matters, and it matters for windowMs.
-- The set holds at most `limit` members in the window. Counting is ZCOUNT and finding the
-- retry time is one ZRANGE ... LIMIT, both O(log n): no call reads the whole window.
-- ZRANGE: https://redis.io/docs/latest/commands/zrange/ ; TIME: https://redis.io/docs/latest/commands/time/
local MAX = 9007199254740991
local limit = tonumber(ARGV[1])
if limit == nil or limit ~= math.floor(limit) or limit < 1 or limit > MAX then
  return redis.error_reply('ERR redis-ttl sliding_window_log: limit must be an integer >= 1')
end
local window = tonumber(ARGV[2])
if window == nil or window ~= math.floor(window) or window < 1 or window > MAX then
  return redis.error_reply('ERR redis-ttl sliding_window_log: windowMs must be an integer >= 1')
end
local cost = tonumber(ARGV[3])
if cost == nil or cost ~= math.floor(cost) or cost < 1 or cost > MAX then
  return redis.error_reply('ERR redis-ttl sliding_window_log: cost must be an integer >= 1')
end
local now
if ARGV[4] == '' then
  local t = redis.call('TIME')
  now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
else
  now = tonumber(ARGV[4])
  if now == nil or now ~= math.floor(now) or now < 0 or now > MAX then
    return redis.error_reply('ERR redis-ttl sliding_window_log: now must be an integer >= 0')
  end
end

local cutoff = string.format('%d', now - window)
local used = redis.call('ZCOUNT', KEYS[1], '(' .. cutoff, '+inf')
local remaining = limit - used
if remaining < 0 then
  remaining = 0
end
local idle_reset = 0
if used > 0 then
  local newest = redis.call('ZRANGE', KEYS[1], '+inf', '(' .. cutoff, 'BYSCORE', 'REV', 'LIMIT', 0, 1, 'WITHSCORES')
  idle_reset = tonumber(newest[2]) + window - now
end

if cost > limit then
  return { 0, remaining, -1, idle_reset }
end
if used + cost > limit then
  -- once the oldest (used + cost - limit) units in the window have left it, the call fits
  local nth = redis.call('ZRANGE', KEYS[1], '(' .. cutoff, '+inf', 'BYSCORE', 'LIMIT', used + cost - limit - 1, 1, 'WITHSCORES')
  return { 0, remaining, tonumber(nth[2]) + window - now, idle_reset }
end

redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', cutoff)
local seq = redis.call('ZCARD', KEYS[1])
local added = 0
while added < cost do
  seq = seq + 1
  -- numbers go to Redis as '%d' strings: exact integers, and cheaper than Redis' own %.17g conversion
  added = added + redis.call('ZADD', KEYS[1], 'NX', string.format('%d', now), string.format('%d:%d', now, seq))
end
redis.call('PEXPIRE', KEYS[1], string.format('%d', window))
return { 1, limit - used - cost, 0, window }
