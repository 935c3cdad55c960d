/**
 * Key shapes (redis-calls/key-shape.ts): each `probe(<key>)` call of a snippet reports the
 * shape of its argument and whether it is one key (bounded).
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { keyShapes } from '../helpers/key-shapes.js';

/** A file beside the key-prefix modules of tests/fixtures/key-prefixes (constants.ts, app-name.ts, keys.cjs). */
const prefixApp = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'key-prefixes', 'app.ts');

describe('keyShapeOf', () => {
  it('reads literals, templates and concatenations', () => {
    expect(keyShapes("probe('jobs:last-run'); probe(`bull:${q}:wait`); probe('user:' + id + ':profile'); probe(42);")).toEqual([
      'jobs:last-run one',
      'bull:*:wait many',
      'user:*:profile many',
      '42 one',
    ]);
  });

  it('reads consts, and let / var assigned once, of the module', () => {
    expect(keyShapes("const P = 'rl'; var S = ':h'; let x = 1; x = 2;\nprobe(`${P}:${ip}${S}`); probe(`${P}:${x}`);")).toEqual(['rl:*:h many', 'rl:* many']);
  });

  it('evaluates key builders of the module with their arguments', () => {
    const code = [
      'const jobKey = (id: string) => `job:${id}`;',
      "function queueKey(name: string, kind = 'wait') { return `bull:${name}:${kind}`; }",
      "const KEYS = { stats: 'q:stats', meta: `q:${'meta'}` };",
      'class Q { toKey(t: string) { return `bull:${this.name}:${t}`; } run() { probe(this.toKey("active")); } }',
      "probe(jobKey(id)); probe(jobKey('7')); probe(queueKey(n)); probe(KEYS.stats); probe([p, 'x', 1].join(':'));",
    ].join('\n');
    expect(keyShapes(code)).toEqual(['bull:*:active many', 'job:* many', 'job:7 one', 'bull:*:wait many', 'q:stats one', '*:x:1 many']);
  });

  it('keeps the literal arguments of a builder it cannot read; with literal arguments only it is one key', () => {
    expect(keyShapes("probe(this.connection.key('stat', 'failed')); probe(this.connection.key('stat', name)); probe(uuid()); probe(id.toString(16));")).toEqual([
      '*stat*failed* one',
      '*stat* many',
      '* many',
      '*16* many',
    ]);
  });

  it('gives a conditional key the spelling its arms share, leaving out an arm that is no key', () => {
    expect(keyShapes("probe(c ? `q:${a}:wait` : `q:${a}:active`); probe(c ? `u:${id}` : null); probe(a ?? `x:${b}`); probe(c ? 'a' : 'b');")).toEqual([
      'q:*:* many',
      'u:* many',
      '* many',
      '* one',
    ]);
  });

  it('reads a parameter through the calls of a function only this module calls', () => {
    const code = [
      'function bump(key: string, n: number) { probe(key); }',
      'const touch = (key: string) => probe(key);',
      'export function shared(key: string) { probe(key); }',
      'function passed(key: string) { probe(key); }',
      'function uncalled(key: string) { probe(key); }',
      "bump(`usage:${a}`, 1); bump(c ? `usage:${b}:x` : null, 2); touch('t:1'); touch('t:2'); shared('s:1'); [k].forEach(passed); passed('p:1');",
    ].join('\n');
    expect(keyShapes(code)).toEqual(['usage:* many', 't:* one', '* many', '* many', '* many']);
  });

  it('gives the element of an iteration the spelling the elements share', () => {
    const code = [
      'function keyOf(kind: string, id: string) { return `usage:${kind}:${id}`; }',
      'async function save(a: string, b?: string) {',
      "  const keys = [keyOf('account', a), ...(b ? [keyOf('user', b)] : [])];",
      '  keys.forEach((key) => probe(key));',
      '  await Promise.all(keys.map(async (k) => probe(k)));',
      '  keys.filter(Boolean).flatMap((key) => [probe(key)]);',
      '  keys.reduce((acc, key) => probe(key), 0);',
      '  for (const key of keys) probe(key);',
      '  for (const key of new Set(keys.map((k) => `${k}:day`))) probe(key);',
      '  keys.forEach((key, i) => probe(i));',
      '}',
    ].join('\n');
    expect(keyShapes(code)).toEqual(['usage:*:* many', 'usage:*:* many', 'usage:*:* many', 'usage:*:* many', 'usage:*:* many', 'usage:*:*:day many', '* many']);
  });

  it('reads a key through an iteration and a function only this module calls', () => {
    const code = [
      'const STREAMS = [`events:${region}:in`, `events:${region}:out`] as const;',
      'function bump(key: string) { probe(key); }',
      'function touch(key: string, n: number) { probe(key); }',
      'function each(keys: string[]) { for (const key of keys) probe(key); }',
      'STREAMS.forEach(bump);',
      'STREAMS.flatMap((stream) => touch(stream, 1));',
      "each(['jobs:a', 'jobs:b']); each([]);",
      "['jobs:a', 'jobs:b'].forEach((k) => probe(k));",
    ].join('\n');
    expect(keyShapes(code)).toEqual(['events:*:* many', 'events:*:* many', 'jobs:* one', 'jobs:* one']);
  });

  it('does not read an array filled in place, or an element it cannot name', () => {
    const code = [
      "const keys = ['a:1']; keys.push(other);",
      'keys.forEach((key) => probe(key));',
      'const fixed = [`q:${a}`];',
      'for (let key of fixed) { key = next(key); probe(key); }',
      'for (const [key] of fixed.entries()) probe(key);',
      'rows.forEach((row) => probe(row));',
      'fixed.forEach((key) => probe(key));',
    ].join('\n');
    expect(keyShapes(code)).toEqual(['* many', '* many', '* many', '* many', 'q:* many']);
  });

  it('takes an imported binding for one fixed value', () => {
    expect(keyShapes("import { BASE } from './keys';\nprobe(`${BASE}:tmp`); probe(`${BASE}:${id}`); probe(BASE);")).toEqual(['*:tmp one', '*:* many', '* one']);
  });
});

