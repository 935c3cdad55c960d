/**
 * An expiry counts only for the key it names (issue 25): a record written with its TTL and, in the
 * same MULTI / pipeline / batch, a secondary index of that record (`_index:${key}`, `${ns}:${value}`)
 * written without one leaves the index forever once the record expires. Every client form: ioredis
 * and iovalkey `multi()` / `pipeline()` chains, arrays and variables, node-redis `multi()` (also
 * reassigned at each command: `tx = tx.sAdd(...)`), @upstash/redis `pipeline()` / `multi()`, GLIDE
 * `Batch`, Bun (no batches). The other arm of a test of a TTL-named flag covers a write only for the
 * same key (a test of the TTL value itself leaves the no-TTL arm to the caller, whatever it writes): the
 * same expression, or the same shape when that shape spells a key family (`sess:*`), never two
 * shapes made only of run-time parts (`*`, `*:*`). Near-misses that stay unreported: a bounded
 * index (`'all-records'`), the index expired with the record, the same key in both arms.
 */
import rule from '../../rules/incr-needs-expire-on-create.js';
import setRule from '../../rules/set-requires-ttl-or-keepttl.js';
import { ioredis, nodeRedis, runRule, typedTester, untypedTester, upstash } from './tester.js';

const iovalkey = (body: string): string => `import Redis from 'iovalkey';\nconst valkey = new Redis();\n${body}`;
const glide = (body: string): string =>
  `import { Batch, GlideClient } from '@valkey/valkey-glide';\nconst client = await GlideClient.createClient({ addresses: [{ host: 'localhost', port: 6379 }] });\n${body}`;
const bun = (body: string): string => `import { RedisClient } from 'bun';\nconst cache = new RedisClient('redis://localhost:6379');\n${body}`;
/** A record and its index key built by helpers of another module (their shapes are `*`). */
const helpers = (body: string): string =>
  `import Redis from 'ioredis';\nimport { indexKey, recordKey } from './keys';\nconst redis = new Redis();\nexport async function put(id: string, v: string, ttl?: number) {\n${body}\n}`;

/** The noExpiry finding at `line:column`, with its one suggestion: `expire` queued right after `after`. */
function indexLeak(code: string, line: number, column: number, after: string, expire: string) {
  return {
    code,
    errors: [{ messageId: 'noExpiry' as const, line, column, suggestions: [{ messageId: 'appendExpire' as const, output: code.replace(after, `${after}${expire}`) }] }],
  };
}

