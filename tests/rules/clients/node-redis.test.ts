/**
 * node-redis 5 as its docs write it (round 40, nu40-clients): the `expiration: { type, value }`
 * option of SET is an expiry like `{ EX: 60 }`, so `ttl-units` and `expire-needs-positive-ttl` read
 * its value (and `ttl-units`' suggestion rewrites its `type`), typed and untyped. Every suggestion
 * is applied and re-linted by `runRule`. node-redis 5's `createClientPool()` is a client (its
 * command methods are the client's), and so is the client node-redis hands a callback:
 * `pool.execute(async (c) => ...)` (5) and `client.executeIsolated(async (isolated) => ...)` (4).
 */
import positiveRule from '../../../rules/expire-needs-positive-ttl.js';
import setRule from '../../../rules/set-requires-ttl-or-keepttl.js';
import unitsRule from '../../../rules/ttl-units.js';
import { nodeRedis, positionOf, runRule, typedTester, untypedTester } from '../tester.js';

const msAsSeconds = nodeRedis('const ttlMs = 60_000;\nawait client.set(`s:${id}`, v, { expiration: { type: \'EX\', value: ttlMs } });');
const pooled = (body: string): string => `import { createClientPool } from 'redis';\nconst pool = createClientPool();\n${body}`;
/** A node-redis `setWithoutTtl` finding on the first `call` (up to its value) of `code`, with its two suggestions. */
const setWithoutTtl = (code: string, call: string, line: number, column: number) => ({
  messageId: 'setWithoutTtl' as const,
  line,
  column,
  suggestions: [
    { messageId: 'addExpiryPlaceholder' as const, output: code.replace(call, `${call}, { EX: TTL_SECONDS }`) },
    { messageId: 'addKeepTtl' as const, output: code.replace(call, `${call}, { KEEPTTL: true }`) },
  ],
});
const poolSet = pooled('await pool.set(`s:${id}`, v);');
const poolExecute = pooled('await pool.execute(async (c) => {\n  await c.set(`s:${id}`, v);\n});');
const isolated = nodeRedis('await client.executeIsolated(async (isolated) => {\n  await isolated.set(`s:${id}`, v);\n});');
const getExMs = nodeRedis("const ttlMs = 60_000;\nawait client.getEx(`s:${id}`, { type: 'EX', value: ttlMs });");
const zeroPx = nodeRedis("await client.set(`s:${id}`, v, { expiration: { type: 'PX', value: 0 } });");

for (const tester of [untypedTester, typedTester]) {
  runRule(tester, 'ttl-units', unitsRule, {
    valid: [
      // near misses: the same value in the unit its type names, and seconds as EX
      nodeRedis("const ttlMs = 60_000;\nawait client.set(`s:${id}`, v, { expiration: { type: 'PX', value: ttlMs } });"),
      nodeRedis("const ttlSeconds = 60;\nawait client.set(`s:${id}`, v, { expiration: { type: 'EX', value: ttlSeconds } });"),
    ],
    invalid: [
      {
        code: msAsSeconds,
        errors: [
          {
            messageId: 'msAsSeconds',
            line: 4,
            column: 67,
            suggestions: [{ messageId: 'useInstead', output: msAsSeconds.replace("type: 'EX'", "type: 'PX'") }],
          },
        ],
      },
      {
        code: getExMs,
        errors: [
          {
            messageId: 'msAsSeconds',
            ...positionOf(getExMs, 'ttlMs }'),
            suggestions: [{ messageId: 'useInstead', output: getExMs.replace("type: 'EX'", "type: 'PX'") }],
          },
        ],
      },
    ],
  });

  runRule(tester, 'set-requires-ttl-or-keepttl', setRule, {
    valid: [
      pooled('await pool.set(`s:${id}`, v, { EX: 60 });'),
      pooled('await pool.execute(async (c) => {\n  await c.set(`s:${id}`, v, { EX: 60 });\n});'),
      // near miss: an `execute` of an object of the code, handing its callback a Map
      'const jobs = { execute: (fn: (m: Map<string, string>) => unknown) => fn(new Map()) };\njobs.execute((c) => c.set(`s:${id}`, v));',
    ],
    invalid: [
      { code: poolSet, errors: [setWithoutTtl(poolSet, 'pool.set(`s:${id}`, v', 3, 12)] },
      { code: poolExecute, errors: [setWithoutTtl(poolExecute, 'c.set(`s:${id}`, v', 4, 11)] },
      // node-redis 4's executeIsolated: untyped only (the typed fixtures' types are node-redis 5's)
      ...(tester === untypedTester ? [{ code: isolated, errors: [setWithoutTtl(isolated, 'isolated.set(`s:${id}`, v', 4, 18)] }] : []),
    ],
  });

  runRule(tester, 'expire-needs-positive-ttl', positiveRule, {
    valid: [nodeRedis("await client.set(`s:${id}`, v, { expiration: { type: 'PX', value: 500 } });")],
    invalid: [{ code: zeroPx, errors: [{ messageId: 'literalRejected', line: 3, column: 67 }] }],
  });
}