// A key's prefix held in a class member, a constructor option with a default, a static member, a
// module const or an imported const: spelled when its value is fixed and visible (a default is
// what a maintainer's persistentKeys pattern names), `*` where it is not.
describe('keyShapeOf, key prefixes fixed in the code', () => {
  it('reads a class field initializer and a static member', () => {
    expect(keyShapes("class S { prefix = 'field'; a(id: string) { probe(`${this.prefix}:run:${id}`); } }")).toEqual(['field:run:* many']);
    expect(keyShapes("class S { static readonly PREFIX = 'st'; a(id: string) { probe(`${S.PREFIX}:run:${id}`); probe(S.PREFIX + ':x'); } }")).toEqual([
      'st:run:* many',
      'st:x one',
    ]);
    // as compilers emit a static field: an assignment of the module's top level, class expression of a `var`
    expect(keyShapes("var S = class { a(id) { probe(`${S.PREFIX}:run:${id}`); } };\nS.PREFIX = 'emitted';")).toEqual(['emitted:run:* many']);
  });

  it("spells a constructor option by its default: parameter, `??`, `||`, destructuring, parameter property", () => {
    const code = [
      "class A { private p: string; constructor(c: unknown, keyPrefix = 'workflows') { this.p = keyPrefix; } k(id: string) { return `${this.p}:run:${id}`; } a(id: string) { probe(this.k(id)); } }",
      "class B { private p: string; constructor(c: unknown, config: { keyPrefix?: string } = {}) { this.p = config.keyPrefix ?? 'pikku'; } a(k: string) { probe(`${this.p}:secret:${k}`); } }",
      "class C { constructor(options) { this.queueKey = options.queueKey || 'fedify_queue'; } a() { probe(this.queueKey); } }",
      "class D { constructor({ prefix = 'bull', client } = {}) { this.prefix = prefix; this.client = client; } a(id) { probe(`${this.prefix}:${id}:wait`); } }",
      "class E { constructor(opts) { const { prefix = 'sess' } = opts; this.prefix = prefix; } a(id) { probe(`${this.prefix}:${id}`); } }",
      "class F { constructor(r: unknown, private keyPrefix = 'ai') {} a(id: string) { probe(`${this.keyPrefix}:thread:${id}`); } }",
    ].join('\n');
    expect(keyShapes(code)).toEqual(['workflows:run:* many', 'pikku:secret:* many', 'fedify_queue one', 'bull:*:wait many', 'sess:* many', 'ai:thread:* many']);
  });

  it('keeps an option without default, or its default beside data, a `*` part', () => {
    const code = [
      'class A { constructor(opts) { this.prefix = opts.prefix; } a(id) { probe(`${this.prefix}:run:${id}`); probe(`${this.prefix}:meta`); } }',
      "class B { constructor({ prefix }) { this.prefix = prefix; } a(id) { probe(`${this.prefix}:run:${id}`); } }",
      // an empty default spells nothing
      "class C { constructor(prefix = '') { this.prefix = prefix; } a(id) { probe(`${this.prefix}run:${id}`); } }",
      // the default of data is no configuration
      "function handle(req) { probe(`${req.body.prefix ?? 'x'}:${req.body.id}`); }",
    ].join('\n');
    expect(keyShapes(code)).toEqual(['*:run:* many', '*:meta one', '*:run:* many', '*run:* many', '*:* many']);
  });

  it('does not read a member reassigned outside the constructor, or a static member written in a function', () => {
    const code = [
      "class A { constructor(prefix = 'workflows') { this.prefix = prefix; } use(p) { this.prefix = p; } a(id) { probe(`${this.prefix}:run:${id}`); } }",
      "class B { static PREFIX = 'st'; a(id) { probe(`${B.PREFIX}:run:${id}`); } }\nfunction configure(p) { B.PREFIX = p; }",
    ].join('\n');
    expect(keyShapes(code)).toEqual(['*:run:* many', '*:run:* many']);
  });

  it('reads an option of an object of defaults merged with the options', () => {
    const code = [
      "class A { constructor(opts) { this.opts = Object.assign({ prefix: 'bull' }, opts); } a(q) { probe(`${this.opts.prefix}:${q}:wait`); } }",
      "class B { constructor(opts) { this.opts = { prefix: 'rl', ...opts }; } a(ip) { probe(`${this.opts.prefix}:${ip}`); } }",
      // written after the options: always that value
      "class C { constructor(opts) { this.opts = { ...opts, prefix: 'fixed' }; } a(ip) { probe(`${this.opts.prefix}:${ip}`); } }",
      // a property the defaults do not name, an empty default: `*`
      "class D { constructor(opts) { this.opts = { prefix: '', ...opts }; } a(ip) { probe(`${this.opts.prefix}:${ip}`); probe(`${this.opts.other}:${ip}`); } }",
    ].join('\n');
    expect(keyShapes(code)).toEqual(['bull:*:wait many', 'rl:* many', 'fixed:* many', '*:* many', '*:* many']);
  });

  it('reads a setting of the environment by its default', () => {
    expect(keyShapes("const PREFIX = process.env.KEY_PREFIX ?? 'app';\nprobe(`${PREFIX}:jobs:${id}`); probe(`${process.env['P'] || 'q'}:${id}`); probe(`${process.env.P}:x`);")).toEqual([
      'app:jobs:* many',
      'q:* many',
      '*:x one',
    ]);
    // a `process` of the module is not the process
    expect(keyShapes("const process = { env: {} as Record<string, string> };\nprobe(`${process.env.P ?? 'app'}:${id}`);")).toEqual(['*:* many']);
  });

  it('reads a key-builder object of any scope: arrows, function expressions and method shorthand of one returned expression', () => {
    const code = [
      'export async function createStorage(options) {',
      "  const prefix = options.keyPrefix ?? 'workflow';",
      '  const keys = {',
      '    run: (runId: string) => `${prefix}:runs:${runId}`,',
      '    runsIdxAll: () => `${prefix}:runs:idx:all`,',
      '    step(id: string) { return `${prefix}:steps:${id}`; },',
      '    event: function (id: string) { return `${prefix}:events:${id}`; },',
      '  };',
      '  return { async create(id: string) { probe(keys.run(id)); probe(keys.runsIdxAll()); probe(keys.step(id)); probe(keys.event(id)); } };',
      '}',
      "function local(id: string) { const K = { ...BASE, lock: (name: string) => `lock:${name}` }; probe(K.lock(id)); probe(K.lock('gc')); }",
    ].join('\n');
    expect(keyShapes(code)).toEqual(['workflow:runs:* many', 'workflow:runs:idx:all one', 'workflow:steps:* many', 'workflow:events:* many', 'lock:* many', 'lock:gc one']);
  });

  it('reads `this` of a key-builder object method as the object', () => {
    const code = [
      "const keys = { prefix: 'wf', run(id: string) { return `${this.prefix}:runs:${id}`; }, step: function (id: string) { return [this.prefix, 'steps', id].join(':'); } };",
      'probe(keys.run(id)); probe(keys.step(id));',
      // an arrow keeps the `this` around the object; a member written to is not fixed (the
      // builder, never written, is still the literal's)
      "const other = { prefix: 'o', run: (id: string) => `${this.prefix}:runs:${id}` };\nprobe(other.run(id));",
      "function f(id: string, p: string) { const mutable = { prefix: 'm', run(r: string) { return `${this.prefix}:runs:${r}`; } }; mutable.prefix = p; probe(mutable.run(id)); }",
    ].join('\n');
    expect(keyShapes(code)).toEqual(['wf:runs:* many', 'wf:steps:* many', '*:runs:* many', '*:runs:* many']);
  });

  it('does not read a key-builder object whose member is overwritten or merged into, nor a builder whose returns disagree or are no text', () => {
    const code = [
      'function a(id: string) { const keys = { run: (r: string) => `p:runs:${r}` }; keys.run = (r: string) => r; probe(keys.run(id)); }',
      'function b(id: string) { const keys = { run: (r: string) => `p:runs:${r}` }; Object.assign(keys, overrides); probe(keys.run(id)); }',
      'function c(id: string) { const keys = { run: (r: string) => `p:runs:${r}`, ...overrides }; probe(keys.run(id)); }',
      'function d(id: string) { const keys = { run: (r: string) => { if (r) return `p:runs:${r}`; return `q:${r}`; } }; probe(keys.run(id)); }',
      // a longer body whose every return writes text is read (round 9); one returning a local is not
      'function e(id: string) { const keys = { run: (r: string) => { log(r); return `p:runs:${r}`; } }; probe(keys.run(id)); }',
      'function f(id: string) { const keys = { run: (r: string) => { const k = `p:runs:${r}`; return k; } }; probe(keys.run(id)); }',
    ].join('\n');
    expect(keyShapes(code)).toEqual(['* many', '* many', '* many', '* many', 'p:runs:* many', '* many']);
  });

  it('reads `this` of a static context as the class: static fields, arrows, methods and getters', () => {
    const code = [
      'export class TransactionDB {',
      '  private static detailsKey = (queueId: string) => `transaction:${queueId}`;',
      "  private static queuedKey = 'transaction:queued';",
      '  static key(id: string) { return `tx:${id}`; }',
      "  static get minedKey() { return 'transaction:mined'; }",
      '  static set = async (t: { id: string }) => { probe(this.detailsKey(t.id)); probe(this.queuedKey); probe(this.minedKey); };',
      '  static get(id: string) { probe(TransactionDB.detailsKey(id)); probe(TransactionDB.queuedKey); probe(this.key(id)); probe(TransactionDB.minedKey); }',
      '  static { probe(this.queuedKey); }',
      '}',
    ].join('\n');
    expect(keyShapes(code)).toEqual([
      'transaction:* many',
      'transaction:queued one',
      'transaction:mined one',
      'transaction:* many',
      'transaction:queued one',
      'tx:* many',
      'transaction:mined one',
      'transaction:queued one',
    ]);
  });

  it('does not read a static member written outside its initializer, a static builder returning no text, nor `this` of an instance or a nested function', () => {
    const code = [
      "class A { static KEY = 'a:queued'; static use(p: string) { this.KEY = p; } static w(id: string) { probe(this.KEY); probe(`${A.KEY}:${id}`); } }",
      // a static builder that checks its input, then returns text, is read (round 9); one returning a hash is not
      'class B { static key(id: string) { check(id); return `b:${id}`; } static h(id: string) { check(id); return digest(id); } static w(id: string) { probe(this.key(id)); probe(B.key(id)); probe(B.h(id)); } }',
      "class C { static KEY = 'c:queued'; static k = (id: string) => `c:${id}`; w(id: string) { probe(this.KEY); probe(this.k(id)); } static v() { return function (this: unknown) { probe(this.KEY); }; } }",
      "class D { static KEY = 'd:queued'; static get KEY2() { return 'd:x'; } static w() { probe(this.KEY); } }\nfunction configure(p: string) { D.KEY = p; }",
    ].join('\n');
    expect(keyShapes(code)).toEqual(['* many', '*:* many', 'b:* many', 'b:* many', '* many', '* many', '* many', '* many', '* many']);
  });

  it('reads a factory option by its default', () => {
    expect(keyShapes("export function createStore({ prefix = 'sess:' } = {}) { return { set(id: string) { probe(prefix + id); } }; }")).toEqual(['sess:* many']);
    expect(keyShapes('export function createStore({ prefix }) { return { set(id: string) { probe(prefix + id); } }; }')).toEqual(['* many']);
  });

  it('reads module consts: templates and concatenations of them', () => {
    expect(keyShapes("const P = 'rl'; const Q = `${P}:q`; const R = P + ':r:';\nprobe(`${Q}:${id}`); probe(R + id); probe(Q);")).toEqual(['rl:q:* many', 'rl:r:* many', 'rl:q one']);
  });

  it('reads the consts a relative module exports, through its own imports', () => {
    const code = [
      "import { WRITE_KEYS_ZSET_PREFIX, RUN_PREFIX, SESSION_PREFIX, QUEUE_KEY, KEYS } from './constants';",
      'probe(`${WRITE_KEYS_ZSET_PREFIX}:${t}:${id}`); probe(`${RUN_PREFIX}:${id}`); probe(SESSION_PREFIX + id); probe(QUEUE_KEY); probe(KEYS.failed);',
    ].join('\n');
    expect(keyShapes(code, prefixApp)).toEqual(['write_keys_zset:*:* many', 'myapp:run:* many', 'myapp:sess:* many', 'jobs:queue one', 'myapp:failed one']);
    // a namespace import, CommonJS (destructured and whole)
    expect(keyShapes("import * as C from './constants';\nprobe(`${C.RUN_PREFIX}:${id}`);", prefixApp)).toEqual(['myapp:run:* many']);
    expect(keyShapes("const { LOCK_PREFIX } = require('./keys.cjs'); const K = require('./keys.cjs');\nprobe(LOCK_PREFIX + id); probe(`${K.CACHE_PREFIX}${id}`);", prefixApp)).toEqual([
      'lock:* many',
      'cache:* many',
    ]);
  });

  it('keeps an import it cannot read a fixed `*`: a package, a missing module, a `let` or a value of the environment', () => {
    const code = [
      "import { X } from 'some-package'; import { Y } from './missing'; import { mutablePrefix, fromEnv } from './constants';",
      'probe(`${X}:a`); probe(`${Y}:b`); probe(`${mutablePrefix}:c`); probe(`${fromEnv}:d`);',
    ].join('\n');
    expect(keyShapes(code, prefixApp)).toEqual(['*:a one', '*:b one', '*:c one', '*:d one']);
  });
});
