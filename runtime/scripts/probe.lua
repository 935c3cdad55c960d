-- probe: can the shard of KEYS[1] run the runtime's scripts and take writes right now?
--
-- KEYS[1]  'redis-ttl:probe:{<tag>}', a key of the slot of the shard that was found down
-- Returns  1
--
-- Sent only while a shard is considered down, at most once per redisProbeIntervalMs. It writes,
-- so a shard that still answers reads but refuses writes (OOM under maxmemory with noeviction,
-- READONLY on a replica, MISCONF) stays down. The key lives one millisecond: SET with PX in the
-- same command (https://redis.io/docs/latest/commands/set/), it is never left without a TTL.
redis.call('SET', KEYS[1], '1', 'PX', '1')
return 1
