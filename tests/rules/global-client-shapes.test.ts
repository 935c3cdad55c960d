/**
 * Global client shapes (round 17, a breaker's defect 7): the library of a global client is read
 * from the package's assignments to it in every shape they are written, `global.redis ??=
 * createClient()`, `global.redis ||= ...`, `Object.assign(global, { redis: createClient() })`,
 * `(globalThis as any).redis = createClient()`, `global.redis = require('./client')` of a module
 * whose `module.exports` is a client; and a file's `redis` names the global also when it is
 * destructured from the global object (`const { redis } = global`) or declared ambient (`declare
 * const redis: any`). On node-redis 4+, `redis.set(k, v, 'EX', 60)` then drops its expiry and is
 * reported. Limits: two libraries stored in the global, an `Object.assign` onto an object of the
 * code, or a required module that exports no client leave the library unknown (nothing reported);
 * a `const { redis } = config` is no global, and a local name that is no client name
 * (`const { redis: r } = global`) is no receiver.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import validTtlArgs from '../../rules/valid-ttl-args.js';
import { runRule, untypedTester } from './tester.js';

const fixtures = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'global-clients');
/** A file of the fixture package `shapes-<name>` (see each one's package.json). */
const fileOf = (name: string, file = 'use.js'): string => join(fixtures, `shapes-${name}`, file);

const save = "async function save(k, v) { await redis.set(k, v, 'EX', 60); }";
/** node-redis 4+'s positional-tokens finding at `'EX'` of `code`'s `.set(k, v, 'EX', 60)` on `line`, with its suggestion. */
const positional = (code: string, line = 1) => {
  const text = code.split('\n')[line - 1]!;
  return {
    messageId: 'positionalTokens' as const,
    line,
    column: text.indexOf("'EX'") + 1,
    suggestions: [{ messageId: 'useOptionsObject' as const, output: code.replace("'EX', 60)", '{ EX: 60 })') }],
  };
};

const destructured = `const { redis } = global;\n${save}`;
const renamed = "const { redis: redisClient } = globalThis;\nasync function save(k, v) { await redisClient.set(k, v, 'EX', 60); }";
const ambient = "declare const redis: any;\nexport async function save(k: string, v: string) { await redis.set(k, v, 'EX', 60); }";
const nullishHere = `const { createClient } = require('redis');\nglobal.redis ??= createClient();\n${save}`;

runRule(untypedTester, 'valid-ttl-args (global client shapes)', validTtlArgs, {
  valid: [
    // an ioredis client and a node-redis one stored in the same global: the library is unknown
    { code: save, filename: fileOf('twolibs') },
    // Object.assign onto an object of the code is no global
    { code: save, filename: fileOf('not-global') },
    // the required module exports settings, not a client
    { code: save, filename: fileOf('reqconfig') },
    // a name destructured from an object of the code is no global
    { code: `const { redis } = config;\n${save}`, filename: fileOf('nullish') },
    // a local name that is no client name is no receiver, whatever global it is bound to
    { code: "const { redis: r } = globalThis;\nasync function save(k, v) { await r.set(k, v, 'EX', 60); }", filename: fileOf('assign') },
    // ioredis stored with ??= in the file itself: the tokens are sent
    { code: `const Redis = require('ioredis');\nglobal.redis ??= new Redis();\n${save}`, filename: fileOf('none') },
  ],
  invalid: [
    { code: save, filename: fileOf('nullish'), errors: [positional(save)] },
    { code: save, filename: fileOf('assign'), errors: [positional(save)] },
    { code: save, filename: fileOf('ascast'), errors: [positional(save)] },
    { code: save, filename: fileOf('reqmod'), errors: [positional(save)] },
    { code: nullishHere, filename: fileOf('none'), errors: [positional(nullishHere, 3)] },
    { code: destructured, filename: fileOf('nullish'), errors: [positional(destructured, 2)] },
    { code: renamed, filename: fileOf('assign'), errors: [positional(renamed, 2)] },
    { code: ambient, filename: fileOf('ascast', 'use.ts'), errors: [positional(ambient, 2)] },
  ],
});
