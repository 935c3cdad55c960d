/**
 * TTLs computed from constants held in members (round 15): the folding every rule that reads a
 * TTL shares (`redis-calls/static.ts` `foldNumber`, `redis-calls/constant.ts`) reads
 *
 * - an instance member given one value at construction (`redis-calls/instance-constants.ts`): a
 *   field initialiser, or one `this.x = value` statement of the constructor (a class's, or a
 *   function's written the pre-class way, read through `var self = this` or in
 *   `C.prototype.m = function`), that nothing else in the file writes;
 * - a property, nested or not, of a `const` object literal of the file or of an imported module
 *   (named, default, namespace and CommonJS imports), `as const` and `Object.freeze` included,
 *   that nothing writes.
 *
 * What stays unknown, and so stays reported when the arithmetic can reach 0 or a fraction: a
 * member also assigned in a method, one from a constructor parameter or an options object, one
 * assigned under a condition, a property the file writes (or `Object.assign` patches), a `let`
 * object, an object that escapes (to another name, a function, `Reflect.set`, its own method or
 * setter using `this`, a nested object taken out; exporting it does not count, as other files'
 * writes are not read anyway). A folded value is judged as a constant is: 0 or a fraction is reported with its value.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import expireNeedsPositiveTtl from '../../rules/expire-needs-positive-ttl.js';
import ttlUnits from '../../rules/ttl-units.js';
import { ioredis, nodeRedis, runRule, typedTester, untypedTester } from './tester.js';

/** A file next to the constant modules of tests/fixtures/constants. */
const app = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'constants', 'app.ts');
const appJs = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'constants', 'app.js');
/** A file of a JavaScript project whose jsconfig.json aliases `#root/*`, below tests/fixtures/tsconfig.json. */
const jsProject = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'constants', 'jsapp', 'utils', 'swr.js');

/** medusa's shape: a constructor function the pre-class way, its member read through `self` in a callback. */
const medusa = (extra = '', value = '10000') =>
  ioredis(
    `var Medusa = exports.Medusa = function (options) {\n  var self = this;\n  this.expireLogger = ${value};\n  this.expireLogs = 1000*60*60*24*5;\n  redis.on('connect', function () {\n    var key = 'Logger:' + options.title;\n    redis.expire(key, Math.floor(self.expireLogger/1000));\n  });\n};\nMedusa.prototype.touch = function (key) {\n  return redis.expire(key, Math.floor(this.expireLogs/1000));\n};\n${extra}`,
  );

/** A class whose constructor body is `ctor`, with `members` and a method sending `call`. */
const store = (members: string, ctor: string, call: string) =>
  nodeRedis(`export class Store {\n${members}\n  constructor(ttlMs: number, options: { ttlMs?: number }) {\n${ctor}\n  }\n  async save(key: string, v: string) {\n    ${call}\n  }\n}`);

/** The `computed` finding on `text` at `line`:`column`, with its clamp suggestion. */
function computed(code: string, text: string, line: number, column: number, filename?: string) {
  const clamp = /^Math\.floor|^Math\.round|^Math\.trunc/.test(text) ? `Math.max(1, ${text})` : `Math.max(1, Math.ceil(${text}))`;
  return {
    code,
    ...(filename ? { filename } : {}),
    errors: [{ messageId: 'computed' as const, line, column, suggestions: [{ messageId: 'clampToOne' as const, output: code.replace(text, clamp) }] }],
  };
}

