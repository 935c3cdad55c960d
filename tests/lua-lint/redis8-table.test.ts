// Redis 8's own data types in the command table (semantics/redis8-types.ts, merged into semantics/commands.ts) and in lua-lint's verdicts:
// what creates a key without TTL, what raises on a missing or an existing key, what keeps or drops
// a TTL; the names node-redis' module namespaces send; a command no table knows is reported. Checked
// on a real server in redis8-types-redis.test.ts where the server has the type.
import { describe, expect, it } from 'vitest';
import { analyzeLua } from '../../lua-lint/index.js';
import { describeCommand, isKnownCommand, isRedis8TypeCommand, moduleCommandName } from '../../semantics/commands.js';

function ids(...lines: string[]): string[] {
  return analyzeLua(lines.join('\n'))
    .map((f) => `${f.ruleId ?? 'parse-error'}@${f.line}`)
    .sort();
}

const keys = (...call: Array<string | number | undefined>) => describeCommand(String(call[0]), call.slice(1)).keys;

describe('the table', () => {
  it('JSON: a root write creates or replaces in place, a write below the root needs the key, XX never creates', () => {
    expect(keys('JSON.SET', 'k', '$', '{}')).toEqual([{ arg: 0, effect: 'create-in-place' }]);
    expect(keys('JSON.SET', 'k', '.', '{}')).toEqual([{ arg: 0, effect: 'create-in-place' }]);
    expect(keys('JSON.SET', 'k', '$.a', '1')).toEqual([{ arg: 0, effect: 'modify-if-present', mustExist: true }]);
    expect(keys('JSON.SET', 'k', '$', '{}', 'XX')).toEqual([{ arg: 0, effect: 'modify-if-present' }]);
    expect(keys('JSON.SET', 'k', '$', '{}', 'NX')).toEqual([{ arg: 0, effect: 'create-if-missing' }]);
    // a path that is not a literal: a creation at the root, and the path's index, since below it nothing is created
    expect(keys('JSON.SET', 'k', undefined, '{}')).toEqual([{ arg: 0, effect: 'create-in-place', rootPathArg: 1 }]);
    expect(keys('JSON.MSET', 'a', undefined, '1')).toEqual([{ arg: 0, effect: 'create-in-place', rootPathArg: 1 }]);
    expect(keys('JSON.MERGE', 'k', '$', '{}')).toEqual([{ arg: 0, effect: 'create-in-place' }]);
    // JSON.MSET takes key path value triples
    expect(keys('JSON.MSET', 'a', '$', '1', 'b', '$.x', '2')).toEqual([
      { arg: 0, effect: 'create-in-place' },
      { arg: 3, effect: 'modify-if-present', mustExist: true },
    ]);
    expect(keys('JSON.DEL', 'k')).toEqual([{ arg: 0, effect: 'delete' }]);
    expect(keys('JSON.DEL', 'k', '$.a')).toEqual([{ arg: 0, effect: 'modify-if-present', mayDelete: true }]);
    expect(keys('JSON.NUMINCRBY', 'k', '$.n', 1)).toEqual([{ arg: 0, effect: 'modify-if-present', mustExist: true }]);
    expect(keys('JSON.MGET', 'a', 'b', '$')).toEqual([
      { arg: 0, effect: 'read' },
      { arg: 1, effect: 'read' },
    ]);
  });

  it('time series: TS.CREATE raises on an existing key, TS.ADD creates, TS.MADD does not; RETENTION is no key TTL', () => {
    const create = describeCommand('TS.CREATE', ['t', 'RETENTION', 60000]);
    expect(create.keys).toEqual([{ arg: 0, effect: 'create-in-place', mustBeMissing: true }]);
    expect(create.ttl).toBeUndefined();
    expect(describeCommand('TS.ADD', ['t', '*', 1, 'RETENTION', 60000]).ttl).toBeUndefined();
    expect(keys('TS.ADD', 't', '*', 1)).toEqual([{ arg: 0, effect: 'create-in-place' }]);
    expect(keys('TS.MADD', 'a', '*', 1, 'b', '*', 2)).toEqual([
      { arg: 0, effect: 'modify-if-present' },
      { arg: 3, effect: 'modify-if-present' },
    ]);
    expect(keys('TS.CREATERULE', 'src', 'dst', 'AGGREGATION', 'avg', 1000)).toEqual([
      { arg: 0, effect: 'read', mustExist: true },
      { arg: 1, effect: 'modify-if-present', mustExist: true },
    ]);
  });

  it('probabilistic types: ADD creates Bloom and cuckoo filters, the rest only their own create command; TDIGEST.MERGE overwrites', () => {
    expect(keys('BF.ADD', 'b', 'x')).toEqual([{ arg: 0, effect: 'create-in-place' }]);
    expect(keys('BF.INSERT', 'b', 'ITEMS', 'x')).toEqual([{ arg: 0, effect: 'create-in-place' }]);
    expect(keys('BF.INSERT', 'b', 'NOCREATE', 'ITEMS', 'x')).toEqual([{ arg: 0, effect: 'modify-if-present', mustExist: true }]);
    expect(keys('CF.RESERVE', 'c', 100)).toEqual([{ arg: 0, effect: 'create-in-place', mustBeMissing: true }]);
    expect(keys('TOPK.ADD', 't', 'x')).toEqual([{ arg: 0, effect: 'modify-if-present', mustExist: true }]);
    expect(keys('CMS.INCRBY', 'c', 'x', 1)).toEqual([{ arg: 0, effect: 'modify-if-present', mustExist: true }]);
    expect(keys('TDIGEST.MERGE', 'd', 2, 's1', 's2')).toEqual([
      { arg: 0, effect: 'overwrite' },
      { arg: 2, effect: 'read' },
      { arg: 3, effect: 'read' },
    ]);
  });

  it('knows every command of Redis 8.0 and its types, and not a module it does not ship', () => {
    for (const name of ['VADD', 'VSIM', 'LMPOP', 'ZINTERCARD', 'XREADGROUP', 'TDIGEST.TRIMMED_MEAN', 'CF.INSERTNX', 'TS.MREVRANGE']) expect(isKnownCommand(name)).toBe(true);
    for (const name of ['GCRA', 'CL.THROTTLE', 'FT.SEARCH', 'FROBNICATE']) expect(isKnownCommand(name)).toBe(false);
  });
});

