#!lua name=counters
-- A Redis 7 function library (FUNCTION LOAD), done right.
--
-- Each registered function gets its keys as its first parameter instead of the KEYS
-- global; lua-lint analyses every callback like a script of its own. Both functions
-- keep the TTL promise: bump writes and expires on every path, collect resets only an
-- existing counter and keeps its TTL.
--
-- FCALL bump 1 <counter key> <amount> <ttl seconds>
-- FCALL collect 1 <counter key>
--
-- lua-lint: no findings.
local function bump(keys, args)
  local n = redis.call('INCRBY', keys[1], args[1])
  redis.call('EXPIRE', keys[1], args[2])
  return n
end

local function collect(keys, args)
  local pending = redis.call('GET', keys[1])
  if not pending then
    return false
  end
  redis.call('SET', keys[1], '0', 'KEEPTTL')
  return pending
end

redis.register_function('bump', bump)
redis.register_function{ function_name = 'collect', callback = collect }
