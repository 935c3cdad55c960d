/**
 * Round 40 review of the EXPIRE a helper queues in the write's own MULTI (`redis-calls/helper-expiry.ts`),
 * from the kind's definition: the helper must queue the EXPIRE on the unit and of the key its
 * caller hands it, so a helper that reassigns its key (or unit) parameter before expiring it
 * expires another key (or on another unit) and the write stays reported; the caller must hand it
 * the write's own key (the same binding, not a like-named one of another block) before any
 * `exec` of the unit, a callback's `exec` included. An EXPIRE the helper returns still runs, and
 * one under `ttl && ...` runs whenever the TTL is given, as `if (ttl)` does.
 */
import incrRule from '../../rules/incr-needs-expire-on-create.js';
import setRule from '../../rules/set-requires-ttl-or-keepttl.js';
import { ioredis, positionOf, runRule, setSuggestions, untypedTester } from './tester.js';

/** An ioredis module with the helper `helper` and the function `add` whose body is `body`. */
const mod = (helper: string, body: string) => ioredis(`${helper}\nexport async function add(id: string, lifetimeSeconds: number | null = null) {\n  const key = \`c:\${id}\`;\n  const multi = redis.multi();\n${body}\n}\n`);
const EXPIRE_IN = 'function expireIn(m: any, key: string) {\n  m.expire(key, 60);\n}';
/** A helper passing the caller's EXPIRE mode. */
const MODE_IN = "function expireIn(m: any, key: string, mode: 'NX' | 'GT') {\n  m.expire(key, 60, mode);\n}";
/** A helper expiring only while a lifetime is set (the operator's null: never expire), called with the caller's lifetime. */
const LIFETIME_IN = 'function expireIn(m: any, key: string, lifetime: number | null) {\n  if (lifetime) m.expire(key, lifetime);\n}';
const LIFETIME_CALL = '  multi.incr(key);\n  expireIn(multi, key, lifetimeSeconds);\n  await multi.exec();';
const queued = '  multi.incr(key);\n  expireIn(multi, key);\n  await multi.exec();';

/** A `noExpiry` finding on the INCR queued in the MULTI of `code`, with its suggestion to queue an EXPIRE right after it. */
const leak = (code: string, call = 'multi.incr(key);') => ({
  code,
  errors: [
    {
      messageId: 'noExpiry' as const,
      ...positionOf(code, call.replace(/^multi\./, '')),
      suggestions: [{ messageId: 'appendExpire' as const, output: code.replace(call, call.replace(/\);$/, ').expire(key, TTL_SECONDS);')) }],
    },
  ],
});

runRule(untypedTester, 'incr-needs-expire-on-create (round 40 review: a helper queueing the EXPIRE)', incrRule, {
  valid: [
    // the near miss: the helper expires the key it is given
    mod(EXPIRE_IN, queued),
    // 8. GT's near miss: NX counts (a new key has no TTL)
    mod(MODE_IN, '  multi.incr(key);\n  expireIn(multi, key, \'NX\');\n  await multi.exec();'),
    // 8. a lifetime that may be unset is the operator's "never expire"
    mod(LIFETIME_IN, LIFETIME_CALL),
    // 8. pinned: strict (allowOptionalTtl: false) leaves it too, as it leaves the write followed by
    // `if (lifetimeSeconds) multi.expire(key, lifetimeSeconds)` at the call: the option reports the
    // no-TTL arm of a TTL test (docs/rules/incr-needs-expire-on-create.md), not an expiry under one
    { code: mod(LIFETIME_IN, LIFETIME_CALL), options: [{ allowOptionalTtl: false }] },
    // 6a. the helper returns its EXPIRE: the `return` runs it, it is no exit before it
    mod('function expireIn(m: any, key: string) {\n  return m.expire(key, 60);\n}', queued),
    // 6b. the EXPIRE runs whenever the TTL is given, as `if (ttl) m.expire(key, ttl)` does
    mod('function expireIn(m: any, key: string, ttl?: number) {\n  ttl && m.expire(key, ttl);\n}', '  multi.incr(key);\n  expireIn(multi, key, 60);\n  await multi.exec();'),
  ],
  invalid: [
    // 1. the helper reassigns its key parameter: it expires `<key>:meta`
    leak(mod('function expireIn(m: any, key: string) {\n  key = `${key}:meta`;\n  m.expire(key, 60);\n}', queued)),
    // 1. the helper reassigns its unit parameter: it expires on a MULTI of its own
    leak(mod('function expireIn(m: any, key: string) {\n  m = redis.multi();\n  m.expire(key, 60);\n}', queued)),
    // 3. the MULTI is executed in a callback before the helper is called
    leak(mod(EXPIRE_IN, '  multi.incr(key);\n  await new Promise((r) => multi.exec(r));\n  expireIn(multi, key);')),
    // 8. GT: a key without TTL counts as an infinite TTL, so EXPIRE ... GT leaves it without one
    leak(mod(MODE_IN, '  multi.incr(key);\n  expireIn(multi, key, \'GT\');\n  await multi.exec();')),
    // 6b's near miss: the EXPIRE hangs on a flag unrelated to its TTL
    leak(mod('let expiring = false;\nfunction expireIn(m: any, key: string, ttl?: number) {\n  expiring && m.expire(key, ttl);\n}', '  multi.incr(key);\n  expireIn(multi, key, 60);\n  await multi.exec();')),
  ],
});

/** A SET of `c:<a>` queued in one block and the helper handed the MULTI and `c:<b>` (`second`) in the next. */
const blocks = (second: string) =>
  ioredis(
    `${EXPIRE_IN}\nexport async function save(a: string, b: string) {\n  const multi = redis.multi();\n  {\n    const key = \`c:\${a}\`;\n    multi.set(key, '1');\n  }\n  {\n${second}    expireIn(multi, key);\n  }\n  await multi.exec();\n}\n`,
  );
const shadowed = blocks('    const key = `c:${b}`;\n');

runRule(untypedTester, 'set-requires-ttl-or-keepttl (round 40 review: a helper queueing the EXPIRE)', setRule, {
  valid: [
    // the near miss: one key, the helper called in the block that writes it
    ioredis(`${EXPIRE_IN}\nexport async function save(a: string) {\n  const multi = redis.multi();\n  {\n    const key = \`c:\${a}\`;\n    multi.set(key, '1');\n    expireIn(multi, key);\n  }\n  await multi.exec();\n}\n`),
  ],
  invalid: [
    // 4. another binding spelled `key` (another block's): the helper expires `c:<b>`, not the SET's `c:<a>`
    { code: shadowed, errors: [{ messageId: 'setWithoutTtl', ...positionOf(shadowed, "set(key, '1')"), suggestions: setSuggestions(shadowed, "multi.set(key, '1'") }] },
  ],
});
