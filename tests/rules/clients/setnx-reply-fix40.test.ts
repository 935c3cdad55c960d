/**
 * Round 40 review of SETNX rewritten as SET ... EX <ttl> NX (`rules/set-requires-ttl-or-keepttl.ts`
 * setnxAsSet): @upstash/redis' SETNX resolves to 1 / 0, so a read reply is turned back with
 * `.then(...)` after the rewrite; in a MULTI the reply is an element of EXEC's, which no `.then`
 * on the queued command reaches, so a read reply gets no rewrite there.
 */
import setRule from '../../../rules/set-requires-ttl-or-keepttl.js';
import { ioredis, positionOf, runRule, untypedTester, upstash } from '../tester.js';

const WRAP = ".then((reply) => (reply === 'OK' ? 1 : 0))";
const readUpstash = upstash("export async function lock(job: string) {\n  const ok = await redis.setnx(`lock:${job}`, '1');\n  return ok === 1;\n}");
const readInMulti = ioredis("export async function lock(job: string) {\n  const replies = await redis.multi().setnx(`lock:${job}`, '1').incr('locks').exec();\n  return replies?.[0]?.[1] === 1;\n}");

const statementInMulti = ioredis("export async function lock(job: string) {\n  const tx = redis.multi();\n  tx.setnx(`lock:${job}`, '1');\n  const replies = await tx.exec();\n  return replies?.[0]?.[1] === 1;\n}");

runRule(untypedTester, 'set-requires-ttl-or-keepttl (SETNX reply, round 40 review)', setRule, {
  valid: [],
  invalid: [
    {
      code: readUpstash,
      errors: [
        {
          messageId: 'createWithoutTtl',
          ...positionOf(readUpstash, 'setnx'),
          suggestions: [
            {
              messageId: 'addExpiryPlaceholder',
              output: readUpstash.replace("redis.setnx(`lock:${job}`, '1')", `redis.set(\`lock:\${job}\`, '1', { ex: LOCK_TTL_SECONDS, nx: true })${WRAP}`),
            },
          ],
        },
      ],
    },
    // in a MULTI, its reply read from EXEC's: no rewrite
    { code: readInMulti, errors: [{ messageId: 'createWithoutTtl', ...positionOf(readInMulti, 'setnx'), suggestions: [] }] },
    // a statement of its own in a MULTI whose EXEC reply the code reads: no rewrite either (round 40)
    { code: statementInMulti, errors: [{ messageId: 'createWithoutTtl', ...positionOf(statementInMulti, 'setnx'), suggestions: [] }] },
  ],
});
