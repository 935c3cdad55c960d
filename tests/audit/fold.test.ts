// Key-name folding, sibling collapse, the local Redis glob (checked against the server's own SCAN
// MATCH), the Wilson interval, the rate limiter and the policy checks' word list.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { collapseSiblings, foldKey, PatternCache } from '../../audit/fold.js';
import { compileGlob } from '../../audit/glob.js';
import { RateLimiter } from '../../audit/rate.js';
import { isLimiterLike, policyWarnings, type NodeInfo } from '../../audit/server.js';
import { emptyStats, addObservation, mergeStats, ttlBucket, wilson95 } from '../../audit/stats.js';
import { hashIdentity } from '../../runtime/keys.js';
import { uniquePrefix, useRedis } from '../helpers/redis.js';

/** Of the hashes of user-0 .. user-19999, how many the rules leave unfolded (deterministic). */
const UNFOLDED_HASHES = 17;

const redis = useRedis();

describe('foldKey', () => {
  it.each([
    // the issue's examples
    ['session:{a1b2c3}:pending', 'session:{*}:pending'],
    ['user:12345:profile', 'user:*:profile'],
    ['rl:fixed:v1:{Zk3pQ9xV2mN8bL4cR7tY1w}:login', 'rl:fixed:v1:{*}:login'],
    // hash tags: any content, also words; several tags; an empty tag stays
    ['rl:tb:v2:{acct_42}:search', 'rl:tb:v2:{*}:search'],
    ['q:{tenant}:{job}:x', 'q:{*}:{*}:x'],
    ['odd:{}:x', 'odd:{}:x'],
    ['half:{open', 'half:{open'],
    // numbers, dates, times, IPs
    ['rl:fw:v2:{x}:search:60:28433', 'rl:fw:v2:{*}:search:*:*'],
    ['metrics:2024-01-05:hits', 'metrics:*:hits'],
    ['ip:10.0.0.1:hits', 'ip:*:hits'],
    ['temp:-3', 'temp:*'],
    ['price:1.5', 'price:*'],
    // UUIDs, hex, digests
    ['cache:550e8400-e29b-41d4-a716-446655440000', 'cache:*'],
    ['cache:550E8400-E29B-41D4-A716-446655440000:meta', 'cache:*:meta'],
    ['blob:5f3e9a0c', 'blob:*'],
    ['sha:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855', 'sha:*'],
    ['md5:d41d8cd98f00b204e9800998ecf8427e', 'md5:*'],
    // opaque tokens: base64url, ULID, nanoid, a random token without digits
    ['tok:V1StGXR8_Z5jdHi6B-myT', 'tok:*'],
    ['job:01ARZ3NDEKTSV4RRFFQ69G5FAV', 'job:*'],
    ['sess:QxPwLmNbVcXzAsDfGhJkRt', 'sess:*'],
    // emails
    ['user:alice@example.com:prefs', 'user:*:prefs'],
    // ids inside a segment
    ['order_12345', 'order_*'],
    ['page:/v1/users/42/posts', 'page:/v1/users/*/posts'],
    ['img:photo-a1b2c3d4.png', 'img:photo-*.png'],
    ['k:user@12', 'k:user@*'],
  ])('%s → %s', (key, pattern) => {
    expect(foldKey(key)).toBe(pattern);
  });

  it.each([
    'config:feature-flags',
    'rl:fixed:v1:login',
    'cache:deadbeef:facade', // hex letters only: words
    'a:b2c:2fa:60s:1h:v1:v2.1:md5', // short codes
    'ThisIsAVeryLongCamelCaseName:internationalization',
    'queue:high-priority:pending_jobs',
    'feed:decade:accede',
    'UserSessionStore:refreshTokens',
  ])('keeps ordinary words: %s', (key) => {
    const expected = key === 'a:b2c:2fa:60s:1h:v1:v2.1:md5' ? 'a:b2c:2fa:60s:1h:v1:v2.*:md5' : key;
    expect(foldKey(key)).toBe(expected);
  });

  it('folds the key builder\'s identity hashes (22 base64url characters) and every UUID', () => {
    // runtime/keys.ts hashes identities to 22 base64url characters; the rules fold all but the
    // rare hash without a digit and with few capitals (collapseSiblings catches those).
    const unfolded = [...Array(20_000).keys()].filter((i) => foldKey(`rl:tb:v1:${hashIdentity(`user-${i}`)}:x`) !== 'rl:tb:v1:*:x');
    expect(unfolded.length).toBe(UNFOLDED_HASHES);
    fc.assert(
      fc.property(fc.uuid(), (uuid) => {
        expect(foldKey(`c:${uuid}`)).toBe('c:*');
        expect(foldKey(`c:${uuid.replace(/-/g, '')}`)).toBe('c:*');
      }),
      { numRuns: 500 },
    );
  });

  it('produces a glob that matches the key, glob characters of the name included', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[a-z0-9:{}_.*?[\]\\-]{0,30}$/), (key) => {
        expect(compileGlob(foldKey(key)).test(key)).toBe(true);
      }),
      { numRuns: 1000 },
    );
  });

  it('folds as the rules of docs/redis-ttl-audit.md spelled as regular expressions (the one-pass folder against them)', () => {
    const hex = (s: string) => (/^[0-9a-f]+$/.test(s) || /^[0-9A-F]+$/.test(s)) && (s.length >= 16 || (s.length >= 6 && /\d/.test(s)));
    const token = (s: string) => {
      if (s.length < 16 || !/^[A-Za-z0-9_+/=-]+$/.test(s)) return false;
      const letters = s.replace(/[^A-Za-z]/g, '');
      const upper = letters.replace(/[^A-Z]/g, '').length;
      return letters.length > 0 && (/\d/.test(s) || (upper > 0 && upper < letters.length && upper / letters.length >= 0.3));
    };
    const id = (s: string) =>
      /^[+-]?\d+(?:[._+-]\d+)*$/.test(s) ||
      /^(?:[0-9a-f]{8}(?:-[0-9a-f]{4}){3}-[0-9a-f]{12}|[0-9A-F]{8}(?:-[0-9A-F]{4}){3}-[0-9A-F]{12})$/.test(s) ||
      hex(s) ||
      token(s) ||
      /^[^@\s]+@[^@\s]+\.[A-Za-z]{2,}$/.test(s);
    const glob = (s: string) => s.replace(/[*?[\]\\]/g, '\\$&');
    const segment = (s: string) =>
      s === '' || !id(s)
        ? s.split(/([._@-]+)/).map((part, i) => (i % 2 === 0 && part !== '' && (/^\d+$/.test(part) || hex(part)) ? '*' : glob(part))).join('')
        : '*';
    const plain = (s: string) => s.split(/([:/|#,;=\s]+)/).map((piece, i) => (i % 2 === 0 ? segment(piece) : piece)).join('');
    const reference = (key: string): string => {
      const tag = /^([^{]*)\{([^}]*)\}/.exec(key);
      return tag === null ? plain(key) : `${plain(tag[1]!)}{${tag[2] === '' ? '' : '*'}}${reference(key.slice(tag[0].length))}`;
    };
    const pieces = [...'aZf9:/|#,;= \t._@-+{}*?[]\\\u00a0\u2003\u3000\ufeffé', '\ud83d\ude00', 'user', '.com', '@x.io', 'deadbeef', '1.2.3.4', '2024-01-05', 'Zk3pQ9xV2mN8bL4c'];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...pieces), { maxLength: 30 }), (parts) => {
        const key = parts.join('');
        expect(foldKey(key)).toBe(reference(key));
      }),
      { numRuns: 20_000 },
    );
    const segments = fc.oneof(
      fc.stringMatching(/^[+-]?\d{1,4}(?:[._+-]{1,2}\d{0,3}){0,3}$/),
      fc.stringMatching(/^[0-9a-fA-F._@-]{0,20}$/),
      fc.stringMatching(/^[A-Za-z0-9_+=-]{14,24}$/),
      fc.emailAddress(),
      fc.uuid(),
    );
    fc.assert(
      fc.property(fc.array(fc.tuple(segments, fc.constantFrom(':', '/', ' ', '{', '}')), { maxLength: 6 }), (parts) => {
        const key = parts.map(([text, separator]) => text + separator).join('');
        expect(foldKey(key)).toBe(reference(key));
      }),
      { numRuns: 20_000 },
    );
    for (let i = 0; i < 2_000; i += 1) {
      for (const key of [`rl:tb:v1:${hashIdentity(`user-${i}`)}:x`, `u:${i}@ex${i % 7}.com:p`, `c:${(i * 2654435761) >>> 0}`]) expect(foldKey(key)).toBe(reference(key));
    }
  });

  it('escapes the glob characters of a name, and only those', () => {
    expect(foldKey('jobs:[urgent]:42')).toBe('jobs:\\[urgent\\]:*');
    expect(foldKey('a*b?c:x\\y')).toBe('a\\*b\\?c:x\\\\y');
    expect(foldKey('{a*b}:*')).toBe('{*}:\\*');
    expect(compileGlob(foldKey('a*b:1')).test('aXb:1')).toBe(false);
    expect(foldKey('bin:\\xff', { escape: false })).toBe('bin:\\xff');
  });
});

