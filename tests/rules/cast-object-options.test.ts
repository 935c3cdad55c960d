/**
 * A node-redis options object cast to silence ioredis' types (`{ EX: ttl, NX: true } as any`,
 * `as never`, `<any>{ ... }`: arjun-computer-geek/illajwala's slot lock) is still the literal
 * ioredis sends as `[object Object]` (ioredis' Command stringifies every argument that is not a
 * string or Buffer: `String(arg)`; only HSET / HMSET / MSET / MSETNX have argument transformers
 * reading objects): `valid-ttl-args` reports it once (`objectOptions`) and suggests the tokens
 * the literal stands for, replacing the whole cast. Near misses: the same cast on node-redis (it
 * reads the object: clean), a cast of a spread or of a name (reported, no suggestion: the tokens
 * are not all known), and keys no client reads.
 */
import rule from '../../rules/valid-ttl-args.js';
import { ioredis, nodeRedis, runRule, untypedTester } from './tester.js';

const IOVALKEY = (body: string): string => `import Redis from 'iovalkey';\nconst redis = new Redis();\n${body}`;

runRule(untypedTester, 'valid-ttl-args', rule, {
  valid: [
    nodeRedis('await client.set(`slot:${id}`, v, { EX: ttl, NX: true } as any);'),
    nodeRedis('await client.set(`slot:${id}`, v, { PX: 500 } as never);'),
    ioredis("await redis.set(`slot:${id}`, v, 'EX', ttl, 'NX');"),
  ],
  invalid: [
    {
      code: ioredis('await redis.set(`slot:${id}`, v, { EX: ttl, NX: true } as any);'),
      errors: [
        {
          messageId: 'objectOptions',
          line: 3,
          column: 34,
          data: { client: 'ioredis', command: 'SET', text: '{ EX: ttl, NX: true } as any' },
          suggestions: [{ messageId: 'useTokens', data: { replacement: "'EX', ttl, 'NX'" }, output: ioredis("await redis.set(`slot:${id}`, v, 'EX', ttl, 'NX');") }],
        },
      ],
    },
    {
      code: ioredis('await redis.set(`slot:${id}`, v, { PX: 500 } as never);'),
      errors: [{ messageId: 'objectOptions', line: 3, column: 34, suggestions: [{ messageId: 'useTokens', output: ioredis("await redis.set(`slot:${id}`, v, 'PX', 500);") }] }],
    },
    {
      code: ioredis('await redis.set(`slot:${id}`, v, <any>{ EX: 60 });'),
      errors: [{ messageId: 'objectOptions', line: 3, column: 34, suggestions: [{ messageId: 'useTokens', output: ioredis("await redis.set(`slot:${id}`, v, 'EX', 60);") }] }],
    },
    {
      code: ioredis('await redis.getex(`slot:${id}`, { EX: 60 } as any);'),
      errors: [{ messageId: 'objectOptions', line: 3, column: 33, suggestions: [{ messageId: 'useTokens', output: ioredis("await redis.getex(`slot:${id}`, 'EX', 60);") }] }],
    },
    {
      code: IOVALKEY('await redis.set(`slot:${id}`, v, { EX: 60, NX: true } as any);'),
      errors: [{ messageId: 'objectOptions', line: 3, column: 34, suggestions: [{ messageId: 'useTokens', output: IOVALKEY("await redis.set(`slot:${id}`, v, 'EX', 60, 'NX');") }] }],
    },
    // the tokens are not all known: reported, no suggestion
    {
      code: ioredis('await redis.set(`slot:${id}`, v, { ...opts, NX: true } as any);'),
      errors: [{ messageId: 'objectOptions', line: 3, column: 34, suggestions: [] }],
    },
    {
      code: ioredis('const OPTS = { EX: 60 };\nawait redis.set(`slot:${id}`, v, OPTS as any);'),
      errors: [{ messageId: 'objectOptions', line: 4, column: 34, suggestions: [] }],
    },
  ],
});
