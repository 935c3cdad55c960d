-- gcra: the generic cell rate algorithm; one unit is admitted every emission interval
-- T = periodMs / limit milliseconds, with up to `burst` units admitted back to back.
--
-- KEYS[1]  the limiter key (format 3, `...:gcra3:...`): 24 bytes, `struct.pack('<ddd', a, r, L)`,
--          the theoretical arrival time (TAT) a + r/L ms, L the interval's denominator it was
--          written with, three little-endian IEEE doubles (exact integers below 2^53)
-- ARGV[1]  burst      integer >= 1, units
-- ARGV[2]  P          integer >= 1  } the emission interval is P/L milliseconds
-- ARGV[3]  L          integer >= 1  } (periodMs / limit, as an exact fraction; burst * P < 2^53)
-- ARGV[4]  cost       integer >= 1, units; absent: 1
-- ARGV[5]  now        absent: the server clock (TIME); else integer milliseconds (tests only)
-- Returns  o, the time outstanding (max(TAT - now, 0) in units of 1/L ms) after an admitted call,
--          or -o - 1 (o before the call) for a denied one: an integer, from which the caller, who
--          knows the parameters and the cost, computes remaining, retryAfterMs and resetAfterMs
--          (runtime/decode.ts); the table { that integer, over } when the TAT is `over` whole ms
--          further ahead than a full burst (the clock went back, or the burst shrank).
--
-- Times are handled in units of 1/L ms relative to now, so waits are exact integers. A missing
-- key means TAT <= now (nothing outstanding). A denied call writes nothing. An admitted call
-- writes the new TAT with `SET ... PX` (value and TTL in one command): the key matters until the
-- TAT, so its TTL is ceil(TAT - now) ms, at most ceil(burst * T). The TAT is an absolute time: a
-- clock that steps back finds it further ahead, so it admits nothing more (retry and reset times
-- include the time the clock needs to catch up). Arguments are coerced by arithmetic (an argument
-- that is not a number is Redis' script error) and checked before anything is written.
-- The state is binary (format 3; format 2 was the text "<a>:<r>:<L>"): one struct.unpack reads
-- the three numbers and one struct.pack writes them (struct is one of the libraries Redis loads
-- into its Lua), where string.match made three strings to coerce and string.format ran sprintf
-- three times: about -8,000 instructions per call on a key that holds state (Redis 7.0). A state
-- that is not 24 bytes of three integers in range (a <= 2 * (2^53 - 1), the most it writes; r < 2^53,
-- 1 <= L < 2^53) is a value this script did not write.
-- SET: https://redis.io/docs/latest/commands/set/ ; TIME: https://redis.io/docs/latest/commands/time/
-- Lua libraries in Redis (struct): https://redis.io/docs/latest/develop/programmability/lua-api/
local MAX = 9007199254740991
local burst = ARGV[1] + 0
if burst % 1 ~= 0 or burst < 1 or burst > MAX then
  return redis.error_reply('ERR redis-ttl gcra: burst must be an integer >= 1')
end
local per = ARGV[2] + 0
if per % 1 ~= 0 or per < 1 or burst * per > MAX then
  return redis.error_reply('ERR redis-ttl gcra: interval numerator must be an integer >= 1 and burst * P < 2^53')
end
local units = ARGV[3] + 0
if units % 1 ~= 0 or units < 1 or units > MAX then
  return redis.error_reply('ERR redis-ttl gcra: interval denominator must be an integer >= 1')
end
local cost = 1
if ARGV[4] then
  cost = ARGV[4] + 0
  if cost % 1 ~= 0 or cost < 1 or cost > MAX then
    return redis.error_reply('ERR redis-ttl gcra: cost must be an integer >= 1')
  end
end
local now
if ARGV[5] then
  now = ARGV[5] + 0
  if now % 1 ~= 0 or now < 0 or now > MAX then
    return redis.error_reply('ERR redis-ttl gcra: now must be an integer >= 0')
  end
else
  local t = redis.call('TIME')
  -- the two decimal strings of TIME are coerced by the arithmetic (no tonumber call)
  now = t[1] * 1000 + math.floor(t[2] / 1000)
end

local tau = burst * per        -- burst * T, in units of 1/L ms
-- outstanding = max(TAT - now, 0) in units of 1/L ms, less `over` whole ms
local outstanding = 0
-- ms by which the TAT is further ahead than a full burst (normally 0; more when the clock went
-- back, or when the key was written with a larger burst): every call is denied until the clock
-- has moved that far, and retry and reset times include it
local over = 0
local stored = redis.call('GET', KEYS[1])
if stored then
  local a, r, l
  if #stored == 24 then
    a, r, l = struct.unpack('<ddd', stored)
  end
  -- NaN fails every comparison: a value of 24 other bytes is refused too. a is now + whole ms
  -- as this script writes it, now and whole each at most 2^53 - 1: up to 2 * MAX (an even double)
  if not (l and a % 1 == 0 and a >= 0 and a <= 2 * MAX and r % 1 == 0 and r >= 0 and r <= MAX
      and l % 1 == 0 and l >= 1 and l <= MAX) then
    return redis.error_reply('ERR redis-ttl gcra: the key holds a value this script did not write')
  end
  if a >= now then
    local ahead = a - now
    -- a full burst is less than `cap` ms ahead: beyond, count whole ms apart (exact integers);
    -- cap = floor(tau / units) + 1, and ahead > cap exactly when (ahead - 1) * units > tau (a
    -- product past 2^53 is inexact but still above tau), so cap is computed only then
    if (ahead - 1) * units > tau then
      -- the float division corrected for rounding
      local cap = math.floor(tau / units)
      if cap * units > tau then
        cap = cap - 1
      elseif (cap + 1) * units <= tau then
        cap = cap + 1
      end
      cap = cap + 1
      over = ahead - cap
      ahead = cap
    end
    if l == units then
      outstanding = ahead * units + r
    else
      -- written under another rate: convert the fraction (rounding up, towards a later TAT)
      local part = math.ceil(r * units / l)
      if part * l < r * units then
        part = part + 1
      elseif (part - 1) * l >= r * units then
        part = part - 1
      end
      outstanding = ahead * units + part
    end
  end
end

if cost > burst or over > 0 or outstanding + cost * per > tau then
  if over > 0 then
    return { -outstanding - 1, over }
  end
  return -outstanding - 1
end

outstanding = outstanding + cost * per
-- whole ms of the outstanding time: floor(outstanding / units), corrected for rounding; with
-- units = 1 (an interval of whole ms: 100 per minute is 600/1) the outstanding time itself
local whole = outstanding
if units ~= 1 then
  whole = math.floor(outstanding / units)
  if whole * units > outstanding then
    whole = whole - 1
  elseif (whole + 1) * units <= outstanding then
    whole = whole + 1
  end
end
local ttl_ms = whole
if whole * units < outstanding then
  ttl_ms = whole + 1
end
-- the TTL goes to Redis as a '%d' string: exact, and cheaper than Redis' own %.17g conversion
redis.call('SET', KEYS[1], struct.pack('<ddd', now + whole, outstanding - whole * units, units), 'PX', string.format('%d', ttl_ms))
return outstanding
