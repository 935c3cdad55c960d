/**
 * Round 40 (t64-helpers): generic helpers whose callers decide the TTL. A function that sends one
 * write for whatever key its caller passes, without deciding the TTL, is a pass-through facade
 * (`redis-calls/pass-through.ts`) judged at its callers, and with no caller there is nothing to
 * report. Three shapes the rules did not read as one:
 *
 * - the promisified variant named after its command (`setAsync`, `hSetAsync`, `incrbyAsync`:
 *   bluebird's promisifyAll naming, or the code's own `util.promisify(client.set).bind(client)`
 *   wrappers): the name is the command's with `Async` after it;
 * - a counter wrapper choosing INCR or INCRBY by the caller's amount (`incr(key, n = 1) { if (n
 *   === 1) { return redis.incr(key); } return redis.incrby(key, n); }`): the early return's `if`
 *   and the rest of the block are the two arms of one write, and INCRBY by the caller's amount is
 *   the counter its name says;
 * - an application's facade whose only "caller" is a minified bundle it serves (`*.min.js` in
 *   `public/`, a charting library's own `o.incr(h)`): a vendored library, no caller of its code.
 *
 * Near misses stay reported: a wrapper spelling its own key family, one named after another
 * command or after its data (`saveAsync`), a counter sending a fixed amount its name does not
 * say, one moving the other way, an `if` that does not return (both commands run), a facade a
 * caller the rules cannot resolve calls (judged where it is), a list helper that sends its EXPIRE
 * before the push (not a pass-through: it sends the EXPIRE itself), and a facade's caller that
 * writes a per-entity key without TTL (judged at the call, as before).
 */
import { readFileSync } from 'node:fs';
import { Linter } from 'eslint';
import { describe, expect, it } from 'vitest';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import incrRule from '../../rules/incr-needs-expire-on-create.js';
import setRule from '../../rules/set-requires-ttl-or-keepttl.js';
import { ioredis, noExpiryWithMulti, runRule, untypedTester } from './tester.js';

const fixtures = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'caller-decided-helpers');
const file = (path: string) => ({ code: readFileSync(join(fixtures, path), 'utf8'), filename: join(fixtures, path) });

/** node-redis 2 code promisifying its client per call; `body` starts on line 3. */
const promisified = (body: string): string => `import { promisify } from 'util';\nimport { RedisClient } from 'redis';\n${body}`;

const setAsync = promisified(
  'export async function setAsync({ key, value }: { key: string; value: string }, client: RedisClient): Promise<void> {\n  const setAsyncFunc = promisify(client.set).bind(client);\n  await setAsyncFunc(key, value);\n}',
);
const incrbyAsync = promisified(
  'export async function incrbyAsync({ key, changeBy }: { key: string; changeBy: string }, client: RedisClient): Promise<number> {\n  const incrbyAsyncFunc = promisify(client.incrby).bind(client);\n  const result = await incrbyAsyncFunc(key, changeBy);\n  return result as number;\n}',
);
const hSetAsync = promisified(
  'export async function hSetAsync({ hash, pairs }: { hash: string; pairs: Record<string, string> }, client: RedisClient): Promise<number> {\n  if (Object.keys(pairs).length === 0) {\n    return 0;\n  }\n  const hSetAsyncFunc = promisify(client.hset).bind(client);\n  return hSetAsyncFunc([hash, ...Object.entries(pairs).flat()]);\n}',
);
// the wrapper's own key family, a name of no command, another command's name
const ownFamilyAsync = promisified(
  'export async function setAsync({ id, value }: { id: string; value: string }, client: RedisClient): Promise<void> {\n  const setAsyncFunc = promisify(client.set).bind(client);\n  await setAsyncFunc(`user:${id}`, value);\n}',
);
const saveAsync = promisified(
  'export async function saveAsync({ key, value }: { key: string; value: string }, client: RedisClient): Promise<void> {\n  const setAsyncFunc = promisify(client.set).bind(client);\n  await setAsyncFunc(key, value);\n}',
);
const rPushAsyncForSet = promisified(
  'export async function rPushAsync({ key, value }: { key: string; value: string }, client: RedisClient): Promise<void> {\n  const setAsyncFunc = promisify(client.set).bind(client);\n  await setAsyncFunc(key, value);\n}',
);
// a caller of the facade in the same module: judged at its call, with its key
const calledSetAsync = `${setAsync}\nexport async function markSeen(id: string, client: RedisClient): Promise<void> {\n  await setAsync({ key: \`seen:\${id}\`, value: '1' }, client);\n}`;

