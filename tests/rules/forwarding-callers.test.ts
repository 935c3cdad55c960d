/**
 * Thin pass-through wrappers whose callers decide, whatever their names (round 15, t36; the
 * thirteenth held-out set: AFFiNE's `RedisCache.increase` / `pushBack` / `mapIncrease`, beefy-api's
 * `RedisCacheBackend.set` reached through an `ICacheBackend` member, redis-smq-common's `lmove`
 * with one arm per direction). A method of a pass-through wrapper's shape (short, the key its
 * parameter, one command) under a name that is not its command's is judged at its callers when one
 * of them is read: a call through an instance of its class, a member typed as the class, as an
 * interface the class implements or as a dependency-injection token sharing that interface, also
 * one forwarding layer up (`Counter.add` calling `store.increase`). Each such call is read as the
 * command with the caller's key, judged by the key policy. Near misses stay reported where they
 * are: a wrapper that spells its own key family (also through a key builder: nest-admin's
 * `setPermissionsCache(uid, p)`), one that sends a second command, one nothing calls, one whose
 * only caller the rules cannot resolve. The fixtures are in
 * tests/fixtures/forwarding-callers/app (an application: `"private": true`).
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import incrRule from '../../rules/incr-needs-expire-on-create.js';
import setRule from '../../rules/set-requires-ttl-or-keepttl.js';
import { sameWriteCommands } from '../../semantics/commands.js';
import { runRule, setSuggestions, untypedTester } from './tester.js';

const fixtures = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'forwarding-callers', 'app', 'src');
const file = (path: string) => ({ code: readFileSync(join(fixtures, path), 'utf8'), filename: join(fixtures, path) });
const settings = { 'redis-ttl': { persistentKeys: ['xp:*'] } };

runRule(untypedTester, 'incr-needs-expire-on-create (wrappers under other names, judged at their callers)', incrRule, {
  valid: [
    // the memory implementation sends nothing
    { ...file('memory.ts'), settings },
    // strict judges the wrappers where they are, the callers' calls are not read as commands
    { ...file('stats.ts'), settings, options: [{ allowPassThrough: false }] },
  ],
  invalid: [
    {
      // `increase`, `pushBack`, `Counter.add` and `remember` are left alone (their callers are read);
      // `bump` spells its own family `hits:*`, `tally` reads the key first (a second command),
      // `count`'s only caller holds the store in an untyped config object; `lower` has no caller:
      // nothing in the application names it, code that never runs (redis-calls/uncalled.ts)
      ...file('cache.ts'),
      settings,
      errors: [
        { messageId: 'noExpiry', line: 17, column: 23 },
        { messageId: 'noExpiry', line: 22, column: 23 },
        { messageId: 'noExpiry', line: 30, column: 23 },
      ],
    },
    {
      // allowUncalledCode off (strict): `lower`, which nothing calls, is judged where it is
      ...file('cache.ts'),
      settings,
      options: [{ allowUncalledCode: false }],
      errors: [
        { messageId: 'noExpiry', line: 17, column: 23 },
        { messageId: 'noExpiry', line: 22, column: 23 },
        { messageId: 'noExpiry', line: 26, column: 23 },
        { messageId: 'noExpiry', line: 30, column: 23 },
      ],
    },
    {
      // read at the callers: `visits:*` through the instance, `log:*` through the member typed as the
      // dependency-injection token (`StoreToken extends MemoryStore implements Store`, the Redis
      // store implements `Store` too), `clicks:*` one layer up (`counter.add`); `xp:*` is
      // persistent, `visits:total` and `log:all` (the member typed as the interface) are one key;
      // `streak:*` through `bumpOne`, which forwards to `increase` of its own class
      ...file('stats.ts'),
      settings,
      errors: [
        { messageId: 'noExpiry', line: 18, column: 17 },
        { messageId: 'noExpiry', line: 21, column: 23 },
        { messageId: 'noExpiry', line: 23, column: 19 },
        { messageId: 'noExpiry', line: 29, column: 17 },
      ],
    },
    {
      // the interface member's caller with a leaking key is read as RPUSH too
      ...file('stats.ts'),
      code: file('stats.ts').code.replace("this.shared.pushBack('log:all', id)", 'this.shared.pushBack(`all:${id}`, id)'),
      settings,
      errors: [
        { messageId: 'noExpiry', line: 18, column: 17 },
        { messageId: 'noExpiry', line: 21, column: 23 },
        { messageId: 'noExpiry', line: 22, column: 23 },
        { messageId: 'noExpiry', line: 23, column: 19 },
        { messageId: 'noExpiry', line: 29, column: 17 },
      ],
    },
    {
      // no persistent pattern: `xp:*` leaks at the callers, not at the wrappers; at its first
      // write (line 19), not at `counter.add` of the same key five lines on, which cannot create
      // it (round 31: a write the same flow's earlier write of the key precedes, through wrappers)
      ...file('stats.ts'),
      errors: [
        { messageId: 'noExpiry', line: 18, column: 17 },
        { messageId: 'noExpiry', line: 19, column: 17 },
        { messageId: 'noExpiry', line: 21, column: 23 },
        { messageId: 'noExpiry', line: 23, column: 19 },
        { messageId: 'noExpiry', line: 29, column: 17 },
      ],
    },
  ],
});

runRule(untypedTester, 'incr-needs-expire-on-create (callers read in the modules importing the wrapper, a few levels up)', incrRule, {
  valid: [
    // `ledger.record` is no facade: its only caller is beyond the walk's bound (far.ts, seven levels
    // of imports above queue.ts), so its call is not read as RPUSH here
    { ...file('far.ts'), settings },
  ],
  invalid: [
    {
      // `enqueue` is read at jobs.ts (two levels up: jobs.ts imports container.ts, which imports
      // queue.ts) and left alone; `record`, whose caller is out of reach, stays reported where it is
      ...file('queue.ts'),
      settings,
      errors: [{ messageId: 'noExpiry', line: 17, column: 23 }],
    },
    {
      // RPUSH of `jobs:*` at the caller, through the instance container.ts exports
      ...file('jobs.ts'),
      settings,
      errors: [{ messageId: 'noExpiry', line: 5, column: 15 }],
    },
  ],
});

const auth = file('auth.ts');

runRule(untypedTester, 'set-requires-ttl-or-keepttl (wrappers under other names, judged at their callers)', setRule, {
  valid: [
    { ...file('cache.ts'), settings },
    // the family a key builder names is the wrapper's, judged there: declared persistent here
    { ...auth, settings: { 'redis-ttl': { persistentKeys: ['perm:*'] } } },
  ],
  invalid: [
    {
      // `savePermissions(uid, p)` gives its caller's id to a key builder (`perm:*`): it chooses the
      // family, so it is reported where it is and `login`'s call is not read as SET
      ...auth,
      errors: [{ messageId: 'setWithoutTtl', line: 14, column: 22, suggestions: setSuggestions(auth.code, 'this.redis.set(permKey(uid), JSON.stringify(permissions)') }],
    },
    {
      // `remember(key, value)` is SET of the caller's `session:*`; `xp:*:name` is persistent
      ...file('stats.ts'),
      settings,
      errors: [{ messageId: 'setWithoutTtl', line: 27, column: 17 }],
    },
  ],
});

/** A library's client abstraction: `lmove` sends LMOVE or RPOPLPUSH by the server's version. */
const lmove = (arms: string): string =>
  [
    "import Redis from 'ioredis';",
    'export class Client {',
    '  constructor(private readonly client: Redis, private readonly version: number) {}',
    '  lmove(source: string, destination: string) {',
    arms,
    '  }',
    '}',
  ].join('\n');

