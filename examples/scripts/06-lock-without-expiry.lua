-- Lock without expiry: the lease is optional, and so is the leak.
--
-- SETNX takes the lock; the lease is applied only when the caller passes one, on the
-- theory that "long jobs release the lock themselves". A worker that is killed, or a
-- deploy that restarts it mid-job, never releases it: the key has no TTL, the lock is
-- held forever, and the job never runs again until someone deletes the key.
--
-- KEYS[1] = lock:{<job>}   ARGV[1] = owner token   ARGV[2] = lease in ms, or ''
--
-- lua-lint: clean by default, because the lease is the caller's to leave out (the only expiry
-- the SETNX misses is skipped by the test of the lease the caller passed, as `if (ttl) ... else`
-- is in TypeScript's recommended config); with "allowOptionalTtl": false in lua-lint.config.json
-- (the embedded-lua rule's strict config): write-path-needs-ttl on the SETNX (the path where
-- ARGV[2] is '').
-- Fix: always give the lock a lease (SET key token NX PX ms) and have long jobs renew it.
local acquired = redis.call('SETNX', KEYS[1], ARGV[1])
if acquired == 1 and ARGV[2] ~= '' then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return acquired
