/**
 * Two ways a write of a recognised shape went unread (issue 25, round 14):
 *
 * - a node-style callback passed **by name** as a command's last argument (`client.set(k, v, cb)`
 *   in `function save(sid, data, cb)`): ioredis and node-redis 3 call it with the reply and never
 *   send it, so it is no expiry token. It is a callback when bound to a function (a function
 *   declaration, a `const` arrow), called somewhere in its scope (`cb && cb(err)`), or named as
 *   one (`cb`, `callback`, `...Callback`, `...Cb`); any other trailing name may be an expiry and
 *   stays unknown;
 * - the generic member name `client` of something whose own name says Redis (`this.client` in
 *   `class RedisStore`, `RedisStore.client`), in a file that imports no client package: that
 *   member is its Redis client. Elsewhere `client` alone still proves nothing.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import incrRule from '../../rules/incr-needs-expire-on-create.js';
import setRule from '../../rules/set-requires-ttl-or-keepttl.js';
import { runRule, untypedTester } from './tester.js';

const fixtures = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures');
/** A file of an application whose package.json declares `redis: ^3.1.2`. */
const v3 = join(fixtures, 'node-redis-3', 'app.js');

/** node_redis 3, required on lines 1-2; `body` starts on line 3. */
const required = (body: string): string => `const redis = require('redis');\nconst client = redis.createClient();\n${body}`;
/** ioredis on lines 1-2; `body` starts on line 3. */
const ioredis = (body: string): string => `const Redis = require('ioredis');\nconst client = new Redis();\n${body}`;

/**
 * The SET-then-EXPIRE finding of the SET at line 4, column `column`, with its two suggestions: the
 * tokens inserted after `value` (the SET's second argument as written) in `code`: the EXPIRE's own
 * TTL (60), with the EXPIRE statement `removed` when it can go (redis-calls/write-expiry.ts), and KEEPTTL.
 */
const setThenExpire = (code: string, value: string, column: number, removed?: string) => ({
  messageId: 'setThenExpire' as const,
  line: 4,
  column,
  suggestions: [
    {
      messageId: removed ? ('moveLaterExpiry' as const) : ('addLaterExpiry' as const),
      output: code.replace(`${value}, `, `${value}, 'EX', 60, `).replace(removed ?? '', ''),
    },
    { messageId: 'addKeepTtl' as const, output: code.replace(`${value}, `, `${value}, 'KEEPTTL', `) },
  ],
});

const calledElsewhere = required("function save(sid, data, fn) {\n  client.set('sess:' + sid, data, fn);\n  client.expire('sess:' + sid, 60, fn);\n  fn && fn(null);\n}");
const constArrow = ioredis("const done = (err) => {}; function save(sid, data) {\n  client.set('sess:' + sid, data, done);\n  client.expire('sess:' + sid, 60);\n}");
const declared = required("function save(sid, data) {\n  client.set('sess:' + sid, data, onReply);\n  client.expire('sess:' + sid, 60);\n}\nfunction onReply(err) {}");

