/**
 * Declared `persistentKeys` patterns matched against keys built by a key-builder instance a class
 * is handed in its constructor (issue 25, round 35: "declared persistent key built by a key-builder
 * helper", aqua-019/LUXXPOOLtest's `this.keys.totalShares()`). A member the constructor stores a
 * parameter of its own whole into (`this.keys = redisKeys`, JavaScript: no declared type) is an
 * instance of class C when every `new` of the class the code can see passes `new C(...)` there,
 * written at the site or held in a `const` (`const redisKeys = new RedisKeys(prefix)`), C declared
 * there or imported; C's methods are then read as key builders with C's members (`this.prefix` of
 * `constructor(prefix = 'lux:')`, its default). A class made in the constructor (`this.keys = new
 * LegacyKeys()`) may also be `require`d from a CommonJS module whose `module.exports` is the class.
 * Near misses stay reported: a key of the same builder the patterns do not name (the per-round
 * hash), a member a method reassigns, a class one of whose `new`s passes a value the reading
 * cannot name, and one whose `new`s pass instances of two classes.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import incrRule from '../../rules/incr-needs-expire-on-create.js';
import setRule from '../../rules/set-requires-ttl-or-keepttl.js';
import { persistentSettings as persistent, positionOf, runRule, setWithoutTtlAt, untypedTester } from './tester.js';

const fixtures = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'passed-key-builders', 'src');
const shareProcessor = join(fixtures, 'pool', 'shareProcessor.js');
const paymentProcessor = join(fixtures, 'payment', 'paymentProcessor.js');
const mixedProcessor = join(fixtures, 'payment', 'mixedProcessor.js');
const legacyProcessor = join(fixtures, 'pool', 'legacyProcessor.cjs');

/** A processor class of `name` storing its `redisKeys` parameter in `this.keys`, whose `record` writes with `write`. */
const processor = (name: string, write: string, extra = ''): string =>
  [
    "import Redis from 'ioredis';",
    'const redis = new Redis();',
    `export class ${name} {`,
    '  constructor(client, redisKeys) {',
    '    this.client = client;',
    '    this.keys = redisKeys;',
    '  }',
    '  record(address, difficulty) {',
    `    return ${write};`,
    '  }',
    extra,
    '}',
  ].join('\n');

/** A CommonJS class making its key builder in the constructor from a `require`d class. */
const legacy = (required: string): string =>
  [
    "const Redis = require('ioredis');",
    `const LegacyKeys = require('${required}');`,
    'const redis = new Redis();',
    'class LegacyProcessor {',
    '  constructor() {',
    '    this.keys = new LegacyKeys();',
    '  }',
    '  record(address) {',
    "    return redis.hincrby(this.keys.workerShares(address), 'total', 1);",
    '  }',
    '}',
    'module.exports = LegacyProcessor;',
  ].join('\n');

const PATTERNS = ['lux:stats:*', 'lux:worker:*'];
const total = processor('ShareProcessor', 'redis.incr(this.keys.totalShares())');
const worker = processor('ShareProcessor', "redis.hincrby(this.keys.workerShares(address), 'total', difficulty)");
const lastShare = processor('ShareProcessor', 'redis.set(this.keys.workerShares(address), v)');
// near misses
const round = processor('ShareProcessor', 'redis.hincrby(this.keys.roundShares(height), address, difficulty)');
const reassigned = processor('ShareProcessor', 'redis.incr(this.keys.totalShares())', '  useKeys(keys) { this.keys = keys; }');
const unnamed = processor('PaymentProcessor', 'redis.incr(this.keys.totalShares())');
const twoClasses = processor('MixedProcessor', 'redis.incr(this.keys.totalShares())');
const required = legacy('../utils/legacyKeys.cjs');
// near miss: a package's module (not the repository's code), whose class is not read
const packaged = legacy('legacy-keys');

const incrAt = (code: string, call: string) => ({ messageId: 'noExpiry' as const, ...positionOf(code, call) });

runRule(untypedTester, 'incr-needs-expire-on-create (declared persistent keys of a key-builder instance passed to the constructor)', incrRule, {
  valid: [
    { code: total, filename: shareProcessor, settings: persistent(...PATTERNS) },
    { code: worker, filename: shareProcessor, settings: persistent(...PATTERNS) },
    { code: required, filename: legacyProcessor, settings: persistent(...PATTERNS) },
  ],
  invalid: [
    // the same builder's key the patterns do not name (lux:round:*:shares)
    { code: round, filename: shareProcessor, settings: persistent(...PATTERNS), errors: [incrAt(round, 'hincrby(')] },
    // a pattern naming only another prefix
    { code: worker, filename: shareProcessor, settings: persistent('lux:stats:*'), errors: [incrAt(worker, 'hincrby(')] },
    // the member is reassigned outside the constructor
    { code: reassigned, filename: shareProcessor, settings: persistent(...PATTERNS), errors: [incrAt(reassigned, 'incr(')] },
    // a `new` passes a value the reading cannot name; `new`s pass instances of two classes
    { code: unnamed, filename: paymentProcessor, settings: persistent(...PATTERNS), errors: [incrAt(unnamed, 'incr(')] },
    { code: twoClasses, filename: mixedProcessor, settings: persistent(...PATTERNS), errors: [incrAt(twoClasses, 'incr(')] },
    { code: required, filename: legacyProcessor, settings: persistent('lux:stats:*'), errors: [incrAt(required, 'hincrby(')] },
    { code: packaged, filename: legacyProcessor, settings: persistent(...PATTERNS), errors: [incrAt(packaged, 'hincrby(')] },
  ],
});

runRule(untypedTester, 'set-requires-ttl-or-keepttl (declared persistent keys of a key-builder instance passed to the constructor)', setRule, {
  valid: [{ code: lastShare, filename: shareProcessor, settings: persistent(...PATTERNS) }],
  invalid: [
    (() => {
      const { line, column } = positionOf(lastShare, 'set(');
      return { code: lastShare, filename: shareProcessor, settings: persistent('lux:stats:*'), errors: [setWithoutTtlAt(lastShare, line, column)] };
    })(),
  ],
});
