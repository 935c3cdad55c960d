/**
 * node-redis 3 is read as node-redis 3 (issue 25): its `set(key, value, 'EX', n[, 'NX'], cb)` sends
 * the expiry as written, so neither `valid-ttl-args` nor the key rules may call it dropped, and
 * suggestions are written in its positional syntax (no runtime helper: its commands take
 * callbacks). The version comes from `settings['redis-ttl'].nodeRedisVersion`, else the declared
 * types, else the nearest package.json naming `redis` (a range of one major), else an installed
 * `node_modules/redis` on the way up; node-redis 4+ types found for a file whose package declares
 * or installs redis 3 (untyped) come from another install and do not override it. node-redis 4+
 * (declared, a range spanning majors, nothing known) keeps today's reading.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { RuleTester } from '@typescript-eslint/rule-tester';
import { describe, expect, it } from 'vitest';
import incrRule from '../../rules/incr-needs-expire-on-create.js';
import getsetRule from '../../rules/no-getset.js';
import setRule from '../../rules/set-requires-ttl-or-keepttl.js';
import validTtlArgs from '../../rules/valid-ttl-args.js';
import { majorOfRange } from '../../redis-calls/version-range.js';
import { runRule, untypedTester } from './tester.js';

const fixtures = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures');
/** A file of an application whose package.json declares `redis: ^3.1.2`. */
const v3 = join(fixtures, 'node-redis-3', 'app.ts');
/** A file of an application that gets redis 3.1.2 installed through another package. */
const transitive = join(fixtures, 'node-redis-3-transitive', 'lib', 'cache.ts');
/** A file of a package that pins node_redis `2.6.5` (the same positional syntax as 3). */
const v2 = join(fixtures, 'node-redis-2', 'index.js');
/** A file of an application whose package.json declares `redis: ~4.7.0`. */
const v4 = join(fixtures, 'node-redis-4', 'app.ts');

const required = (body: string): string => `const redis = require('redis');\nconst client = redis.createClient();\n${body}`;
const imported = (body: string): string => `import { createClient } from 'redis';\nconst client = createClient();\n${body}`;

/** The positional-tokens finding of node-redis 4+ on `client.set(k, v, 'EX', ...)` at line 3. */
const positional = (column: number, suggestions: Array<{ messageId: 'useOptionsObject'; output: string }> = []) => ({
  messageId: 'positionalTokens' as const,
  line: 3,
  column,
  suggestions,
});

runRule(untypedTester, 'valid-ttl-args (node-redis 3)', validTtlArgs, {
  valid: [
    { code: required("client.set(key, value, 'EX', 60, 'NX', (err, reply) => {});"), filename: v3 },
    { code: required("client.set(key, value, 'EX', ttl);"), filename: v3 },
    { code: required("client.set(key, value, 'PX', 500, callback);"), filename: transitive },
    { code: imported("await client.set(key, value, 'EX', ttl);"), filename: v3 },
    // the setting says 3 where nothing else does
    { code: required("client.set(key, value, 'EX', 60);"), settings: { 'redis-ttl': { nodeRedisVersion: '3.1.2' } } },
    // node_redis 2 (and earlier) sends positional options as written, like 3: pinned in package.json or set
    { code: required("client.set(key, value, 'ex', ttl, callback);"), filename: v2 },
    { code: required("client.set(key, value, 'EX', 60);"), settings: { 'redis-ttl': { nodeRedisVersion: '2.8.0' } } },
  ],
  invalid: [
    // node-redis 4 declared: the tokens are dropped
    { code: required("client.set(key, value, 'EX', ttl);"), filename: v4, errors: [positional(24, [{ messageId: 'useOptionsObject', output: required('client.set(key, value, { EX: ttl });') }])] },
    // the setting overrides package.json
    {
      code: required("client.set(key, value, 'EX', ttl);"),
      filename: v3,
      settings: { 'redis-ttl': { nodeRedisVersion: '^4.6.0' } },
      errors: [positional(24, [{ messageId: 'useOptionsObject', output: required('client.set(key, value, { EX: ttl });') }])],
    },
    // nothing known (this repository's package.json declares redis 5): 4 or later
    { code: required("client.set(key, value, 'EX', ttl);"), errors: [positional(24, [{ messageId: 'useOptionsObject', output: required('client.set(key, value, { EX: ttl });') }])] },
    // TTL tokens on a command without TTL syntax are data in every version
    {
      code: required("client.hset(key, 'f', 'v', 'EX', 60);"),
      filename: v3,
      errors: [{ messageId: 'noTtlSyntax', line: 3, column: 28 }],
    },
  ],
});

