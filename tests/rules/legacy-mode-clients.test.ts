/**
 * node-redis clients that send a command's arguments as written (breaker41): node-redis 4's
 * `createClient({ legacyMode: true })` and 5's `client.legacy()` take node_redis 3's positional
 * syntax, so `set(k, v, 'EX', 300)` on them sends the expiry: not `valid-ttl-args`'
 * `positionalTokens` (ignored tokens), and not a SET without TTL. Near misses: `legacyMode: false`,
 * a plain client, and a legacy variable reassigned to a plain client.
 */
import validTtlArgs from '../../rules/valid-ttl-args.js';
import setRule from '../../rules/set-requires-ttl-or-keepttl.js';
import { runRule, untypedTester } from './tester.js';

const client = (made: string, call = "client.set(`page:${id}`, body, 'EX', 300)") =>
  `import { createClient } from 'redis';\nlet client = ${made};\nexport const put = (id: string, body: string) => ${call};\n`;

const legacy = [
  client('createClient({ legacyMode: true })'),
  client('createClient({ url: process.env.REDIS_URL, legacyMode: true })'),
  client('createClient()', "client.legacy().set(`page:${id}`, body, 'EX', 300)"),
  `import { createClient } from 'redis';\nconst base = createClient();\nconst client = base.legacy();\nexport const put = (id: string, body: string) => client.set(\`page:\${id}\`, body, 'EX', 300);\n`,
];

const plain = [
  client('createClient({ legacyMode: false })'),
  client('createClient()'),
  // reassigned to a plain client: which one the call reads is not known
  `import { createClient } from 'redis';\nlet client = createClient({ legacyMode: true });\nclient = createClient();\nexport const put = (id: string, body: string) => client.set(\`page:\${id}\`, body, 'EX', 300);\n`,
];

runRule(untypedTester, 'valid-ttl-args (legacy-mode node-redis clients)', validTtlArgs, {
  valid: legacy,
  invalid: plain.map((code) => ({
    code,
    errors: [
      {
        messageId: 'positionalTokens' as const,
        line: code.split('\n').length - 1,
        column: code.split('\n').at(-2)!.indexOf("'EX'") + 1,
        suggestions: [{ messageId: 'useOptionsObject' as const, output: code.replace("'EX', 300", '{ EX: 300 }') }],
      },
    ],
  })),
});

runRule(untypedTester, 'set-requires-ttl-or-keepttl (legacy-mode node-redis clients)', setRule, {
  valid: legacy,
  invalid: [],
});
