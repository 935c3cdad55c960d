/**
 * An EXPIRE queued in the write's own MULTI / pipeline by a helper (`redis-calls/helper-expiry.ts`),
 * from the kind's definition: the write is queued on a unit, and the same function then calls a
 * helper (a method via `this.x`, a function of the module) handed that unit and the key, which
 * queues EXPIRE / PEXPIRE of the key on it, always, under a branch every arm of which expires, or
 * whenever the TTL it passes is configured (`if (this.lifetimeSeconds)`, `if (ttlSeconds > 0)`); NX
 * counts (a new key has no TTL), XX does not. And the write on the other branch of a test of that
 * configured TTL (`if (this.lifetimeSeconds) { multi + helper } else { write }`) is the operator's
 * "never expire" (`redis-calls/optional-ttl.ts`, `allowOptionalTtl`). Near misses stay reported:
 * a helper called on one branch only, one that expires another key or is given another unit, one
 * called after `exec()`, one whose EXPIRE hangs on a flag unrelated to the TTL or follows an early
 * return, an XX mode, a pipeline under `allowPipeline: false`, the no-TTL branch of a test
 * unrelated to the TTL, and `strict` (no `allowOptionalTtl`).
 */
import incrRule from '../../rules/incr-needs-expire-on-create.js';
import setRule from '../../rules/set-requires-ttl-or-keepttl.js';
import { ioredis, nodeRedis, positionOf, runRule, untypedTester } from './tester.js';

/** A node-redis store class whose `expireIn` helper queues EXPIRE on the MULTI it is given when a lifetime is configured. */
const store = (methods: string, helper = EXPIRE_IN) =>
  nodeRedis(
    `export class CounterStore {\n  private lifetimeSeconds: number | null;\n  private mode: 'NX' | 'XX' | null;\n  constructor(lifetimeSeconds: number | null, mode: 'NX' | 'XX' | null) {\n    this.lifetimeSeconds = lifetimeSeconds;\n    this.mode = mode;\n  }\n${methods}${helper}}\n`,
  );
const EXPIRE_IN =
  "  private expireIn(multi: ReturnType<typeof client.multi>, key: string, mode: 'NX' | 'XX' | null = this.mode) {\n    if (this.lifetimeSeconds) {\n      if (mode) {\n        multi.expire(key, this.lifetimeSeconds, mode);\n      } else {\n        multi.expire(key, this.lifetimeSeconds);\n      }\n    }\n  }\n";
const method = (name: string, body: string) => `  async ${name}(id: string, n: number) {\n    const key = \`count/\${id}\`;\n${body}\n  }\n`;
const queued = (call: string, after = '    this.expireIn(multi, key);\n    await multi.exec();') => `    const multi = client.multi();\n    multi.${call};\n${after}`;

const add = method('add', queued('incrBy(key, n)'));
const setSize = method('setSize', queued('set(key, String(n))'));
const nx = method('addNx', queued('incrBy(key, n)', "    this.expireIn(multi, key, 'NX');\n    await multi.exec();"));
// the configured "never expire": the write on the branch taken only when no lifetime is configured
const configured = method('add', `    if (this.lifetimeSeconds) {\n${queued('incrBy(key, n)')}\n    } else {\n      await client.incrBy(key, n);\n    }`);
const configuredSet = method('setSize', `    if (this.lifetimeSeconds) {\n${queued('set(key, String(n))')}\n    } else {\n      await client.set(key, String(n));\n    }`);

/** An ioredis module function queueing a trim and the key's EXPIRE on the chain it is given, when its TTL is positive. */
const QUEUE_PRUNE =
  'function queuePrune(chain: ChainableCommander, key: string, { maxEntries, expireSeconds }: { maxEntries: number; expireSeconds: number }) {\n  chain.zremrangebyrank(key, 0, -maxEntries - 1);\n  if (expireSeconds > 0) {\n    chain.expire(key, expireSeconds);\n  }\n  return chain;\n}\n';
const logger = (lines: string) =>
  ioredis(
    `import type { ChainableCommander } from 'ioredis';\n${QUEUE_PRUNE}export async function log(entry: string) {\n  const key = 'job-log';\n${lines}\n}\n`,
  );
const chained = logger("  const tx = redis.multi().zadd(key, String(Date.now()), entry);\n  queuePrune(tx, key, { maxEntries: 1000, expireSeconds: 86400 });\n  await tx.exec();");

