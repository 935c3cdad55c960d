/**
 * A batch of the code's own declared type: `multi(): Tx` (or `pipeline(): Tx`) on a store the
 * application declares, where `Tx` lists Redis commands (`zadd(...): this; pexpire(...): this;
 * exec(): ...`: a client by its shape, redis-calls/client-syntax.ts duckTypedCommands). Its
 * `multi()` makes a MULTI as a client's does (redis-calls/clients.ts declaredBatch), so the
 * commands queued on it are one unit: chained (through methods returning `this` or `Tx`), or in
 * statements on a variable holding it with `exec()` in another statement, on a parameter or a
 * member of the class (`this.client.multi()`). A write and the expiry of its key queued in one
 * such MULTI is an atomic write with TTL, whatever the key expression or the expiry command
 * (EXPIRE, PEXPIRE). Near misses stay reported as a client's batch: an expiry of another key, one
 * in a later MULTI (a separate round trip), one queued before the write, and a `pipeline()` with
 * `allowPipeline: false` (strict).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import incrRule from '../../rules/incr-needs-expire-on-create.js';
import { fixturesDir, runRule, typedTester, untypedTester } from './tester.js';

/** The store's declarations (lines 1-13), `Tx`'s methods returning `this`. */
const types = (returns = 'this') =>
  [
    'interface Tx {',
    `  zadd(key: string, score: number, member: string): ${returns};`,
    `  incr(key: string): ${returns};`,
    `  pexpire(key: string, ms: number): ${returns};`,
    `  expire(key: string, seconds: number): ${returns};`,
    '  exec(): Promise<unknown>;',
    '}',
    'interface Store {',
    '  get(key: string): Promise<string | null>;',
    '  set(key: string, value: string, options?: { ex?: number }): Promise<void>;',
    '  multi(): Tx;',
    '  pipeline(): Tx;',
    '}',
  ].join('\n');

/** A function of the store (line 14) whose body starts on line 15. */
const fn = (body: string, returns?: string) => `${types(returns)}\nexport async function hit(store: Store, id: string, ms: number) {\n${body}\n}`;

const valid = [
  // chained, the key in a variable, PEXPIRE
  fn("  const key = `rl:${id}`;\n  await store.multi().zadd(key, Date.now(), 'm').pexpire(key, ms).exec();"),
  // chained through methods declared to return the batch's type, EXPIRE
  fn('  await store.multi().incr(`c:${id}`).expire(`c:${id}`, 60).exec();', 'Tx'),
  // a variable holding the MULTI, one command a statement, exec() in another statement
  fn('  const tx = store.multi();\n  tx.incr(`c:${id}`);\n  tx.expire(`c:${id}`, 60);\n  const replies = await tx.exec();\n  return replies;'),
  // a chain on the variable, through methods returning the type
  fn('  const tx = store.multi();\n  tx.incr(`c:${id}`).expire(`c:${id}`, 60);\n  await tx.exec();', 'Tx'),
  // a pipeline, which recommended takes as one unit
  fn('  await store.pipeline().incr(`p:${id}`).expire(`p:${id}`, 60).exec();'),
  // a member of the class, as a wrapper store keeps it
  `${types()}\nexport class Limiter {\n  constructor(private readonly client: Store) {}\n  async hit(id: string, ms: number) {\n    const key = \`rl:\${id}\`;\n    return this.client.multi().zadd(key, Date.now(), 'm').pexpire(key, ms).exec();\n  }\n}`,
];

const noExpiry = (line: number, column: number) => ({ messageId: 'noExpiry' as const, line, column, suggestions: [] });

const invalid = [
  {
    // the expiry names another key
    code: fn("  await store.multi().zadd(`rl:${id}`, Date.now(), 'm').pexpire(`other:${id}`, ms).exec();"),
    errors: [noExpiry(15, 23)],
  },
  {
    // the expiry is sent in a later MULTI, after exec(): a separate round trip
    code: fn('  await store.multi().incr(`d:${id}`).exec();\n  await store.multi().expire(`d:${id}`, 60).exec();'),
    errors: [noExpiry(15, 23)],
  },
  {
    // on two variables, two MULTIs
    code: fn('  const a = store.multi();\n  const b = store.multi();\n  a.incr(`d:${id}`);\n  b.expire(`d:${id}`, 60);\n  await a.exec();\n  await b.exec();'),
    errors: [noExpiry(17, 5)],
  },
  {
    // queued before the write: EXPIRE of a missing key does nothing
    code: fn('  await store.multi().expire(`d:${id}`, 60).incr(`d:${id}`).exec();'),
    errors: [{ messageId: 'expiryBeforeCreate' as const, line: 15, column: 45, suggestions: [] }],
  },
];

for (const tester of [untypedTester, typedTester]) {
  runRule(tester, 'incr-needs-expire-on-create (a batch of a declared type)', incrRule, {
    valid,
    invalid: [
      ...invalid,
      {
        // strict: a pipeline is not atomic
        code: fn('  await store.pipeline().incr(`p:${id}`).expire(`p:${id}`, 60).exec();'),
        options: [{ allowPipeline: false }],
        errors: [{ messageId: 'pipelineNotAtomic' as const, line: 15, column: 26, suggestions: [] }],
      },
    ],
  });
}

// The store's types in another module of a package, implemented there by a class that wraps a
// client (the shape of a wrapper store); the limiter imports the type only.
const packageDir = mkdtempSync(join(fixturesDir, 'declared-batch-'));
afterAll(() => rmSync(packageDir, { recursive: true, force: true }));
writeFileSync(join(packageDir, 'package.json'), '{ "name": "declared-batch", "dependencies": { "ioredis": "5" } }\n');
writeFileSync(
  join(packageDir, 'client.ts'),
  [
    "import type { Redis } from 'ioredis';",
    types(),
    'export type { Tx, Store };',
    'export class RedisStore implements Store {',
    '  constructor(private readonly redis: Redis) {}',
    '  async get(key: string) { return this.redis.get(key); }',
    "  async set(key: string, value: string, options?: { ex?: number }) { if (options?.ex) await this.redis.set(key, value, 'EX', options.ex); else await this.redis.set(key, value); }",
    '  multi(): Tx {',
    '    const m = this.redis.multi();',
    '    const tx: Tx = {',
    "      zadd(key, score, member) { m.zadd(key, score, member); return tx; },",
    '      incr(key) { m.incr(key); return tx; },',
    '      pexpire(key, ms) { m.pexpire(key, ms); return tx; },',
    '      expire(key, seconds) { m.expire(key, seconds); return tx; },',
    '      exec() { return m.exec(); },',
    '    };',
    '    return tx;',
    '  }',
    '  pipeline(): Tx { return this.multi(); }',
    '}',
    '',
  ].join('\n'),
);
const limiter = (expiryKey: string) =>
  `import type { Store } from './client.js';\nexport class Limiter {\n  constructor(private readonly client: Store) {}\n  async hit(id: string, ms: number) {\n    const key = \`rl:\${id}\`;\n    const results = await this.client\n      .multi()\n      .zadd(key, Date.now(), 'm')\n      .pexpire(${expiryKey}, ms)\n      .exec();\n    return results;\n  }\n}`;

runRule(untypedTester, 'incr-needs-expire-on-create (a batch of a type another module declares)', incrRule, {
  valid: [{ code: limiter('key'), filename: join(packageDir, 'limiter.ts') }],
  invalid: [{ code: limiter('`other:${id}`'), filename: join(packageDir, 'limiter.ts'), errors: [noExpiry(8, 8)] }],
});
