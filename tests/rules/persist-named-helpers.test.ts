/**
 * Helpers named for keeping their caller's key (round 41, t69; the thirty-ninth held-out set:
 * 5stackgg/api's `CacheService.rememberForever`, DarkestEver/travelcrmpro's `setPermanent`,
 * both triaged false). A write whose key is a parameter of the function it is written in, that
 * function named `…Forever` or `…Permanent…` (not `persist…`, which mostly means "save"), and a call of a facade so named read at
 * its caller, are persistent by design in `recommended` (`allowPassThrough`): the name is the
 * maintainer's declared intent. Near misses: the same helper under another name (judged by its
 * callers' keys), a helper so named that spells its own family, and `strict`. The fixtures are in
 * tests/fixtures/persist-named/app (an application: `"private": true`).
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import setRule from '../../rules/set-requires-ttl-or-keepttl.js';
import { runRule, untypedTester } from './tester.js';

const fixtures = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'persist-named', 'app', 'src');
const file = (path: string) => ({ code: readFileSync(join(fixtures, path), 'utf8'), filename: join(fixtures, path) });
const settings = { 'redis-ttl': { persistentKeys: ['user:*'] } };
const cache = file('cache.ts');
const jobs = file('jobs.ts');

/** The suggestions of a node-redis `set` without options: `{ EX: TTL_SECONDS }` or `{ KEEPTTL: true }` after the call's last argument `last`. */
function nodeSetSuggestions(code: string, last: string) {
  return [
    { messageId: 'addExpiryPlaceholder' as const, output: code.replace(last, `${last}, { EX: TTL_SECONDS }`) },
    { messageId: 'addKeepTtl' as const, output: code.replace(last, `${last}, { KEEPTTL: true }`) },
  ];
}

/** A helper `name(key, value)` of the module writing its key without TTL, called with `session:${id}`. */
const helper = (name: string) =>
  `import { createClient } from 'redis';\nconst client = createClient();\nasync function ${name}(key: string, value: string) {\n  await client.set(key, value);\n}\nexport async function save(id: string, v: string) {\n  await ${name}(\`session:\${id}\`, v);\n}\n`;

// a name that negates the word says the key is not kept: its callers' keys are judged
runRule(untypedTester, 'set-requires-ttl-or-keepttl (helpers named for not keeping their key)', setRule, {
  valid: [helper('setPermanent'), helper('cacheForever')],
  // nor does the verb persist, which mostly means "save" (review41)
  invalid: ['setNonPermanent', 'cacheImpermanent', 'storeNotForever', 'set_non_permanent', 'persistSession', 'persist'].map((name) => ({
    code: helper(name),
    errors: [{ messageId: 'setWithoutTtl' as const, line: 4, column: 16, suggestions: nodeSetSuggestions(helper(name), 'client.set(key, value') }],
  })),
});

runRule(untypedTester, 'set-requires-ttl-or-keepttl (helpers named for keeping their key)', setRule, {
  valid: [
    {
      // the callers: `plan:*` and `tier:*` through the `setPermanent` facade, read here, are the
      // declared intent; `rememberForever` and `remember` are helpers, judged where they write
      ...jobs,
      settings,
      code: `${jobs.code}\nexport async function more(id: string) {\n  await store.setPermanent(\`tier:\${id}\`, {});\n}\n`,
    },
  ],
  invalid: [
    {
      // `rememberForever` (a read, then the write: a helper) and `store.setPermanent` are named for
      // keeping their caller's key: left alone; `remember`, the same helper under another name, is
      // judged by its callers' keys (`job:*:result`); `savePermanentSession` spells its family
      ...cache,
      settings,
      errors: [
        { messageId: 'setWithoutTtl', line: 24, column: 16 },
        { messageId: 'setWithoutTtl', line: 40, column: 18, suggestions: nodeSetSuggestions(cache.code, 'client.set(`session:${id}`, value') },
      ],
    },
    {
      // strict judges the names as any other: the persist-named facade's write is reported (and
      // the wrappers' writes where they are, their callers unread)
      ...cache,
      settings,
      options: [{ allowPassThrough: false }],
      errors: [
        { messageId: 'setWithoutTtl', line: 7, column: 18, suggestions: nodeSetSuggestions(cache.code, 'client.set(key, value') },
        { messageId: 'setWithoutTtl', line: 32, column: 20, suggestions: nodeSetSuggestions(cache.code, 'client.set(key, JSON.stringify(value)') },
        { messageId: 'setWithoutTtl', line: 40, column: 18, suggestions: nodeSetSuggestions(cache.code, 'client.set(`session:${id}`, value') },
      ],
    },
  ],
});
