-- increment: INCRBY that guarantees the key carries a TTL afterwards.
--
-- KEYS[1]  the counter key
-- ARGV[1]  by: integer increment (may be negative)
-- ARGV[2]  ttlMs: TTL in milliseconds, integer >= 1
-- ARGV[3]  mode: 'fixed' (set the TTL only when the key has none: creation, or repair of a key
--          left without TTL; a running window is never extended) or 'sliding' (renew on every call)
-- Returns  { value after the increment, PTTL in milliseconds afterwards }
--
-- Every argument is validated before the INCRBY: Redis does not roll a script back, so an error
-- raised by PEXPIRE after the INCRBY would leave a freshly created key without TTL.
-- PTTL answers -1 for a key without TTL (https://redis.io/docs/latest/commands/pttl/).
local by = tonumber(ARGV[1])
if by == nil or by % 1 ~= 0 or by > 9007199254740991 or by < -9007199254740991 then
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

-- numbers go to Redis as '%d' strings: exact integers, and cheaper than Redis' own %.17g conversion
local value = redis.call('INCRBY', KEYS[1], string.format('%d', by))
if mode == 'sliding' then
  redis.call('PEXPIRE', KEYS[1], string.format('%d', ttl_ms))
else
  local current = redis.call('PTTL', KEYS[1])
  if current == -1 then
    redis.call('PEXPIRE', KEYS[1], string.format('%d', ttl_ms))
  end
end
return { value, redis.call('PTTL', KEYS[1]) }
