/**
 * Key parts the shape used to leave `*` (round 19, seventeenth validation set:
 * redis-calls/key-parts.ts), so that a declared `persistentKeys` pattern could not reach them:
 * an instance getter returning the key (read like a member holding it, when its body is that one
 * `return`), a call of an imported builder in TypeScript's CommonJS spelling (`(0, keys_1.fn)(x)`,
 * looked up like `keys_1.fn(x)`), and a factory that fills the object it returns with
 * `Object.assign` (its options are configuration: `config.keyPrefix || 'jaf:a2a:tasks:'` is spelled
 * by its default). Limits: a getter with branches or more statements, a sequence whose leading
 * expressions are not literals, a prefix from configuration without default, and an option read
 * by a function that makes no instance stay `*`.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import incrRule from '../../rules/incr-needs-expire-on-create.js';
import { STRICT_KEY_POLICY } from '../helpers/lint.js';
import { keyShapes } from '../helpers/key-shapes.js';
import { ioredis, runRule, untypedTester, persistentSettings as persistent } from './tester.js';

const root = mkdtempSync(join(tmpdir(), 'redis-ttl-key-parts-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
function write(path: string, text: string): void {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), text);
}
// a key module as tsc compiles it to CommonJS (tog-node's lib/keys.js)
write(
  'lib/keys.js',
  [
    '"use strict";',
    'Object.defineProperty(exports, "__esModule", { value: true });',
    'exports.namespaceKey = exports.namespaceChangedKey = void 0;',
    "exports.namespaceChangedKey = 'tog3:namespace-changed';",
    'function namespaceKey(namespace) {',
    '    return "tog3:flags:" + namespace;',
    '}',
    'exports.namespaceKey = namespaceKey;',
  ].join('\n'),
);
const client = join(root, 'lib', 'flagClient.ts');

// the A2A task store of @xynehq/jaf: a factory whose provider object is filled by Object.assign
const taskStore = (prefix: string, filled = 'Object.assign(provider, providerImpl);') =>
  [
    'export const createStore = async (config, redisClient) => {',
    `  const keyPrefix = ${prefix};`,
    '  const getTaskKey = (taskId) => `${keyPrefix}task:${taskId}`;',
    '  const getStatsKey = () => `${keyPrefix}stats`;',
    '  const provider = {};',
    '  const providerImpl = {',
    '    storeTask: async (task) => {',
    '      const multi = redisClient.multi();',
    "      multi.hincrby(getStatsKey(), 'totalTasks', 1);",
    '      probe(getStatsKey()); probe(getTaskKey(task.id));',
    '      await multi.exec();',
    '    },',
    '  };',
    `  ${filled}`,
    '  return provider;',
    '};',
  ].join('\n');

// OpenQuester's GameIndexManager: index keys behind getters over a readonly prefix
const indexManager = (getter: string) =>
  [
    "const GAME_NAMESPACE = 'game';",
    'export class GameIndexManager {',
    '  private readonly INDEX_PREFIX = `${GAME_NAMESPACE}:index`;',
    '  constructor(private readonly pipeline: any) {}',
    '  add(id: string, at: number) { probe(this._createdAtIndexKey); return redis.zadd(this._createdAtIndexKey, at, id); }',
    `  private get _createdAtIndexKey() { ${getter} }`,
    '}',
  ].join('\n');

describe('key parts', () => {
  it('reads an instance getter whose body is one return, like a member holding its value', () => {
    expect(keyShapes(indexManager('return `${this.INDEX_PREFIX}:createdAt`;'))).toEqual(['game:index:createdAt one']);
    const privateName = ["class S {", "  #prefix = 'sess';", '  get #all() { return `${this.#prefix}:all`; }', '  touch() { probe(this.#all); }', '}'].join('\n');
    expect(keyShapes(privateName)).toEqual(['sess:all one']);
    // what the getter returns decides: a member written outside the constructor is no fixed part
    const data = ['class S {', '  user: string;', '  login(u: string) { this.user = u; }', '  get key() { return `sess:${this.user}`; }', '  touch() { probe(this.key); }', '}'].join('\n');
    expect(keyShapes(data)).toEqual(['sess:* many']);
    // get jobId(): the identity of the entity the instance is made for, however fixed
    const identity = ["class J {", '  constructor(private readonly job: { id: string }) {}', '  get jobId() { return `${this.job.id}`; }', '  run() { probe(`job:${this.jobId}`); }', '}'].join('\n');
    expect(keyShapes(identity)).toEqual(['job:* many']);
  });

  it('leaves a getter with branches, statements before its return, a setter or a field of its name unread', () => {
    expect(keyShapes(indexManager('if (this.pipeline) return `${this.INDEX_PREFIX}:a`; return `${this.INDEX_PREFIX}:b`;'))).toEqual(['* many']);
    expect(keyShapes(indexManager('const p = this.INDEX_PREFIX; return `${p}:createdAt`;'))).toEqual(['* many']);
    const withSetter = indexManager('return `${this.INDEX_PREFIX}:createdAt`;').replace('  private get', '  set _createdAtIndexKey(v: string) { this.pipeline = v; }\n  private get');
    expect(keyShapes(withSetter)).toEqual(['* many']);
    // a static getter is the class's (redis-calls/class-statics.ts), not read through an instance
    const staticGetter = indexManager('return `${this.INDEX_PREFIX}:createdAt`;').replace('private get', 'static get');
    expect(keyShapes(staticGetter)).toEqual(['* many']);
  });

  it("looks up a compiled call of an imported builder, (0, keys_1.fn)(x), as keys_1.fn(x)", () => {
    const code = [
      'var keys_1 = require("./keys");',
      'probe(keys_1.namespaceKey(flag.namespace));',
      'probe((0, keys_1.namespaceKey)(flag.namespace));',
      "probe((0, keys_1.namespaceKey)('main'));",
      'probe(keys_1.namespaceChangedKey);',
      // a sequence whose leading expression is not a literal is not that spelling
      'probe((log(), keys_1.namespaceKey)(flag.namespace));',
    ].join('\n');
    expect(keyShapes(code, client, root)).toEqual(['tog3:flags:* many', 'tog3:flags:* many', 'tog3:flags:main one', 'tog3:namespace-changed one', '* many']);
    const local = "function userKey(id: string) { return `user:${id}`; }\nprobe((0, userKey)(id));";
    expect(keyShapes(local)).toEqual(['user:* many']);
  });

  it("spells a factory's configured prefix by its default when the factory fills the object it returns", () => {
    expect(keyShapes(taskStore("config.keyPrefix || 'jaf:a2a:tasks:'"))).toEqual(['jaf:a2a:tasks:stats one', 'jaf:a2a:tasks:task:* many']);
    expect(keyShapes(taskStore("config.keyPrefix ?? 'jaf:a2a:tasks:'"))).toEqual(['jaf:a2a:tasks:stats one', 'jaf:a2a:tasks:task:* many']);
    // configuration without default: fixed, but not spelled
    expect(keyShapes(taskStore('config.keyPrefix'))).toEqual(['*stats one', '*task:* many']);
    // the object filled with data, or not filled at all: no instance, the option may be data
    expect(keyShapes(taskStore("config.keyPrefix || 'jaf:a2a:tasks:'", 'Object.assign(provider, { size: 1 });'))).toEqual(['*stats many', '*task:* many']);
    expect(keyShapes(taskStore("config.keyPrefix || 'jaf:a2a:tasks:'", ''))).toEqual(['*stats many', '*task:* many']);
  });
});

/** The note of a receiver taken for a client by its name (jaf's injected client, untyped). */
const multiNote = " (`multi` is taken for a Redis client because its name matches clientNames 'redis'.)";
/** The suggestion on the stats HINCRBY of {@link taskStore}: queue its EXPIRE in the same MULTI. */
const statsExpire = (code: string) => [
  {
    messageId: 'appendExpire' as const,
    data: { expire: 'expire(getStatsKey(), TTL_SECONDS)', declare: '; declare TTL_SECONDS with the TTL this key needs' },
    output: code.replace("multi.hincrby(getStatsKey(), 'totalTasks', 1)", "multi.hincrby(getStatsKey(), 'totalTasks', 1).expire(getStatsKey(), TTL_SECONDS)"),
  },
];
const hint = (key: string) => ` Kept forever on purpose? Add '${key}' to settings['redis-ttl'].persistentKeys.`;
const jaf = (prefix: string) => taskStore(prefix).replace('      probe(getStatsKey()); probe(getTaskKey(task.id));\n', '');
const openQuester = (getter: string) => ioredis(indexManager(getter).replace('probe(this._createdAtIndexKey); ', ''));

