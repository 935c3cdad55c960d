-- gcra: the generic cell rate algorithm; one unit is admitted every emission interval
-- T = periodMs / limit milliseconds, with up to `burst` units admitted back to back.
--
-- KEYS[1]  the limiter key: a string "<a>:<r>:<L>", the theoretical arrival time (TAT) a + r/L ms
-- ARGV[1]  burst      integer >= 1, units
-- ARGV[2]  P          integer >= 1  } the emission interval is P/L milliseconds
-- ARGV[3]  L          integer >= 1  } (periodMs / limit, as an exact fraction; burst * P < 2^53)
-- ARGV[4]  cost       integer >= 1, units
-- ARGV[5]  now        '' to use the server clock (TIME), else integer milliseconds (tests only)
-- Returns  { allowed 0|1, remaining, retryAfterMs (-1: never), resetAfterMs }
--
-- Times are handled in units of 1/L ms relative to now, so waits are exact integers. A missing
-- key means TAT <= now (nothing outstanding). A denied call writes nothing. An admitted call
-- writes the new TAT with SET ... PX (value and TTL in one command): the key matters until the
-- TAT, so its TTL is ceil(TAT - now) ms, at most ceil(burst * T). The TAT is an absolute time: a
-- clock that steps back finds it further ahead, so it admits nothing more (retry and reset times
-- include the time the clock needs to catch up).
-- SET: https://redis.io/docs/latest/commands/set/ ; TIME: https://redis.io/docs/latest/commands/time/
local MAX = 9007199254740991
local burst = tonumber(ARGV[1])
if burst == nil or burst % 1 ~= 0 or burst < 1 or burst > MAX then
  return redis.error_reply('ERR redis-ttl gcra: burst must be an integer >= 1')
end
local per = tonumber(ARGV[2])
if per == nil or per % 1 ~= 0 or per < 1 or burst * per > MAX then
  return redis.error_reply('ERR redis-ttl gcra: interval numerator must be an integer >= 1 and burst * P < 2^53')
end
local units = tonumber(ARGV[3])
if units == nil or units % 1 ~= 0 or units < 1 or units > MAX then
  return redis.error_reply('ERR redis-ttl gcra: interval denominator must be an integer >= 1')
end
local cost = tonumber(ARGV[4])
if cost == nil or cost % 1 ~= 0 or cost < 1 or cost > MAX then
  return redis.error_reply('ERR redis-ttl gcra: cost must be an integer >= 1')
end
local now
if ARGV[5] == '' then
  local t = redis.call('TIME')
  -- the two decimal strings of TIME are coerced by the arithmetic (no tonumber call)
  now = t[1] * 1000 + math.floor(t[2] / 1000)
else
  now = tonumber(ARGV[5])
  if now == nil or now % 1 ~= 0 or now < 0 or now > MAX then
    return redis.error_reply('ERR redis-ttl gcra: now must be an integer >= 0')
  end
end

-- floor(a / b) for integers below 2^53, corrected for rounding of the float division
local function idiv(a, b)
  local q = math.floor(a / b)
  if q * b > a then
    q = q - 1
  elseif (q + 1) * b <= a then
    q = q + 1
  end
  return q
end
local function cdiv(a, b)
  return -idiv(-a, b)
end

local tau = burst * per        -- burst * T, in units of 1/L ms
local inc = cost * per         -- cost * T, in units of 1/L ms
-- outstanding = max(TAT - now, 0) in units of 1/L ms, less `over` whole ms
local outstanding = 0
-- ms by which the TAT is further ahead than a full burst (normally 0; more when the clock went
-- back, or when the key was written with a larger burst): every call is denied until the clock
-- has moved that far, and retry and reset times include it
local over = 0
local stored = redis.call('GET', KEYS[1])
if stored then
  local a, r, l = string.match(stored, '^(%-?%d+):(%d+):(%d+)$')
  a = tonumber(a)
  r = tonumber(r)
  l = tonumber(l)
  if a ~= nil and r ~= nil and l ~= nil and l >= 1 and a >= now then
    local ahead = a - now
    -- a full burst is less than `cap` ms ahead: beyond, count whole ms apart (exact integers)
    local cap = idiv(tau, units) + 1
    if ahead > cap then
      over = ahead - cap
      ahead = cap
    end
    if l == units then
      outstanding = ahead * units + r
    else
      -- written under another rate: convert the fraction (rounding up, towards a later TAT)
      outstanding = ahead * units + cdiv(r * units, l)
    end
  end
end

local function remaining_after(o)
  local left = idiv(tau - o, per)
  if left < 0 then
    left = 0
  end
  return left
end

if cost > burst then
  return { 0, remaining_after(outstanding), -1, over + cdiv(outstanding, units) }
end
if over > 0 or outstanding + inc > tau then
  return { 0, remaining_after(outstanding), over + cdiv(outstanding + inc - tau, units), over + cdiv(outstanding, units) }
end

outstanding = outstanding + inc
local ttl_ms = cdiv(outstanding, units)
local tat_ms = now + idiv(outstanding, units)
local tat_rest = outstanding - idiv(outstanding, units) * units
-- numbers go to Redis as '%d' strings: exact integers, and cheaper than Redis' own %.17g conversion
redis.call('SET', KEYS[1], string.format('%d:%d:%d', tat_ms, tat_rest, units), 'PX', string.format('%d', ttl_ms))
return { 1, remaining_after(outstanding), 0, ttl_ms }
