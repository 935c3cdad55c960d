/**
 * A write on the branch where a reply read in an earlier, separate round trip said the key exists,
 * with no expiry in the write's own atomic unit (issue 25, item 6, the mirror of `staleGuard`): the
 * key can expire between the read and the write, which then recreates it without TTL, for good.
 * Reported as `staleExists` (naming the read) when the file gives the key a TTL somewhere, for
 * every client, through `if` / `else`, an early `return`, `&&`, a `.then((len) => ...)` callback, a
 * variable assigned once in a `try`, and `const`s derived from the reply; also where an update of a
 * record created with a TTL elsewhere was left alone. Limits: the write with its own expiry in its
 * unit, the branch where the read saw no key, a read of another key, a reply with no scalar for a
 * missing key (HGETALL), EXISTS of several keys, and a key the file never expires are not
 * `staleExists` (the last is not reported at all: the read proved the key there).
 */
import incrRule from '../../rules/incr-needs-expire-on-create.js';
import { ioredis, nodeRedis, runRule, typedTester, untypedTester, upstash } from './tester.js';

const lines = (...body: string[]): string => body.join('\n');

/** A creator of the key family with its TTL, so that the key has an expiry to race (`hub:*:conns`). */
const fill = lines(
  'export async function fill(hub: string) {',
  '  await redis.multi().hset(`hub:${hub}:conns`, "a", "b").expire(`hub:${hub}:conns`, 600).exec();',
  '}',
);

/** One expected `staleExists`: where, and the read it names. */
interface Stale {
  line: number;
  column: number;
  command: string;
  key: string;
  read: string;
  readLine: number;
  hint?: string;
}

const reported: Array<{ code: string; errors?: Stale[] } & Partial<Stale>> = [
  // @ladjs/koa-simple-ratelimit's shape: GET in a try, SET NX PX when absent (then return), PTTL,
  // DECR on the branch where the counter was read (n = Math.floor(Number(cur)))
  {
    code: ioredis(
      lines(
        'export async function limit(id: string, max: number) {',
        '  const name = `limit:${id}:count`;',
        '  let cur;',
        '  try {',
        '    cur = await redis.get(name);',
        '  } catch {',
        '    return;',
        '  }',
        '  const n = Math.floor(Number(cur));',
        '  if (!cur) {',
        "    redis.set(name, max - 1, 'PX', 60000, 'NX').then().catch(() => {});",
        '    return;',
        '  }',
        '  const expires = await redis.pttl(name);',
        '  if (n - 1 >= 0) {',
        '    redis.decr(name).then().catch(() => {});',
        '  }',
        '  return expires;',
        '}',
      ),
    ),
    line: 18,
    column: 11,
    command: 'DECR',
    key: 'limit:*:count',
    read: 'GET',
    readLine: 7,
  },
  // Discord-InterChat's HubModeratorManager: HLEN, then HSET in the `.then` callback's else arm
  {
    code: ioredis(
      lines(
        fill,
        'export function add(hub: string, user: string, mod: string) {',
        '  redis.hlen(`hub:${hub}:conns`).then(async (len) => {',
        '    if (len === 0) await fill(hub);',
        '    else await redis.hset(`hub:${hub}:conns`, user, mod);',
        '  });',
        '}',
      ),
    ),
    line: 9,
    column: 22,
    command: 'HSET',
    key: 'hub:*:conns',
    read: 'HLEN',
    readLine: 7,
  },
  // Discord-InterChat's cacheHubConnection: HLEN, an early return when it is 0, then HSET
  {
    code: ioredis(
      lines(
        fill,
        'export async function cache(hub: string, channel: string) {',
        '  const cached = await redis.hlen(`hub:${hub}:conns`);',
        '  if (!cached) {',
        '    await fill(hub);',
        '    return;',
        '  }',
        "  await redis.hset(`hub:${hub}:conns`, channel, 'x');",
        '}',
      ),
    ),
    line: 12,
    column: 15,
    command: 'HSET',
    key: 'hub:*:conns',
    read: 'HLEN',
    readLine: 7,
  },
  // node-redis: EXISTS read in the test itself, SADD after it; the set is created with its TTL
  // in a MULTI elsewhere (an update of a record created with a TTL, which recommended leaves
  // alone without the read)
  {
    code: nodeRedis(
      lines(
        'export async function create(key: string, m: string) {',
        '  await client.multi().sAdd(key, m).expire(key, 60).exec();',
        '}',
        'export async function add(key: string, m: string) {',
        '  if (await client.exists(key)) await client.sAdd(key, m);',
        '}',
      ),
    ),
    line: 7,
    column: 46,
    command: 'SADD',
    key: 'key',
    read: 'EXISTS',
    readLine: 7,
  },
  // @upstash/redis: TTL > 0 decides a pipeline that only pushes
  {
    code: upstash(
      lines(
        'export async function open(key: string, v: string) {',
        '  await redis.multi().rpush(key, v).expire(key, 60).exec();',
        '}',
        'export async function push(key: string, v: string) {',
        '  const ttl = await redis.ttl(key);',
        '  if (ttl > 0) {',
        '    const p = redis.pipeline();',
        '    p.rpush(key, v);',
        '    await p.exec();',
        '  }',
        '}',
      ),
    ),
    line: 10,
    column: 7,
    command: 'RPUSH',
    key: 'key',
    read: 'TTL',
    readLine: 7,
  },
  // ioredis: HGET === null returns first, HINCRBY after it; `&&` form too
  {
    code: ioredis(
      lines(
        'export async function open(key: string) {',
        "  await redis.multi().hincrby(key, 'n', 0).expire(key, 60).exec();",
        '}',
        'export async function bump(key: string) {',
        "  const seen = await redis.hget(key, 'n');",
        '  if (seen === null) return;',
        "  await redis.hincrby(key, 'n', 1);",
        '}',
        'export async function bumpIf(key: string) {',
        "  const count = await redis.scard(key + ':m');",
        "  (await redis.zcard(key + ':z')) > 0 && (await redis.zadd(key + ':z', 1, 'x'));",
        '  return count;',
        '}',
        "export async function openZ(key: string) { await redis.multi().zadd(key + ':z', 1, 'x').expire(key + ':z', 60).exec(); }",
      ),
    ),
    errors: [
      { line: 9, column: 15, command: 'HINCRBY', key: 'key', read: 'HGET', readLine: 7 },
      { line: 13, column: 55, command: 'ZADD', key: '*:z', read: 'ZCARD', readLine: 13, hint: " Kept forever on purpose? Add '*:z' to settings['redis-ttl'].persistentKeys." },
    ],
  },
];

