/**
 * Round 40 review of the counter wrapper choosing INCR or INCRBY by the caller's amount
 * (`redis-calls/pass-through.ts`): the early return's `if` and the rest of the block are the two
 * arms of one write only when the first write sits in that `if`'s branch. An INCR in the `if`'s
 * test runs whatever the test decides, before the INCRBY after it: both run, and the INCR is
 * reported; the near miss, INCR in the returning branch, is the pass-through it was.
 */
import incrRule from '../../rules/incr-needs-expire-on-create.js';
import { ioredis, runRule, untypedTester } from './tester.js';

const counter = (guard: string, early: string) =>
  ioredis(`export class Counter {\n  async incr(key: string, n = 1) {\n    if (${guard}) {\n      return ${early};\n    }\n    return redis.incrby(key, n);\n  }\n}`);

runRule(untypedTester, 'incr-needs-expire-on-create (an INCR in the test of the early return)', incrRule, {
  valid: [counter('n === 1', 'redis.incr(key)')],
  invalid: [
    {
      code: counter('(await redis.incr(key)) > 100', '0'),
      // the INCR of the test; the INCRBY by the caller's amount is the counter the name says
      // (`namesCommand`), judged at the callers as before
      errors: [{ messageId: 'noExpiry', line: 5, column: 22 }],
    },
  ],
});
