/**
 * A key built from a property of a typed parameter whose declared type is a union of string
 * literals (`redis-calls/declared-member-literals.ts`): `scope.dataset` of `scope: Scope` with
 * `interface Scope { dataset: 'fpl:core' | 'fpl:live' }` takes one of those values whatever the
 * caller passes, so the key speller lists each, also through key builders (`activeKey(scope)`
 * returning a conditional of two templates). A key every value of which matches a
 * `persistentKeys` pattern is declared persistent, by the JS rules and by `embedded-lua` for the
 * `KEYS[i]` an eval passes it as. Near misses stay reported: a value of the union outside the
 * patterns, an optional property (also `undefined`), a union with `string`, an interface that
 * `extends` another (its members are not all read), and a script write the pattern does not cover.
 */
import embeddedLua from '../../rules/embedded-lua.js';
import incrRule from '../../rules/incr-needs-expire-on-create.js';
import { ioredis, noExpiryWithMulti, persistentSettings, runRule, untypedTester } from './tester.js';

const declared = persistentSettings('llm:data:fpl:*');
/** A module whose key builders read `scope.dataset`, declared as `dataset` (the property's type), and an INCR of the active key. */
const module = (dataset: string, header = 'interface Scope') =>
  ioredis(
    `type Dataset = 'fpl:core' | 'fpl:live';\n${header} {\n  readonly ${dataset};\n  readonly season: string;\n}\n` +
      'function prefix(scope: Scope): string {\n  if (!scope.season) throw new Error();\n  return scope.dataset === \'fpl:live\' ? `llm:data:${scope.dataset}:${scope.season}:live` : `llm:data:${scope.dataset}:${scope.season}`;\n}\n' +
      'const activeKey = (scope: Scope) => `${prefix(scope)}:active`;\n' +
      'export async function publish(scope: Scope) {\n  await redis.incr(activeKey(scope));\n}\n',
  );
const every = module('dataset: Dataset');
const oneOutside = module("dataset: Dataset | 'other:x'");
const optional = module('dataset?: Dataset');
const anyString = module('dataset: Dataset | string');
const extended = `interface Base { readonly id: string }\n${module('dataset: Dataset', 'interface Scope extends Base')}`;
const error = (code: string) => [noExpiryWithMulti(code, 'incr(activeKey(scope))', 'activeKey(scope)')];

runRule(untypedTester, 'incr-needs-expire-on-create (a key of a declared property of a few values)', incrRule, {
  valid: [{ code: every, settings: declared }],
  invalid: [
    { code: oneOutside, settings: declared, errors: error(oneOutside) },
    { code: optional, settings: declared, errors: error(optional) },
    { code: anyString, settings: declared, errors: error(anyString) },
    { code: extended, settings: declared, errors: error(extended) },
    // no pattern: the key is still a family of keys (one per season)
    { code: every, errors: error(every) },
  ],
});

/** An eval whose script SETs KEYS[1] (line 10, column 1) to the active key of `scope`. */
const script = (dataset: string) =>
  ioredis(
    `type Dataset = ${dataset};\ninterface Scope {\n  readonly dataset: Dataset;\n  readonly season: string;\n}\n` +
      'const activeKey = (scope: Scope) => `llm:data:${scope.dataset}:${scope.season}:active`;\n' +
      "const ACTIVATE = `\nredis.call('SET', KEYS[1], ARGV[1])\n`;\n" +
      'export const activate = (scope: Scope, manifest: string) => redis.eval(ACTIVATE, 1, activeKey(scope), manifest);\n',
  );

runRule(untypedTester, 'embedded-lua (a KEYS[i] whose key is declared persistent through a declared property)', embeddedLua, {
  valid: [{ code: script("'fpl:core' | 'fpl:live'"), settings: declared }],
  invalid: [
    { code: script("'fpl:core' | 'cache:tmp'"), settings: declared, errors: [{ messageId: 'luaFinding', line: 10, column: 1 }] },
  ],
});