const notStale = [
  // a key the file never expires: nothing to race, and the read proved it there, so the SADD
  // creates nothing (redis-calls/created-before.ts, "A read that saw the key")
  ioredis(
    lines(
      'export async function add(id: string, m: string) {',
      '  if (!(await redis.exists(`members:${id}`))) return;',
      '  return redis.sadd(`members:${id}`, m);',
      '}',
    ),
  ),
  // the write queued with its own expiry in one MULTI
  ioredis(
    lines(
      fill,
      'export async function add(hub: string, c: string) {',
      '  if (await redis.hlen(`hub:${hub}:conns`)) await redis.multi().hset(`hub:${hub}:conns`, c, "x").expire(`hub:${hub}:conns`, 600).exec();',
      '}',
    ),
  ),
  // with EXPIRE ... NX in the same MULTI (a running window kept)
  ioredis(
    lines(
      'export async function hit(key: string) {',
      '  const cur = await redis.get(key);',
      '  if (!cur) return redis.set(key, 1, "EX", 60, "NX");',
      '  return redis.multi().incr(key).expire(key, 60, "NX").exec();',
      '}',
    ),
  ),
  // a read of another key decides nothing: the HSET stays the update of a record created with a
  // TTL elsewhere that recommended leaves alone
  ioredis(
    lines(
      fill,
      'export async function add(hub: string, c: string) {',
      '  const paused = await redis.get(`paused:${hub}`);',
      '  if (!paused) return;',
      "  await redis.hset(`hub:${hub}:conns`, c, 'x');",
      '}',
    ),
  ),
];

const otherMessage: Array<{
  code: string;
  options?: [{ allowTtlRecordUpdates: boolean }];
  messageId: 'noExpiry' | 'updatesTtlRecord' | 'separateRoundTrip';
  line: number;
  column: number;
}> = [
  // the branch where the read saw no key: the write creates it, plainly without TTL
  {
    code: ioredis(
      lines(
        fill,
        'export async function add(hub: string, c: string) {',
        '  const n = await redis.hlen(`hub:${hub}:conns`);',
        "  if (n === 0) return redis.hset(`hub:${hub}:conns`, c, 'x');",
        '}',
      ),
    ),
    // without the read, an update of a record created with a TTL (left alone in recommended)
    options: [{ allowTtlRecordUpdates: false }],
    messageId: 'updatesTtlRecord',
    line: 8,
    column: 29,
  },
  // HGETALL replies {} for a missing key: no scalar to test
  {
    code: ioredis(
      lines(
        fill,
        'export async function add(hub: string, c: string) {',
        '  const all = await redis.hgetall(`hub:${hub}:conns`);',
        '  if (!all) return;',
        "  const added = await redis.hset(`hub:${hub}:conns`, c, 'x');",
        '  await redis.expire(`hub:${hub}:conns`, 600);',
        '  return added;',
        '}',
      ),
    ),
    messageId: 'separateRoundTrip',
    line: 9,
    column: 29,
  },
  // EXISTS of two keys replies 1 while the written one is missing: it decides nothing
  {
    code: ioredis(
      lines(
        'export async function open(id: string) { await redis.multi().sadd(`m:${id}`, "a").expire(`m:${id}`, 60).exec(); }',
        'export async function add(id: string, m: string) {',
        '  if (!(await redis.exists(`m:${id}`, `n:${id}`))) return;',
        '  return redis.sadd(`m:${id}`, m);',
        '}',
      ),
    ),
    options: [{ allowTtlRecordUpdates: false }],
    messageId: 'updatesTtlRecord',
    line: 6,
    column: 16,
  },
];

for (const tester of [untypedTester, typedTester]) {
  runRule(tester, 'incr-needs-expire-on-create (staleExists)', incrRule, {
    valid: notStale,
    invalid: [
      ...reported.map((c) => ({
        code: c.code,
        errors: (c.errors ?? [c as Stale]).map((e) => ({
          messageId: 'staleExists' as const,
          suggestions: [],
          line: e.line,
          column: e.column,
          data: { command: e.command, key: e.key, read: e.read, line: String(e.readLine), client: '', hint: e.hint ?? '' },
        })),
      })),
      ...otherMessage.map((c) => ({
        code: c.code,
        ...(c.options ? { options: c.options } : {}),
        errors: [{ messageId: c.messageId, line: c.line, column: c.column }],
      })),
    ],
  });
}
