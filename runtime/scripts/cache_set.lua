-- cache_set: store a cache entry with its TTL and release the load lock, atomically.
--
-- KEYS[1]  the entry: a string 'RT1:<expiresAtMs>:<deltaMs>:<kind>:<payload>', so that a hit
--          is one GET: expiresAtMs is the server clock at the write plus the TTL (what the
--          reader's XFetch compares with its clock), deltaMs the measured load time, kind 'v'
--          (a value) or 'a' (a cached "absent", payload empty)
-- KEYS[2]  the lock
-- ARGV[1]  token    the loader's lock token: the entry is stored only while the lock still holds
--                   it. '' stores unconditionally (a write-through `set`) and also drops any lock,
--                   so a load that started before this write can not overwrite it afterwards.
-- ARGV[2]  kind     'v' a value, 'a' a cached "absent" (negative caching)
-- ARGV[3]  value    the serialized value ('' when kind is 'a')
-- ARGV[4]  ttlMs    the entry's TTL, integer >= 1, milliseconds (already jittered by the caller)
-- ARGV[5]  deltaMs  the measured load time, integer >= 0, milliseconds; '' keeps the entry's
--                   previous delta (0 when there was none)
-- Returns  1 when stored, 0 when not (the lock expired or was taken over: an invalidate or a set
--          overtook the load, or the load outlived lockTtlMs)
--
-- Every argument is checked before the write. One SET ... PX replaces the entry whatever it held
-- (any type) with its TTL in the same command: the entry never exists without a TTL
-- (https://redis.io/docs/latest/commands/set/). TIME gives the expiry stamp from the server clock
-- (https://redis.io/docs/latest/commands/time/).
local MAX = 9007199254740991
local kind = ARGV[2]
if kind ~= 'v' and kind ~= 'a' then
  return redis.error_reply("ERR redis-ttl cache_set: kind must be 'v' or 'a'")
end
local ttl = tonumber(ARGV[4])
if ttl == nil or ttl % 1 ~= 0 or ttl < 1 or ttl > MAX then
  return redis.error_reply('ERR redis-ttl cache_set: ttlMs must be an integer >= 1')
end
local delta
if ARGV[5] == '' then
  delta = 0
  if redis.call('TYPE', KEYS[1])['ok'] == 'string' then
    delta = tonumber(string.match(redis.call('GET', KEYS[1]), '^RT1:%d+:(%d+):')) or 0
  end
else
  delta = tonumber(ARGV[5])
  if delta == nil or delta % 1 ~= 0 or delta < 0 or delta > MAX then
    return redis.error_reply('ERR redis-ttl cache_set: deltaMs must be an integer >= 0')
  end
end

if ARGV[1] ~= '' and redis.call('GET', KEYS[2]) ~= ARGV[1] then
  return 0
end
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local payload = ''
if kind == 'v' then
  payload = ARGV[3]
end
redis.call('SET', KEYS[1], string.format('RT1:%d:%d:%s:', now + ttl, delta, kind) .. payload, 'PX', string.format('%d', ttl))
redis.call('DEL', KEYS[2])
return 1
