/**
 * Pass-through wrappers whose callers decide the key and its TTL (round 29, t50-pass; the
 * twenty-seventh held-out set: ai-webinar-agent's Upstash / ioredis adapter, keza's error-safe
 * `safeIncr` handed out by a client Proxy). A wrapper whose write takes its key (and, where it has
 * one, its TTL arm) from its own parameters and sends nothing else is judged at its callers:
 *
 * - an adapter object's `incr(key) { return client.incr(key) }` whose module also has a pipeline
 *   wrapper forwarding `incr(key) { p.incr(key); return wrapper }` on a receiver the rules cannot
 *   read: that call hands on its own callers' key (calls of `incr` too), it is no unknown caller;
 * - a forwarding function under another name that a client Proxy the rules read as a client
 *   hands out under its command's name (`case 'incr': return safeIncr`): the callers' `redis.incr`
 *   is read as INCR where it is;
 * - a pipeline shim queuing `() => client.set(key, value)` in the no-TTL arm of the caller's
 *   `'EX'`: left alone when every call of it passes the tested parameter.
 *
 * Near misses stay reported where they are: a wrapper that builds its own key (`hits:${id}`), one
 * handed out under another command's name, an unread call of the name that does not forward its
 * own function's key, a shim whose test is not about the TTL or whose TTL is its own, a shim one of
 * whose callers passes no TTL. The fixtures are applications (`"private": true`) in
 * tests/fixtures/adapter-apps.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import incrRule from '../../rules/incr-needs-expire-on-create.js';
import setRule from '../../rules/set-requires-ttl-or-keepttl.js';
import { runRule, untypedTester } from './tester.js';

const fixtures = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'adapter-apps');
const file = (path: string) => ({ code: readFileSync(join(fixtures, path), 'utf8'), filename: join(fixtures, path) });
const adapter = file('app/src/adapter.ts');
const shim = file('app/src/shim.ts');
const rate = file('app/src/rate.ts');
const clicks = file('proxy/src/clicks.ts');

/** The set rule's two suggestions on the `nth` (from 1) `client.set(key, value)` of `code`. */
function bareSetSuggestions(code: string, nth: number) {
  const call = 'client.set(key, value';
  let at = -1;
  for (let i = 0; i < nth; i++) at = code.indexOf(call, at + 1);
  const end = at + call.length;
  return [
    { messageId: 'addExpiryPlaceholder' as const, output: `${code.slice(0, end)}, 'EX', TTL_SECONDS${code.slice(end)}` },
    { messageId: 'addKeepTtl' as const, output: `${code.slice(0, end)}, 'KEEPTTL'${code.slice(end)}` },
  ];
}

/** The incr rule's suggestion to wrap `call` of `code` with its EXPIRE of `key` in a MULTI. */
function wrapInMulti(code: string, call: string, key: string) {
  return [{ messageId: 'wrapInMulti' as const, output: code.replace(`redis.${call}`, `redis.multi().${call}.expire(${key}, TTL_SECONDS).exec()`) }];
}

runRule(untypedTester, 'incr-needs-expire-on-create (adapters and client proxies judged at their callers)', incrRule, {
  valid: [],
  invalid: [
    {
      // `incr` and `sadd` of the adapter are left alone (the pipeline wrapper's same-name
      // forwards are hops); `incr(id)` of the counting adapter spells its own family `hits:*`
      ...adapter,
      errors: [{ messageId: 'noExpiry', line: 20, column: 44 }],
    },
    {
      // a call of `incr` on an unread receiver that does not forward its function's key: the
      // callers cannot all be known, so the adapter's INCR is judged where it is
      ...adapter,
      code: adapter.code.replace('p.incr(key); return wrapper;', "p.incr('pipeline:count'); return wrapper;"),
      errors: [
        { messageId: 'noExpiry', line: 20, column: 44 },
        { messageId: 'noExpiry', line: 26, column: 45 },
      ],
    },
    {
      // strict judges every wrapper where it is
      ...adapter,
      options: [{ allowPassThrough: false }],
      errors: [
        { messageId: 'noExpiry', line: 20, column: 44 },
        { messageId: 'noExpiry', line: 26, column: 45 },
        { messageId: 'noExpiry', line: 27, column: 67 },
      ],
    },
    {
      // the callers, judged with their keys
      ...rate,
      errors: [
        { messageId: 'noExpiry', line: 4, column: 29, suggestions: [] },
        { messageId: 'noExpiry', line: 5, column: 15, suggestions: wrapInMulti(rate.code, "sadd(`seen:${userId}`, 'x')", '`seen:${userId}`') },
      ],
    },
    {
      // safeIncr and safeIncrby are handed out as `incr` / `incrby` of a client: left alone;
      // safeSadd handed out as `incr` (another command) and safeHits (its own `hits:*`) stay
      ...file('proxy/src/safe.ts'),
      errors: [
        { messageId: 'noExpiry', line: 27, column: 29 },
        { messageId: 'noExpiry', line: 35, column: 29 },
        // INCRBY 2 handed out as `decr`: not the write its callers' DECR is (safeHset under
        // `hmset` and safeStep, INCRBY 1 under `incr`, are)
        { messageId: 'noExpiry', line: 62, column: 29 },
      ],
    },
    {
      // the caller's INCR of clicks:*, read where it is (total:saved is one constant key)
      ...clicks,
      errors: [{ messageId: 'noExpiry', line: 4, column: 15, suggestions: wrapInMulti(clicks.code, 'incr(`clicks:${searchId}`)', '`clicks:${searchId}`') }],
    },
  ],
});

const draft = `${shim.code}
export async function draft(shim: Shim, id: string, doc: string) {
  await shim.set(\`draft:\${id}\`, doc).exec();
}
`;

runRule(untypedTester, 'set-requires-ttl-or-keepttl (a queued command in the no-TTL arm of a caller-chosen TTL)', setRule, {
  valid: [],
  invalid: [
    {
      // `set`'s bare SET runs only when the caller passes no 'EX', and its one caller passes one;
      // `put` tests a flag that is not the TTL, `store` expires with its own TTL
      ...shim,
      errors: [
        { messageId: 'setWithoutTtl', line: 27, column: 39, suggestions: bareSetSuggestions(shim.code, 2) },
        { messageId: 'setWithoutTtl', line: 39, column: 39, suggestions: bareSetSuggestions(shim.code, 3) },
      ],
    },
    {
      // a caller passing no TTL takes the bare SET: the write is judged where it is
      ...shim,
      code: draft,
      errors: [
        { messageId: 'setWithoutTtl', line: 17, column: 39, suggestions: bareSetSuggestions(draft, 1) },
        { messageId: 'setWithoutTtl', line: 27, column: 39, suggestions: bareSetSuggestions(draft, 2) },
        { messageId: 'setWithoutTtl', line: 39, column: 39, suggestions: bareSetSuggestions(draft, 3) },
      ],
    },
  ],
});
