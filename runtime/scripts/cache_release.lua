-- cache_release: delete the load lock only when the caller still owns it.
--
-- KEYS[1]  the lock
-- ARGV[1]  token  the caller's lock token
-- Returns  1 when the lock was ours and is deleted, 0 otherwise
--
-- Compare and delete in one script: a plain DEL after the lock expired would delete the lock
-- another caller took meanwhile (https://redis.io/docs/latest/develop/use/patterns/distributed-locks/).
if ARGV[1] ~= '' and redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
