-- cache_del: invalidate a cache entry after the source of truth changed.
--
-- KEYS[1]  the entry hash
-- KEYS[2]  the lock
-- Returns  1 when an entry was deleted, 0 when there was none
--
-- The lock goes too: a load that started before the database write holds a token that no lock
-- carries any more, so cache_set refuses to store its (possibly old) value.
local deleted = redis.call('DEL', KEYS[1])
redis.call('DEL', KEYS[2])
return deleted
