/**
 * Declared `persistentKeys` patterns matched against keys the code builds out of the linted file
 * (issue 25, round 28: twenty-sixth validation set). A key whose spelling the analysis resolves
 * statically is matched by that spelling, its run-time parts matching `*`: (A) a method of a class
 * of the repository reached through a constructor parameter declared with the class's
 * namespace-qualified name (`_storage: OB.OrderbookStorage` of `import { OrderbookV1 as OB }`,
 * re-exported `export * as OrderbookV1 from './v1'`, or of `import * as OB`), whose every return
 * is text. Near misses stay reported: a method whose return is run-time data or has several
 * shapes one of which the pattern does not name, a pattern that does not match the spelling, and
 * a parameter declared with an interface.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import setRule from '../../rules/set-requires-ttl-or-keepttl.js';
import { keyShapes } from '../helpers/key-shapes.js';
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
