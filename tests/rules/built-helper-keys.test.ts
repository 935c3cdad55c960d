/**
 * A helper that builds its key from its own parameters (`redis-calls/helper-keys.ts`
 * builtHelperKeyPersistent): `const valueKey = `${family}:${user}:${chat}`` in a method of an
 * application's class, and every call, in the other modules of the application, passes arguments
 * that spell a key persistent by design (`this.store.bump('unread', user, chat, 1)` builds
 * `unread:*:*`, which `unread:*` names): the write is not reported
 * (tests/fixtures/built-helper-keys/app: chat.ts calls the helpers of store.ts, reset.ts, drafts.ts). Near misses stay
 * reported: a call whose arguments spell a key no pattern names, a parameter the helper
 * reassigns, a helper that also expires the key it builds (a pattern does not cover that), the
 * same module outside any application (its callers are unknown).
 */
import { readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import incrRule from '../../rules/incr-needs-expire-on-create.js';
import setRule from '../../rules/set-requires-ttl-or-keepttl.js';
import { afterAll, describe, expect, it } from 'vitest';
import { lintApplication } from '../helpers/lint.js';
import { runRule, untypedTester } from './tester.js';

const settings = { 'redis-ttl': { persistentKeys: ['unread:*'] } };
const fixtures = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'built-helper-keys');
const storeFile = join(fixtures, 'app', 'store.ts');
const store = readFileSync(storeFile, 'utf8');

/** The two suggestions of a SET without TTL, inserted after `value` of the write `write`. */
const setSuggestions = (code: string, write: string, value: string) => {
  const at = code.indexOf(write) + write.indexOf(`, ${value})`) + value.length + 2;
  return [
    { messageId: 'addExpiryPlaceholder' as const, output: `${code.slice(0, at)}, 'EX', TTL_SECONDS${code.slice(at)}` },
    { messageId: 'addKeepTtl' as const, output: `${code.slice(0, at)}, 'KEEPTTL'${code.slice(at)}` },
  ];
};
const BUMP_SET = 'this.redis.set(valueKey, 1)';
const RESET_SET = 'redis.set(`${family}:${user}:${chat}`, 0)';

/** store.ts with one more caller of its own. */
const withCaller = (call: string) => `${store}\nexport const more = (s: ChatStore, u: string, c: string) => ${call};\n`;
const resetFile = join(fixtures, 'app', 'reset.ts');
const reset = readFileSync(resetFile, 'utf8');
const typing = `${reset}\nexport const more = (u: string, c: string) => resetCount('typing', u, c);\n`;
const draft = withCaller(`s.bump('draft', u, c, 1)`);
const draftsFile = join(fixtures, 'app', 'drafts.ts');
const drafts = readFileSync(draftsFile, 'utf8');

runRule(untypedTester, 'set-requires-ttl-or-keepttl (a key a helper builds from its parameters)', setRule, {
  valid: [
    { code: store, filename: storeFile, settings },
    { code: reset, filename: resetFile, settings },
  ],
  invalid: [
    // one call spells typing:*:*, which no pattern names
    { code: typing, filename: resetFile, settings, errors: [{ messageId: 'setWithoutTtl', line: 8, column: 15, suggestions: setSuggestions(typing, RESET_SET, '0') }] },
    { code: draft, filename: storeFile, settings, errors: [{ messageId: 'setWithoutTtl', line: 13, column: 27, suggestions: setSuggestions(draft, BUMP_SET, '1') }] },
    // the helper changes its parameter: the key is no longer what the call passes
    { code: drafts, filename: draftsFile, settings, errors: [{ messageId: 'setWithoutTtl', line: 7, column: 15, suggestions: setSuggestions(drafts, 'redis.set(`${family}:${user}`, text)', 'text') }] },
    // outside any application: the callers are unknown
    {
      code: store,
      filename: join(fixtures, 'store.ts'),
      settings,
      errors: [{ messageId: 'setWithoutTtl', line: 13, column: 27, suggestions: setSuggestions(store, BUMP_SET, '1') }],
    },
  ],
});

runRule(untypedTester, 'incr-needs-expire-on-create (a key a helper builds from its parameters)', incrRule, {
  valid: [],
  invalid: [
    // mark() expires the key it builds when asked: the callers' pattern does not cover it;
    // tally()'s INCR, unguarded, is not reported: every caller spells unread:*:*
    { code: store, filename: storeFile, settings, errors: [{ messageId: 'separateRoundTrip', line: 18, column: 22 }] },
  ],
});