describe('PatternCache', () => {
  it('returns the string of the first key of a pattern for the next ones, and never another pattern', () => {
    const cache = new PatternCache();
    const first = cache.fold(`user:${1234}:profile`);
    expect(first).toBe('user:*:profile');
    // same length, same pattern: the very same string; differing only where the fold keeps text: its own
    expect(Object.is(cache.fold(`user:${5678}:profile`), first)).toBe(true);
    expect(cache.fold('user:9:profilf')).toBe('user:*:profilf');
    expect(cache.fold('a*b:12')).toBe('a\\*b:*');
    expect(cache.fold('config')).toBe('config');
  });

  it('equals foldKey on any key, with a capacity small enough to start over many times', () => {
    const cache = new PatternCache(3);
    fc.assert(
      fc.property(fc.array(fc.stringMatching(/^[a-z0-9:{}*@._-]{0,24}$/), { minLength: 1, maxLength: 20 }), (keys) => {
        for (const key of keys) expect(cache.fold(key)).toBe(foldKey(key));
      }),
    );
  });
});

describe('collapseSiblings', () => {
  const ops = { merge: mergeStats };
  const stats = (keys: number, noTtl: number) => {
    const s = emptyStats(false);
    for (let i = 0; i < keys; i += 1) addObservation(s, { key: `k${i}`, pttl: i < noTtl ? -1 : 5_000 });
    return s;
  };

  it('folds a segment shared by more than `threshold` patterns, merging their statistics', () => {
    const input = new Map([
      ['user:alice:profile', stats(2, 1)],
      ['user:bob:profile', stats(3, 3)],
      ['user:carol:profile', stats(1, 0)],
      ['user:alice:settings', stats(1, 1)],
      ['session:{*}:x', stats(4, 0)],
    ]);
    const out = collapseSiblings(input, 2, ops);
    expect([...out.keys()].sort()).toEqual(['session:{*}:x', 'user:*:profile', 'user:alice:settings']);
    expect(out.get('user:*:profile')).toMatchObject({ keys: 6, noTtl: 4, ttl: { '<1m': 2 } });
    expect(input.size).toBe(5); // unchanged
    expect([...collapseSiblings(input, 3, ops).keys()]).toHaveLength(5); // 3 siblings are not more than 3
  });

  it('leaves patterns of one segment apart, however many', () => {
    const input = new Map([...Array(50).keys()].map((i) => [`singleton${String.fromCharCode(97 + (i % 26))}${i > 25 ? 'x' : ''}`, stats(1, 1)] as const));
    expect(collapseSiblings(input, 2, ops).size).toBe(50);
  });

  it('never turns a hash tag into a bare *', () => {
    const input = new Map([...Array(5).keys()].map((i) => [`q:{*}:job${'abcde'[i]}`, stats(1, 0)] as const));
    expect([...collapseSiblings(input, 2, ops).keys()]).toEqual(['q:{*}:*']);
  });
});