const valid = [
  // medusa: `self.expireLogger` (10000) and `this.expireLogs` of a prototype method (432000 s)
  medusa(),
  // a class member the constructor assigns once from literals, or a constant of the file
  store('  private ttlMs: number;', '    this.ttlMs = 1500;', 'await client.set(key, v, { EX: Math.floor(this.ttlMs / 1000) });'),
  store('  private ttlMs: number;', '    this.ttlMs = LOCK_MS;', 'await client.expire(key, Math.floor(this.ttlMs / 1000));').replace('export class', 'const LOCK_MS = 2500;\nexport class'),
  // a readonly field initialised with a constant; a private one
  store('  private readonly lockMs = 2500;', '', 'await client.expire(key, Math.floor(this.lockMs / 1000));'),
  store('  #lockMs = 2500;', '', 'await client.expire(key, Math.floor(this.#lockMs / 1000));'),
  // an arrow function in a method shares `this`
  store('  private ttlMs: number;', '    this.ttlMs = 1500;', 'await Promise.resolve().then(() => client.expire(key, Math.floor(this.ttlMs / 1000)));'),
  // nested properties of const objects, `as const`, Object.freeze
  ioredis('const TIME = { cache: { ttl: 90_000 } };\nredis.set(k, v, "EX", Math.floor(TIME.cache.ttl / 1000));'),
  ioredis('const TIME = { cache: { ttlMs: 1500 } } as const;\nredis.expire(k, Math.floor(TIME.cache.ttlMs / 1000));'),
  ioredis('const TTL = Object.freeze({ lockMs: 2500 });\nredis.expire(k, Math.floor(TTL.lockMs / 1000));'),
  ioredis("const TTL = { lockMs: 2500, other: 1 };\nTTL.other = 2;\nredis.expire(k, Math.floor(TTL['lockMs'] / 1000));"),
  // what only reads the object, or lets out another property or the value itself, keeps it folded:
  // the value given to a function, a method called on another property, a method without
  // `this`, a read-only helper, the module's exports
  ioredis('const TTL = { ms: 90_000 };\nlog(TTL.ms);\nredis.expire(k, Math.floor(TTL.ms / 1000));'),
  ioredis('const TTL = { ms: 90_000, list: [1] };\nTTL.list.push(2);\nredis.expire(k, Math.floor(TTL.ms / 1000));'),
  ioredis("const TTL = { ms: 90_000, describe() { return 'ttl'; } };\nredis.expire(k, Math.floor(TTL.ms / 1000));"),
  ioredis('const TTL = { ms: 90_000 };\nfor (const name of Object.keys(TTL)) log(name);\nredis.expire(k, Math.floor(TTL.ms / 1000));'),
  ioredis('const TTL = { ms: 90_000 };\nmodule.exports = { TTL };\nredis.expire(k, Math.floor(TTL.ms / 1000));'),
  ioredis('const TTL = { ms: 90_000 };\nexport default TTL;\nredis.expire(k, Math.floor(TTL.ms / 1000));'),
  ioredis('const TTL = { ms: 90_000 };\nconst { ms } = TTL;\nlog(ms);\nredis.expire(k, Math.floor(TTL.ms / 1000));'),
  // the same member given whole multiples by the field and the constructor only: still whole
  ioredis('class Store {\n  graceMs = 60000;\n  constructor(fast) { if (fast) this.graceMs = 5000; }\n  touch(k) { return redis.expire(k, this.graceMs / 1000); }\n}'),
];

