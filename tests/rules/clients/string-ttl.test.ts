/**
 * A TTL passed as a string keeps its unit (round 40, nu40-clients): Bun's `send(cmd, args)` and
 * node-redis' `sendCommand([...])` take strings only, so the code writes `String(ttlMs)` or
 * `ttlMs.toString()`, and `ttl-units` reads the value inside as it reads a bare `ttlMs`. Typed and
 * untyped; every suggestion is applied and re-linted by `runRule`.
 */
import unitsRule from '../../../rules/ttl-units.js';
import { positionOf, runRule, typedTester, untypedTester } from '../tester.js';

const bun = (body: string): string => `import { RedisClient } from 'bun';\nconst cache = new RedisClient();\nconst ttlMs = 60_000;\nconst ttlSeconds = 60;\n${body}`;
const nodeRedis = (body: string): string => `import { createClient } from 'redis';\nconst client = createClient();\nconst ttlMs = 60_000;\n${body}`;

const sendSet = bun("await cache.send('SET', [`s:${id}`, 'v', 'EX', String(ttlMs)]);");
const sendExpire = bun('await cache.send(\'EXPIRE\', [`s:${id}`, ttlMs.toString()]);');
const sendCommand = nodeRedis("await client.sendCommand(['SET', `s:${id}`, 'v', 'EX', String(ttlMs)]);");

for (const tester of [untypedTester, typedTester]) {
  runRule(tester, 'ttl-units', unitsRule, {
    valid: [
      // near misses: the unit the token names, seconds as seconds
      bun("await cache.send('SET', [`s:${id}`, 'v', 'PX', String(ttlMs)]);"),
      bun("await cache.send('EXPIRE', [`s:${id}`, String(ttlSeconds)]);"),
    ],
    invalid: [
      {
        code: sendSet,
        errors: [{ messageId: 'msAsSeconds', ...positionOf(sendSet, 'String(ttlMs)'), suggestions: [{ messageId: 'useInstead', output: sendSet.replace("'EX'", "'PX'") }] }],
      },
      { code: sendExpire, errors: [{ messageId: 'msAsSeconds', ...positionOf(sendExpire, 'ttlMs.toString()'), suggestions: [] }] },
      {
        code: sendCommand,
        errors: [{ messageId: 'msAsSeconds', ...positionOf(sendCommand, 'String(ttlMs)'), suggestions: [{ messageId: 'useInstead', output: sendCommand.replace("'EX'", "'PX'") }] }],
      },
    ],
  });
}
