/**
 * Counter wrappers and adapter method names (issue 25, sixth round): a wrapper is a pass-through
 * also when its name spells the command out (`increment` is INCR, `decrementBy` DECRBY), adds a
 * generic noun (`setKey`, `getValue`) or names a hash verb with its type (`setHash` is HSET), when
 * it forwards to a counter command adding the same amount (`incr(key) { return this.incrBy(key,
 * 1) }`: INCR is INCRBY 1), when it builds the key in a `const` first, logs around the call, or
 * forwards inside try / catch. Still reported: a wrapper that builds its own key from fixed parts,
 * one that also writes a second key, one whose amount differs from its name's, one whose name is
 * another command's, and one doing more than forwarding.
 */
import incrRule from '../../rules/incr-needs-expire-on-create.js';
import setRule from '../../rules/set-requires-ttl-or-keepttl.js';
import { ioredis, nodeRedis, runRule, setSuggestions, untypedTester } from './tester.js';

/** A cache class with a namespace builder, whose extra methods are `methods`. */
const cache = (methods: string): string =>
  ioredis(`export class Cache {\n  constructor(private readonly namespace: string, private readonly debug = false) {}\n  concatenateKey(key: string) { return \`\${this.namespace}:\${key}\`; }\n${methods}\n}`);

const counters = [
  // cachexs: the key built in a const first, a debug log after the call
  cache(
    '  async increment(key: string) {\n    const full = this.concatenateKey(key);\n    const value = await redis.incr(full);\n    if (this.debug) {\n      console.debug(`increment ${full}: ${value}`);\n    }\n    return value;\n  }',
  ),
  cache('  async decrement(key: string) {\n    const full = this.concatenateKey(key);\n    const value = await redis.decr(full);\n    if (this.debug) console.debug(full);\n    return value;\n  }'),
  cache('  incrementBy(key: string, by: number) { return redis.incrby(this.concatenateKey(key), by); }'),
  // INCR is INCRBY 1, DECR is INCRBY -1 or DECRBY 1: forwarded to another wrapper of the class
  cache('  incrBy(key: string, by: number) { return redis.incrby(this.concatenateKey(key), by); }\n  incr(key: string) { return this.incrBy(key, 1); }\n  decr(key: string) { return this.incrBy(key, -1); }'),
  ioredis('export class Counter {\n  incr(key: string) { return redis.incrby(key, 1); }\n  decr(key: string) { return redis.decrby(key, 1); }\n}'),
];

const adapters = [
  // nostream: awaits the connection, logs, compares the reply
  nodeRedis("export class RedisAdapter {\n  constructor(private readonly connection: Promise<void>) {}\n  async setKey(key: string, value: string) {\n    await this.connection;\n    debug('set %s key', key);\n    return 'OK' === (await client.set(key, value));\n  }\n}"),
  // passport: inside try / catch
  nodeRedis('export class PassportCache {\n  async set(key: string, value: string) {\n    try {\n      await client.set(key, value);\n    } catch (err) {\n      console.error(`REDIS ERROR ${String(err)}`);\n    }\n  }\n}'),
];

const hashAdapter = nodeRedis(
  'export class PassportCache {\n  async setHash(key: string, field: string, value: string) {\n    try {\n      await client.hSet(key, field, value);\n    } catch (err) {\n      console.error(`REDIS ERROR ${String(err)}`);\n    }\n  }\n}',
);

runRule(untypedTester, 'incr-needs-expire-on-create (counter wrappers)', incrRule, {
  valid: [...counters, hashAdapter],
  invalid: [
    // the wrapper's own key family
    { code: ioredis('export class Stats {\n  async increment(id: string) {\n    const key = `hits:${id}`;\n    return redis.incr(key);\n  }\n}'), errors: [{ messageId: 'noExpiry', line: 6 }] },
    // a second key written too (the constant `total` is left to allowConstantKeys)
    { code: ioredis("export class Stats {\n  async increment(key: string) {\n    await redis.incr('total');\n    return redis.incr(key);\n  }\n}"), errors: [{ messageId: 'noExpiry', line: 6 }] },
    // INCR named, INCRBY 2 sent; DECREMENT named, INCR sent
    { code: ioredis('export class Counter {\n  incr(key: string) { return redis.incrby(key, 2); }\n}'), errors: [{ messageId: 'noExpiry', line: 4 }] },
    { code: ioredis('export class Counter {\n  decrement(key: string) { return redis.incr(key); }\n}'), errors: [{ messageId: 'noExpiry', line: 4 }] },
    // more than forwarding, logs aside
    {
      code: ioredis('export class Stats {\n  async increment(key: string) {\n    audit(key);\n    notify(key);\n    const n = await redis.incr(key);\n    track(n);\n    return n;\n  }\n}'),
      errors: [{ messageId: 'noExpiry', line: 7 }],
    },
    // strict judges the wrapper itself
    { code: counters[1]!, options: [{ allowPassThrough: false }], errors: [{ messageId: 'noExpiry', line: 8 }] },
  ],
});

const getKey = ioredis('export class Store {\n  async getKey(key: string, value: string) {\n    return redis.set(key, value);\n  }\n}');
runRule(untypedTester, 'set-requires-ttl-or-keepttl (adapter wrappers)', setRule, {
  valid: adapters,
  invalid: [
    // named after another command
    { code: getKey, errors: [{ messageId: 'setWithoutTtl', line: 5, suggestions: setSuggestions(getKey, 'redis.set(key, value') }] },
  ],
});