const counter = (amount: string, name = 'incr', first = 'incr', second = 'incrby') =>
  ioredis(`export class Counter {\n  async ${name}(key: string, amount = 1) {\n    if (amount === 1) {\n      return await redis.${first}(key);\n    }\n    return await redis.${second}(key, ${amount});\n  }\n}`);
// both commands run: the `if` does not return
const bothRun = ioredis('export class Counter {\n  async incr(key: string, amount = 1) {\n    if (amount === 1) {\n      await redis.incr(key);\n    }\n    return await redis.incrby(key, amount);\n  }\n}');

// a wrapper that receives a TTL and drops it: the same SET after the early return
const dropsTtl = ioredis('export class Cache {\n  async set(key, value, ttl) {\n    if (ttl) {\n      return await redis.set(key, value);\n    }\n    return await redis.set(key, value);\n  }\n}');

runRule(untypedTester, 'set-requires-ttl-or-keepttl (promisified helpers, callers decide)', setRule, {
  valid: [setAsync],
  invalid: [
    { code: ownFamilyAsync, errors: [{ messageId: 'setWithoutTtl', line: 5, column: 9 }] },
    { code: saveAsync, errors: [{ messageId: 'setWithoutTtl', line: 5, column: 9 }] },
    { code: rPushAsyncForSet, errors: [{ messageId: 'setWithoutTtl', line: 5, column: 9 }] },
    { code: calledSetAsync, errors: [{ messageId: 'setWithoutTtl', line: 8, column: 9 }] },
  ],
});

runRule(untypedTester, 'incr-needs-expire-on-create (helpers whose callers decide)', incrRule, {
  valid: [
    incrbyAsync,
    hSetAsync,
    counter('amount'),
    counter('amount', 'decr', 'decr', 'decrby'),
    // near miss of the negated amounts below: `decr` sending INCRBY by `-amount` is DECRBY by the caller's amount
    counter('-amount', 'decr', 'decr', 'incrby'),
  ],
  invalid: [
    // a fixed amount the name does not say: INCR named, INCRBY 5 sent
    { code: counter('5'), errors: [{ messageId: 'noExpiry', line: 6, column: 26 }, { messageId: 'noExpiry', line: 8, column: 24 }] },
    // the other way: `incr` sending DECRBY by the caller's amount
    { code: counter('amount', 'incr', 'incr', 'decrby'), errors: [{ messageId: 'noExpiry', line: 6, column: 26 }, { messageId: 'noExpiry', line: 8, column: 24 }] },
    // INCRBY by the negated amount moves the other way too (DECRBY `amount`)
    { code: counter('-amount'), errors: [{ messageId: 'noExpiry', line: 6, column: 26 }, { messageId: 'noExpiry', line: 8, column: 24 }] },
    { code: counter('amount * -1'), errors: [{ messageId: 'noExpiry', line: 6, column: 26 }, { messageId: 'noExpiry', line: 8, column: 24 }] },
    // both commands run
    { code: bothRun, errors: [noExpiryWithMulti(bothRun, 'incr(key)', 'key'), { messageId: 'noExpiry', line: 8, column: 24 }] },
    // an application's facade with a caller the rules cannot resolve (`ctx.service.stats.decr`)
    { ...file('app/service/stats.js'), errors: [{ messageId: 'noExpiry', line: 8, column: 26 }, { messageId: 'noExpiry', line: 10, column: 24 }] },
    // the application's `incr` facade (lines 8 and 10), whose only call of its name is the
    // served chart.min.js's own, is left alone; the list helper beside it sends EXPIRE before the
    // push itself: no pass-through, reported as before
    { ...file('app/service/counter.js'), errors: [{ messageId: 'expiryBeforeCreate', line: 17, column: 24 }] },
  ],
});

describe('a wrapper that receives a TTL and drops it', () => {
  it('stays reported at both SETs: the same command after the early return is no second arm', () => {
    const linter = new Linter({ configType: 'flat' });
    const messages = linter.verify(dropsTtl, [{ files: ['**/*.js'], plugins: { t: { rules: { set: setRule as never } } }, rules: { 't/set': 'error' } }], { filename: 'cache.js' });
    expect(messages.map((m) => [m.line, m.messageId])).toEqual([
      [6, 'setWithoutTtl'],
      [8, 'setWithoutTtl'],
    ]);
  });
});
