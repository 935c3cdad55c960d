/**
 * Keys a helper builds that a `persistentKeys` pattern could not name (issue 25, round 18: the
 * val17 set's @upstash/edge-flags and mem0ai). (A) A key builder whose parameter is a destructured
 * options object (`function flagKey({ prefix, tenant = 'default', flagName })`), called with an
 * object literal: each name takes the property the call writes, or the pattern's default when the
 * call writes none; a name a spread may set (`{ ...opts }`), or an argument that is no object
 * literal, stays `*`. (B) A member fixed in the constructor stays fixed when a method or the
 * constructor reads it into an object literal (`{ prefix: this.prefix }`, `{ index: { prefix:
 * this.indexPrefix } }`): that is a read, not a destructuring write; `({ prefix: this.prefix } =
 * o)` in a method still writes it. Near misses stay reported: a pattern that does not match the
 * spelled key, a prefix a spread may replace, a member a method reassigns.
 */
import setRule from '../../rules/set-requires-ttl-or-keepttl.js';
import { describe, expect, it } from 'vitest';
import { keyShapes } from '../helpers/key-shapes.js';
import { ioredis, runRule, untypedTester, persistentSettings as persistent, setWithoutTtlAt as at } from './tester.js';


const FLAG_KEY = [
  "function flagKey({ prefix, tenant = 'default', flagName, environment }) {",
  "  return [prefix, tenant, 'flags', flagName, environment].join(':');",
  '}',
].join('\n');
// (A) + (B): the Admin of @upstash/edge-flags, reduced
const ADMIN = [
  FLAG_KEY,
  'class Admin {',
  '  prefix; tenant;',
  "  constructor({ prefix = 'edge-flags', tenant = 'default' }) { this.prefix = prefix; this.tenant = tenant; }",
].join('\n');
const admin = ioredis(`${ADMIN}\n  save(name, env, v) { return redis.set(flagKey({ prefix: this.prefix, tenant: this.tenant, flagName: name, environment: env }), v); }\n}`);
// a spread that may replace the prefix
const spread = ioredis(`${FLAG_KEY}\nexport const save = (opts, name, v) => redis.set(flagKey({ prefix: 'edge-flags', ...opts, flagName: name }), v);`);
// (B) the RedisDB of mem0ai, reduced: the constructor reads the member into an object literal
const VECTORS = [
  'class RedisDB {',
  '  constructor(config) {',
  '    this.indexPrefix = `mem0:${config.collectionName}`;',
  '    this.schema = { index: { name: config.collectionName, prefix: this.indexPrefix } };',
  '  }',
].join('\n');
const vectors = ioredis(`${VECTORS}\n  update(id, v) { return redis.set(\`\${this.indexPrefix}:\${id}\`, v); }\n}`);
// a method that writes the member through destructuring: not fixed once per instance
const rewritten = ioredis(`${VECTORS}\n  load(o) { ({ prefix: this.indexPrefix } = o); }\n  update(id, v) { return redis.set(\`\${this.indexPrefix}:\${id}\`, v); }\n}`);

describe('keyShapeOf, builders with a destructured options parameter', () => {
  it('binds each name to the property the call writes, or to its default', () => {
    const code = [
      FLAG_KEY,
      "const userKey = ({ id }) => `user:${id}`;",
      "function queueKey({ prefix = 'q', name = 'jobs' } = {}) { return `${prefix}:${name}`; }",
      "probe(flagKey({ prefix: 'ef', tenant: t, flagName: n, environment: e }));",
      "probe(flagKey({ prefix: 'ef', flagName: n, environment: 'production' }));",
      'probe(userKey({ id }));',
      "probe(queueKey()); probe(queueKey({ name: 'mail' }));",
    ].join('\n');
    expect(keyShapes(code)).toEqual(['ef:*:flags:*:* many', 'ef:default:flags:*:production many', 'user:* many', 'q:jobs one', 'q:mail one']);
  });

  it('leaves `*` where a spread may set the name, for a computed key, and for an argument that is no object literal', () => {
    const code = [
      FLAG_KEY,
      "probe(flagKey({ prefix: 'ef', ...opts, flagName: n }));",
      "probe(flagKey({ ...opts, prefix: 'ef' }));",
      "probe(flagKey({ [field]: 'x', prefix: 'ef' }));",
      'probe(flagKey(opts));',
    ].join('\n');
    expect(keyShapes(code)).toEqual(['*:*:flags:*:* many', 'ef:*:flags:*:* many', 'ef:*:flags:*:* many', '*:*:flags:*:* many']);
  });

  it('keeps a constructor-fixed member fixed when an object literal reads it, not when a method destructures into it', () => {
    const code = [
      VECTORS,
      '  a(id) { probe(`${this.indexPrefix}:${id}`); }',
      '}',
      'class Other {',
      "  constructor(prefix) { this.prefix = prefix; }",
      '  load(o) { ({ prefix: this.prefix } = o); }',
      '  a(id) { probe(`${this.prefix}:${id}`); }',
      '}',
    ].join('\n');
    expect(keyShapes(code)).toEqual(['mem0:*:* many', '*:* many']);
  });
});

runRule(untypedTester, 'set-requires-ttl-or-keepttl (keys a helper builds from a destructured options object)', setRule, {
  valid: [
    { code: admin, settings: persistent('edge-flags:*:flags:*') },
    { code: vectors, settings: persistent('mem0:*') },
  ],
  invalid: [
    // the spelled key does not match the pattern
    { code: admin, settings: persistent('edge-flags:*:rules:*'), errors: [at(admin, 9, 37)] },
    { code: vectors, settings: persistent('mem1:*'), errors: [at(vectors, 8, 32)] },
    // a spread may replace the prefix; a method reassigns the member
    { code: spread, settings: persistent('edge-flags:*'), errors: [at(spread, 6, 46)] },
    { code: rewritten, settings: persistent('mem0:*'), errors: [at(rewritten, 9, 32)] },
  ],
});
