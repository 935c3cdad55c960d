-- Lock acquire, done right.
--
-- SET ... NX PX creates the lock and its lease in one command: if the owner crashes,
-- the lock frees itself when the lease runs out. The owner may call again to extend
-- its own lease; PEXPIRE on a key that exists is all that takes.
--
-- KEYS[1] = lock:{<resource>}   ARGV[1] = owner token (random per holder)
-- ARGV[2] = lease in ms
-- Returns 1 when the caller holds the lock, 0 when someone else does.
--
-- lua-lint: no findings.
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
  return 1
end
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return 1
end
return 0