const invalid = [
  // medusa with a setter that writes the member: unknown
  computed(medusa('Medusa.prototype.setExpiry = function (ms) {\n  this.expireLogger = ms;\n};'), 'Math.floor(self.expireLogger/1000)', 9, 23),
  // ... with the member from the options
  computed(medusa('', 'options.expire'), 'Math.floor(self.expireLogger/1000)', 9, 23),
  // a member also assigned in a method
  computed(
    store('  private ttlMs: number;', '    this.ttlMs = 1500;', 'await client.expire(key, Math.floor(this.ttlMs / 1000));').replace('  async save', '  configure(ms: number) {\n    this.ttlMs = ms;\n  }\n  async save'),
    'Math.floor(this.ttlMs / 1000)',
    12,
    30,
  ),
  // from a constructor parameter, an options object, or assigned under a condition
  computed(store('  private ttlMs: number;', '    this.ttlMs = ttlMs;', 'await client.expire(key, Math.floor(this.ttlMs / 1000));'), 'Math.floor(this.ttlMs / 1000)', 9, 30),
  computed(store('  private ttlMs: number;', '    this.ttlMs = options.ttlMs ?? 1500;', 'await client.expire(key, Math.floor(this.ttlMs / 1000));'), 'Math.floor(this.ttlMs / 1000)', 9, 30),
  computed(store('  private ttlMs = 1500;', '    if (options.ttlMs) this.ttlMs = options.ttlMs;', 'await client.expire(key, Math.floor(this.ttlMs / 1000));'), 'Math.floor(this.ttlMs / 1000)', 9, 30),
  // assigned once, in a nested block of the constructor (an `if`, a `try`): not given on every
  // construction, so no constant (instance-constants.ts constructorAssignments, `direct`)
  computed(store('  private ttlMs: number;', '    if (options.ttlMs) this.ttlMs = 1500;', 'await client.expire(key, Math.floor(this.ttlMs / 1000));'), 'Math.floor(this.ttlMs / 1000)', 9, 30),
  computed(store('  private ttlMs: number;', '    try { this.ttlMs = 1500; } catch {}', 'await client.expire(key, Math.floor(this.ttlMs / 1000));'), 'Math.floor(this.ttlMs / 1000)', 9, 30),
  // the constructor also adds to it: neither a constant nor a known set of values
  computed(store('  private ttlMs: number;', '    this.ttlMs = 2000;\n    this.ttlMs += 500;', 'await client.expire(key, Math.floor(this.ttlMs / 1000));'), 'Math.floor(this.ttlMs / 1000)', 10, 30),
  // a property the file writes, a `let` object, an object patched by Object.assign
  computed(ioredis('const TTL = { lockMs: 2500 };\nTTL.lockMs = 500;\nredis.expire(k, Math.floor(TTL.lockMs / 1000));'), 'Math.floor(TTL.lockMs / 1000)', 5, 17),
  computed(ioredis('const TIME = { cache: { ttl: 90_000 } };\nTIME.cache = { ttl: 500 };\nredis.expire(k, Math.floor(TIME.cache.ttl / 1000));'), 'Math.floor(TIME.cache.ttl / 1000)', 5, 17),
  computed(ioredis('let TTL = { lockMs: 2500 };\nredis.expire(k, Math.floor(TTL.lockMs / 1000));'), 'Math.floor(TTL.lockMs / 1000)', 4, 17),
  computed(ioredis('const TTL = { lockMs: 2500 };\nObject.assign(TTL, overrides);\nredis.expire(k, Math.floor(TTL.lockMs / 1000));'), 'Math.floor(TTL.lockMs / 1000)', 5, 17),
  // a member whose every construction gives a whole multiple, written elsewhere in the file too:
  // through an instance, in a subclass's constructor, by Object.assign(this, ...) in the constructor
  computed(
    ioredis('class Store {\n  constructor() { this.graceMs = 60000; }\n  touch(k) { return redis.expire(k, Math.floor(this.graceMs / 1000)); }\n}\nconst store = new Store();\nstore.graceMs = 500;'),
    'Math.floor(this.graceMs / 1000)',
    5,
    37,
  ),
  computed(
    ioredis('class Store {\n  constructor() { this.graceMs = 60000; }\n  touch(k) { return redis.expire(k, Math.floor(this.graceMs / 1000)); }\n}\nclass Short extends Store {\n  constructor() { super(); this.graceMs = 500; }\n}'),
    'Math.floor(this.graceMs / 1000)',
    5,
    37,
  ),
  computed(
    ioredis('class Store {\n  constructor(opts) { this.graceMs = 60000; Object.assign(this, opts); }\n  touch(k) { return redis.expire(k, Math.floor(this.graceMs / 1000)); }\n}'),
    'Math.floor(this.graceMs / 1000)',
    5,
    37,
  ),
  // an object that escapes may be written through what it escapes to: another name, a function
  // it is given to, Reflect.set, its own method or setter through `this`, a nested object taken
  // out, an array's own mutating method
  computed(ioredis('const TTL = { lockMs: 2500 };\nconst alias = TTL;\nalias.lockMs = 500;\nredis.expire(k, Math.floor(TTL.lockMs / 1000));'), 'Math.floor(TTL.lockMs / 1000)', 6, 17),
  computed(ioredis('const TTL = { lockMs: 2500 };\nconfigure(TTL);\nredis.expire(k, Math.floor(TTL.lockMs / 1000));'), 'Math.floor(TTL.lockMs / 1000)', 5, 17),
  computed(ioredis("const TTL = { lockMs: 2500 };\nReflect.set(TTL, 'lockMs', 500);\nredis.expire(k, Math.floor(TTL.lockMs / 1000));"), 'Math.floor(TTL.lockMs / 1000)', 5, 17),
  computed(ioredis('const TTL = { lockMs: 2500, configure(ms) { this.lockMs = ms; } };\nredis.expire(k, Math.floor(TTL.lockMs / 1000));'), 'Math.floor(TTL.lockMs / 1000)', 4, 17),
  computed(ioredis('const TTL = { lockMs: 2500, set seconds(s) { this.lockMs = s * 1000; } };\nTTL.seconds = 60;\nredis.expire(k, Math.floor(TTL.lockMs / 1000));'), 'Math.floor(TTL.lockMs / 1000)', 5, 17),
  computed(ioredis('const TIME = { cache: { ttl: 2500 } };\nconst inner = TIME.cache;\ninner.ttl = 500;\nredis.expire(k, Math.floor(TIME.cache.ttl / 1000));'), 'Math.floor(TIME.cache.ttl / 1000)', 6, 17),
  // a nested object destructured out and written
  computed(ioredis('const TIME = { cache: { ttl: 2500 } };\nconst { cache } = TIME;\ncache.ttl = 500;\nredis.expire(k, Math.floor(TIME.cache.ttl / 1000));'), 'Math.floor(TIME.cache.ttl / 1000)', 6, 17),
  computed(ioredis('const TTLS = [2500, 500];\nTTLS.reverse();\nredis.expire(k, Math.floor(TTLS[0] / 1000));'), 'Math.floor(TTLS[0] / 1000)', 5, 17),
  // a spread after the property may replace it
  computed(ioredis('const TTL = { lockMs: 2500, ...overrides };\nredis.expire(k, Math.floor(TTL.lockMs / 1000));'), 'Math.floor(TTL.lockMs / 1000)', 4, 17),
  // every value the constructor gives counts, nested blocks included: 500 in an `if` is half a second
  computed(ioredis('class Store {\n  graceMs = 60000;\n  constructor(fast) { if (fast) this.graceMs = 500; }\n  touch(k) { return redis.expire(k, this.graceMs / 1000); }\n}'), 'this.graceMs / 1000', 6, 37),
  // a folded value is judged: 0 deletes the key, with its value in the message
  {
    code: store('  private graceMs: number;', '    this.graceMs = 500;', 'await client.expire(key, Math.floor(this.graceMs / 1000));'),
    errors: [{ messageId: 'literalDeletes' as const, line: 9, column: 30, data: { command: 'EXPIRE', value: '`Math.floor(this.graceMs / 1000)` (= 0)', key: 'key' } }],
  },
  {
    code: ioredis('const TIME = { lock: { ms: 2500 } };\nredis.set(k, v, "EX", TIME.lock.ms / 1000);'),
    errors: [{ messageId: 'literalRejected' as const, line: 4, column: 23, data: { command: 'SET ... EX', value: '`TIME.lock.ms / 1000` (= 2.5)', key: 'k' } }],
  },
];

