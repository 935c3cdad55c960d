/**
 * Declared `persistentKeys` patterns matched against keys the code builds out of the linted file
 * (issue 25, round 28: twenty-sixth validation set). A key whose spelling the analysis resolves
 * statically is matched by that spelling, its run-time parts matching `*`: (A) a method of a class
 * of the repository reached through a constructor parameter declared with the class's
 * namespace-qualified name (`_storage: OB.OrderbookStorage` of `import { OrderbookV1 as OB }`,
 * re-exported `export * as OrderbookV1 from './v1'`, or of `import * as OB`), whose every return
 * is text; (B) a key passed by name to a wrapper of the code taken for a client by its name
 * (`redis8.sadd({ key: REDIS_KEY.CACHE_SERVICE_BOTS, member })`, `redisSetter.sadd({ key:
 * WHITE_LIST_KEY, member })`): no client takes a key command's arguments as one object, so the
 * call's key is its `key` property's value, here an imported constant (`require`d, destructured,
 * or a member of an exported object), no longer the property's name. Near misses stay reported: a
 * method whose return is run-time data or has several shapes one of which the pattern does not
 * name, a pattern that does not match the spelling, a parameter declared with an interface, a key
 * built from run-time data, a `let` re-assigned, and an object of key-value pairs (`mset({ a: 1 })`).
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import incrRule from '../../rules/incr-needs-expire-on-create.js';
import setRule from '../../rules/set-requires-ttl-or-keepttl.js';
import { keyShapes } from '../helpers/key-shapes.js';
import { lintSnippet } from '../helpers/lint.js';
import { ioredis, persistentSettings as persistent, positionOf, runRule, setWithoutTtlAt, untypedTester } from './tester.js';

const app = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'key-builders', 'app.ts');

/** An engine class holding a storage instance its constructor receives, writing `key` with SET (line 6). */
const engine = (key: string, header = "import { OrderbookV1 as OB } from './orderbook';", type = 'OB.OrderbookStorage'): string =>
  ioredis(`${header}\nexport class Engine {\n  constructor(protected _storage: ${type}) {}\n  save(id: string, v: string) { return redis.set(${key}, v); }\n}`);
/** The SET of {@link engine} reported. */
const reported = (code: string) => {
  const { line, column } = positionOf(code, 'set(');
  return setWithoutTtlAt(code, line, column);
};

const reExported = engine('this._storage.getOrderMatchesSet(id)');
const namespaceImport = engine('this._storage.getFullMatchKey(id)', "import * as OB from './orderbook/v1';");
const throughConst = ioredis(
  "import { OrderbookV1 as OB } from './orderbook';\nexport class Engine {\n  constructor(protected _storage: OB.OrderbookStorage) {}\n  save(id: string, v: string) {\n    const matchKey = this._storage.getFullMatchKey(id);\n    return redis.set(matchKey, v);\n  }\n}",
);
// near misses
const outside = engine('this._storage.getStatsKey(id)');
const twoShapes = engine('this._storage.getArchivedOrLive(flag, id)');
const runTime = engine('this._storage.getLookedUpKey(id)');
const anInterface = engine('this._storage.getOrderMatchesSet(id)', "import { OrderbookV1 as OB } from './orderbook';\ninterface Storage { getOrderMatchesSet(id: string): string }", 'Storage');

describe('keyShapeOf, methods of an instance declared with a namespace-qualified class', () => {
  it('spells the method through a namespace re-export and a namespace import; a near miss stays *', () => {
    const code = [
      "import { OrderbookV1 as OB, Registry } from './orderbook';",
      "import * as V1 from './orderbook/v1';",
      'class A { constructor(private s: OB.OrderbookStorage) {} run(id: string) { probe(this.s.getOrderMatchesSet(id)); probe(this.s.getArchivedOrLive(f, id)); probe(this.s.getLookedUpKey(id)); } }',
      'class B { constructor(private s: V1.OrderbookStorage) {} run(id: string) { probe(this.s.getFullMatchKey(id)); } }',
      // a name that is no namespace (a class), a namespace that does not export the class
      'class C { constructor(private s: Registry.OrderbookStorage, private t: OB.Missing) {} run(id: string) { probe(this.s.getFullMatchKey(id)); probe(this.t.getFullMatchKey(id)); } }',
    ].join('\n');
    expect(keyShapes(code, app)).toEqual([
      'orderbook:v1:chain:*:order-matches:* many',
      '* many',
      '* many',
      'orderbook:v1:chain:*:order-matches:*:full many',
      '* many',
      '* many',
    ]);
  });
});