runRule(untypedTester, 'set-requires-ttl-or-keepttl (node-redis 3)', setRule, {
  valid: [
    { code: required("client.set(key, value, 'EX', 60, 'NX', (err, reply) => {});"), filename: v3 },
    { code: required("client.multi().set(key, value).expire(key, 60).exec(callback);"), filename: transitive },
  ],
  invalid: [
    {
      // the suggestions are written in node-redis 3's positional syntax
      code: required('client.set(key, value, (err) => {});'),
      filename: v3,
      errors: [
        {
          messageId: 'setWithoutTtl',
          line: 3,
          column: 8,
          suggestions: [
            { messageId: 'addExpiryPlaceholder', output: required("client.set(key, value, 'EX', TTL_SECONDS, (err) => {});") },
            { messageId: 'addKeepTtl', output: required("client.set(key, value, 'KEEPTTL', (err) => {});") },
          ],
        },
      ],
    },
    {
      // node_redis 2: the same positional syntax as 3
      code: required('client.set(key, value, function (err) {});'),
      filename: v2,
      errors: [
        {
          messageId: 'setWithoutTtl',
          line: 3,
          column: 8,
          suggestions: [
            { messageId: 'addExpiryPlaceholder', output: required("client.set(key, value, 'EX', TTL_SECONDS, function (err) {});") },
            { messageId: 'addKeepTtl', output: required("client.set(key, value, 'KEEPTTL', function (err) {});") },
          ],
        },
      ],
    },
    {
      code: required('client.set(key, value);'),
      filename: v4,
      errors: [
        {
          messageId: 'setWithoutTtl',
          line: 3,
          column: 8,
          suggestions: [
            { messageId: 'addExpiryPlaceholder', output: required('client.set(key, value, { EX: TTL_SECONDS });') },
            { messageId: 'addKeepTtl', output: required('client.set(key, value, { KEEPTTL: true });') },
          ],
        },
      ],
    },
  ],
});

runRule(untypedTester, 'no-getset (node-redis 3)', getsetRule, {
  valid: [],
  invalid: [
    {
      // no runtime helper for node-redis 3 (its commands take callbacks); SET ... GET in its syntax
      code: required("client.getset(key, '0');"),
      filename: v3,
      errors: [
        {
          messageId: 'getset',
          line: 3,
          column: 8,
          suggestions: [{ messageId: 'useSetKeepTtl', output: required("client.set(key, '0', 'KEEPTTL', 'XX', 'GET');") }],
        },
      ],
    },
  ],
});

runRule(untypedTester, 'incr-needs-expire-on-create (node-redis 3)', incrRule, {
  valid: [{ code: required('client.multi().incr(key).pexpire(key, 60000).exec(callback);'), filename: v3 }],
  invalid: [
    {
      code: required('client.incr(key);\nclient.pexpire(key, 60000);'),
      filename: v3,
      errors: [
        {
          messageId: 'separateRoundTrip',
          line: 3,
          column: 8,
          suggestions: [{ messageId: 'wrapInMulti', output: required('client.multi().incr(key).pexpire(key, 60000).exec();') }],
        },
      ],
    },
  ],
});

/** A typed tester whose project is the fixture folder `folder` (`redis` resolves to this repository's node-redis 5 types). */
const typedIn = (folder: string): RuleTester =>
  new RuleTester({
    languageOptions: { parserOptions: { projectService: { allowDefaultProject: ['*.ts'] }, tsconfigRootDir: join(fixtures, folder) } },
  });