for (const tester of [untypedTester, typedTester]) {
  runRule(tester, 'expire-needs-positive-ttl (constant members)', expireNeedsPositiveTtl, { valid, invalid });
}

runRule(untypedTester, 'expire-needs-positive-ttl (members of imported constants)', expireNeedsPositiveTtl, {
  valid: [
    // curvefi/curve-api: a property of a default-imported const object, 14 days in ms / 1000
    { code: ioredis("import CACHE_SETTINGS from './cache-settings.js';\nredis.set(key, value, 'EX', (CACHE_SETTINGS.maxTimeToLive / 1000));"), filename: app },
    // ... through the project's jsconfig alias, the nearest config although a tsconfig.json is further up
    { code: ioredis("import CACHE_SETTINGS from '#root/constants/CacheSettings.js';\nredis.set(key, value, 'EX', (CACHE_SETTINGS.maxTimeToLive / 1000));"), filename: jsProject },
    // nested properties of a named import (`as const`, Object.freeze)
    { code: ioredis("import { TIME } from './settings';\nredis.expire(k, Math.floor(TIME.cache.ttlMs / 1000));"), filename: app },
    { code: ioredis("import { FROZEN } from './settings';\nredis.expire(k, Math.floor(FROZEN.session.ttlMs / 1000));"), filename: app },
    { code: ioredis("import * as settings from './settings';\nredis.expire(k, settings.TIME.cache.ttlMs / 1000);"), filename: app },
    // CommonJS: `module.exports = SETTINGS`, `module.exports = { TIME: ... }`, destructured
    { code: ioredis("const settings = require('./settings.cjs');\nredis.expire(k, settings.cache.ttlMs / 1000);"), filename: appJs },
    { code: ioredis("const legacy = require('./legacy.cjs');\nredis.expire(k, legacy.TIME.cache.ttlMs / 1000);"), filename: appJs },
    { code: ioredis("const { TIME } = require('./legacy.cjs');\nredis.expire(k, TIME.cache.ttlMs / 1000);"), filename: appJs },
  ],
  invalid: [
    // the property written by the module itself, or by the file that imports it
    computed(ioredis("import { PATCHED } from './settings';\nredis.expire(k, Math.floor(PATCHED.cache.ttlMs / 1000));"), 'Math.floor(PATCHED.cache.ttlMs / 1000)', 4, 17, app),
    computed(
      ioredis("import CACHE_SETTINGS from './cache-settings.js';\nCACHE_SETTINGS.maxTimeToLive = ttl;\nredis.set(key, value, 'EX', (CACHE_SETTINGS.maxTimeToLive / 1000));"),
      'CACHE_SETTINGS.maxTimeToLive / 1000',
      5,
      30,
      app,
    ),
    // the default import's 30 s stale time in ms given to EXPIRE as seconds... is a whole number; a
    // fraction of it is judged
    {
      code: ioredis("import CACHE_SETTINGS from './cache-settings.js';\nredis.expire(k, CACHE_SETTINGS.minTimeToStale / 7000);"),
      filename: app,
      errors: [{ messageId: 'literalRejected' as const, line: 4, column: 17, data: { command: 'EXPIRE', value: '`CACHE_SETTINGS.minTimeToStale / 7000` (= 4.285714285714286)', key: 'k' } }],
    },
  ],
});

// ttl-units reads a folded member's unit from how it is computed, as it reads a `const`'s
runRule(untypedTester, 'ttl-units (constant members)', ttlUnits, {
  valid: [
    ioredis('class Logger {\n  constructor() {\n    this.expireLogs = 1000*60*60*24*5;\n  }\n  touch(key) {\n    return redis.pexpire(key, this.expireLogs);\n  }\n}'),
    ioredis('const TIME = { cache: { window: 15 * 60 } };\nredis.expire(k, TIME.cache.window);'),
  ],
  invalid: [
    {
      code: ioredis('const TIME = { cache: { window: Date.now() + 60_000 } };\nredis.pexpire(k, TIME.cache.window);'),
      errors: [
        {
          messageId: 'absoluteAsDuration',
          line: 4,
          column: 18,
          suggestions: [{ messageId: 'useInstead', output: ioredis('const TIME = { cache: { window: Date.now() + 60_000 } };\nredis.pexpireat(k, TIME.cache.window);') }],
        },
      ],
    },
  ],
});
