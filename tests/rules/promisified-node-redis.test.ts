/**
 * node-redis 2 / 3 methods promisified (redis-calls/promisified.ts): bluebird's `promisifyAll`
 * (`setAsync`, a `suffix` option), `util.promisify` of a bound method (a variable, an object of
 * such functions, a member it is assigned to), `pify(client)` (every method, read on the client
 * it wraps). The promisified name sends the underlying command
 * with the same arguments, so every rule reads it as that command; a `*Async` method of anything
 * that is not a promisified node-redis client stays unread.
 */
import expireRule from '../../rules/expire-needs-positive-ttl.js';
import incrRule from '../../rules/incr-needs-expire-on-create.js';
import getsetRule from '../../rules/no-getset.js';
import setRule from '../../rules/set-requires-ttl-or-keepttl.js';
import { runRule, untypedTester } from './tester.js';

/** bluebird on the module, a client on line 3; `body` starts on line 4. */
const bluebirdModule = (body: string) =>
  `const bluebird = require('bluebird');\nconst redis = bluebird.promisifyAll(require('redis'));\nconst client = redis.createClient();\n${body}`;
/** bluebird (imported as Promise) on the prototypes, a client on line 5; `body` starts on line 6. */
const bluebirdPrototype = (body: string) =>
  `import Promise from 'bluebird';\nimport redis from 'redis';\nPromise.promisifyAll(redis.RedisClient.prototype);\nPromise.promisifyAll(redis.Multi.prototype);\nconst client = redis.createClient();\n${body}`;
/** util.promisify, a node-redis client on line 3; `body` starts on line 4. */
const utilPromisify = (body: string) =>
  `import { promisify } from 'util';\nimport { createClient } from 'redis';\nconst client = createClient();\n${body}`;
const fn = (body: string) => `export async function put(k: string, v: string) {\n${body}\n}`;

const setThenExpire = bluebirdModule(fn('  await client.setAsync(`token:${k}`, v);\n  await client.expireAsync(`token:${k}`, 5);'));
const prototypeSet = bluebirdPrototype(fn('  await client.setAsync(`user:${k}:status`, v);'));
const setWithEx = bluebirdModule(fn("  await client.setAsync(`token:${k}`, v, 'EX', 5);"));
const suffix = `const bluebird = require('bluebird');\nconst redis = require('redis');\nbluebird.promisifyAll(redis, { suffix: 'P' });\nconst client = redis.createClient();\n${fn('  await client.setP(`a:${k}`, v);\n  await client.setAsync(`b:${k}`, v);')}`;
const otherObject = bluebirdModule(fn('  const store = new Map();\n  await store.setAsync(`a:${k}`, v);'));
const notRedis = `const bluebird = require('bluebird');\nconst fs = bluebird.promisifyAll(require('fs'));\nconst redis = require('redis');\nconst client = redis.createClient();\n${fn('  await client.setAsync(`a:${k}`, v);')}`;
const bound = utilPromisify(`const setAsync = promisify(client.set).bind(client);\nconst expireAsync = promisify(client.expire.bind(client));\n${fn('  await setAsync(`s:${k}`, v);\n  await expireAsync(`s:${k}`, 60);')}`);
const boundAlone = utilPromisify(`const setAsync = promisify(client.set).bind(client);\n${fn('  await setAsync(`s:${k}`, v);')}`);
const unboundOther = utilPromisify(`const cache = { set(k: string, v: string, cb: () => void) { cb(); } };\nconst setAsync = promisify(cache.set).bind(cache);\n${fn('  await setAsync(`s:${k}`, v);')}`);
const objectOf = utilPromisify(`const redisAsync = {\n  getset: promisify(client.getset).bind(client),\n  expire: promisify(client.expire).bind(client),\n};\n${fn('  await redisAsync.getset(`g:${k}`, v);\n  await redisAsync.expire(`g:${k}`, 0);')}`);
const assigned = utilPromisify(`(client as any).incrAsync = promisify(client.incr).bind(client);\n${fn('  await (client as any).incrAsync(`n:${k}`);')}`);
const multiIncr = bluebirdPrototype(fn('  const m = client.multi();\n  m.incr(`c:${k}`);\n  m.expireAsync(`c:${k}`, 60);\n  await m.execAsync();'));
const chainIncr = bluebirdPrototype(fn('  await client.multi().incr(`c:${k}`).expire(`c:${k}`, 60).execAsync();'));
const separateIncr = bluebirdPrototype(fn('  await client.incrAsync(`c:${k}`);\n  await client.expireAsync(`c:${k}`, 60);'));
/**
 * pify of the whole client, a node-redis client on line 3; `body` starts on line 5. Its methods are
 * read through the variable holding the wrapper, whatever its name (`redisAsync.set(...)`, and
 * `set.set(...)` as before); the call is read on the client the wrapper wraps.
 */
const pifyClient = (name: string, body: string) =>
  `import pify from 'pify';\nimport { createClient } from 'redis';\nconst client = createClient();\nconst ${name} = pify(client);\n${body}`;