runRule(untypedTester, 'set-requires-ttl-or-keepttl (a callback passed by name)', setRule, {
  valid: [
    // the expiry is there, the callback after it
    { code: required("function save(k, v, cb) {\n  client.set(k, v, 'EX', 60, cb);\n}"), filename: v3 },
    { code: ioredis("function save(k, v, callback) {\n  client.set(k, v, 'PX', 500, callback);\n}") },
    // a trailing name that is not known to be a function may be the expiry's tokens: unknown
    { code: required('function save(k, v, extra) {\n  client.set(k, v, extra);\n}'), filename: v3 },
    { code: required('function save(k, v, options) {\n  client.set(k, v, ...options);\n}'), filename: v3 },
  ],
  invalid: [
    {
      // named `cb`: a SET without expiry, the suggestions before the callback
      code: required('function save(k, v, cb) {\n  client.set(k, v, cb);\n}'),
      filename: v3,
      errors: [
        {
          messageId: 'setWithoutTtl',
          line: 4,
          column: 10,
          suggestions: [
            { messageId: 'addExpiryPlaceholder', output: required("function save(k, v, cb) {\n  client.set(k, v, 'EX', TTL_SECONDS, cb);\n}") },
            { messageId: 'addKeepTtl', output: required("function save(k, v, cb) {\n  client.set(k, v, 'KEEPTTL', cb);\n}") },
          ],
        },
      ],
    },
    // called elsewhere in the function: a function, whatever its name; the EXPIRE passes it too, so
    // removing the EXPIRE would call it once less: the EXPIRE stays
    { code: calledElsewhere, filename: v3, errors: [setThenExpire(calledElsewhere, '+ sid, data', 10)] },
    // a const arrow function (ioredis takes callbacks too); the EXPIRE has none: it goes
    { code: constArrow, errors: [setThenExpire(constArrow, '+ sid, data', 10, "\n  client.expire('sess:' + sid, 60);")] },
    // a function declaration of the file
    { code: declared, filename: v3, errors: [setThenExpire(declared, '+ sid, data', 10, "\n  client.expire('sess:' + sid, 60);")] },
  ],
});

runRule(untypedTester, 'incr-needs-expire-on-create (a callback passed by name)', incrRule, {
  valid: [],
  invalid: [
    {
      code: required('function hit(k, callback) {\n  client.incr(k, callback);\n  client.expire(k, 60);\n}'),
      filename: v3,
      errors: [
        {
          messageId: 'separateRoundTrip',
          line: 4,
          column: 10,
          // no MULTI suggestion: the reply goes to a callback
          suggestions: [],
        },
      ],
    },
  ],
});

/** A class that keeps its client as `this.client`, no client package imported; `body` is a method. */
const store = (name: string, body: string): string =>
  `class ${name} {\n  constructor(client, windowMs) {\n    this.client = client;\n    this.windowMs = windowMs;\n  }\n${body}\n}`;
const increment =
  '  async increment(key) {\n    const n = await this.client.incr(key);\n    if (n === 1) await this.client.pexpire(key, this.windowMs);\n    return n;\n  }';

runRule(untypedTester, 'incr-needs-expire-on-create (the client member of a Redis-named owner)', incrRule, {
  valid: [
    // `client` of an owner whose name does not say Redis: nothing known
    { code: store('MemoryStore', increment) },
    { code: store('HttpStore', increment) },
    // clientNames set by the user replace the defaults: no weak `client` any more
    { code: store('RedisStore', increment), settings: { 'redis-ttl': { clientNames: ['^redisConn$'] } } },
    // another member of a Redis-named class: still only by its own name
    { code: store('RedisStore', increment.replace(/this\.client/g, 'this.http')) },
  ],
  invalid: [
    {
      code: store('RedisStore', increment),
      errors: [{ messageId: 'separateRoundTrip', line: 7, column: 33, suggestions: [] }],
    },
    {
      // a class expression named by its variable
      code: `let RedisCounter = ${store('', increment).replace('class  {', 'class {')};`,
      errors: [{ messageId: 'separateRoundTrip', line: 7, column: 33, suggestions: [] }],
    },
  ],
});

const redisStore = "var RedisStore = {\n  client: null,\n  set: function (sid, data) {\n    RedisStore.client.set('s:' + sid, data);\n    RedisStore.client.expire('s:' + sid, 60);\n  },\n};";

runRule(untypedTester, 'set-requires-ttl-or-keepttl (the client member of a Redis-named owner)', setRule, {
  valid: [{ code: redisStore.replace(/RedisStore/g, 'SessionStore') }],
  invalid: [
    {
      code: redisStore,
      errors: [
        {
          messageId: 'setThenExpire',
          line: 4,
          column: 23,
          suggestions: [
            { messageId: 'moveLaterExpiry', output: redisStore.replace('data);', "data, 'EX', 60);").replace("\n    RedisStore.client.expire('s:' + sid, 60);", '') },
            { messageId: 'addKeepTtl', output: redisStore.replace('data);', "data, 'KEEPTTL');") },
          ],
        },
      ],
    },
  ],
});
