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
-- Returns  { status, absent 0|1, payload or false, pttl }
--          status 'hit'      entry found (pttl = the entry's PTTL)
--                 'refresh'  entry found and the caller now owns the lock: serve the value and
--                            recompute it in the background
--                 'load'     no entry and the caller now owns the lock: load and store
--                 'busy'     no entry and another caller owns the lock (pttl = the lock's PTTL)
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
        return { 'refresh', absent, payload, pttl }
      end
    end
    return { 'hit', absent, payload, pttl }
  end
end

if redis.call('SET', KEYS[2], ARGV[1], 'NX', 'PX', string.format('%d', lock_ttl)) then
  return { 'load', 0, false, 0 }
end
return { 'busy', 0, false, redis.call('PTTL', KEYS[2]) }
