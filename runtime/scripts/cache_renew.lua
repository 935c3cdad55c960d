-- cache_renew: extend the caller's load lock while its loader runs, so that a slow load keeps
-- the key to itself (no second load starts when lockTtlMs passes) while a crashed loader's lock
-- still expires within lockTtlMs.
--
-- KEYS[1]  the lock
-- ARGV[1]  token      the caller's lock token
-- ARGV[2]  lockTtlMs  integer >= 1, milliseconds
-- Returns  1 when the lock was ours and its TTL is lockTtlMs again, 0 otherwise (it expired, or
--          an invalidate or a set took it: nothing written)
--
-- Compare and extend in one script (https://redis.io/docs/latest/develop/use/patterns/distributed-locks/);
-- PEXPIRE only moves the TTL of a lock that exists: the lock never lacks one.
local MAX = 9007199254740991
local lock_ttl = tonumber(ARGV[2])
if lock_ttl == nil or lock_ttl % 1 ~= 0 or lock_ttl < 1 or lock_ttl > MAX then
  return redis.error_reply('ERR redis-ttl cache_renew: lockTtlMs must be an integer >= 1')
end
if ARGV[1] ~= '' and redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('PEXPIRE', KEYS[1], string.format('%d', lock_ttl))
end
return 0