describe('compileGlob (Redis MATCH semantics)', () => {
  it.each([
    ['rl:*', 'rl:fixed:v1', true],
    ['rl:*', 'rlx', false],
    ['h?llo', 'hallo', true],
    ['h[ae]llo', 'hillo', false],
    ['h[^e]llo', 'hallo', true],
    ['h[a-b]llo', 'hbllo', true],
    ['h[b-a]llo', 'hbllo', true],
    ['h\\*llo', 'h*llo', true],
    ['h\\*llo', 'hallo', false],
    ['*', '', true],
    ['a*b*c', 'aXbYc', true],
    ['a*b*c', 'aXbY', false],
  ])('%s on %s: %s', (pattern, key, expected) => {
    expect(compileGlob(pattern).test(key)).toBe(expected);
  });

  it('agrees with the server on random keys and patterns', async () => {
    // Under a private prefix of letters and digits: `P + pattern` matches `P + key` exactly when
    // `pattern` matches `key`, so no database of its own (and no FLUSHDB) is needed.
    const r = redis.client();
    const prefix = uniquePrefix('glob');
    const keys = new Set<string>();
    fc.assert(
      fc.property(fc.stringMatching(/^[ab:\-[\]^\\]{1,6}$/), (k) => {
        keys.add(k);
      }),
      { numRuns: 300, seed: 42 },
    );
    await r.mset(Object.fromEntries([...keys].map((k) => [`${prefix}${k}`, '1'])));
    await fc.assert(
      fc.asyncProperty(fc.stringMatching(/^[ab:*?\-[\]^\\]{1,7}$/), async (pattern) => {
        const server = new Set<string>();
        let cursor = '0';
        do {
          const [next, found] = await r.scan(cursor, 'MATCH', `${prefix}${pattern}`, 'COUNT', 1000);
          cursor = next;
          for (const k of found) server.add(k.slice(prefix.length));
        } while (cursor !== '0');
        const glob = compileGlob(pattern);
        expect([...keys].filter((k) => glob.test(k)).sort()).toEqual([...server].sort());
      }),
      { numRuns: 400 },
    );
  });
});

