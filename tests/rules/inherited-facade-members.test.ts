/**
 * A pass-through facade reached through a member a superclass of the code declares (round 20,
 * web05-Denamu's feed-crawler: `class ClaudeEventWorker extends AbstractQueueWorker` calls
 * `this.redisConnection.rpush(key, [...])`, the member declared `protected readonly
 * redisConnection: RedisConnection` by the abstract base class in another module; the
 * `RedisConnection.rpush(key, elements)` wrapper forwards the caller's key inside a try / catch).
 * The facade's callers are judged (`redis-calls/inherited-members.ts`, read by
 * `redis-calls/facades.ts`): the wrapper is left alone, the caller's RPUSH of `retry:*` is
 * reported. The limit: a base class declaring the member without a type leaves the call
 * unresolved, and the wrapper is judged where it is (or its leak would be reported nowhere).
 * Fixtures in tests/fixtures/inherited-facade (two private applications).
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import incrRule from '../../rules/incr-needs-expire-on-create.js';
import { runRule, untypedTester } from './tester.js';

const fixtures = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'inherited-facade');
const file = (path: string) => ({ code: readFileSync(join(fixtures, path), 'utf8'), filename: join(fixtures, path) });

runRule(untypedTester, 'incr-needs-expire-on-create (facades reached through an inherited member)', incrRule, {
  valid: [
    // the wrapper's caller is found through the superclass's declared member: judged there
    file('typed/src/redis-access.ts'),
    // unresolved, the caller is not read as the command (the wrapper is reported instead)
    file('untyped/src/retry-worker.ts'),
  ],
  invalid: [
    // the caller, with its key
    { ...file('typed/src/retry-worker.ts'), errors: [{ messageId: 'noExpiry', line: 10, column: 32 }] },
    // the base class declares the member without a type: the call is not resolved, the wrapper is judged
    {
      ...file('untyped/src/redis-access.ts'),
      errors: [
        {
          messageId: 'noExpiry',
          line: 8,
          column: 24,
          suggestions: [{ messageId: 'wrapInMulti', output: file('untyped/src/redis-access.ts').code.replace('this.redis.rpush(key, ...elements)', 'this.redis.multi().rpush(key, ...elements).expire(key, TTL_SECONDS).exec()') }],
        },
      ],
    },
  ],
});
