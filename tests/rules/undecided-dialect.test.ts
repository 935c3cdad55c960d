/**
 * A receiver that is a client only by its name (a parameter `client`, `this.client` set from a
 * constructor option) has no decided library: its SET options are read in the syntax of the one
 * client they follow (`redis-calls/dialect.ts`), as adapters that take any client write each
 * helper for the client it is meant for. A receiver made, imported or typed as a client keeps
 * that client's syntax.
 */
import rule from '../../rules/valid-ttl-args.js';
import setRule from '../../rules/set-requires-ttl-or-keepttl.js';
import { runRule, untypedTester } from './tester.js';

const NODE_REDIS = `import { createClient } from 'redis';\n`;
const IOREDIS = `import Redis from 'ioredis';\n`;

runRule(untypedTester, 'valid-ttl-args', rule, {
  valid: [
    // the ioredis-style default of an adapter in a file that imports node-redis
    `${NODE_REDIS}export const defaultSetWithExpiry = (client, key, value, seconds) => client.set(key, value, 'EX', seconds);`,
    // the @upstash/redis preset beside it
    `${NODE_REDIS}export const upstashPreset = { setWithExpiry: (client, key, value, seconds) => client.set(key, value, { ex: seconds }) };`,
    `${NODE_REDIS}export const upstashPreset = { setWithExpiry: (client, key, value, ms) => client.set(key, value, { px: ms, nx: true }) };`,
    // a member set from what the user hands in
    `${NODE_REDIS}export class Cache { constructor(config) { this.client = config.client; } put(k, v) { return this.client.set(k, v, 'EX', 60, 'NX'); } }`,
    // node-redis options on a name-only receiver in an ioredis file
    `${IOREDIS}export const nodeRedisPreset = { setWithExpiry: (client, key, value, seconds) => client.set(key, value, { EX: seconds }) };`,
  ],
  invalid: [
    // made by the file: its client is decided
    {
      code: `${NODE_REDIS}const client = createClient();\nexport const put = (key, value) => client.set(key, value, 'EX', 60);`,
      errors: [{ messageId: 'positionalTokens', line: 3, column: 59, suggestions: [{ messageId: 'useOptionsObject', output: `${NODE_REDIS}const client = createClient();\nexport const put = (key, value) => client.set(key, value, { EX: 60 });` }] }],
    },
    {
      code: `${NODE_REDIS}const client = createClient();\nexport const put = (key, value) => client.set(key, value, { ex: 60 });`,
      errors: [{ messageId: 'optionCasing', line: 3, column: 61, data: { client: 'node-redis', option: 'ex', expected: 'EX' }, suggestions: [{ messageId: 'renameOption', output: `${NODE_REDIS}const client = createClient();\nexport const put = (key, value) => client.set(key, value, { EX: 60 });` }] }],
    },
    {
      code: `${IOREDIS}const redis = new Redis();\nexport const put = (key, value) => redis.set(key, value, { EX: 60 });`,
      errors: [{ messageId: 'objectOptions', line: 3, column: 58, suggestions: [{ messageId: 'useTokens', output: `${IOREDIS}const redis = new Redis();\nexport const put = (key, value) => redis.set(key, value, 'EX', 60);` }] }],
    },
    // a global is the application's own client, stored by its code: the file's client, whatever its options follow
    {
      code: `${NODE_REDIS}globalThis.redis = createClient();\nexport const put = (key, value) => redis.set(key, value, 'EX', 60);`,
      errors: [{ messageId: 'positionalTokens', line: 3, column: 58, suggestions: [{ messageId: 'useOptionsObject', output: `${NODE_REDIS}globalThis.redis = createClient();\nexport const put = (key, value) => redis.set(key, value, { EX: 60 });` }] }],
    },
    {
      code: `${NODE_REDIS}export const put = (key, value) => global.redis.set(key, value, 'EX', 60);`,
      errors: [{ messageId: 'positionalTokens', line: 2, column: 65, suggestions: [{ messageId: 'useOptionsObject', output: `${NODE_REDIS}export const put = (key, value) => global.redis.set(key, value, { EX: 60 });` }] }],
    },
    // a name-only receiver whose options no client reads as written: still the file's client
    {
      code: `${NODE_REDIS}export const put = (client, key, value) => client.set(key, value, { Ex: 60 });`,
      errors: [{ messageId: 'optionCasing', line: 2, column: 69, data: { client: 'node-redis', option: 'Ex', expected: 'EX' }, suggestions: [{ messageId: 'renameOption', output: `${NODE_REDIS}export const put = (client, key, value) => client.set(key, value, { EX: 60 });` }] }],
    },
    // options of both spellings together: no one client, the file's reading stands
    {
      code: `${NODE_REDIS}export const put = (client, key, value) => client.set(key, value, { ex: 60, NX: true });`,
      errors: [{ messageId: 'optionCasing', line: 2, column: 69, data: { client: 'node-redis', option: 'ex', expected: 'EX' }, suggestions: [{ messageId: 'renameOption', output: `${NODE_REDIS}export const put = (client, key, value) => client.set(key, value, { EX: 60, NX: true });` }] }],
    },
  ],
});

runRule(untypedTester, 'set-requires-ttl-or-keepttl', setRule, {
  valid: [
    // read as ioredis, the SET carries its TTL
    `${NODE_REDIS}export const defaultSetWithExpiry = (client, key, value, seconds) => client.set(key, value, 'EX', seconds);`,
    `${NODE_REDIS}export const upstashPreset = { setWithExpiry: (client, key, value, seconds) => client.set(key, value, { ex: seconds }) };`,
  ],
  invalid: [
    // no options at all: a SET without TTL whatever the client
    {
      code: `${NODE_REDIS}export const put = (client, key, value) => client.set(key, value);`,
      errors: [{ messageId: 'setWithoutTtl', line: 2, column: 51, suggestions: [{ messageId: 'addExpiryPlaceholder', output: `${NODE_REDIS}export const put = (client, key, value) => client.set(key, value, { EX: TTL_SECONDS });` }, { messageId: 'addKeepTtl', output: `${NODE_REDIS}export const put = (client, key, value) => client.set(key, value, { KEEPTTL: true });` }] }],
    },
  ],
});
