-- collect: atomic read-and-reset of a counter that keeps the key's remaining TTL.
--
-- KEYS[1]  the counter key
-- Returns  the previous value (bulk string), or nil when the key is missing.
--
-- A missing key is not created: SET ... KEEPTTL on a missing key would create it without any
-- TTL (https://redis.io/docs/latest/commands/set/), so the GET below guards the write.
-- GETSET / SET ... GET would drop the TTL instead (https://redis.io/docs/latest/commands/getset/).
local prev = redis.call('GET', KEYS[1])
if not prev then
  return false
end
redis.call('SET', KEYS[1], '0', 'KEEPTTL')
return prev