/** A `noExpiry` finding on the INCRBY queued in the MULTI of `code`, with its suggestion to queue an EXPIRE right after it. */
const leak = (code: string) => ({
  code,
  errors: [
    {
      messageId: 'noExpiry' as const,
      ...positionOf(code, 'incrBy(key, n);'),
      suggestions: [{ messageId: 'appendExpire' as const, output: code.replace('multi.incrBy(key, n);', 'multi.incrBy(key, n).expire(key, TTL_SECONDS);') }],
    },
  ],
});
/** A `noExpiry` finding on the awaited INCRBY of the client in `code`, with its suggestion to wrap it in a MULTI with an EXPIRE. */
const leakAlone = (code: string) => {
  const at = positionOf(code, 'client.incrBy(key, n)');
  return {
    code,
    errors: [
      {
        messageId: 'noExpiry' as const,
        line: at.line,
        column: at.column + 'client.'.length,
        suggestions: [{ messageId: 'wrapInMulti' as const, output: code.replace('client.incrBy(key, n)', 'client.multi().incrBy(key, n).expire(key, TTL_SECONDS).exec()') }],
      },
    ],
  };
};

const piped = logger("  const tx = redis.pipeline();\n  tx.zadd(key, String(Date.now()), entry);\n  queuePrune(tx, key, { maxEntries: 1000, expireSeconds: 86400 });\n  await tx.exec();");

runRule(untypedTester, 'incr-needs-expire-on-create (an EXPIRE a helper queues in the same MULTI)', incrRule, {
  valid: [
    store(add),
    store(nx),
    chained,
    // a pipeline counts as one unit by default (allowPipeline)
    piped,
    // the write on the branch taken only when no lifetime is configured
    store(configured),
  ],
  invalid: [
    // the helper is called on one branch only
    leak(store(method('add', queued('incrBy(key, n)', '    if (n > 10) this.expireIn(multi, key);\n    await multi.exec();')))),
    // the helper is called after exec(): its EXPIRE goes in a transaction of its own
    leak(store(method('add', queued('incrBy(key, n)', '    await multi.exec();\n    this.expireIn(multi, key);')))),
    // the helper is given another unit
    leak(store(method('add', queued('incrBy(key, n)', '    const other = client.multi();\n    this.expireIn(other, key);\n    await other.exec();\n    await multi.exec();')))),
    // the helper expires another key than the one it is given
    leak(
      store(add, '  private expireIn(multi: ReturnType<typeof client.multi>, key: string) {\n    multi.expire(`${key}/meta`, 60);\n  }\n'),
    ),
    // the helper's EXPIRE hangs on a flag unrelated to its TTL
    leak(
      store(add, '  private expiring = false;\n  private expireIn(multi: ReturnType<typeof client.multi>, key: string) {\n    if (this.expiring) multi.expire(key, 60);\n  }\n'),
    ),
    // the helper may return before its EXPIRE
    leak(
      store(add, '  private closed = false;\n  private expireIn(multi: ReturnType<typeof client.multi>, key: string) {\n    if (this.closed) return;\n    multi.expire(key, 60);\n  }\n'),
    ),
    // XX: a new key has no TTL, so EXPIRE ... XX leaves it without one
    leak(store(method('addXx', queued('incrBy(key, n)', "    this.expireIn(multi, key, 'XX');\n    await multi.exec();")))),
    // a pipeline under allowPipeline: false is no atomic unit
    {
      code: piped,
      options: [{ allowPipeline: false }],
      errors: [{ messageId: 'pipelineNotAtomic', ...positionOf(piped, 'zadd(key'), suggestions: [{ messageId: 'useMulti', output: piped.replace('redis.pipeline()', 'redis.multi()') }] }],
    },
    // the no-TTL branch of a test unrelated to the TTL (a feature flag)
    leakAlone(store(method('add', `    if (this.mode === 'NX') {\n${queued('incrBy(key, n)')}\n    } else {\n      await client.incrBy(key, n);\n    }`))),
    // strict: the configured "never expire" branch is reported
    { ...leakAlone(store(configured)), options: [{ allowOptionalTtl: false }] },
  ],
});

/** A `setWithoutTtl` finding on the SET `call` (the receiver, the method and its arguments up to the value) of `code`, with its two suggestions in node-redis syntax. */
const setLeak = (code: string, call: string) => {
  const at = positionOf(code, call);
  return {
    code,
    errors: [
      {
        messageId: 'setWithoutTtl' as const,
        line: at.line,
        column: at.column + call.indexOf('set('),
        suggestions: [
          { messageId: 'addExpiryPlaceholder' as const, output: code.replace(call, `${call}, { EX: TTL_SECONDS }`) },
          { messageId: 'addKeepTtl' as const, output: code.replace(call, `${call}, { KEEPTTL: true }`) },
        ],
      },
    ],
  };
};

runRule(untypedTester, 'set-requires-ttl-or-keepttl (an EXPIRE a helper queues in the same MULTI)', setRule, {
  valid: [store(setSize), store(configuredSet)],
  invalid: [
    // the helper is called after exec()
    setLeak(store(method('setSize', queued('set(key, String(n))', '    await multi.exec();\n    this.expireIn(multi, key);'))), 'multi.set(key, String(n)'),
    // strict: the configured "never expire" branch is reported
    { ...setLeak(store(configuredSet), 'client.set(key, String(n)'), options: [{ allowOptionalTtl: false }] },
  ],
});