describe('a helper that is also used as a value', () => {
  const roots: string[] = [];
  afterAll(() => {
    for (const root of roots) rmSync(root, { recursive: true, force: true });
  });
  // line 4 the write of the helper
  const mark = `export async function mark(family: string, user: string) {\n  await redis.set(\`\${family}:\${user}\`, '1');\n}\n`;
  const put = `export async function put(key: string) {\n  await redis.set(key, '1');\n}\n`;
  const lint = (store: string, chat: string) =>
    lintApplication(roots, { 'src/store.ts': `import Redis from 'ioredis';\nconst redis = new Redis();\n${store}`, 'src/chat.ts': chat }, 'src/store.ts', { 'set-requires-ttl-or-keepttl': {} }, ['unread:*']);
  const REPORTED = [['set-requires-ttl-or-keepttl', 'setWithoutTtl', 4, 15]];

  it('is called with arguments no call site shows: handed as a callback, `.call`ed, stored under another name', () => {
    const calls = `import { mark } from './store';\nexport const a = (u: string) => mark('unread', u);\n`;
    for (const more of [`declare const bus: any;\nbus.on('typing', mark);\n`, `export const b = (u: string) => mark.call(null, 'typing', u);\n`, `const m = mark;\nexport const b = (u: string) => m('typing', u);\n`]) {
      expect(lint(mark, `${calls}${more}`)).toEqual(REPORTED);
    }
    // the same for a helper whose key is its parameter
    expect(lint(put, `import { put } from './store';\nexport const a = (u: string) => put(\`unread:\${u}\`);\ndeclare const bus: any;\nbus.on('typing', put);\n`)).toEqual(REPORTED);
  });

  it('reads a key built in an inline callback of the helper with the helper\'s arguments', () => {
    // users.map((u) => ...): the callback's parameter is any user, the family is the helper's
    const each = `export async function markAll(family: string, users: string[]) {\n  await Promise.all(users.map((u) => redis.set(\`\${family}:\${u}\`, '1')));\n}\n`;
    expect(lint(each, `import { markAll } from './store';\nexport const a = (u: string) => markAll('unread', [u]);\n`)).toEqual([]);
    expect(lint(each, `import { markAll } from './store';\nexport const a = (u: string) => markAll('typing', [u]);\n`)).toEqual([['set-requires-ttl-or-keepttl', 'setWithoutTtl', 4, 44]]);
  });

  it('reads an argument a call leaves out as the parameter\'s default, and a call of the helper by itself as the call it sits in', () => {
    const byDefault = `export async function mark(user: string, family = 'unread') {\n  await redis.set(\`\${family}:\${user}\`, '1');\n}\n`;
    expect(lint(byDefault, `import { mark } from './store';\nexport const a = (u: string) => mark(u);\nexport const b = (u: string) => mark(u, undefined);\n`)).toEqual([]);
    expect(lint(byDefault, `import { mark } from './store';\nexport const a = (u: string) => mark(u);\nexport const b = (u: string) => mark(u, 'typing');\n`)).toEqual(REPORTED);
    const recursive = (again: string) =>
      `export async function mark(family: string, user: string, n: number): Promise<void> {\n  await redis.set(\`\${family}:\${user}\`, String(n));\n  if (n > 0) await mark(${again}, user, n - 1);\n}\n`;
    expect(lint(recursive('family'), `import { mark } from './store';\nexport const a = (u: string) => mark('unread', u, 3);\n`)).toEqual([]);
    // the helper changes the family as it calls itself; or nothing but itself calls it
    expect(lint(recursive(`'typing'`), `import { mark } from './store';\nexport const a = (u: string) => mark('unread', u, 3);\n`)).toEqual(REPORTED);
    expect(lint(recursive('family'), `export const none = 0;\n`)).toEqual(REPORTED);
  });

  it('stays persistent when every use is a call, an import, a re-export or a type query', () => {
    expect(lint(mark, `import { mark } from './store';\nexport { mark };\nexport type Mark = typeof mark;\nexport const a = (u: string) => mark('unread', u);\n`)).toEqual([]);
    expect(lint(put, `import { put } from './store';\nexport const a = (u: string) => put(\`unread:\${u}\`);\n`)).toEqual([]);
  });
});