const pifySet = pifyClient('set', fn('  await set.set(`p:${k}`, v);'));
const pifySetThenExpire = pifyClient('set', fn('  await set.set(`p:${k}`, v);\n  await client.expire(`p:${k}`, 60);'));
const pifyIncr = pifyClient('incr', fn('  await incr.incr(`n:${k}`);'));
// the wrapper under a name of its own: the forms docs/configuration.md lists
const pifyNamed = pifyClient('redisAsync', fn('  await redisAsync.set(`p:${k}`, v);'));
const pifyNamedThenExpire = pifyClient('p', fn('  await p.set(`p:${k}`, v);\n  await p.expire(`p:${k}`, 60);'));
const pifyNamedIncr = pifyClient('redisAsync', fn('  await redisAsync.incr(`n:${k}`);'));
const pifyBoundMethod = utilPromisify(`import pify from 'pify';\nconst putAsync = pify(client.set.bind(client));\n${fn('  await putAsync(`s:${k}`, v);')}`);
// near misses: a variable of the same name in an inner scope that is no wrapper, a wrapper of no
// client, a method of the wrapper that is no command, the wrapper itself called
const pifyShadowed = pifyClient('p', fn('  const p = new Map();\n  await p.set(`p:${k}`, v);'));
const pifyOfMap = pifyClient('p', fn('  const cacheAsync = pify(new Map());\n  await cacheAsync.set(`p:${k}`, v);'));
const pifyNotCommand = pifyClient('p', fn('  await p.quitAfter(`p:${k}`, v);\n  await p(`p:${k}`);'));

runRule(untypedTester, 'set-requires-ttl-or-keepttl (promisified node-redis)', setRule, {
  valid: [
    // node-redis 3 positional options through the promisified name: SET ... EX 5
    setWithEx,
    // a *Async method of something else, or where promisifyAll was applied to another module
    otherObject,
    notRedis,
    // util.promisify of a method of an object that is no Redis client
    unboundOther,
    // pify(client): SET ... EX through the wrapper; pify of something that is no Redis client
    pifyClient('set', fn("  await set.set(`p:${k}`, v, 'EX', 60);")),
    pifyClient('set', fn('  const store = pify(new Map());\n  await store.set(`p:${k}`, v);')),
    // through a wrapper of any name: SET ... EX; the near misses read nothing
    pifyClient('redisAsync', fn("  await redisAsync.set(`p:${k}`, v, 'EX', 60);")),
    pifyShadowed,
    pifyOfMap,
    pifyNotCommand,
  ],
  invalid: [
    { code: setThenExpire, errors: [{ messageId: 'setThenExpire', line: 5, column: 16 }] },
    { code: prototypeSet, errors: [{ messageId: 'setWithoutTtl', line: 7, column: 16 }] },
    // the suffix option: setP is SET, setAsync is not promisified here
    { code: suffix, errors: [{ messageId: 'setWithoutTtl', line: 6, column: 16 }] },
    { code: bound, errors: [{ messageId: 'setThenExpire', line: 7, column: 9 }] },
    { code: boundAlone, errors: [{ messageId: 'setWithoutTtl', line: 6, column: 9 }] },
    // pify(client): every method of the client under its own name, read on the client
    { code: pifySet, errors: [{ messageId: 'setWithoutTtl', line: 6, column: 13 }] },
    { code: pifySetThenExpire, errors: [{ messageId: 'setThenExpire', line: 6, column: 13 }] },
    { code: pifyNamed, errors: [{ messageId: 'setWithoutTtl', line: 6, column: 20 }] },
    { code: pifyNamedThenExpire, errors: [{ messageId: 'setThenExpire', line: 6, column: 11 }] },
    { code: pifyBoundMethod, errors: [{ messageId: 'setWithoutTtl', line: 7, column: 9 }] },
  ],
});

runRule(untypedTester, 'incr-needs-expire-on-create (promisified node-redis)', incrRule, {
  valid: [
    // the promisified EXPIRE queued in the same MULTI: atomic
    multiIncr,
    chainIncr,
  ],
  invalid: [
    { code: separateIncr, errors: [{ messageId: 'separateRoundTrip', line: 7, column: 16 }] },
    { code: assigned, errors: [{ messageId: 'noExpiry', line: 6, column: 25 }] },
    { code: pifyIncr, errors: [{ messageId: 'noExpiry', line: 6, column: 14 }] },
    { code: pifyNamedIncr, errors: [{ messageId: 'noExpiry', line: 6, column: 20 }] },
  ],
});

runRule(untypedTester, 'no-getset (promisified node-redis)', getsetRule, {
  valid: [],
  invalid: [{ code: objectOf, errors: [{ messageId: 'getset', line: 9, column: 20 }] }],
});

runRule(untypedTester, 'expire-needs-positive-ttl (promisified node-redis)', expireRule, {
  // EXPIRE 0 through the object of promisified functions: a DEL the code means, as for client.expire
  valid: [bluebirdModule(fn('  await client.expireAsync(`token:${k}`, 5);')), objectOf],
  invalid: [
    // SETEX rejects a TTL <= 0: the promisified SETEX too
    { code: bluebirdModule(fn('  await client.setexAsync(`token:${k}`, 0, v);')), errors: [{ messageId: 'literalRejected', line: 5, column: 41 }] },
    { code: utilPromisify(`const setex = promisify(client.setex, client);\n${fn('  await setex(`token:${k}`, 0, v);')}`), errors: [{ messageId: 'literalRejected', line: 6, column: 29 }] },
  ],
});
