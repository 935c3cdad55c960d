-- Fixed-window rate limiter with the early-return leak.
--
-- Almost 01, with a weighted cost, but the expiry comes after the limit check. When
-- the first request of a window is already over the limit (a batch whose cost
-- exceeds the limit, or a client that retries a huge request), the script returns
-- at the deny branch before PEXPIRE runs. INCRBY has created the key without a TTL:
-- the window never ends, every later request of that client is denied, and the key
-- stays in Redis until someone deletes it by hand.
--
-- KEYS[1] = rl:{<hashed client id>}:fw:v1   ARGV[1] = cost   ARGV[2] = limit
-- ARGV[3] = window in ms
--
-- lua-lint: write-path-needs-ttl on the INCRBY.
-- Fix: set the expiry before the first return (move the `if count == cost` block up).
local cost = tonumber(ARGV[1])
local limit = tonumber(ARGV[2])
local window_ms = tonumber(ARGV[3])

local count = redis.call('INCRBY', KEYS[1], cost)
if count > limit then
  return { 0, count }
end
if count == cost then
  redis.call('PEXPIRE', KEYS[1], window_ms)
end
return { 1, count }
