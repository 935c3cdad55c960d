/**
 * Keys whose text a key-builder makes (issue 25, round 9). (A) A key returned by a builder: a
 * function imported from another module (through an alias, `export const buildAuditStreamKey:
 * Builder = auditStreamKey`, or a one-line wrapper), whose body may check its input before it
 * returns text on every path, or a method of a key-builder class instance (`this.keys =
 * new KeyBuilder(prefix)`, or a constructor parameter declared `keys: KeyBuilder`; the class
 * imported, the method own or inherited); ES5 output's
 * `"".concat(...)` is a template. (B) A namespace prefix read from configuration with a literal
 * default (`settings.namespace || 'cfg'`, the options member defaulted to `{}`) is spelled by its
 * default. (C) A key written through an assignment expression (`set((key = 'user_' + id), v)`)
 * is the value assigned. Near misses stay reported: a builder whose return depends on a run-time
 * branch, a built key that does not match the pattern, a builder returning no text (a hash), a
 * configured prefix with no literal default.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import setRule from '../../rules/set-requires-ttl-or-keepttl.js';
import { describe, expect, it } from 'vitest';
import { keyShapes } from '../helpers/key-shapes.js';
import { ioredis, runRule, untypedTester, persistentSettings as persistent, setWithoutTtlAt as at } from './tester.js';

const fixtures = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'key-builders');
const app = join(fixtures, 'app.ts');

// (A) builders imported from a key catalogue
const IMPORTS = "import { buildAuditStreamKey, buildEventsStreamKey, buildPermissionsKey } from './namespace';\nimport { tenantKey, pickKey, hashedKey, checkedKey } from './keys';\n";
const aliased = ioredis(`${IMPORTS}export const save = (a: string, p: string, v: string) => redis.set(buildAuditStreamKey(a, p), v);`);
const nested = ioredis(`${IMPORTS}export const save = (a: string, p: string, v: string) => redis.set(buildEventsStreamKey(a, p), v);`);
const wrapped = ioredis(`${IMPORTS}export const save = (a: string, v: string) => redis.set(buildPermissionsKey(a), v);`);
const checked = ioredis(`${IMPORTS}export const save = (a: string, v: string) => redis.set(tenantKey(a, 'profile'), v);`);
// (A) a method of a key-builder instance
const INSTANCE = "import { KeyBuilder } from './KeyBuilder';\nclass Definitions {\n  private readonly keys: KeyBuilder;\n  constructor(prefix: string) { this.keys = new KeyBuilder(prefix); }\n";
const method = ioredis(`${INSTANCE}  add(name: string, v: string) { return redis.set(this.keys.buildSplitKey(name), v); }\n}\nexport { Definitions };`);
const injected = ioredis("import type { KeyBuilder } from './KeyBuilder';\nexport class Definitions {\n  constructor(private readonly keys: KeyBuilder) {}\n  add(name: string, v: string) { return redis.set(this.keys.buildSplitKey(name), v); }\n}");
const inherited = ioredis("import ServerKeyBuilder from './KeyBuilder';\nconst keys = new ServerKeyBuilder('app');\nexport const add = (segment: string, v: string) => redis.set(keys.buildSegmentKey(segment), v);");
// (B) a namespace from configuration with a literal default
const STORE = [
  'interface Settings { namespace?: string; connection?: { namespace?: string } }',
  'export class Store {',
  '  private settings: Settings;',
  '  private readonly namespace: string;',
  '  private readonly bare: string;',
  '  constructor(settings: Settings) {',
  '    this.settings = settings || ({} as Settings);',
  "    this.namespace = `${this.settings.namespace || this.settings.connection?.namespace || 'cfg'}.`;",
  '    this.bare = `${this.settings.namespace}.`;',
  '  }',
].join('\n');
const configured = ioredis(`${STORE}\n  save(id: string, v: string) { return redis.set(this.namespace + id, v); }\n}`);
// (C) a key written through an assignment
const assigned = ioredis("export async function save(login: string, v: string) {\n  let key;\n  await redis.set((key = 'user_' + login), v);\n  return key;\n}");

// near misses
const branch = ioredis(`${IMPORTS}export const save = (archived: boolean, id: string, v: string) => redis.set(pickKey(archived, id), v);`);
const hashed = ioredis(`${IMPORTS}export const save = (id: string, v: string) => redis.set(hashedKey(id), v);`);
const noDefault = ioredis(`${STORE}\n  save(id: string, v: string) { return redis.set(this.bare + id, v); }\n}`);

describe('keyShapeOf, keys a key-builder makes', () => {
  it('spells builders imported through aliases and wrappers, with checks before their return, and ES5 concat', () => {
    const code = [
      IMPORTS + "import { legacyKey } from './keys';",
      "probe(buildAuditStreamKey(a, p)); probe(buildEventsStreamKey(a, p)); probe(buildPermissionsKey(a)); probe(tenantKey(a, 'profile')); probe(legacyKey(a, 'x'));",
      // near misses: a return chosen at run time, a hash, a template of locals computed by calls
      'probe(pickKey(flag, id)); probe(hashedKey(id)); probe(checkedKey(\'app\', id));',
    ].join('\n');
    expect(keyShapes(code, app)).toEqual([
      'audit:*:*:stream many',
      'events:*:*:stream many',
      'tenant:*:permissions many',
      'tenant:*:profile many',
      'tenant:*:x many',
      '* many',
      '* many',
      // an unread call: the opaque shape of its literal arguments, as before builders were read
      '*app* many',
    ]);
  });

  it('spells methods of key-builder instances, own and inherited', () => {
    const code = [
      "import ServerKeyBuilder, { KeyBuilder } from './KeyBuilder';",
      "const keys = new ServerKeyBuilder(prefix);",
      'class Cache { private readonly keys: KeyBuilder; constructor(prefix: string) { this.keys = new KeyBuilder(prefix); }',
      "  run(name: string) { probe(this.keys.buildSplitKey(name)); probe(this.keys.buildSplitsTillKey()); probe(keys.buildSegmentKey(name)); probe(keys.buildSplitKey('a')); } }",
    ].join('\n');
    expect(keyShapes(code, app)).toEqual(['SPLITIO.split.* many', 'SPLITIO.splits.till one', '*.segment.* many', 'SPLITIO.split.a one']);
  });

  it('spells methods of an instance the constructor receives, by the class its parameter is declared with', () => {
    const code = [
      "import type { KeyBuilder } from './KeyBuilder';\nimport ServerKeyBuilder from './KeyBuilder';",
      'interface Keys { buildSplitKey(n: string): string }',
      'class A { constructor(private readonly keys: KeyBuilder) {} run(name: string) { probe(this.keys.buildSplitKey(name)); } }',
      'class B { private readonly keys: ServerKeyBuilder; constructor(keys: ServerKeyBuilder) { this.keys = keys; } run(name: string) { probe(this.keys.buildSegmentKey(name)); } }',
      // near misses: an interface, an untyped parameter
      'class C { constructor(private readonly keys: Keys) {} run(name: string) { probe(this.keys.buildSplitKey(name)); } }',
      'class D { constructor(keys) { this.keys = keys; } run(name) { probe(this.keys.buildSplitKey(name)); } }',
    ].join('\n');
    expect(keyShapes(code, app)).toEqual(['SPLITIO.split.* many', '*.segment.* many', '* many', '* many']);
  });

  it('spells a configured namespace by its literal default, members built from members, and assigned keys', () => {
    const code = [
      STORE,
      "  private readonly files = `${this.namespace}f.`;",
      '  fileId(id: string, name: string, meta: boolean): string {',
      "    name = name.replace(/x/, '');",
      "    try { id = check(id); } catch { return ''; }",
      "    return `${this.files + id}$%$${name}${meta ? '$%$meta' : '$%$data'}`;",
      '  }',
      "  run(id: string) { probe(this.namespace + id); probe(this.fileId(id, 'a.png', true)); probe(this.bare + id); }",
      '}',
      "let key; probe(key = 'user_' + id); const k = (key = `x_${id}`); probe(k); probe(key += id);",
    ].join('\n');
    expect(keyShapes(code)).toEqual(['cfg.* many', 'cfg.f.*$%$*$%$*ta many', '*.* many', 'user_* many', 'x_* many', '* many']);
  });
});

runRule(untypedTester, 'set-requires-ttl-or-keepttl (keys a key-builder makes)', setRule, {
  valid: [
    { code: aliased, filename: app, settings: persistent('audit:*') },
    { code: nested, filename: app, settings: persistent('events:*') },
    { code: wrapped, filename: app, settings: persistent('tenant:*') },
    { code: checked, filename: app, settings: persistent('tenant:*') },
    { code: method, filename: app, settings: persistent('*.split*') },
    { code: inherited, filename: app, settings: persistent('*.segment*') },
    { code: injected, filename: app, settings: persistent('*.split*') },
    { code: configured, settings: persistent('cfg.*') },
    { code: assigned, settings: persistent('user_*') },
  ],
  invalid: [
    // the built text does not match the pattern
    { code: aliased, filename: app, settings: persistent('events:*'), errors: [at(aliased, 5, 64)] },
    { code: method, filename: app, settings: persistent('*.segment*'), errors: [at(method, 7, 47)] },
    // a builder whose return depends on a run-time branch, one that returns a hash
    { code: branch, filename: app, settings: persistent('archive:*', 'cache:*'), errors: [at(branch, 5, 73)] },
    { code: hashed, filename: app, settings: persistent('tenant:*'), errors: [at(hashed, 5, 54)] },
    // a configured prefix with no literal default
    { code: noDefault, settings: persistent('cfg.*'), errors: [at(noDefault, 13, 46)] },
  ],
});
