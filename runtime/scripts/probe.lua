-- probe: can the shard of KEYS[1] run the runtime's scripts and take writes right now?
--
-- KEYS[1]  a key of the slot of the shard that was found down, next to the key that failed:
--          '<that key up to its hash tag>:{redis-ttl-probe}' (no key of the runtime has braces
--          after its tag), see probeKeyFor in runtime/slot.ts
-- Returns  1
--
-- Sent only while a shard is considered down, at most once per redisProbeIntervalMs. It writes,
-- so a shard that still answers reads but refuses writes (OOM under maxmemory with noeviction,
-- READONLY on a replica, MISCONF) stays down. The key lives one millisecond: SET with PX in the
-- same command (https://redis.io/docs/latest/commands/set/), it is never left without a TTL.
redis.call('SET', KEYS[1], '1', 'PX', '1')
return 1
