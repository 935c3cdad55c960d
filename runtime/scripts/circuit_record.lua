-- circuit_record: record the outcome of a call made through the breaker.
--
-- KEYS[1]  the breaker key: a hash { s = state, n = failures, w = window start (ms),
--          u = open until (ms), p = probes reserved, h = half-open round start (ms) }
-- ARGV[1]  failureThreshold  integer >= 1
-- ARGV[2]  windowMs          integer >= 1, milliseconds (<= 10^12)
-- ARGV[3]  openMs            integer >= 1, milliseconds (<= 10^12)
-- ARGV[4]  halfOpenProbes    integer >= 1
-- ARGV[5]  now               '' to use the server clock (TIME), else integer milliseconds (tests only)
-- ARGV[6]  outcome           'success' or 'failure'
-- Returns  the state afterwards, as circuit_read returns it
--
-- Closed: a failure is counted (the window starts at the first failure); reaching
-- failureThreshold within windowMs opens the breaker for openMs. A success changes nothing.
-- Half-open round: a success closes the breaker, a failure reopens it for openMs. Open: the
-- outcome (of a call admitted before the breaker opened) changes nothing. Every outcome ends by
-- writing the state with HSET and renewing its TTL with PEXPIRE, or, when the state is "closed
-- without failures" (what a missing key means), by deleting the key.
--
-- Lifecycle (the TTL always ends when the state stops mattering, and a state read after that
-- moment means the same as a missing key: closed, no failures):
--   closed with failures  TTL to w + windowMs (failures are counted in a window that starts at
--                         the first failure and lasts windowMs)
--   open                  TTL to u + openMs (the open period, then one openMs in which the first
--                         acquire starts a half-open round; an unused breaker closes after that)
--   half-open round       TTL to h + openMs (probes that never report let the breaker close)
-- TIME: https://redis.io/docs/latest/commands/time/ ; PEXPIRE: https://redis.io/docs/latest/commands/pexpire/
local MAX_MS = 1000000000000
local MAX_NOW = 4503599627370496
local threshold = tonumber(ARGV[1])
if threshold == nil or threshold % 1 ~= 0 or threshold < 1 or threshold > 1000000000 then
  return redis.error_reply('ERR redis-ttl circuit_record: failureThreshold must be an integer >= 1')
end
local window = tonumber(ARGV[2])
if window == nil or window % 1 ~= 0 or window < 1 or window > MAX_MS then
  return redis.error_reply('ERR redis-ttl circuit_record: windowMs must be an integer >= 1 and <= 10^12')
end
local open_ms = tonumber(ARGV[3])
if open_ms == nil or open_ms % 1 ~= 0 or open_ms < 1 or open_ms > MAX_MS then
  return redis.error_reply('ERR redis-ttl circuit_record: openMs must be an integer >= 1 and <= 10^12')
end
local probes = tonumber(ARGV[4])
if probes == nil or probes % 1 ~= 0 or probes < 1 or probes > 1000000000 then
  return redis.error_reply('ERR redis-ttl circuit_record: halfOpenProbes must be an integer >= 1')
end
local now
if ARGV[5] == '' then
  local t = redis.call('TIME')
  now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
else
  now = tonumber(ARGV[5])
  if now == nil or now % 1 ~= 0 or now < 0 or now > MAX_NOW then
    return redis.error_reply('ERR redis-ttl circuit_record: now must be an integer >= 0 and <= 2^52')
  end
end

local outcome = ARGV[6]
if outcome ~= 'success' and outcome ~= 'failure' then
  return redis.error_reply("ERR redis-ttl circuit_record: outcome must be 'success' or 'failure'")
end

-- The state as of `now`. Stored fields: s (0 closed, 1 open, 2 half-open), n (failures counted in
-- the window that began at w), u (open until), p (probes reserved in the half-open round that
-- began at h). A state past the moment its TTL ends reads exactly like a missing key (closed, no
-- failures), so the answer never depends on whether Redis has already expired the key.
local st, n, w, u, p, h = 0, 0, 0, 0, 0, 0
local raw = redis.call('HMGET', KEYS[1], 's', 'n', 'w', 'u', 'p', 'h')
local s = tonumber(raw[1])
if s == 0 then
  w = tonumber(raw[3]) or 0
  if now < w + window then
    n = tonumber(raw[2]) or 0
  end
elseif s == 1 then
  u = tonumber(raw[4]) or 0
  if now < u + open_ms then
    st = 1
  end
elseif s == 2 then
  h = tonumber(raw[6]) or 0
  if now < h + open_ms then
    st = 2
    p = tonumber(raw[5]) or 0
  end
end
if n == 0 then
  w = 0
end

-- what read() reports: { state (0 closed, 1 open, 2 half-open), failures, probes in flight,
-- retryAfterMs (0 when acquire would admit now) }
local function snapshot()
  if st == 1 and now < u then
    return { 1, 0, 0, u - now }
  end
  if st == 1 then
    return { 2, 0, 0, 0 }
  end
  if st == 2 then
    if p >= probes then
      return { 2, 0, p, h + open_ms - now }
    end
    return { 2, 0, p, 0 }
  end
  return { 0, n, 0, 0 }
end

if st == 0 then
  if outcome == 'failure' then
    if n == 0 then
      w = now
    end
    n = n + 1
    if n >= threshold then
      st = 1
      u = now + open_ms
      n = 0
      w = 0
    end
  end
elseif st == 2 then
  p = 0
  h = 0
  if outcome == 'success' then
    st = 0
  else
    st = 1
    u = now + open_ms
  end
end

if st == 0 and n == 0 then
  redis.call('DEL', KEYS[1])
  return snapshot()
end
local ttl
if st == 0 then
  ttl = w + window - now
elseif st == 1 then
  ttl = u + open_ms - now
else
  ttl = h + open_ms - now
end
-- numbers go to Redis as '%d' strings: exact integers
redis.call('HSET', KEYS[1], 's', string.format('%d', st), 'n', string.format('%d', n), 'w', string.format('%d', w), 'u', string.format('%d', u), 'p', string.format('%d', p), 'h', string.format('%d', h))
redis.call('PEXPIRE', KEYS[1], string.format('%d', ttl))
return snapshot()
