-- set_keep_ttl: overwrite a string value and keep the key's remaining TTL, never creating a key.
--
-- KEYS[1]  the key
-- ARGV[1]  the new value
-- Returns  1 when the key existed and was overwritten, 0 when it was missing (nothing written).
-- Raises   WRONGTYPE when the key holds another type than a string (nothing written), as INCR
--          and GET do: SET would silently replace a hash, list or set with a string.
--
-- SET ... KEEPTTL on a missing key would create it without TTL
-- (https://redis.io/docs/latest/commands/set/), hence the EXISTS guard in the same script.
if redis.call('EXISTS', KEYS[1]) == 0 then
  return 0
end
if redis.call('TYPE', KEYS[1])['ok'] ~= 'string' then
  return redis.error_reply('WRONGTYPE Operation against a key holding the wrong kind of value')
end
redis.call('SET', KEYS[1], ARGV[1], 'KEEPTTL')
return 1
