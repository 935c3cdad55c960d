-- Collect (read and reset) a billing counter, done right.
--
-- Another script adds seconds with INCRBY + EXPIRE 900, so the counter dies with its
-- session. Collect must return the balance and reset it to 0 atomically, without
-- touching that TTL: SET ... KEEPTTL keeps it. KEEPTTL has one trap, which the early
-- return avoids: on a missing key SET creates a new key, and it has no TTL to keep.
--
-- KEYS[1] = session:{<id>}:billableSecondsPending
-- Returns the collected seconds, or false when there was nothing to collect.
--
-- lua-lint: no findings.
local pending = redis.call('GET', KEYS[1])
if not pending then
  return false
end
redis.call('SET', KEYS[1], '0', 'KEEPTTL')
return pending
