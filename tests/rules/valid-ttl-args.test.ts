import rule from '../../rules/valid-ttl-args.js';
import { ioredis, nodeRedis, runRule, typedTester, untypedTester, upstash } from './tester.js';

runRule(untypedTester, 'valid-ttl-args', rule, {
  valid: [
    nodeRedis(`client.set('k', 'v', { EX: 60 });`),
    nodeRedis(`client.set('k', 'v', { expiration: { type: 'EX', value: 60 } });`),
    nodeRedis(`client.set('k', 'v', { PX: 500, NX: true });`),
    nodeRedis(`async function f(ttl?: number) { if (ttl) await client.set('k', 'v', { EX: ttl }); }`),
    nodeRedis(`async function f(ttl: number) { await client.set('k', 'v', { EX: ttl }); }`),
    nodeRedis(`client.sendCommand(['SET', 'k', 'v', 'EX', '60']);`),
    upstash(`redis.set('k', 'v', { ex: 60 });`),
    upstash(`redis.set('k', 'v', { px: 500, nx: true });`),
    ioredis(`redis.set('k', 'v', 'EX', 60);`),
    ioredis(`redis.set('k', 'v', 'ex', 60, 'NX');`),
    ioredis(`redis.hset('k', 'f', 'v');`),
    ioredis(`redis.hset('k', 'EX', 'v');`),
    // a number as node-redis options: set-requires-ttl-or-keepttl's
    nodeRedis(`client.set('k', 'v', 60);`),
    // client unknown: casing cannot be judged
    `redis.set('k', 'v', { ex: 60 });`,
  ],
  invalid: [
    {
      code: nodeRedis(`await client.set('k', 'v', 'EX', 60);`),
      errors: [
        {
          messageId: 'positionalTokens',
          line: 3,
          column: 28,
          endLine: 3,
          endColumn: 32,
          suggestions: [{ messageId: 'useOptionsObject', data: { replacement: '{ EX: 60 }' }, output: nodeRedis(`await client.set('k', 'v', { EX: 60 });`) }],
        },
      ],
    },
    {
      code: nodeRedis(`await client.set(lock, token, 'NX', 'PX', 30000);`),
      errors: [
        {
          messageId: 'positionalTokens',
          line: 3,
          column: 31,
          suggestions: [
            { messageId: 'useOptionsObject', data: { replacement: '{ NX: true, PX: 30000 }' }, output: nodeRedis(`await client.set(lock, token, { NX: true, PX: 30000 });`) },
          ],
        },
      ],
    },
    {
      code: nodeRedis(`await client.set('k', 'v', { ex: 60 });`),
      errors: [
        {
          messageId: 'optionCasing',
          line: 3,
          column: 30,
          endColumn: 32,
          data: { client: 'node-redis', option: 'ex', expected: 'EX' },
          suggestions: [{ messageId: 'renameOption', output: nodeRedis(`await client.set('k', 'v', { EX: 60 });`) }],
        },
      ],
    },
    {
      code: upstash(`await redis.set('k', 'v', { EX: 60 });`),
      errors: [
        {
          messageId: 'optionCasing',
          line: 3,
          column: 29,
          data: { client: '@upstash/redis', option: 'EX', expected: 'ex' },
          suggestions: [{ messageId: 'renameOption', output: upstash(`await redis.set('k', 'v', { ex: 60 });`) }],
        },
      ],
    },
    {
      code: upstash(`await redis.set('k', 'v', { ex: process.env.TTL });`),
      errors: [
        {
          messageId: 'notANumber',
          line: 3,
          column: 33,
          suggestions: [{ messageId: 'wrapNumber', output: upstash(`await redis.set('k', 'v', { ex: Number(process.env.TTL) });`) }],
        },
      ],
    },
    {
      code: nodeRedis(`export async function f(ttl?: number) { await client.set('k', 'v', { EX: ttl }); }`),
      errors: [{ messageId: 'mayBeUndefined', line: 3, column: 74, endColumn: 77 }],
    },
    {
      code: ioredis(`await redis.hset('k', 'f', 'v', 'EX', 60);`),
      errors: [{ messageId: 'noTtlSyntax', line: 3, column: 33, data: { command: 'HSET', option: 'EX', fate: 'and the value after it are written as data' } }],
    },
    {
      code: nodeRedis(`await client.hSet('k', 'f', 'v', { EX: 60 });`),
      errors: [{ messageId: 'noTtlSyntax', line: 3, column: 36 }],
    },
    {
      code: nodeRedis(`await client.set('k', 'v', { EX: 60, KEEPTTL: true });`),
      errors: [{ messageId: 'keepTtlWithExpiry', line: 3, column: 38, data: { option: 'EX' } }],
    },
  ],
});

// The typed tester's default project has no strictNullChecks: the syntax decides, as untyped.
runRule(typedTester, 'valid-ttl-args (typed)', rule, {
  valid: [nodeRedis(`export async function f(ttl?: number) { if (ttl !== undefined) await client.set('k', 'v', { EX: ttl }); }`)],
  invalid: [
    {
      code: nodeRedis(`export async function f(ttl?: number) { await client.set('k', 'v', { EX: ttl }); }`),
      errors: [{ messageId: 'mayBeUndefined', line: 3, column: 74 }],
    },
    {
      code: nodeRedis(`export async function f(ttl: number) { await client.set('k', 'v', 'EX', ttl); }`),
      errors: [{ messageId: 'positionalTokens', line: 3, column: 67, suggestions: [{ messageId: 'useOptionsObject', output: nodeRedis(`export async function f(ttl: number) { await client.set('k', 'v', { EX: ttl }); }`) }] }],
    },
  ],
});