runRule(untypedTester, 'set-requires-ttl-or-keepttl (declared persistent keys built by a method of a namespace-qualified class)', setRule, {
  valid: [
    { code: reExported, filename: app, settings: persistent('orderbook:*') },
    { code: namespaceImport, filename: app, settings: persistent('orderbook:*') },
    { code: throughConst, filename: app, settings: persistent('orderbook:*') },
  ],
  invalid: [
    // the resolved spelling outside the declared patterns
    { code: reExported, filename: app, settings: persistent('scope:*'), errors: [reported(reExported)] },
    { code: outside, filename: app, settings: persistent('orderbook:*'), errors: [reported(outside)] },
    // several shapes, one the pattern does not name; a return that is run-time data
    { code: twoShapes, filename: app, settings: persistent('orderbook:*'), errors: [reported(twoShapes)] },
    { code: runTime, filename: app, settings: persistent('orderbook:*'), errors: [reported(runTime)] },
    // a parameter declared with an interface: no class to read
    { code: anInterface, filename: app, settings: persistent('orderbook:*'), errors: [reported(anInterface)] },
  ],
});

// (B) named arguments of a wrapper taken for a client by its name (lines 1-2 declare it)
const WRAPPED = "const { REDIS_KEY, WHITE_LIST_KEY } = require('./constants/redis');\nconst redis8 = require('./wrappers')(db);\n";
const named = (call: string): string => `${WRAPPED}export async function run(member: string, id: string) {\n  await ${call};\n}`;
const memberOfObject = named('redis8.sadd({ key: REDIS_KEY.CACHE_SERVICE_BOTS, member })');
const destructured = named('redis8.sadd({ member, key: WHITE_LIST_KEY })');
const runTimeKey = named('redis8.sadd({ key: `bots:${id}`, member })');
const reassigned = `${WRAPPED}let KEY = 'service_bots';\nexport async function run(member: string, other: string) {\n  KEY = other;\n  await redis8.sadd({ key: KEY, member });\n}`;
/** The write rules' findings on `code` linted as a file of the fixtures: [rule, messageId, line, column, the line its message names]. */
const lintWriteRulesAt = (code: string) =>
  lintSnippet(code, { 'redis-ttl/incr-needs-expire-on-create': 'error', 'redis-ttl/set-requires-ttl-or-keepttl': 'error' }, app).map((m) => [
    m.ruleId?.replace('redis-ttl/', ''),
    m.messageId,
    m.line,
    m.column,
    /\bline (\d+)/.exec(m.message)?.[1],
  ]);
/** The SADD of {@link named} reported, with its message's key. */
const noExpiry = (code: string, key: string) => ({
  messageId: 'noExpiry' as const,
  ...positionOf(code, 'sadd('),
  data: { command: 'SADD', key, client: " (`redis8` is taken for a Redis client because its name matches clientNames 'redis'.)", hint: '' },
});

describe('normalizeCall, named arguments of a wrapper taken for a client by its name', () => {
  it('spells the key of the `key` property, and leaves an object of key-value pairs to MSET', () => {
    const code = [
      memberOfObject,
      'export async function more(id: string) {',
      "  await redis8.sadd({ key: REDIS_KEY.WELCOME + ':' + id, member: id });",
      '  await redis8.expire({ key: REDIS_KEY.WELCOME + \':\' + id, time: 60 });',
      '  await redis8.mset({ a: 1 });',
      '}',
    ].join('\n');
    const messages = lintWriteRulesAt(code);
    // line 4: one constant key (the default policy's exemption); lines 7-8: the EXPIRE names the
    // same key; line 9: MSET's object is its key-value pairs, `a` the key
    expect(messages).toEqual([
      ['incr-needs-expire-on-create', 'separateRoundTrip', 7, 16, '8'],
      ['set-requires-ttl-or-keepttl', 'msetWithoutTtl', 9, 16, undefined],
    ]);
  });
});

runRule(untypedTester, 'incr-needs-expire-on-create (declared persistent keys passed by name to a wrapper)', incrRule, {
  valid: [
    { code: memberOfObject, filename: app, settings: persistent('service_bots', 'white_list_import') },
    { code: destructured, filename: app, settings: persistent('service_bots', 'white_list_import') },
  ],
  invalid: [
    // outside the declared patterns: the key, spelled, is a constant key the default policy exempts only when allowed
    { code: memberOfObject, filename: app, settings: persistent('white_list_import'), options: [{ allowConstantKeys: false }], errors: [noExpiry(memberOfObject, 'service_bots')] },
    { code: runTimeKey, filename: app, settings: persistent('service_bots', 'bots'), errors: [noExpiry(runTimeKey, 'bots:*')] },
    { code: reassigned, filename: app, settings: persistent('service_bots'), errors: [noExpiry(reassigned, 'KEY')] },
  ],
});
