/**
 * An EXPIRE a helper queues in the write's MULTI (`redis-calls/helper-expiry.ts`) covers the write
 * only when it is queued, on that unit, for that key, before the transaction is sent, with a TTL
 * (from the kind's definition). Each invalid case is a helper that looks like one but is not:
 * - the TTL parameter its EXPIRE hangs on is left out by the caller (no lifetime at all at this
 *   call, not a configured one) or passed as `undefined`;
 * - an async helper awaits before its EXPIRE and the caller does not await it: the caller's
 *   `exec()` runs first and the EXPIRE lands after the transaction;
 * - the helper reassigns the key parameter before expiring it (another key);
 * - `exec()` ends a chain begun on the unit between the write and the helper call;
 * - the helper's EXPIRE hangs on the configured lifetime, and the caller queues it on the arm a
 *   test of that lifetime takes when it is absent (`if (!this.lifetimeSeconds) { multi ... }`).
 * Near misses (valid): the TTL passed, a parameter default, the async helper awaited, a helper
 * whose mode parameter has a default, an `exec()` chained on another unit.
 */
import incrRule from '../../rules/incr-needs-expire-on-create.js';
import { ioredis, nodeRedis, positionOf, runRule, untypedTester } from './tester.js';

const module = (helper: string, body: string) =>
  ioredis(
    `import type { ChainableCommander } from 'ioredis';\n${helper}export async function bump(id: string) {\n  const key = \`count:\${id}\`;\n  const tx = redis.multi();\n  tx.incrby(key, 2);\n${body}\n}\n`,
  );
const OPTIONAL = 'function queueExpire(chain: ChainableCommander, key: string, ttl?: number) {\n  if (ttl) {\n    chain.expire(key, ttl);\n  }\n}\n';
const DEFAULTED = 'function queueExpire(chain: ChainableCommander, key: string, ttl = 60) {\n  if (ttl) {\n    chain.expire(key, ttl);\n  }\n}\n';
const ASYNC =
  "async function lifetimeOf(key: string): Promise<number> {\n  return Number(await redis.get(`ttl-of:${key}`)) || 60;\n}\nasync function queueExpire(chain: ChainableCommander, key: string) {\n  const ttl = await lifetimeOf(key);\n  chain.expire(key, ttl);\n}\n";
const RENAMING = 'function queueExpire(chain: ChainableCommander, key: string) {\n  key = `${key}:seen`;\n  chain.expire(key, 60);\n}\n';
const PLAIN = 'function queueExpire(chain: ChainableCommander, key: string) {\n  chain.expire(key, 60);\n}\n';

/** A `noExpiry` finding on the INCRBY queued in the MULTI of `code`, with its suggestion to queue an EXPIRE right after it. */
const leak = (code: string) => ({
  code,
  errors: [
    {
      messageId: 'noExpiry' as const,
      ...positionOf(code, 'incrby(key, 2);'),
      suggestions: [{ messageId: 'appendExpire' as const, output: code.replace('tx.incrby(key, 2);', 'tx.incrby(key, 2).expire(key, TTL_SECONDS);') }],
    },
  ],
});

runRule(untypedTester, 'incr-needs-expire-on-create (a helper that does not queue the EXPIRE it seems to)', incrRule, {
  valid: [
    module(OPTIONAL, '  queueExpire(tx, key, 60);\n  await tx.exec();'),
    module(DEFAULTED, '  queueExpire(tx, key);\n  await tx.exec();'),
    module(ASYNC, '  await queueExpire(tx, key);\n  await tx.exec();'),
    module(PLAIN, "  const other = redis.multi();\n  await other.incr('total').exec();\n  queueExpire(tx, key);\n  await tx.exec();"),
  ],
  invalid: [
    leak(module(OPTIONAL, '  queueExpire(tx, key);\n  await tx.exec();')),
    leak(module(OPTIONAL, '  queueExpire(tx, key, undefined);\n  await tx.exec();')),
    leak(module(ASYNC, '  queueExpire(tx, key);\n  await tx.exec();')),
    leak(module(RENAMING, '  queueExpire(tx, key);\n  await tx.exec();')),
    leak(module(PLAIN, "  await tx.incr('total').exec();\n  queueExpire(tx, key);")),
  ],
});

/** A node-redis store whose `expireIn` queues EXPIRE while a lifetime is configured, its MULTI on the arm of `test`. */
const store = (test: string) =>
  nodeRedis(
    `export class CounterStore {\n  private lifetimeSeconds: number | null;\n  constructor(lifetimeSeconds: number | null) {\n    this.lifetimeSeconds = lifetimeSeconds;\n  }\n  async add(id: string, n: number) {\n    const key = \`count/\${id}\`;\n    if (${test}) {\n      const multi = client.multi();\n      multi.incrBy(key, n);\n      this.expireIn(multi, key);\n      await multi.exec();\n    } else {\n      await client.incrBy(key, n);\n    }\n  }\n  private expireIn(multi: ReturnType<typeof client.multi>, key: string) {\n    if (this.lifetimeSeconds) {\n      multi.expire(key, this.lifetimeSeconds);\n    }\n  }\n}\n`,
  );
const inverted = store('!this.lifetimeSeconds');

runRule(untypedTester, 'incr-needs-expire-on-create (a helper called where its lifetime is absent)', incrRule, {
  // near miss: the MULTI on the arm taken when the lifetime is configured (the other arm is the
  // operator's "never expire")
  valid: [store('this.lifetimeSeconds')],
  invalid: [
    {
      code: inverted,
      errors: [
        {
          messageId: 'noExpiry' as const,
          ...positionOf(inverted, 'incrBy(key, n);'),
          suggestions: [{ messageId: 'appendExpire' as const, output: inverted.replace('multi.incrBy(key, n);', 'multi.incrBy(key, n).expire(key, TTL_SECONDS);') }],
        },
        // the other arm: a lifetime is configured and the write has none
        {
          messageId: 'noExpiry' as const,
          line: positionOf(inverted, 'client.incrBy(key, n)').line,
          column: positionOf(inverted, 'client.incrBy(key, n)').column + 'client.'.length,
          suggestions: [{ messageId: 'wrapInMulti' as const, output: inverted.replace('client.incrBy(key, n)', 'client.multi().incrBy(key, n).expire(key, TTL_SECONDS).exec()') }],
        },
      ],
    },
  ],
});
