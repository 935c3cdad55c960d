-- circuit_acquire: may a call go through the breaker now?
--
-- KEYS[1]  the breaker key: a hash { s = state, n = failures, w = window start (ms),
--          u = open until (ms), p = probes reserved, h = half-open round start (ms) }
-- ARGV[1]  failureThreshold  integer >= 1
-- ARGV[2]  windowMs          integer >= 1, milliseconds (<= 10^12)
-- ARGV[3]  openMs            integer >= 1, milliseconds (<= 10^12)
-- ARGV[4]  halfOpenProbes    integer >= 1
-- ARGV[5]  now               '' to use the server clock (TIME), else integer milliseconds (tests only)
-- Returns  { allowed 0|1, state (0 closed, 1 open, 2 half-open), failures, probes in flight,
--          retryAfterMs (0 when allowed; else exact milliseconds until an acquire is admitted) }
--
-- Closed: admitted, nothing written (no key is ever created by an acquire on a closed breaker).
-- Open: denied until the open period ends, nothing written. Half-open (the open period is over):
-- admitted while fewer than halfOpenProbes probes are reserved; the reservation is written with
-- HSET and the TTL renewed by PEXPIRE in the same script. Half-open with every probe reserved:
-- denied until the round lapses (openMs after it began), nothing written.
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
  return redis.error_reply('ERR redis-ttl circuit_acquire: failureThreshold must be an integer >= 1')
end
local window = tonumber(ARGV[2])
if window == nil or window % 1 ~= 0 or window < 1 or window > MAX_MS then
  return redis.error_reply('ERR redis-ttl circuit_acquire: windowMs must be an integer >= 1 and <= 10^12')
end
local open_ms = tonumber(ARGV[3])
if open_ms == nil or open_ms % 1 ~= 0 or open_ms < 1 or open_ms > MAX_MS then
  return redis.error_reply('ERR redis-ttl circuit_acquire: openMs must be an integer >= 1 and <= 10^12')
end
local probes = tonumber(ARGV[4])
if probes == nil or probes % 1 ~= 0 or probes < 1 or probes > 1000000000 then
  return redis.error_reply('ERR redis-ttl circuit_acquire: halfOpenProbes must be an integer >= 1')
end
local now
if ARGV[5] == '' then
  local t = redis.call('TIME')
  now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
else
  now = tonumber(ARGV[5])
  if now == nil or now % 1 ~= 0 or now < 0 or now > MAX_NOW then
    return redis.error_reply('ERR redis-ttl circuit_acquire: now must be an integer >= 0 and <= 2^52')
  end
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

if st == 0 then
  return { 1, 0, n, 0, 0 }
end
if st == 1 and now < u then
  return { 0, 1, 0, 0, u - now }
end
if st == 1 then
  -- the open period is over: this call starts a half-open round
  h = now
  p = 0
end
if p >= probes then
  return { 0, 2, 0, p, h + open_ms - now }
end
p = p + 1
-- numbers go to Redis as '%d' strings: exact integers
redis.call('HSET', KEYS[1], 's', '2', 'n', '0', 'w', '0', 'u', string.format('%d', u), 'p', string.format('%d', p), 'h', string.format('%d', h))
redis.call('PEXPIRE', KEYS[1], string.format('%d', h + open_ms - now))
return { 1, 2, 0, p, 0 }
