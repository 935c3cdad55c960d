-- Collect without the existence guard.
--
-- The fix for GETSET (which drops the TTL) was SET ... KEEPTTL, but without the guard
-- of 07. When the session has already expired, GET returns nothing and SET creates a
-- fresh counter with value 0 and no TTL: one persistent key per collected session,
-- forever, and they all look like harmless zeros.
--
-- KEYS[1] = session:{<id>}:billableSecondsPending
--
-- lua-lint: keepttl-needs-existing-key on the SET.
-- Fix: return early when GET finds nothing (07), or write SET key 0 XX KEEPTTL GET.
local pending = redis.call('GET', KEYS[1])
redis.call('SET', KEYS[1], '0', 'KEEPTTL')
return pending or '0'
