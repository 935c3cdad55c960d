-- increment: INCRBY that guarantees the key carries a TTL afterwards.
--
-- KEYS[1]  the counter key
-- ARGV[1]  by: integer increment (may be negative), in decimal without a sign '+' or leading
--          zeros, a 64-bit signed integer (INCRBY refuses the rest)
-- ARGV[2]  ttlMs: TTL in milliseconds, integer >= 1
-- ARGV[3]  mode: 'fixed' (set the TTL only when the key has none: creation, or repair of a key
--          left without TTL; a running window is never extended) or 'sliding' (renew on every call)
-- Returns  { value after the increment, PTTL in milliseconds afterwards }: the value an integer
--          while it is within +-(2^53 - 1), else the key's string (a Lua number is a double: past
--          2^53 it would round), so every value is exact
--
-- Every argument is validated before the INCRBY: Redis does not roll a script back, so an error
-- raised by PEXPIRE after the INCRBY would leave a freshly created key without TTL.
-- PTTL answers -1 for a key without TTL (https://redis.io/docs/latest/commands/pttl/).
local by = ARGV[1]
if by == nil or #by > 20 or (by ~= '0' and not string.match(by, '^%-?[1-9]%d*$')) then
  return redis.error_reply('ERR redis-ttl increment: by must be an integer')
end
local ttl_ms = tonumber(ARGV[2])
if ttl_ms == nil or ttl_ms % 1 ~= 0 or ttl_ms < 1 or ttl_ms > 9007199254740991 then
  return redis.error_reply('ERR redis-ttl increment: ttlMs must be an integer >= 1')
end
local mode = ARGV[3]
if mode ~= 'fixed' and mode ~= 'sliding' then
  return redis.error_reply("ERR redis-ttl increment: mode must be 'fixed' or 'sliding'")
end

-- `by` goes as sent (decimal): INCRBY checks its 64-bit range and writes nothing when it fails
local value = redis.call('INCRBY', KEYS[1], by)
if value > 9007199254740991 or value < -9007199254740991 then
  -- past 2^53 the reply, a double in Lua, may be rounded: the key's own string is exact
  value = redis.call('GET', KEYS[1])
end
if mode == 'sliding' then
  redis.call('PEXPIRE', KEYS[1], string.format('%d', ttl_ms))
else
  local current = redis.call('PTTL', KEYS[1])
  if current == -1 then
    redis.call('PEXPIRE', KEYS[1], string.format('%d', ttl_ms))
  end
end
return { value, redis.call('PTTL', KEYS[1]) }
