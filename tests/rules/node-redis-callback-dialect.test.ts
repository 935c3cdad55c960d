/**
 * node-redis' dialect from the call itself (round 17): a call that ends with a callback
 * (`set(k, v, 'EX', ttl, (err) => ...)`) runs on node_redis 3 or earlier, or on node-redis 4's
 * `legacyMode` / 5's `legacy()` client, which send the arguments as written: node-redis 4+ takes no
 * callback. So its ioredis-style tokens are sent, whatever a `package.json` on the way up says
 * (opengovsg/postmangovsg's `otpClient.set(email, otp, 'EX', OTP_EXPIRY, (error) => ...)`, read for
 * node-redis 4 untyped because the linted tree held no package.json of its back end). Limits: a
 * call without a trailing callback keeps the version the setting, the types or the package say;
 * TTL tokens on a command with no TTL syntax are data in every dialect. A file on disk for which
 * nothing says the major (no package.json naming `redis`, no install above it) has its tokens read
 * as sent: only 4+ drops them, and nothing says it is 4+.
 */
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { RuleTester } from '@typescript-eslint/rule-tester';
import setRule from '../../rules/set-requires-ttl-or-keepttl.js';
import validTtlArgs from '../../rules/valid-ttl-args.js';
import { runRule, untypedTester } from './tester.js';

const fixturesDir = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures');
/** A file of an application whose package.json declares `redis: ~4.7.0`. */
const v4 = join(fixturesDir, 'node-redis-4', 'app.ts');
/** A file on disk with no package.json naming `redis` and no install of it above: the major is unknown. */
const unknown = join(tmpdir(), 'redis-ttl-unknown-dialect', 'app.js');
const required = (body: string): string => `const redis = require('redis');\nconst client = redis.createClient();\n${body}`;
/** node-redis 4+'s positional-tokens finding at line 3, column 24, with its one suggestion. */
const positional = (output: string) => ({ messageId: 'positionalTokens' as const, line: 3, column: 24, suggestions: [{ messageId: 'useOptionsObject' as const, output }] });

runRule(untypedTester, 'valid-ttl-args (node-redis call with a callback)', validTtlArgs, {
  valid: [
    // nothing but this repository's package.json (redis 5) above the file: the callback decides
    { code: required("client.set(email, otp, 'EX', OTP_EXPIRY, (error) => { if (error) reject(error); resolve(true); });") },
    // a package.json declaring redis 4: a callback means legacyMode, which sends the tokens
    { code: required("client.set(key, value, 'EX', 60, function (err) {});"), filename: v4 },
    { code: required("client.set(key, value, 'PX', ttl, 'NX', cb);"), filename: v4 },
    // nothing says which major: tokens are sent by 3 and dropped by 4+, so they are not reported
    { code: required("client.set(key, value, 'EX', 60);"), filename: unknown },
    { code: required("client.set(key, value, { EX: 60 });"), filename: unknown },
    { code: required("function save(k, v, done) { const onSaved = (e) => done(e); client.set(k, v, 'EX', 60, onSaved); }") },
  ],
  invalid: [
    // no callback: node-redis 4 declared, the tokens are dropped
    { code: required("client.set(key, value, 'EX', ttl);"), filename: v4, errors: [positional(required('client.set(key, value, { EX: ttl });'))] },
    // the last argument is a value, not a callback
    { code: required("client.set(key, value, 'EX', ttlSeconds);"), errors: [positional(required('client.set(key, value, { EX: ttlSeconds });'))] },
    // a promise chain is no callback
    { code: required("client.set(key, value, 'EX', 60).then(() => done());"), filename: v4, errors: [positional(required('client.set(key, value, { EX: 60 }).then(() => done());'))] },
    // TTL tokens on a command without TTL syntax are data in every dialect
    { code: required("client.hset(key, 'f', 'v', 'EX', 60, (err) => {});"), filename: v4, errors: [{ messageId: 'noTtlSyntax', line: 3, column: 28 }] },
  ],
});

runRule(untypedTester, 'set-requires-ttl-or-keepttl (node-redis call with a callback)', setRule, {
  valid: [
    { code: required("client.set(key, value, 'EX', 60, (err) => {});"), filename: v4 },
    { code: required("client.set(key, value, 'EX', 60);"), filename: unknown },
  ],
  invalid: [
    {
      // suggestions in the positional syntax the callback says the client reads
      code: required('client.set(key, value, (err) => {});'),
      filename: v4,
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
  ],
});

// The suggestion re-lint of runRule (untypedTester's) lints from this repository's folder, which a
// file outside it is not linted in: the unknown-major case runs on a tester of its own.
runRule(new RuleTester(), 'set-requires-ttl-or-keepttl (node-redis, unknown major)', setRule, {
  valid: [],
  invalid: [
    {
      // unknown major, no options: still a SET without TTL in both dialects; 4+'s syntax suggested
      code: required('await client.set(key, value);'),
      filename: unknown,
      errors: [
        {
          messageId: 'setWithoutTtl',
          line: 3,
          column: 14,
          suggestions: [
            { messageId: 'addExpiryPlaceholder', output: required('await client.set(key, value, { EX: TTL_SECONDS });') },
            { messageId: 'addKeepTtl', output: required('await client.set(key, value, { KEEPTTL: true });') },
          ],
        },
      ],
    },
  ],
});
