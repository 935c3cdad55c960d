-- cache_get: the slow path of a read, after a plain GET of the entry found nothing usable or
-- found it near its expiry: read the entry; on a miss take the load lock, on a hit near its
-- expiry maybe take it for an early recomputation (XFetch).
--
-- KEYS[1]  the entry: a string 'RT1:<expiresAtMs>:<deltaMs>:<kind>:<payload>' (see cache_set.lua),
--          always with a TTL
-- KEYS[2]  the lock: a string holding its owner's token, always with a TTL (SET ... NX PX)
--          Both keys share one hash tag, so they live in one cluster slot.
-- ARGV[1]  token      the caller's lock token, a non-empty string
-- ARGV[2]  lockTtlMs  integer >= 1, milliseconds
-- ARGV[3]  xfetch     beta * -ln(rand) drawn by the caller, a number >= 0 ('0' disables early
--                     recomputation): the entry is recomputed early when delta * xfetch >= PTTL
-- Returns  { status, absent 0|1 or failures, payload or false, pttl, nowMs }, nowMs the server
--          clock (TIME, ms), from which the caller learns how far its own clock is off
--          status 'hit'      entry found (pttl = the entry's PTTL)
--                 'refresh'  entry found and the caller now owns the lock: serve the value and
--                            recompute it in the background
--                 'load'     no entry and the caller now owns the lock: load and store (the
--                            second element: the failed loads in a row before this one)
--                 'busy'     no entry and another caller owns the lock (pttl = the lock's PTTL)
--                 'failed'   no entry, and the last load failed (cache_fail.lua): no load until
--                            the back-off ends (the second element: the failed loads in a row;
--                            pttl = ms until the back-off ends)
--
-- The only write is SET ... NX PX: the lock never exists without a TTL, so a crashed loader holds
-- it for at most lockTtlMs (https://redis.io/docs/latest/commands/set/). An entry without a TTL,
-- or a string this script did not write, counts as a miss; cache_set replaces it with one that has
-- a TTL. A key of another type fails with WRONGTYPE (another program writes into this namespace).
-- PTTL: https://redis.io/docs/latest/commands/pttl/ ; XFetch: Vattani, Chierichetti, Lowenstein,
-- "Optimal Probabilistic Cache Stampede Prevention", VLDB 2015.
local MAX = 9007199254740991
if ARGV[1] == nil or ARGV[1] == '' then
  return redis.error_reply('ERR redis-ttl cache_get: token must be a non-empty string')
end
local lock_ttl = tonumber(ARGV[2])
if lock_ttl == nil or lock_ttl % 1 ~= 0 or lock_ttl < 1 or lock_ttl > MAX then
  return redis.error_reply('ERR redis-ttl cache_get: lockTtlMs must be an integer >= 1')
end
local xfetch = tonumber(ARGV[3])
if xfetch == nil or xfetch ~= xfetch or xfetch < 0 or xfetch > MAX then
  return redis.error_reply('ERR redis-ttl cache_get: xfetch must be a number >= 0')
end

local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local pttl = redis.call('PTTL', KEYS[1])
if pttl > 0 then
  local entry = redis.call('GET', KEYS[1])
  local delta, kind, payload = string.match(entry, '^RT1:%d+:(%d+):([va]):(.*)$')
  if kind ~= nil then
    local absent = 0
    if kind == 'a' then
      absent = 1
    end
    if xfetch > 0 and tonumber(delta) * xfetch >= pttl then
      if redis.call('SET', KEYS[2], ARGV[1], 'NX', 'PX', string.format('%d', lock_ttl)) then
        return { 'refresh', absent, payload, pttl, now }
      end
    end
    return { 'hit', absent, payload, pttl, now }
  end
end

if redis.call('SET', KEYS[2], ARGV[1], 'NX', 'PX', string.format('%d', lock_ttl)) then
  return { 'load', 0, false, 0, now }
end
-- the lock is taken: by a load in progress (a token), or by the back-off of a failed load
-- ('!<failures>:<retryAtMs>', see cache_fail.lua)
local holder = redis.call('GET', KEYS[2])
local failures, retry_at = string.match(holder or '', '^!(%d+):(%d+)$')
if failures ~= nil then
  if now < tonumber(retry_at) then
    return { 'failed', tonumber(failures), false, tonumber(retry_at) - now, now }
  end
  -- the back-off is over: this caller loads (the marker still counts the failures in a row)
  redis.call('SET', KEYS[2], ARGV[1], 'PX', string.format('%d', lock_ttl))
  return { 'load', tonumber(failures), false, 0, now }
end
return { 'busy', 0, false, redis.call('PTTL', KEYS[2]), now }
