/**
 * Write helpers judged at their callers, whatever their name (round 42, finishing round 41's t69;
 * the thirty-ninth held-out set: coinos-server's `s(k, v)` JSON save helper was reported where it
 * is while a caller's per-request `lnurl:<uuid>` through it went unreported; rconsole-plugin's
 * `redisSetKey(key, value)` is called with fixed keys only). The kind: a function of its module's
 * top level whose key and value are its parameters and which writes them without TTL is a
 * pass-through whatever its name; each call is judged with the caller's key, and the helper's own
 * write is left alone, when every call is found and every call's key can be read. One call whose
 * key cannot be read (a parameter of a function whose callers cannot be known, a computed
 * property, a spread, a callback's parameter) keeps the helper judged where it is, as before, and
 * its callers unread. A helper also handed on as a value stays judged where it is, its calls the
 * code shows read all the same.
 * Near misses stay reported where they are: a helper that builds a per-entity key itself, a
 * library's exported helper (its callers are other people's code). Fixtures in
 * tests/fixtures/module-function-facades: an application (`"private": true`), a library (a
 * `version` and a `main`) and a bot's plugin folder (no `version`: no registry publishes it).
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import setRule from '../../rules/set-requires-ttl-or-keepttl.js';
import { ioredis, persistentSettings, runRule, setWithoutTtlAt, untypedTester } from './tester.js';

const fixtures = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'module-function-facades');
const file = (path: string) => ({ code: readFileSync(join(fixtures, path), 'utf8'), filename: join(fixtures, path) });
const settings = persistentSettings('user:*');
const app = file('app/src/db.ts');
const lib = file('lib/src/db.ts');

/** The suggestions of a node-redis `set` without options: `{ EX: TTL_SECONDS }` or `{ KEEPTTL: true }` after the call's last argument `last`. */
function nodeSetSuggestions(code: string, last: string) {
  return [
    { messageId: 'addExpiryPlaceholder' as const, output: code.replace(last, `${last}, { EX: TTL_SECONDS }`) },
    { messageId: 'addKeepTtl' as const, output: code.replace(last, `${last}, { KEEPTTL: true }`) },
  ];
}

/** {@link nodeSetSuggestions} of the `db.set(k, v)` on line `line` of `code`. */
function suggestionsAtLine(code: string, line: number) {
  const lines = code.split('\n');
  return nodeSetSuggestions(lines[line - 1]!, 'db.set(k, v').map((s) => ({ ...s, output: [...lines.slice(0, line - 1), s.output, ...lines.slice(line)].join('\n') }));
}

// a helper of a snippet (no package on disk: its callers' calls are not resolved to it, as a
// package's index of declared names, `importers.ts` mayBeWrapperName, is what lets them): judged
// where it is, as before; round 41's patch judged it nowhere (its write left to callers whose calls
// were never read)
const snippet = ioredis(`async function put(k: string, v: string) {
  await redis.set(k, v);
}
export async function visit(id: string) {
  await put(\`visit:\${id}\`, '1');
  await put('visits:total', '1');
}
`);
const unread = file('app/src/unread.ts');

runRule(untypedTester, 'set-requires-ttl-or-keepttl (module-level write helpers, judged at their callers)', setRule, {
  valid: [
    // a caller passes on its own parameter, whose callers pass `user:*`: persistent by design
    {
      code: ioredis(`function put(k: string, v: string) {\n  return redis.set(k, v);\n}\nfunction saveUser(key: string, v: string) {\n  return put(key, v);\n}\nexport function signup(id: string) {\n  return saveUser(\`user:\${id}\`, '1');\n}\n`),
      settings,
    },
    // the plugin's callers: a fixed key through `putJson`
    file('plugin/apps/switch.js'),
  ],
  invalid: [
    { code: snippet, errors: [setWithoutTtlAt(snippet, 4, 15)] },
    { code: snippet, options: [{ allowUncalledCode: false }], errors: [setWithoutTtlAt(snippet, 4, 15)] },
    {
      // one call's key cannot be read (a computed property, a spread argument, a callback's
      // parameter): each helper is judged where it is, and its other callers (`visit:*`) are not read
      ...unread,
      errors: [8, 13, 18].map((line) => ({ messageId: 'setWithoutTtl' as const, line, column: 13, suggestions: suggestionsAtLine(unread.code, line) })),
    },
    {
      // `s`, `putKey` and `remember` are left alone (every call is read at its caller); `saveSession`
      // spells its own family `sess:*`; `keep` is handed on as a value (`writers = [keep]`), so
      // some of its calls pass keys no call site shows: judged here too
      ...app,
      settings,
      errors: [
        { messageId: 'setWithoutTtl', line: 18, column: 13, suggestions: nodeSetSuggestions(app.code, 'db.set(`sess:${id}`, data') },
        { messageId: 'setWithoutTtl', line: 22, column: 50, suggestions: nodeSetSuggestions(app.code, 'db.set(k, v') },
        // `remember`'s caller in this module: SET of `visit:*` without expiry
        { messageId: 'setWithoutTtl', line: 30, column: 9 },
      ],
    },
    {
      // the callers: `lnurl:*` per request is reported; `user:*` is persistent (also through
      // `saveUser`'s parameter), `settings` and the `tools:*` constants are one key each; `keep`'s
      // calls are read too (`tmp:*` reported, `tmp:all` one key), while its own write stays
      // reported for the calls no site shows
      ...file('app/src/routes.ts'),
      settings,
      errors: [
        { messageId: 'setWithoutTtl', line: 6, column: 9 },
        { messageId: 'setWithoutTtl', line: 13, column: 9 },
      ],
    },
    {
      // a library's exported helper stays reported where it is, and its callers are not read;
      // `merge`, which nothing in the library calls, is its API too; `put` is not exported, but
      // one of its calls passes the key of the API's `saveAny`: judged where it is
      ...lib,
      settings: { 'redis-ttl': { persistentKeys: [] } },
      errors: [
        { messageId: 'setWithoutTtl', line: 6, column: 48, suggestions: nodeSetSuggestions(lib.code, 'db.set(k, JSON.stringify(v)') },
        { messageId: 'setWithoutTtl', line: 15, column: 12, suggestions: nodeSetSuggestions(lib.code, "db.set(key, JSON.stringify({ ...JSON.parse(old ?? '{}'), ...obj })") },
        { messageId: 'setWithoutTtl', line: 20, column: 42, suggestions: nodeSetSuggestions(lib.code, 'db.set(k, v') },
      ],
    },
    {
      // a package no registry would publish (no `version`: a bot's plugin folder): `mergeJson`,
      // which nothing calls, never runs; `appendJson`'s caller passes a per-entity key, judged at
      // its write (`putJson`'s SET of the helper's `key`)
      ...file('plugin/utils/redis-util.js'),
      errors: [{ messageId: 'setWithoutTtl', line: 18, column: 9 }],
    },
    {
      // strict about uncalled code: `mergeJson`'s write is judged where it is too
      ...file('plugin/utils/redis-util.js'),
      options: [{ allowUncalledCode: false }],
      errors: [
        { messageId: 'setWithoutTtl', line: 12, column: 9 },
        { messageId: 'setWithoutTtl', line: 18, column: 9 },
      ],
    },
  ],
});
