-- set_keep_ttl: overwrite a string value and keep the key's remaining TTL, never creating a key.
--
-- KEYS[1]  the key
-- ARGV[1]  the new value
-- Returns  1 when the key existed and was overwritten, 0 when it was missing (nothing written).
--
-- SET ... KEEPTTL on a missing key would create it without TTL
-- (https://redis.io/docs/latest/commands/set/), hence the EXISTS guard in the same script.
if redis.call('EXISTS', KEYS[1]) == 0 then
  return 0
end
redis.call('SET', KEYS[1], ARGV[1], 'KEEPTTL')
return 1
