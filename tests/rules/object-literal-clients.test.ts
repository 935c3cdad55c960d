/**
 * A client reached through a method of an object literal (round 21, ClassWaves'
 * `export const redisService = { getClient: () => getRedisService().getClient(), ... }`): the call
 * `redisService.getClient()` is judged by what the member returns (`getRedisService().getClient()`,
 * a method declared `(): Redis`), in its own module or imported from another of the code, as a
 * method of a class of the code is. Limits: a `let` object, a spread after the member, a member
 * that returns something else (a `Map`) say nothing.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import incrRule from '../../rules/incr-needs-expire-on-create.js';
import setRule from '../../rules/set-requires-ttl-or-keepttl.js';
import { runRule, untypedTester } from './tester.js';

const fixturesDir = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures');
/** A module of the fixture application that imports `redisService` from `./redis.service`. */
const sessionsFile = join(fixturesDir, 'object-literal-service', 'src', 'sessions.ts');
const imports = `import { redisService, replaceable, spread } from './redis.service';\n`;
const fn = (body: string) => `${imports}export async function track(id: string) {\n  const k = \`teacher_sessions:\${id}\`;\n${body}\n}`;

/** INCR, then EXPIRE, each on `redisService.getClient()`. */
const counter = fn('  await redisService.getClient().incr(k);\n  await redisService.getClient().expire(k, 300);');
/** SADD, then EXPIRE, on the client kept in a variable. */
const set = fn('  const client = redisService.getClient();\n  await client.sadd(k, id);\n  await client.expire(k, 300);');
/** A member of a local object literal (a method shorthand) that returns a client made here. */
/** The `wrapInMulti` suggestion: `from` (the write and its expiry) replaced by `to` in `code`. */
const multi = (code: string, from: string, to: string) => ({ messageId: 'wrapInMulti' as const, output: code.replace(from, to) });
const local = `import Redis from 'ioredis';\nconst redis = new Redis();\nconst store = {\n  conn() { return redis; },\n};\nexport async function hit(id: string) {\n  await store.conn().incr(\`hits:\${id}\`);\n}`;

runRule(untypedTester, 'incr-needs-expire-on-create (client through a method of an object literal)', incrRule, {
  valid: [
    // one MULTI: atomic, as with any client
    { code: fn('  await redisService.getClient().multi().incr(k).expire(k, 300).exec();'), filename: sessionsFile },
    // a `let` may hold another object by the time it is called: not followed
    { code: fn('  await replaceable.getClient().incr(k);'), filename: sessionsFile },
    // a spread after the member may bring another `getClient`: not followed
    { code: fn('  await spread.getClient().incr(k);'), filename: sessionsFile },
    // a member of a local object literal that returns no client
    { code: `const store = { conn() { return new Map(); } };\nexport function hit(id: string) { store.conn().set(id, 1); }` },
  ],
  invalid: [
    {
      code: counter,
      filename: sessionsFile,
      errors: [
        {
          messageId: 'separateRoundTrip',
          line: 4,
          column: 34,
          data: { command: 'INCR', key: 'teacher_sessions:*', line: '5', client: '', hint: '' },
          suggestions: [multi(counter, 'redisService.getClient().incr(k);\n  await redisService.getClient().expire(k, 300);', 'redisService.getClient().multi().incr(k).expire(k, 300).exec();')],
        },
      ],
    },
    {
      code: set,
      filename: sessionsFile,
      errors: [
        {
          messageId: 'separateRoundTrip',
          line: 5,
          column: 16,
          data: { command: 'SADD', key: 'teacher_sessions:*', line: '6', client: '', hint: '' },
          suggestions: [multi(set, 'client.sadd(k, id);\n  await client.expire(k, 300);', 'client.multi().sadd(k, id).expire(k, 300).exec();')],
        },
      ],
    },
    {
      code: local,
      errors: [
        {
          messageId: 'noExpiry',
          line: 7,
          column: 22,
          suggestions: [multi(local, 'store.conn().incr(`hits:${id}`);', 'store.conn().multi().incr(`hits:${id}`).expire(`hits:${id}`, TTL_SECONDS).exec();')],
        },
      ],
    },
  ],
});

const unset = fn('  await redisService.getClient().set(k, id);');

runRule(untypedTester, 'set-requires-ttl-or-keepttl (client through a method of an object literal)', setRule, {
  valid: [
    { code: fn("  await redisService.getClient().set(k, id, 'EX', 300);"), filename: sessionsFile },
    // getCache returns a Map: its `set` is no Redis command
    { code: fn('  redisService.getCache().set(k, id);'), filename: sessionsFile },
  ],
  invalid: [
    {
      code: unset,
      filename: sessionsFile,
      errors: [
        {
          messageId: 'setWithoutTtl',
          line: 4,
          column: 34,
          suggestions: [
            { messageId: 'addExpiryPlaceholder', output: unset.replace('set(k, id)', "set(k, id, 'EX', TTL_SECONDS)") },
            { messageId: 'addKeepTtl', output: unset.replace('set(k, id)', "set(k, id, 'KEEPTTL')") },
          ],
        },
      ],
    },
  ],
});
