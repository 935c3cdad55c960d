-- Leaderboard: a daily board that never rolls over.
--
-- Scores go to a daily board and to the all-time board. The daily board's key carries
-- the date, so the code "moves on" every midnight, but nothing ever removes the old
-- boards: ZADD creates each one without a TTL, and a year later there are 365 sorted
-- sets of stale scores. The all-time board is meant to live forever, and the
-- annotation above its write says so.
--
-- KEYS[1] = lb:{<game>}:daily:<yyyy-mm-dd>   KEYS[2] = lb:{<game>}:alltime
-- ARGV[1] = player   ARGV[2] = score
-- Returns the player's 0-based rank on the daily board.
--
-- lua-lint: write-path-needs-ttl on the first ZADD.
-- Fix: EXPIRE KEYS[1] 172800 (two days, so yesterday's board can still be shown).
redis.call('ZADD', KEYS[1], 'GT', ARGV[2], ARGV[1])

-- redis-ttl persistent: KEYS[2] -- the all-time board is kept on purpose, trimmed below
redis.call('ZADD', KEYS[2], 'GT', ARGV[2], ARGV[1])
redis.call('ZREMRANGEBYRANK', KEYS[2], 0, -1001)

return redis.call('ZREVRANK', KEYS[1], ARGV[1])
