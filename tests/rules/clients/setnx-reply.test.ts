/**
 * SETNX rewritten as SET ... EX <ttl> NX keeps the reply the code reads (round 40, nu40-clients):
 * SET ... NX replies OK or nil where SETNX replied 1 or 0 (https://redis.io/docs/latest/commands/setnx/),
 * so `(await valkey.setnx(k, v)) === 1` would never hold after a bare rewrite and the lock would
 * never be taken. Where the client's SETNX resolves to 1 / 0 (ioredis, iovalkey, @upstash/redis,
 * Bun) the suggestion turns the reply back with `.then(...)`; node-redis' SETNX resolves to a
 * boolean in 4 and to 1 / 0 in 5, so no rewrite is offered when its reply is read. A reply thrown
 * away gets the plain rewrite, as before. Bun's `set` takes strings only past two option tokens,
 * so the rewrite passes `String(LOCK_TTL_SECONDS)` there. Typed and untyped; every suggestion is applied and
 * re-linted by `runRule`.
 */
import setRule from '../../../rules/set-requires-ttl-or-keepttl.js';
import { positionOf, runRule, typedTester, untypedTester } from '../tester.js';

const valkey = (body: string): string => `import { Redis } from 'iovalkey';\nconst valkey = new Redis();\n${body}`;
const bun = (body: string): string => `import { RedisClient } from 'bun';\nconst cache = new RedisClient();\n${body}`;
const nodeRedis = (body: string): string => `import { createClient } from 'redis';\nconst client = createClient();\n${body}`;

const WRAP = ".then((reply) => (reply === 'OK' ? 1 : 0))";
const readValkey = valkey("export async function lock(job: string) {\n  const ok = await valkey.setnx(`lock:${job}`, '1');\n  return ok === 1;\n}");
const returnedBun = bun("export const lock = (job: string) => cache.setnx(`lock:${job}`, '1');");
const unusedValkey = valkey("export async function lock(job: string) {\n  await valkey.setnx(`lock:${job}`, '1');\n}");
const unusedBun = bun("export async function lock(job: string) {\n  await cache.setnx(`lock:${job}`, '1');\n}");
const readNodeRedis = nodeRedis("export const lock = (job: string) => client.setNX(`lock:${job}`, '1');");

for (const tester of [untypedTester, typedTester]) {
  runRule(tester, 'set-requires-ttl-or-keepttl', setRule, {
    valid: [],
    invalid: [
      {
        code: readValkey,
        errors: [
          {
            messageId: 'createWithoutTtl',
            ...positionOf(readValkey, 'setnx'),
            suggestions: [
              {
                messageId: 'addExpiryPlaceholder',
                output: readValkey.replace("valkey.setnx(`lock:${job}`, '1')", `valkey.set(\`lock:\${job}\`, '1', 'EX', LOCK_TTL_SECONDS, 'NX')${WRAP}`),
              },
            ],
          },
        ],
      },
      {
        code: returnedBun,
        errors: [
          {
            messageId: 'createWithoutTtl',
            ...positionOf(returnedBun, 'setnx'),
            suggestions: [
              {
                messageId: 'addExpiryPlaceholder',
                output: returnedBun.replace("cache.setnx(`lock:${job}`, '1')", `cache.set(\`lock:\${job}\`, '1', 'EX', String(LOCK_TTL_SECONDS), 'NX')${WRAP}`),
              },
            ],
          },
        ],
      },
      // near miss: the reply thrown away, the plain rewrite
      {
        code: unusedValkey,
        errors: [
          {
            messageId: 'createWithoutTtl',
            ...positionOf(unusedValkey, 'setnx'),
            suggestions: [
              { messageId: 'addExpiryPlaceholder', output: unusedValkey.replace("valkey.setnx(`lock:${job}`, '1')", "valkey.set(`lock:${job}`, '1', 'EX', LOCK_TTL_SECONDS, 'NX')") },
            ],
          },
        ],
      },
      // Bun's set takes strings past two option tokens: the TTL as String(...), reply used or not
      {
        code: unusedBun,
        errors: [
          {
            messageId: 'createWithoutTtl',
            ...positionOf(unusedBun, 'setnx'),
            suggestions: [
              { messageId: 'addExpiryPlaceholder', output: unusedBun.replace("cache.setnx(`lock:${job}`, '1')", "cache.set(`lock:${job}`, '1', 'EX', String(LOCK_TTL_SECONDS), 'NX')") },
            ],
          },
        ],
      },
      // node-redis: a boolean (4) or 1 / 0 (5), no rewrite when the reply is read
      { code: readNodeRedis, errors: [{ messageId: 'createWithoutTtl', ...positionOf(readNodeRedis, 'setNX'), suggestions: [] }] },
    ],
  });
}
