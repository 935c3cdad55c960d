-- cache_fail: a load failed: turn the caller's load lock into a back-off marker, so that the
-- callers waiting for this key (in every process) answer with the failure at once instead of each
-- running the loader again, and no new load starts before the back-off ends.
--
-- KEYS[1]  the lock
-- ARGV[1]  token      the caller's lock token
-- ARGV[2]  failures   the failed loads in a row, this one included: integer >= 1
-- ARGV[3]  backoffMs  integer >= 1, milliseconds: no load of this key before then
-- Returns  1 when the lock was ours and now holds the marker, 0 otherwise (it expired or was
--          taken over: nothing written)
--
-- The marker is '!<failures>:<retryAtMs>' (retryAtMs on the server clock) and lives twice the
-- back-off, so a load that fails again soon after it ends counts as the next failure in a row
-- (cache_get.lua lets the first caller after retryAtMs load, and keeps the count). Like the lock
-- itself it always has a TTL: SET ... PX in one command (https://redis.io/docs/latest/commands/set/).
-- A successful store (cache_set.lua) or an invalidation (cache_del.lua) deletes it.
local MAX = 9007199254740991
if ARGV[1] == nil or ARGV[1] == '' then
  return redis.error_reply('ERR redis-ttl cache_fail: token must be a non-empty string')
end
local failures = tonumber(ARGV[2])
if failures == nil or failures % 1 ~= 0 or failures < 1 or failures > MAX then
  return redis.error_reply('ERR redis-ttl cache_fail: failures must be an integer >= 1')
end
local backoff = tonumber(ARGV[3])
if backoff == nil or backoff % 1 ~= 0 or backoff < 1 or backoff > 1000000000000 then
  return redis.error_reply('ERR redis-ttl cache_fail: backoffMs must be an integer >= 1 and <= 10^12')
end
if redis.call('GET', KEYS[1]) ~= ARGV[1] then
  return 0
end
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('SET', KEYS[1], string.format('!%d:%d', failures, now + backoff), 'PX', string.format('%d', 2 * backoff))
return 1
