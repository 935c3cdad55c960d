/**
 * Thin wrapper methods of a library's API over the caller's key, whatever their names (issue 25,
 * the twelfth validation set: @multiversx/sdk-nestjs-cache's CacheService forwards ZINCRBY, SADD,
 * HSET and HINCRBY of its caller's key to its RedisCacheService, whose `hsetMany(hash, pairs)`
 * HSETs its caller's hash). Such a wrapper is a facade as a pass-through wrapper named after its
 * command is, when a method beside it (the same class or object literal) expires its own key
 * parameter (`setTtlRemote(key, ttl)`, `expire(key, ttl)`): the API lets its callers bound any key
 * they name. Not when the wrapper spells its own key family, sends a second command (also through a
 * method beside it: it then chooses the key's expiry itself), has no
 * expiring method beside it (or one that expires a key of its own choosing), is a plain function,
 * belongs to an application (its callers are not read as the command), or under `strict`.
 * Fixtures in tests/fixtures/service-wrappers (a library; `app/` is an application).
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import incrRule from '../../rules/incr-needs-expire-on-create.js';
import setRule from '../../rules/set-requires-ttl-or-keepttl.js';
import { ioredis, runRule, untypedTester } from './tester.js';

const fixtures = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'service-wrappers');
const file = (path: string) => ({ code: readFileSync(join(fixtures, path), 'utf8'), filename: join(fixtures, path) });

/** A class over `this.redis` (an ioredis client) with `methods`, from line 3 on (line 4: the first method). */
const service = (...methods: string[]): string =>
  ioredis(['export class CacheService {', '  constructor() { this.redis = redis; }', ...methods.map((m) => `  ${m}`), '}'].join('\n'));

const setTtl = 'setTtlRemote(key, ttl) { return this.redis.expire(key, ttl); }';
const record = service("record(key, m) { this.redis.sadd(key, m); return this.redis.publish('records', m); }", setTtl);
const kSet = service(
  'kSet(table, field, value) { this.redis.hset(this.tableKey(table), field, value); return this.exTable(this.tableKey(table)); }',
  'exTable(table) { return this.redis.expire(this.tableKey(table), 86400); }',
  "tableKey(table) { return 'daily:' + table; }",
);
const app = file('app/cache.service.js').code;
const hashIncrement = 'hashIncrementRemote(hash, field, n) { return this.redis.hincrby(hash, field, n); }';

runRule(untypedTester, 'incr-needs-expire-on-create (thin API wrappers beside an expiring method)', incrRule, {
  valid: [
    // the compiled NestJS library: CacheService over its RedisCacheService (`setTtlRemote`
    // forwards EXPIRE of its caller's key), and RedisCacheService's `hsetMany` beside `expire`
    file('lib/cache/cache.service.js'),
    file('lib/redis-cache/redis-cache.service.js'),
    // the TypeScript source: the same wrapper, its EXPIRE read through the facade it calls
    file('src/cache/cache.service.ts'),
    // any name, the key a parameter, beside a method expiring its own key parameter
    service(hashIncrement, setTtl),
    service('bump(key) { return this.redis.incr(key); }', 'ttl(key, seconds) { this.redis.pexpire(key, seconds * 1000); }'),
    // a key builder of the class given the caller's key, as a pass-through wrapper may use
    service('addMember(key, m) { return this.redis.sadd(this.full(key), m); }', 'expireKey(key, ttl) { return this.redis.expire(this.full(key), ttl); }', "full(key) { return 'app:' + key; }"),
    // an object literal's methods
    ioredis('export const store = {\n  bump: (key) => redis.incr(key),\n  keepFor: (key, s) => redis.expire(key, s),\n};'),
  ],
  invalid: [
    // an application: its callers are not read as the command, so the wrapper is judged where it is
    {
      ...file('app/cache.service.js'),
      errors: [
        { messageId: 'noExpiry', line: 15, column: 39 },
        {
          messageId: 'noExpiry',
          line: 18,
          column: 38,
          suggestions: [{ messageId: 'wrapInMulti', output: app.replace('this.redisCacheService.sadd(key, ...values)', 'this.redisCacheService.multi().sadd(key, ...values).expire(key, TTL_SECONDS).exec()') }],
        },
        { messageId: 'noExpiry', line: 21, column: 45 },
      ],
    },
    // no method beside it expires anything: the wrapper decides that the hash lives forever
    { code: service(hashIncrement, 'get(key) { return this.redis.get(key); }'), errors: [{ messageId: 'noExpiry', line: 5, column: 59 }] },
    // a receiver named like a service, a client behind it, no expiring method: still reported
    {
      code: ioredis('export class Counter {\n  constructor() { this.redisCacheService = redis; }\n  count(key) { return this.redisCacheService.incr(key); }\n}'),
      errors: [{ messageId: 'noExpiry', line: 5, column: 46 }],
    },
    // the wrapper spells its own key family: it chooses which keys exist
    { code: service('hit(id) { return this.redis.incr(`hits:${id}`); }', setTtl), errors: [{ messageId: 'noExpiry', line: 5, column: 31 }] },
    // the expiring method expires a key of its own choosing, not its caller's
    { code: service(hashIncrement, "touch() { return this.redis.expire('stats', 60); }"), errors: [{ messageId: 'noExpiry', line: 5, column: 59 }] },
    { code: service(hashIncrement, 'touch(id) { return this.redis.expire(`hits:${id}`, 60); }'), errors: [{ messageId: 'noExpiry', line: 5, column: 59 }] },
    // the wrapper calls the expiring method itself (with a key of its own: Miao-Yunzai's
    // DailyCache.kSet expires a doubly prefixed key): it chooses the key's lifetime, here wrongly
    {
      code: kSet,
      errors: [
        {
          messageId: 'noExpiry',
          line: 5,
          column: 42,
          suggestions: [{ messageId: 'wrapInMulti', output: kSet.replace('this.redis.hset(this.tableKey(table), field, value)', 'this.redis.multi().hset(this.tableKey(table), field, value).expire(this.tableKey(table), TTL_SECONDS).exec()') }],
        },
      ],
    },
    // a second command in the wrapper: it does more than forward
    {
      code: record,
      errors: [{ messageId: 'noExpiry', line: 5, column: 31, suggestions: [{ messageId: 'wrapInMulti', output: record.replace('this.redis.sadd(key, m)', 'this.redis.multi().sadd(key, m).expire(key, TTL_SECONDS).exec()') }] }],
    },
    // the method beside it writes and expires its own record: no expiry method for the callers
    {
      code: service(hashIncrement, 'save(hash, fields, ttl) { return this.redis.multi().hset(hash, fields).expire(hash, ttl).exec(); }'),
      errors: [{ messageId: 'noExpiry', line: 5, column: 59 }],
    },
    // plain functions of a module are no API of one store
    { code: ioredis('export function bump(key) { return redis.incr(key); }\nexport function keepFor(key, s) { return redis.expire(key, s); }'), errors: [{ messageId: 'noExpiry', line: 3, column: 42 }] },
    // strict judges every wrapper where it is
    { code: service(hashIncrement, setTtl), options: [{ allowPassThrough: false }], errors: [{ messageId: 'noExpiry', line: 5, column: 59 }] },
  ],
});

runRule(untypedTester, 'set-requires-ttl-or-keepttl (thin API wrappers beside an expiring method)', setRule, {
  valid: [service('put(key, value) { return this.redis.set(key, JSON.stringify(value)); }', setTtl)],
  invalid: [],
});
