/**
 * `no-persist` asks the key policy (`redis-calls/policy.ts` ttlRemovalExemption), as the other key
 * rules do through `exemption`, whether a command that removes a TTL is left alone: a key
 * persistent by design (a `persistentKeys` pattern, also as stored under an ioredis keyPrefix; an
 * annotation), or with `allowPassThrough` a key the code's user names verbatim (`user-named`).
 * The limits: a key built from a request field, a field of the app's own event, and
 * `allowPassThrough: false` (strict) stay judged; the other inferred exemptions (a constant key,
 * an opaque helper key) do not apply to a removed TTL.
 */
import { describe, expect, it } from 'vitest';
import { ttlRemovalExemption, type KeyPolicyOptions } from '../../redis-calls/policy.js';
import noPersist from '../../rules/no-persist.js';
import { readingsOfCalls } from '../helpers/redis-calls.js';
import { ioredis, positionOf, runRule, untypedTester } from './tester.js';

/** `[command, exemption]` of every call of `code` that removes a TTL, in source order. */
function exemptionsIn(code: string, options: Pick<KeyPolicyOptions, 'allowPassThrough'>, settings?: Record<string, unknown>): Array<[string, string | undefined]> {
  return readingsOfCalls(
    code,
    (context, call) => {
      const key = call.description.keys.find((k) => k.effect === 'remove-ttl' || k.fields?.ttl === 'remove');
      const keyNode = key && call.argNodes[key.arg];
      return keyNode ? [[call.command, ttlRemovalExemption(context, call, keyNode, options)] as [string, string | undefined]] : [];
    },
    settings ? { settings } : {},
  );
}

const route = ioredis(
  "app.post('/keys/:key/persist', async (req, res) => {\n  await redis.persist(req.params.key);\n  await redis.getex(req.body.key, 'PERSIST');\n  await redis.call('HPERSIST', req.params.key, 'FIELDS', 1, 'f');\n  await redis.persist(`user:${req.params.key}`);\n  res.send('ok');\n});",
);
const ownEvent = ioredis("events.on('pin', (data) => redis.persist(data.key));");
const constant = ioredis("redis.persist('cart:1');");
const declared = ioredis("redis.persist(`system:${id}`);\n// redis-ttl persistent: promoted drafts live forever\nredis.persist(`draft:${id}`);");
const prefixed = "import Redis from 'ioredis';\nconst redis = new Redis({ keyPrefix: 'app:' });\nredis.persist(`system:${id}`);";

describe('ttlRemovalExemption: why a removed TTL is left alone', () => {
  it('a key the user names, with allowPassThrough: PERSIST, GETEX ... PERSIST, HPERSIST; a key built from it is judged', () => {
    expect(exemptionsIn(route, {})).toEqual([
      ['PERSIST', 'user-named'],
      ['GETEX', 'user-named'],
      ['HPERSIST', 'user-named'],
      ['PERSIST', undefined],
    ]);
  });
  it('strict (allowPassThrough: false) judges the user-named key', () => {
    expect(exemptionsIn(route, { allowPassThrough: false })).toEqual([
      ['PERSIST', undefined],
      ['GETEX', undefined],
      ['HPERSIST', undefined],
      ['PERSIST', undefined],
    ]);
  });
  it("a field of the app's own event, a constant key: judged (no constant-key exemption for a removed TTL)", () => {
    expect(exemptionsIn(ownEvent, {})).toEqual([['PERSIST', undefined]]);
    expect(exemptionsIn(constant, {})).toEqual([['PERSIST', undefined]]);
  });
  it('a key persistent by design, in strict too: a pattern (as written, as stored under the keyPrefix), an annotation', () => {
    const settings = { 'redis-ttl': { persistentKeys: ['system:*'] } };
    expect(exemptionsIn(declared, { allowPassThrough: false }, settings)).toEqual([
      ['PERSIST', 'persistent'],
      ['PERSIST', 'persistent'],
    ]);
    expect(exemptionsIn(prefixed, { allowPassThrough: false }, { 'redis-ttl': { persistentKeys: ['app:system:*'] } })).toEqual([['PERSIST', 'persistent']]);
    expect(exemptionsIn(declared, {})).toEqual([
      ['PERSIST', undefined],
      ['PERSIST', 'persistent'],
    ]);
  });
});

runRule(untypedTester, 'no-persist (through the key policy)', noPersist, {
  valid: [{ code: declared, options: [{ allowPassThrough: false }], settings: { 'redis-ttl': { persistentKeys: ['system:*'] } } }],
  invalid: [
    { code: route, errors: [{ messageId: 'persist', ...positionOf(route, 'persist(`user') }] },
    {
      code: route,
      options: [{ allowPassThrough: false }],
      errors: [
        { messageId: 'persist', ...positionOf(route, 'persist(req') },
        { messageId: 'persist', ...positionOf(route, 'getex(') },
        { messageId: 'persistFields', ...positionOf(route, "'HPERSIST'") },
        { messageId: 'persist', ...positionOf(route, 'persist(`user') },
      ],
    },
    { code: declared, errors: [{ messageId: 'persist', line: 3, column: 7 }] },
  ],
});
