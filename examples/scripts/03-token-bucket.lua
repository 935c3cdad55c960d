-- Token bucket, done right.
--
-- The bucket is a hash { tokens, ts } refilled lazily from the elapsed time. Both the
-- allow and the deny path write the new state and refresh its TTL in the same script,
-- so an idle bucket disappears once it would be full again anyway: a missing key and
-- a full bucket mean the same thing.
--
-- KEYS[1] = rl:{<hashed client id>}:tb:v1   ARGV[1] = capacity   ARGV[2] = tokens per second
-- ARGV[3] = cost (default 1)
-- Returns { allowed (1 or 0), tokens left, ms until the next token }
--
-- lua-lint: no findings.
local capacity = tonumber(ARGV[1])
local rate = tonumber(ARGV[2])
local cost = tonumber(ARGV[3]) or 1

local t = redis.call('TIME')
local now_ms = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)

local state = redis.call('HMGET', KEYS[1], 'tokens', 'ts')
local tokens = tonumber(state[1]) or capacity
local last_ms = tonumber(state[2]) or now_ms
tokens = math.min(capacity, tokens + math.max(0, now_ms - last_ms) * rate / 1000)

local allowed = 0
if tokens >= cost then
  tokens = tokens - cost
  allowed = 1
end

-- Time until the bucket is full again, plus a second of slack for clock skew.
local ttl_ms = math.ceil((capacity - tokens) / rate * 1000) + 1000
redis.call('HSET', KEYS[1], 'tokens', tokens, 'ts', now_ms)
redis.call('PEXPIRE', KEYS[1], ttl_ms)

local wait_ms = 0
if allowed == 0 then
  wait_ms = math.ceil((cost - tokens) / rate * 1000)
end
return { allowed, math.floor(tokens), wait_ms }