describe('the names node-redis sends', () => {
  it.each([
    ['json', 'set', 'JSON.SET'],
    ['json', 'SET', 'JSON.SET'],
    ['json', 'arrAppend', 'JSON.ARRAPPEND'],
    ['json', 'mSet', 'JSON.MSET'],
    ['ts', 'add', 'TS.ADD'],
    ['ts', 'mAdd', 'TS.MADD'],
    ['ts', 'incrBy', 'TS.INCRBY'],
    ['bf', 'reserve', 'BF.RESERVE'],
    ['cf', 'addNX', 'CF.ADDNX'],
    ['cms', 'initByDim', 'CMS.INITBYDIM'],
    ['topK', 'reserve', 'TOPK.RESERVE'],
    ['tDigest', 'create', 'TDIGEST.CREATE'],
    ['tDigest', 'trimmedMean', 'TDIGEST.TRIMMED_MEAN'],
  ])('client.%s.%s sends %s', (namespace, method, command) => {
    expect(moduleCommandName(namespace, method)).toBe(command);
    expect(isRedis8TypeCommand(command)).toBe(true);
  });

  it('nothing for another namespace or method', () => {
    expect(moduleCommandName('ft', 'search')).toBeUndefined();
    expect(moduleCommandName('json', 'frobnicate')).toBeUndefined();
    expect(moduleCommandName('constructor', 'name')).toBeUndefined();
    expect(isRedis8TypeCommand('VADD')).toBe(true);
    expect(isRedis8TypeCommand('SET')).toBe(false);
  });
});