for (const tester of [untypedTester, typedTester]) {
  runRule(tester, 'incr-needs-expire-on-create', rule, {
    valid: [
      // a bounded index (one key) is not reported, as before
      ioredis("await redis.multi().set(k, v, 'EX', 60).sadd('all-records', id).exec();"),
      nodeRedis("let tx = client.multi();\ntx = tx.set(k, v, { EX: 60 });\ntx = tx.sAdd('all-records', id);\nawait tx.exec();"),
      // the index expired with the record
      ioredis("await redis.multi().set(k, v, 'EX', 60).sadd(`_index:${k}`, id).expire(`_index:${k}`, 60).exec();"),
      nodeRedis('let tx = client.multi();\ntx = tx.sAdd(`_index:${k}`, id);\ntx = tx.expire(`_index:${k}`, 60);\nawait tx.exec();'),
      upstash('const tx = redis.multi();\ntx.hset(`_index:${k}`, { owner: id });\ntx.expire(`_index:${k}`, 60);\nawait tx.exec();'),
      // the no-TTL arm of a TTL test writes the key the other arm expires: the caller's choice
      helpers('  if (ttl) await redis.multi().sadd(indexKey(id), id).expire(indexKey(id), ttl).exec();\n  else await redis.sadd(indexKey(id), id);'),
      ioredis(
        'export async function put(id: string, v: string, ttl?: number) {\n  if (ttl) await redis.multi().sadd(`tags:${id}`, v).expire(`tags:${id}`, ttl).exec();\n  else await redis.sadd(`tags:${key}`, v);\n}',
      ),
      // a test of the TTL value the other arm passes: the arm without it runs when the caller gave no
      // TTL, which is the caller's choice for whatever that arm writes (issue 25, the no-TTL arm)
      helpers("  if (ttl) await redis.set(recordKey(id), v, 'EX', ttl);\n  else await redis.sadd(indexKey(id), id);"),
      ioredis('export async function put(ns: string, id: string, v: string, ttl?: number) {\n  if (ttl) await redis.set(`${ns}:${id}`, v, \'EX\', ttl);\n  else await redis.sadd(`${ns}:${v}`, id);\n}'),
    ],
    invalid: [
      indexLeak(ioredis('await redis.multi().set(k, v).expire(k, 60).sadd(`_index:${k}`, id).exec();'), 3, 45, 'sadd(`_index:${k}`, id)', '.expire(`_index:${k}`, TTL_SECONDS)'),
      indexLeak(
        ioredis("await redis.multi([['set', k, v, 'EX', 60], ['sadd', `_index:${k}`, id]]).exec();"),
        3,
        46,
        "['sadd', `_index:${k}`, id]",
        ", ['expire', `_index:${k}`, TTL_SECONDS]",
      ),
      indexLeak(
        ioredis("const p = redis.pipeline();\np.set(k, v, 'EX', 60);\np.hset(`_index:${k}`, 'owner', id);\nawait p.exec();"),
        5,
        3,
        "p.hset(`_index:${k}`, 'owner', id)",
        '.expire(`_index:${k}`, TTL_SECONDS)',
      ),
      indexLeak(iovalkey("await valkey.multi().set(k, v, 'EX', 60).sadd(`_index:${k}`, id).exec();"), 3, 42, 'sadd(`_index:${k}`, id)', '.expire(`_index:${k}`, TTL_SECONDS)'),
      // node-redis, the batch reassigned at each command (a database driver's put())
      indexLeak(
        nodeRedis('let tx = client.multi();\ntx = tx.set(k, v);\ntx = tx.expire(k, 60);\ntx = tx.sAdd(`_index:${ns}:${k}`, id);\nawait tx.exec();'),
        6,
        9,
        'tx.sAdd(`_index:${ns}:${k}`, id)',
        '.expire(`_index:${ns}:${k}`, TTL_SECONDS)',
      ),
      indexLeak(
        nodeRedis('await client.multi().set(k, v, { EX: 60 }).zAdd(`_index:${k}`, { score: 1, value: id }).exec();'),
        3,
        44,
        'zAdd(`_index:${k}`, { score: 1, value: id })',
        '.expire(`_index:${k}`, TTL_SECONDS)',
      ),
      indexLeak(upstash('await redis.pipeline().set(k, v, { ex: 60 }).sadd(`_index:${k}`, id).exec();'), 3, 46, 'sadd(`_index:${k}`, id)', '.expire(`_index:${k}`, TTL_SECONDS)'),
      indexLeak(
        upstash('const tx = redis.multi();\ntx.set(k, v);\ntx.expire(k, 60);\ntx.hset(`_index:${k}`, { owner: id });\nawait tx.exec();'),
        6,
        4,
        'tx.hset(`_index:${k}`, { owner: id })',
        '.expire(`_index:${k}`, TTL_SECONDS)',
      ),
      indexLeak(
        glide('await client.exec(new Batch(true).set(k, v).expire(k, 60).sadd(`_index:${k}`, [id]), true);'),
        3,
        59,
        'sadd(`_index:${k}`, [id])',
        '.expire(`_index:${k}`, TTL_SECONDS)',
      ),
      // Bun has no batches: the index is a round trip of its own, without TTL
      { code: bun("await cache.set(k, v, 'EX', 60);\nawait cache.sadd(`_index:${k}`, id);"), errors: [{ messageId: 'noExpiry', line: 4, column: 13, suggestions: [] }] },
      // a TTL test: the TTL arm expires the record only, so neither arm's index is covered
      indexLeak(
        helpers("  if (ttl) await redis.multi().set(recordKey(id), v, 'EX', ttl).sadd(indexKey(id), id).exec();\n  else await redis.sadd(indexKey(id), id);")
          .replace('else await redis.sadd(indexKey(id), id);', 'else await redis.set(recordKey(id), v);'),
        5,
        65,
        'sadd(indexKey(id), id)',
        '.expire(indexKey(id), TTL_SECONDS)',
      ),
      // a test of a TTL-named flag, not of the TTL value the other arm passes: the other arm covers
      // only the key it expires, and it expires the record, not the index
      {
        code: helpers("  if (!skipTtl) await redis.set(recordKey(id), v, 'EX', 60);\n  else await redis.sadd(indexKey(id), id);"),
        errors: [{ messageId: 'noExpiry', line: 6, column: 20, suggestions: [{ messageId: 'wrapInMulti', output: helpers("  if (!skipTtl) await redis.set(recordKey(id), v, 'EX', 60);\n  else await redis.multi().sadd(indexKey(id), id).expire(indexKey(id), TTL_SECONDS).exec();") }] }],
      },
      // keys read from consts (behind a flag's test): what the consts are built from decides
      {
        code: helpers("  const record = recordKey(id);\n  const index = indexKey(id);\n  if (!skipTtl) await redis.set(record, v, 'EX', 60);\n  else await redis.sadd(index, id);"),
        errors: [
          {
            messageId: 'noExpiry',
            line: 8,
            column: 20,
            suggestions: [
              {
                messageId: 'wrapInMulti',
                output: helpers("  const record = recordKey(id);\n  const index = indexKey(id);\n  if (!skipTtl) await redis.set(record, v, 'EX', 60);\n  else await redis.multi().sadd(index, id).expire(index, TTL_SECONDS).exec();"),
              },
            ],
          },
        ],
      },
      // two shapes of run-time parts only (behind a flag's test) (`*:*`): a record and an index by value are two keys
      {
        code: ioredis(
          'export async function put(ns: string, id: string, v: string, ttl?: number) {\n  if (!skipTtl) await redis.set(`${ns}:${id}`, v, \'EX\', 60);\n  else await redis.sadd(`${ns}:${v}`, id);\n}',
        ),
        errors: [
          {
            messageId: 'noExpiry',
            line: 5,
            column: 20,
            suggestions: [
              {
                messageId: 'wrapInMulti',
                output: ioredis(
                  'export async function put(ns: string, id: string, v: string, ttl?: number) {\n  if (!skipTtl) await redis.set(`${ns}:${id}`, v, \'EX\', 60);\n  else await redis.multi().sadd(`${ns}:${v}`, id).expire(`${ns}:${v}`, TTL_SECONDS).exec();\n}',
                ),
              },
            ],
          },
        ],
      },
    ],
  });
}

// an opaque key (a variable, an array of pairs) may be the keys the other arm expires one by one:
// MSET of `items` in the no-TTL case, SETEX of each `key` of `items` in the other (cache stores)
for (const tester of [untypedTester, typedTester]) {
  runRule(tester, 'set-requires-ttl-or-keepttl (the other arm of a TTL test)', setRule, {
    valid: [
      ioredis(
        'export async function mset(items: Array<[string, string]>, ttl?: number) {\n  if (ttl) {\n    const multi = redis.multi();\n    for (const [key, value] of items) multi.setex(key, ttl, value);\n    return multi.exec();\n  }\n  return redis.mset(items.flat());\n}',
      ),
    ],
    invalid: [],
  });
}