runRule(untypedTester, 'incr-needs-expire-on-create (one wrapper, two equivalent arms)', incrRule, {
  valid: [
    // LMOVE or RPOPLPUSH by version: one write of the caller's keys
    lmove("    if (this.version >= 6.2) return this.client.lmove(source, destination, 'RIGHT', 'LEFT');\n    else return this.client.rpoplpush(source, destination);"),
    lmove("    return this.version >= 6.2 ? this.client.lmove(source, destination, 'RIGHT', 'LEFT') : this.client.rpoplpush(source, destination);"),
    // the same LMOVE in both arms of a direction test (redis-smq-common)
    lmove("    if (this.version > 6) return this.client.lmove(source, destination, 'LEFT', 'RIGHT');\n    else return this.client.lmove(source, destination, 'RIGHT', 'LEFT');"),
  ],
  invalid: [
    {
      // the other arm moves the other way (its keys swapped): two writes, judged where they are
      code: lmove("    if (this.version >= 6.2) return this.client.lmove(source, destination, 'RIGHT', 'LEFT');\n    else return this.client.rpoplpush(destination, source);"),
      errors: [
        { messageId: 'noExpiry', line: 5, column: 49 },
        { messageId: 'noExpiry', line: 6, column: 29 },
      ],
    },
    {
      // the other arm pushes instead: not the same write
      code: lmove("    if (this.version >= 6.2) return this.client.lmove(source, destination, 'RIGHT', 'LEFT');\n    else return this.client.lpush(destination, source);"),
      errors: [
        { messageId: 'noExpiry', line: 5, column: 49 },
        { messageId: 'noExpiry', line: 6, column: 29 },
      ],
    },
  ],
});

describe('sameWriteCommands', () => {
  it('pairs the commands that write the same way, and nothing else', () => {
    expect(sameWriteCommands('LMOVE', 'RPOPLPUSH')).toBe(true);
    expect(sameWriteCommands('BRPOPLPUSH', 'BLMOVE')).toBe(true);
    expect(sameWriteCommands('RPUSH', 'LPUSH')).toBe(true);
    expect(sameWriteCommands('INCRBY', 'INCRBY')).toBe(true);
    expect(sameWriteCommands('LMOVE', 'LPUSH')).toBe(false);
    expect(sameWriteCommands('LPUSH', 'LPUSHX')).toBe(false);
  });
});