describe("lua-lint on Redis 8's types", () => {
  it.each([
    ["redis.call('JSON.SET', KEYS[1], '$', ARGV[1])"],
    ["redis.call('JSON.MERGE', KEYS[1], '$', ARGV[1])"],
    ["redis.call('TS.ADD', KEYS[1], '*', ARGV[1], 'RETENTION', 60000)"],
    ["redis.call('TS.CREATE', KEYS[1], 'RETENTION', 60000)"],
    ["redis.call('BF.ADD', KEYS[1], ARGV[1])"],
    ["redis.call('CF.INSERT', KEYS[1], 'ITEMS', ARGV[1])"],
    ["redis.call('TDIGEST.CREATE', KEYS[1])"],
    ["redis.call('TOPK.RESERVE', KEYS[1], 10)"],
    ["redis.call('CMS.INITBYPROB', KEYS[1], 0.001, 0.01)"],
    ["redis.call('VADD', KEYS[1], 'VALUES', 2, 1, 2, ARGV[1])"],
  ])('%s creates the key without TTL', (write) => {
    expect(ids(write)).toEqual(['write-path-needs-ttl@1']);
    expect(ids(write, "redis.call('PEXPIRE', KEYS[1], 60000)")).toEqual([]);
  });

  it('a write in place keeps the TTL of a key that exists; a write below the JSON root needs the key', () => {
    expect(ids("if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end", "redis.call('JSON.SET', KEYS[1], '$', ARGV[1])", "redis.call('TS.ADD', KEYS[2], '*', 1)", "redis.call('EXPIRE', KEYS[2], 60)")).toEqual([]);
    // below the root a missing key raises: nothing is created
    expect(ids("redis.call('JSON.SET', KEYS[1], '$.count', ARGV[1])")).toEqual([]);
    expect(ids("redis.call('JSON.NUMINCRBY', KEYS[1], '$.n', 1)", "redis.call('TDIGEST.ADD', KEYS[2], 1.5)")).toEqual([]);
  });

  it('a JSON write whose path is not a literal creates a missing key only at the root', () => {
    // a path that starts below the root ('$.x', '.x', a legacy 'x'): the key must exist, nothing is created
    expect(ids("redis.call('JSON.SET', KEYS[1], '$.results[' .. ARGV[1] .. '].result', ARGV[2])")).toEqual([]);
    expect(ids("redis.call('JSON.SET', KEYS[1], ('.a' .. ARGV[1]) .. '.b', ARGV[2])")).toEqual([]);
    expect(ids("redis.call('JSON.MERGE', KEYS[1], 'user' .. ARGV[1], ARGV[2])")).toEqual([]);
    // a path from the caller: taken below the root, except in strict mode
    const fromCaller = "local path = ARGV[1]\nredis.call('JSON.SET', KEYS[1], path, ARGV[2])";
    expect(ids(fromCaller)).toEqual([]);
    expect(analyzeLua(fromCaller, { strict: true }).map((f) => `${f.ruleId}@${f.line}`)).toEqual(['write-path-needs-ttl@2']);
    // near misses: a prefix that may be the root itself ('$' .. rest), and the root as a literal
    expect(ids("redis.call('JSON.SET', KEYS[1], '$' .. ARGV[1], ARGV[2])")).toEqual(['write-path-needs-ttl@1']);
    expect(ids("redis.call('JSON.SET', KEYS[1], '.', ARGV[2])")).toEqual(['write-path-needs-ttl@1']);
  });

  it('a create command on a key that exists raises: the writes before it stay', () => {
    expect(ids("redis.call('INCR', KEYS[2])", "redis.call('TS.CREATE', KEYS[1])", "redis.call('EXPIRE', KEYS[1], 60)", "redis.call('EXPIRE', KEYS[2], 60)")).toEqual([
      'write-path-needs-ttl@1',
    ]);
    expect(analyzeLua("redis.call('INCR', KEYS[2])\nredis.call('TS.CREATE', KEYS[1])\nredis.call('EXPIRE', KEYS[1], 60)\nredis.call('EXPIRE', KEYS[2], 60)")[0]!.message).toContain(
      'when KEYS[1] exists',
    );
  });

  it('TDIGEST.MERGE drops the TTL of an existing destination', () => {
    expect(ids("if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end", "redis.call('TDIGEST.MERGE', KEYS[1], 1, KEYS[2])")).toEqual(['write-path-needs-ttl@2']);
  });

  it('a command no table knows is said, naming it, and not taken as a write', () => {
    const findings = analyzeLua("redis.call('CL.THROTTLE', KEYS[1], 15, 30, 60)\nredis.call('GCRA', KEYS[2], 10, 60)");
    expect(findings.map((f) => `${f.ruleId}@${f.line}:${f.severity}`)).toEqual(['unanalyzable-command@1:1', 'unanalyzable-command@2:1']);
    expect(findings[0]!.message).toBe(
      'CL.THROTTLE is a command lua-lint does not know (not in Redis 8 nor its JSON, time series, probabilistic and vector set types), so nothing is proved about the keys it writes or their TTL. Check it by hand, or disable this line.',
    );
    expect(ids('-- lua-lint-disable-next-line unanalyzable-command -- redis-cell keeps its own TTL', "redis.call('CL.THROTTLE', KEYS[1], 15, 30, 60)")).toEqual([]);
  });
});
