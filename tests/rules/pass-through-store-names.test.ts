/**
 * Pass-through wrappers named after their command and the store (`redis-calls/pass-through.ts`):
 * `setRedisObject(key, value)`, `pushToRedisList(key, value, position)` forward their own key
 * parameter to SET / LPUSH or RPUSH, here from a callback handed to a pool (`pool.execute((client)
 * => client.set(key, value))`), like `setKey` does. They are left alone and their callers are
 * judged (`redis-calls/facades.ts`): a constant key at the caller is one key, a family is reported
 * there. A list push whose end a parameter chooses (`position === 'start' ? lpush : rpush`) is one
 * write. Near misses stay reported where they are: a key the callback builds from no key parameter
 * (`banner:${value}`, `obj:${id}`), a name that is not the command's (`setUserObject`), and a
 * wrapper that pushes to both ends.
 */
import incrRule from '../../rules/incr-needs-expire-on-create.js';
import setRule from '../../rules/set-requires-ttl-or-keepttl.js';
import { ioredis, runRule, setSuggestions, untypedTester } from './tester.js';

const pool = 'const pool = { execute: <T>(fn: (client: Redis) => Promise<T>) => fn(redis) };\n';
const wrappers =
  pool +
  "export const setRedisObject = (key: string, value: string) => pool.execute((client) => client.set(key, value));\nexport const pushToRedisList = (key: string, value: string, position: 'start' | 'end' = 'end') =>\n  pool.execute((client) => (position === 'start' ? client.lpush(key, value) : client.rpush(key, value)));\n";
const callers = (body: string): string => ioredis(`${wrappers}export async function callers(id: string) {\n${body}\n}`);

const saveBanner = ioredis(`${pool}export const saveBanner = (value: string) => pool.execute((client) => client.set(\`banner:\${value}\`, value));`);
const setRedisObjectFor = ioredis(`${pool}export const setRedisObjectFor = (id: string, value: string) => pool.execute((client) => client.set(\`obj:\${id}\`, value));`);
const setUserObject = ioredis(`${pool}export const setUserObject = (key: string, value: string) => pool.execute((client) => client.set(key, value));`);
const pushBoth = ioredis(`${pool}export const pushBoth = (key: string, value: string) => pool.execute(async (client) => { await client.lpush(key, value); return client.rpush(key, value); });`);

runRule(untypedTester, 'set-requires-ttl-or-keepttl', setRule, {
  valid: [
    // the wrapper is left alone; its caller writes one fixed key
    callers("  await setRedisObject('boot:latest_banner', 'x');"),
    ioredis(`${pool}export function setCacheValue(key: string, value: string) {\n  return pool.execute(function (client) { return client.set(key, value); });\n}\nexport const warm = () => setCacheValue('config', '{}');`),
    // the wrapper fixes the TTL itself
    ioredis(`${pool}export const setRedisObject = (key: string, value: string) => pool.execute((client) => client.set(key, value, 'EX', 60));`),
  ],
  invalid: [
    {
      // a family written through the wrapper: reported at the caller
      code: callers('  await setRedisObject(`user:${id}`, \'x\');'),
      errors: [{ messageId: 'setWithoutTtl', line: 8, column: 9, suggestions: [] }],
    },
    {
      // a key the callback builds from no key parameter: the wrapper chose it
      code: saveBanner,
      errors: [{ messageId: 'setWithoutTtl', line: 4, column: 78, suggestions: setSuggestions(saveBanner, 'client.set(`banner:${value}`, value') }],
    },
    {
      code: setRedisObjectFor,
      errors: [{ messageId: 'setWithoutTtl', line: 4, column: 97, suggestions: setSuggestions(setRedisObjectFor, 'client.set(`obj:${id}`, value') }],
    },
    {
      // named after its data, not the command
      code: setUserObject,
      errors: [{ messageId: 'setWithoutTtl', line: 4, column: 94, suggestions: setSuggestions(setUserObject, 'client.set(key, value') }],
    },
  ],
});

runRule(untypedTester, 'incr-needs-expire-on-create', incrRule, {
  valid: [
    // a fixed queue pushed through the wrapper
    callers("  await pushToRedisList('queue:global', id);"),
  ],
  invalid: [
    {
      // a family pushed through the wrapper, at either end: reported at the caller
      code: callers("  await pushToRedisList(`inbox:${id}`, id, 'start');"),
      errors: [{ messageId: 'noExpiry', line: 8, column: 9, suggestions: [] }],
    },
    {
      // both ends written: not one write, judged where it is; the RPUSH finds the key LPUSH has
      // just created on every path, so only the creation is reported (created-before.ts)
      code: pushBoth,
      errors: [
        { messageId: 'noExpiry', line: 4, column: 103, suggestions: [{ messageId: 'wrapInMulti', output: pushBoth.replace('await client.lpush(key, value)', 'await client.multi().lpush(key, value).expire(key, TTL_SECONDS).exec()') }] },
      ],
    },
  ],
});