runRule(untypedTester, 'incr-needs-expire-on-create (key parts: defaults of a filled factory, getters)', incrRule, {
  valid: [
    { code: jaf("config.keyPrefix || 'jaf:a2a:tasks:'"), settings: persistent('jaf:a2a:tasks:stats') },
    // strict: no constant key left alone, so the declared pattern is what exempts it
    { code: openQuester('return `${this.INDEX_PREFIX}:createdAt`;'), options: [STRICT_KEY_POLICY], settings: persistent('game:index:*') },
  ],
  invalid: [
    {
      code: jaf("config.keyPrefix || 'jaf:a2a:tasks:'"),
      options: [STRICT_KEY_POLICY],
      errors: [{ messageId: 'noExpiry', line: 9, column: 13, data: { command: 'HINCRBY', key: 'jaf:a2a:tasks:stats', hint: '', client: multiNote }, suggestions: statsExpire(jaf("config.keyPrefix || 'jaf:a2a:tasks:'")) }],
    },
    // the prefix without default: the declared default does not match
    {
      code: jaf('config.keyPrefix'),
      options: [STRICT_KEY_POLICY],
      settings: persistent('jaf:a2a:tasks:stats'),
      errors: [{ messageId: 'noExpiry', line: 9, column: 13, data: { command: 'HINCRBY', key: '*stats', hint: '', client: multiNote }, suggestions: statsExpire(jaf('config.keyPrefix')) }],
    },
    {
      code: openQuester('return `${this.INDEX_PREFIX}:createdAt`;'),
      options: [STRICT_KEY_POLICY],
      errors: [{ messageId: 'noExpiry', line: 7, column: 46, data: { command: 'ZADD', key: 'game:index:createdAt', hint: hint('game:index:createdAt'), client: '' } }],
    },
    // a getter with branches stays unread: reported even with the pattern
    {
      code: openQuester('if (this.pipeline) return `${this.INDEX_PREFIX}:a`; return `${this.INDEX_PREFIX}:b`;'),
      settings: persistent('game:index:*'),
      errors: [{ messageId: 'noExpiry', line: 7, column: 46, data: { command: 'ZADD', key: 'this._createdAtIndexKey', hint: '', client: '' } }],
    },
  ],
});