// With type information, a node-redis 4+ declaration found for a file whose package declares (or
// installs, nearest first) redis 3 is not the redis that file loads: node_redis 3 ships no types,
// so the checker took them from another install on its way up (here, this repository's
// node-redis 5, as a hoisted or workspace-root redis 4+ would be). The declared version decides.
runRule(typedIn('node-redis-3'), 'valid-ttl-args (typed, package.json declares redis 3)', validTtlArgs, {
  valid: [
    { code: imported("await client.set(key, value, 'EX', 60);"), filename: v3 },
    { code: imported("client.set(key, value, 'NX', 'EX', ttl, (err) => {});"), filename: v3 },
    { code: required("client.set(key, value, 'EX', ttl, (err) => {});"), filename: v3 },
  ],
  invalid: [
    // TTL tokens on a command without TTL syntax stay data in every version
    { code: imported("client.hset(key, 'f', 'v', 'EX', 60);"), filename: v3, errors: [{ messageId: 'noTtlSyntax', line: 3, column: 28 }] },
  ],
});

runRule(typedIn('node-redis-3-transitive'), 'valid-ttl-args (typed, redis 3 installed untyped)', validTtlArgs, {
  valid: [{ code: imported("client.set(key, value, 'PX', 500, callback);"), filename: join(fixtures, 'node-redis-3-transitive', 'app.ts') }],
  invalid: [],
});

// node-redis 4 declared and typed: the tokens are dropped, still reported
runRule(typedIn('node-redis-4'), 'valid-ttl-args (typed, package.json declares redis 4)', validTtlArgs, {
  valid: [],
  invalid: [
    {
      code: imported("await client.set(key, value, 'EX', 60);"),
      filename: v4,
      errors: [positional(30, [{ messageId: 'useOptionsObject', output: imported('await client.set(key, value, { EX: 60 });') }])],
    },
  ],
});

describe('majorOfRange', () => {
  it('gives the major of a version or a range within one major, else undefined', () => {
    expect(['3', '3.1.2', '^3.1.2', '~3.0.0', '3.x', '>=3.0.0 <4', 'v3.1.2'].map(majorOfRange)).toEqual([3, 3, 3, 3, 3, 3, 3]);
    expect(['^4.6.0', '4.7.0', '~4.7'].map(majorOfRange)).toEqual([4, 4, 4]);
    expect(['>=3', '*', '', 'latest', '^3 || ^4', 'github:redis/node-redis', 'workspace:*'].map(majorOfRange)).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
  });
});

// the key rule reads the same version: a bare number is no expiry on node-redis 4+ (reported,
// suggestions in its object syntax); on node-redis 3 the suggestions are tokens
runRule(typedIn('node-redis-4'), 'set-requires-ttl-or-keepttl (typed, package.json declares redis 4)', setRule, {
  valid: [{ code: imported('await client.set(key, value, { EX: 60 });'), filename: v4 }],
  invalid: [
    {
      code: imported('await client.set(key, value, 60);'),
      filename: v4,
      errors: [
        {
          messageId: 'numberAsOptions',
          line: 3,
          column: 14,
          suggestions: [{ messageId: 'useOptionsObject', output: imported('await client.set(key, value, { EX: 60 });') }],
        },
      ],
    },
  ],
});

runRule(typedIn('node-redis-3'), 'set-requires-ttl-or-keepttl (typed, package.json declares redis 3)', setRule, {
  valid: [{ code: imported("client.set(key, value, 'NX', 'EX', ttl, (err) => {});"), filename: v3 }],
  invalid: [
    {
      code: imported('client.set(key, value, (err) => {});'),
      filename: v3,
      errors: [
        {
          messageId: 'setWithoutTtl',
          line: 3,
          column: 8,
          suggestions: [
            { messageId: 'addExpiryPlaceholder', output: imported("client.set(key, value, 'EX', TTL_SECONDS, (err) => {});") },
            { messageId: 'addKeepTtl', output: imported("client.set(key, value, 'KEEPTTL', (err) => {});") },
          ],
        },
      ],
    },
  ],
});
