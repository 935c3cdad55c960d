/**
 * A client reached through an accessor, untyped (round 17, actionhero's `client()`): a function,
 * method or getter that takes no argument and returns a value that is a client by its name
 * (`api.redis.clients.client`: the weak name `client` under a path that names Redis) makes its
 * call result a client, in its own module or imported from another. Limits: a function with a
 * parameter is no accessor; a returned value whose path names no Redis, or that is computed, says
 * nothing.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import setRule from '../../rules/set-requires-ttl-or-keepttl.js';
import { runRule, untypedTester } from './tester.js';

const fixturesDir = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures');
const accessor = `function client() {
  if (api.redis.clients && api.redis.clients.client) return api.redis.clients.client;
  throw new Error('redis not connected');
}
`;
/** The two suggestions of a SET without TTL whose client's syntax is unknown: tokens appended to `call`. */
const suggestions = (code: string, call: string) => [
  { messageId: 'addExpiryPlaceholder' as const, output: code.replace(call, `${call.slice(0, -1)}, 'EX', TTL_SECONDS)`) },
  { messageId: 'addKeepTtl' as const, output: code.replace(call, `${call.slice(0, -1)}, 'KEEPTTL')`) },
];
/** A file of a package whose lib/redis.js exports the accessor `client()`. */
const cacheFile = join(fixturesDir, 'accessor-client', 'lib', 'cache.js');

runRule(untypedTester, 'set-requires-ttl-or-keepttl (client reached through an accessor)', setRule, {
  valid: [
    { code: `${accessor}async function save(k, v, ms) { await client().set(k, v, 'PX', ms); }` },
    // a function that takes an argument is a lookup, not an accessor
    { code: `function client(name) { return api.redis.clients.client; }\nclient('main').set(k, v);` },
    // a path that names no Redis: the weak name alone says nothing
    { code: `function client() { return api.db.clients.client; }\nclient().set(k, v);` },
    // a computed value has no name to judge
    { code: `function client() { return pool[index]; }\nclient().set(k, v);` },
  ],
  invalid: [
    {
      code: `${accessor}async function save(k, v) { await client().set(k, v); }`,
      errors: [{ messageId: 'setWithoutTtl', line: 5, column: 44, suggestions: suggestions(`${accessor}async function save(k, v) { await client().set(k, v); }`, 'set(k, v)') }],
    },
    {
      // a getter of a class
      code: `class Cache {\n  get conn() { return this.app.redis.client; }\n  save(k, v) { return this.conn.set(k, v); }\n}`,
      errors: [{ messageId: 'setWithoutTtl', line: 3, column: 33, suggestions: suggestions(`class Cache {\n  get conn() { return this.app.redis.client; }\n  save(k, v) { return this.conn.set(k, v); }\n}`, 'set(k, v)') }],
    },
    {
      // the accessor of another module of the code
      code: `const { client } = require('./redis');\nconst redisPrefix = 'cache:';\nasync function save(k, v) { await client().set(redisPrefix + k, v); }`,
      filename: cacheFile,
      errors: [{ messageId: 'setWithoutTtl', line: 3, column: 44, suggestions: suggestions(`const { client } = require('./redis');\nconst redisPrefix = 'cache:';\nasync function save(k, v) { await client().set(redisPrefix + k, v); }`, 'set(redisPrefix + k, v)') }],
    },
    {
      // the member itself, as a receiver
      code: `api.redis.clients.client.set(k, v);`,
      errors: [{ messageId: 'setWithoutTtl', line: 1, column: 26, suggestions: suggestions(`api.redis.clients.client.set(k, v);`, 'set(k, v)') }],
    },
  ],
});
