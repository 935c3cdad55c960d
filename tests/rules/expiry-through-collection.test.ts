/**
 * An expiry queued later in the same MULTI through a loop over the keys collected while queuing
 * the writes (`redis-calls/collected-keys.ts`): `keys.push(k)` / `keys.add(k)` beside the write,
 * then `for (const k of keys) multi.expire(k, TTL)`, `keys.forEach((k) => ...)` or
 * `keys.map((k) => ...)` before EXEC. The expiry is in the same transaction, so the key never
 * stays without TTL. Near misses stay reported: the loop over another collection, the expiry after
 * `exec()`, the loop queuing into a second MULTI, the push on one branch only, the expiry on one
 * branch of the loop, and an EXPIRE queued before the write that creates the key.
 */
import incrRule from '../../rules/incr-needs-expire-on-create.js';
import setRule from '../../rules/set-requires-ttl-or-keepttl.js';
import { ioredis, runRule, setSuggestions, untypedTester } from './tester.js';

const fn = (body: string) => `export async function fill(ids: string[]) {\n  const m = redis.multi();\n${body}\n}`;
const noExpiry = (code: string, line: number) => ({
  code,
  errors: [
    {
      messageId: 'noExpiry' as const,
      line,
      column: 7,
      data: { command: 'SADD', key: 'members:*', client: '', hint: " Kept forever on purpose? Add 'members:*' to settings['redis-ttl'].persistentKeys." },
      suggestions: [{ messageId: 'appendExpire' as const, output: code.replace('m.sadd(k, id);', 'm.sadd(k, id).expire(k, TTL_SECONDS);') }],
    },
  ],
});

const writeLoop = (adder = 'keys.push(k);') => `  for (const id of ids) {\n    const k = \`members:\${id}\`;\n    m.sadd(k, id);\n    ${adder}\n  }`;

const beforeWrites = ioredis(
  fn("  const keys = ids.map((id) => `members:${id}`);\n  for (const key of keys) m.expire(key, 60);\n  for (const key of keys) {\n    m.sadd(key, 'x');\n    keys.push(key);\n  }\n  await m.exec();"),
);

/** The near misses: still reported. */
const nearMisses = [
  // the loop is over another collection
  noExpiry(
    ioredis(fn(`  const keys: string[] = [];\n  const other: string[] = [];\n${writeLoop()}\n  for (const key of other) m.expire(key, 60);\n  await m.exec();`)),
    9,
  ),
  // the expiries are queued after exec(): they are not in the transaction
  noExpiry(
    ioredis(fn(`  const keys: string[] = [];\n${writeLoop()}\n  await m.exec();\n  for (const key of keys) m.expire(key, 60);`)),
    8,
  ),
  // the loop queues the expiries into a second MULTI
  noExpiry(
    ioredis(fn(`  const keys: string[] = [];\n${writeLoop()}\n  await m.exec();\n  const m2 = redis.multi();\n  for (const key of keys) m2.expire(key, 60);\n  await m2.exec();`)),
    8,
  ),
  // the key is collected on one branch only
  noExpiry(
    ioredis(fn(`  const keys: string[] = [];\n${writeLoop('if (id.length > 3) keys.push(k);')}\n  for (const key of keys) m.expire(key, 60);\n  await m.exec();`)),
    8,
  ),
  // the expiry is on one branch of the loop's body
  noExpiry(
    ioredis(fn(`  const keys: string[] = [];\n${writeLoop()}\n  for (const key of keys) {\n    if (key.length > 3) m.expire(key, 60);\n  }\n  await m.exec();`)),
    8,
  ),
  // the loop of expiries comes before the writes: EXPIRE of a missing key is a no-op
  {
    code: beforeWrites,
    errors: [
      {
        messageId: 'expiryBeforeCreate' as const,
        line: 8,
        column: 7,
        suggestions: [{ messageId: 'appendExpire' as const, output: beforeWrites.replace("m.sadd(key, 'x');", "m.sadd(key, 'x').expire(key, 60);") }],
      },
    ],
  },
];

runRule(untypedTester, 'incr-needs-expire-on-create (expiry queued later through a loop over the collected keys)', incrRule, {
  valid: [
    // for ... of over the array the keys were pushed into
    ioredis(fn(`  const keys: string[] = [];\n${writeLoop()}\n  for (const key of keys) {\n    m.expire(key, 60);\n  }\n  await m.exec();`)),
    // a Set, and a loop body without braces
    ioredis(fn(`  const keys = new Set<string>();\n${writeLoop('keys.add(k);')}\n  for (const key of keys) m.expire(key, 60);\n  await m.exec();`)),
    // forEach and map (inside Promise.all) callbacks
    ioredis(fn(`  const keys: string[] = [];\n${writeLoop()}\n  keys.forEach((key) => m.expire(key, 60));\n  await m.exec();`)),
    ioredis(fn(`  const keys: string[] = [];\n${writeLoop()}\n  keys.forEach(function (key) {\n    m.pexpire(key, 60_000);\n  });\n  await m.exec();`)),
    ioredis(fn(`  const keys: string[] = [];\n${writeLoop()}\n  await Promise.all(keys.map((key) => m.expire(key, 60)));\n  await m.exec();`)),
    // a while loop of writes, the key pushed before the write
    ioredis(
      fn(
        '  const keys: string[] = [];\n  while (ids.length) {\n    const k = `members:${ids.pop()}`;\n    keys.push(k);\n    m.zadd(k, 1, \'x\');\n  }\n  for (const key of keys) m.expire(key, 60);\n  await m.exec();',
      ),
    ),
    // the loop variable spelled as the write's key (mx-space's `for (const cacheKey of touchedKeys)`)
    ioredis(fn(`  const keys = new Set<string>();\n${writeLoop('keys.add(k);')}\n  for (const k of keys) m.expire(k, 60);\n  await m.exec();`)),
  ],
  invalid: [
    ...nearMisses,
    // spelled the same, but a loop over another collection: reported
    noExpiry(ioredis(fn(`  const keys = new Set<string>();\n  const other: string[] = [];\n${writeLoop('keys.add(k);')}\n  for (const k of other) m.expire(k, 60);\n  await m.exec();`)), 9),
  ],
});

const setAfterExec = ioredis(
  fn('  const keys: string[] = [];\n  for (const id of ids) {\n    const k = `doc:${id}`;\n    m.set(k, id);\n    keys.push(k);\n  }\n  await m.exec();\n  for (const key of keys) m.expire(key, 60);'),
);

runRule(untypedTester, 'set-requires-ttl-or-keepttl (expiry queued later through a loop over the collected keys)', setRule, {
  valid: [
    ioredis(
      fn('  const keys: string[] = [];\n  for (const id of ids) {\n    const k = `doc:${id}`;\n    m.set(k, id);\n    keys.push(k);\n  }\n  for (const key of keys) m.expire(key, 60);\n  await m.exec();'),
    ),
    // the loop variable spelled as the write's key
    ioredis(fn('  const keys: string[] = [];\n  for (const id of ids) {\n    const k = `doc:${id}`;\n    m.set(k, id);\n    keys.push(k);\n  }\n  for (const k of keys) m.expire(k, 60);\n  await m.exec();')),
  ],
  invalid: [
    {
      // the expiries are queued after exec()
      code: setAfterExec,
      errors: [{ messageId: 'setWithoutTtl', line: 8, column: 7, suggestions: setSuggestions(setAfterExec, 'm.set(k, id') }],
    },
  ],
});