describe('statistics', () => {
  it('buckets TTLs at 1 minute, 1 hour, 1 day and 7 days', () => {
    expect([1, 59_999, 60_000, 3_599_999, 3_600_000, 86_399_999, 86_400_000, 604_799_999, 604_800_000].map(ttlBucket)).toEqual([
      '<1m', '<1m', '<1h', '<1h', '<1d', '<1d', '<7d', '<7d', '>=7d',
    ]);
  });

  it('keeps the three largest examples across merges', () => {
    const a = emptyStats(true);
    const b = emptyStats(true);
    [5, 1, 9, 3].forEach((bytes, i) => addObservation(a, { key: `a${i}`, pttl: -1, bytes }));
    [7, 8].forEach((bytes, i) => addObservation(b, { key: `b${i}`, pttl: 10, bytes }));
    expect(mergeStats(a, b)).toMatchObject({ keys: 6, noTtl: 4, memoryBytes: 33, largest: [{ key: 'a2', bytes: 9 }, { key: 'b1', bytes: 8 }, { key: 'b0', bytes: 7 }] });
  });

  it('computes the 95% Wilson interval (reference values) with the finite-population correction', () => {
    const round = (p: { share: number; low: number; high: number }) => [p.share, Number(p.low.toFixed(4)), Number(p.high.toFixed(4))];
    expect(round(wilson95(10, 100))).toEqual([0.1, 0.0552, 0.1744]);
    expect(round(wilson95(0, 100))).toEqual([0, 0, 0.037]);
    expect(round(wilson95(100, 100))).toEqual([1, 0.963, 1]);
    expect(round(wilson95(10, 100, 100))).toEqual([0.1, 0.1, 0.1]); // a census: no sampling error
    const corrected = wilson95(10, 100, 200);
    expect(corrected.high - corrected.low).toBeLessThan(0.1744 - 0.0552);
    expect(wilson95(0, 0)).toEqual({ share: 0, low: 0, high: 1 });
  });
});

describe('RateLimiter', () => {
  it('spaces acquisitions at the configured rate (fake clock)', async () => {
    let now = 0;
    const limiter = new RateLimiter(1000, () => now);
    expect(limiter.burst).toBe(50);
    await limiter.acquire(50); // at 0, books 50 ms
    now = 10;
    const started = performance.now();
    await limiter.acquire(50); // waits until 50
    expect(performance.now() - started).toBeGreaterThanOrEqual(35);
    expect(limiter.ops).toBe(100);
    const free = new RateLimiter(0);
    expect(free.limited).toBe(false);
    expect(free.burst).toBe(Number.POSITIVE_INFINITY);
  });
});

describe('policy checks', () => {
  it.each([
    ['rl:fixed:v1:{*}:login', true],
    ['app:swl2:{*}', true], // the runtime's sliding-window log keys
    ['api:RateLimit:*', true],
    ['ratelimiter:*', true],
    ['throttled-users:*', true],
    ['tokenBucket:*', true],
    ['quota:{*}:daily', true],
    ['win:*', false],
    ['user:*:profile', false],
    ['url:*:world', false],
    ['limited-edition:*', false],
  ])('%s is limiter-like: %s', (pattern, expected) => {
    expect(isLimiterLike(pattern)).toBe(expected);
  });

  it('reads no policy, warns about nothing', () => {
    const node: NodeInfo = { address: 'h:1', version: '7.0.0', dbsize: 1, maxmemory: null, maxmemoryPolicy: null, clusterEnabled: false };
    expect(policyWarnings(node, [{ pattern: 'rl:*', keys: 1, noTtl: 1 }])).toEqual([]);
    expect(
      policyWarnings({ ...node, maxmemoryPolicy: 'volatile-ttl', maxmemory: 1024 }, [{ pattern: 'a', keys: 2, noTtl: 2 }])[0]!.message,
    ).toBe('maxmemory-policy is volatile-ttl, which evicts only keys with a TTL: the 2 key(s) without TTL found here can never be evicted and can fill maxmemory (1024 bytes), after which writes fail.');
  });
});
