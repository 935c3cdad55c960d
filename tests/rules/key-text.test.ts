/**
 * Key text the rules could not read (issue 25, ninth validation set: `persistentKeys` patterns
 * that cannot match): wherever a key's text is needed, the one key-text reader
 * (redis-calls/key-shape.ts) follows a member assigned once (its declaration or the constructor),
 * a const of the module or imported, however long the concatenation that joins them; a format
 * helper whose format string is known (Node's `util.format`, an application's
 * `String.prototype.format`); and the key of each pair a `map` / `flatMap` makes for MSET /
 * MSETNX. Unknown stays unknown: a member reassigned outside the constructor, a format string
 * that is not known, a mapped pair whose key is not at a key position are `*`, and a pattern
 * does not match them by accident.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import incrRule from '../../rules/incr-needs-expire-on-create.js';
import setRule from '../../rules/set-requires-ttl-or-keepttl.js';
import { keyShapes } from '../helpers/key-shapes.js';
import { ioredis, nodeRedis, runRule, setSuggestions, typedTester, untypedTester, persistentSettings as persistent } from './tester.js';

/** A file beside tests/fixtures/key-text/constants.cjs (key separators exported as frozen objects). */
const channelsFile = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'key-text', 'channels.ts');

describe('keyShapeOf, long concatenations', () => {
  it('reads every operand of a chain of `+`, however long', () => {
    const code = [
      "const A = 'app'; const B = 'v1'; const H = '#'; const K = 'keys'; const O = '['; const C = ']';",
      'probe(A + "-" + B + "-" + x + H + K + y + O + 0 + C);',
      "probe('a' + 'b' + 'c' + 'd' + 'e' + 'f' + 'g' + 'h' + 'i' + 'j' + 'k' + H);",
    ].join('\n');
    expect(keyShapes(code)).toEqual(['app-v1-*#keys*[0] many', 'abcdefghijk# one']);
  });

  it('reads a member the constructor builds from a prefix and imported parts', () => {
    const code = [
      "const { sep, pre, shards } = require('./constants.cjs');",
      'class Channels {',
      '  constructor(options = {}) {',
      "    let app = 'app';",
      '    if (options.app) app = options.app;',
      '    this.prefix = app + sep.BIND + options.schema;',
      '    if (options.sharded) this.keyHash = this.prefix + sep.HASH + pre.KEYS + shards[this.slots][0] + sep.OPEN + 0 + sep.CLOSE;',
      '    this.keyZset = this.prefix + sep.INDEX + pre.SHARDS + shards[this.slots][0] + sep.OPEN + 0 + sep.CLOSE;',
      '  }',
      '  use(group) { probe(this.keyHash); probe(this.keyZset); probe(this.prefix + sep.STREAM + group); }',
      '}',
      // reassigned outside the constructor: not one value
      'class Moved { constructor(p) { this.key = p + sep.HASH + pre.KEYS; } reset(p) { this.key = p; } use() { probe(this.key); } }',
    ].join('\n');
    expect(keyShapes(code, channelsFile)).toEqual(['*-*#keys*[0] many', '*-*:shards*[0] many', '*-*|* many', '* many']);
  });
});

describe('keyShapeOf, format helpers', () => {
  it("reads an application's String.prototype.format on a known format string", () => {
    const code = [
      "const INFO = 'judge-client-system-info:%s';",
      "const STATS = 'stats:{0}:{1}';",
      'probe(INFO.format(id)); probe(STATS.format(a, b)); probe(STATS.format(a, b, c)); probe(\'x:{name}:y\'.format(v)); probe(INFO.format(7));',
    ].join('\n');
    expect(keyShapes(code)).toEqual(['judge-client-system-info:* many', 'stats:*:* many', 'stats:*:* many', 'x:*:y many', 'judge-client-system-info:* one']);
  });

  it("reads Node's util.format as Node documents it", () => {
    const code = [
      "import util from 'node:util';",
      "import { format } from 'util';",
      "const { format: fmt } = require('util');",
      "probe(util.format('lock:%s:%d', name, 3)); probe(format('lock:%s', name)); probe(util.format('lock:%s:%s', name)); probe(fmt('a:%s%%', x, y)); probe(util.format('a:%s', ...rest));",
    ].join('\n');
    expect(keyShapes(code)).toEqual(['lock:*:3 many', 'lock:* many', 'lock:*:%s many', 'a:*% * many', 'a:* many']);
  });

  it('keeps a format string that is not known, a string without placeholders and other format methods unknown', () => {
    const code = [
      "import { format } from 'date-fns';",
      "probe(`${prefix}:%s`.format(id)); probe(FORMAT.format(id)); probe('plain'.format(id)); probe(moment().format('YYYY')); probe(format(d, 'yyyy:%s')); probe(helpers.format('lock:%s', id));",
    ].join('\n');
    expect(keyShapes(code)).toEqual(['* many', '* many', '* many', '*YYYY* many', '*yyyy:%s* many', '*lock:%s* many']);
  });
});

// a channel library (JS): the shard look-up hash and the shard index are members its constructor
// builds from imported separators; both are the channel registry, kept on purpose
const channels = [
  "const Redis = require('ioredis');",
  "const { sep, pre, shards } = require('./constants.cjs');",
  'class Channels {',
  '  constructor(options = {}) {',
  '    this.redis = new Redis();',
  "    let app = 'app';",
  '    if (options.app) app = options.app;',
  '    this.prefix = app + sep.BIND + options.schema + sep.BIND + options.version;',
  '    if (options.sharded) {',
  '      this.keyHash = this.prefix + sep.HASH + pre.KEYS + shards[this.slots][0] + sep.OPEN + 0 + sep.CLOSE;',
  '      this.keyZset = this.prefix + sep.INDEX + pre.SHARDS + shards[this.slots][0] + sep.OPEN + 0 + sep.CLOSE;',
  '    }',
  '  }',
  '  async use(group, stream) {',
  '    await this.redis.hset([this.keyHash, group, stream]);',
  '    await this.redis.zincrby([this.keyZset, 1, stream]);',
  '  }',
  '}',
  'module.exports = { Channels };',
].join('\n');
// the same library, but a method replaces the hash's key: its spelling is not known
const movedHash = channels.replace('  async use(group, stream) {', '  rename(key) { this.keyHash = key; }\n  async use(group, stream) {');
/** The suggestion of the HSET of the shard look-up hash: the write and its expiry in one MULTI. */
const wrapHash = (code: string) => [
  {
    messageId: 'wrapInMulti' as const,
    output: code.replace('this.redis.hset([this.keyHash, group, stream])', 'this.redis.multi().hset([this.keyHash, group, stream]).expire(this.keyHash, TTL_SECONDS).exec()'),
  },
];

// imported modules are read from disk beside the linted file (the typed tester's project holds no such file)
runRule(untypedTester, 'incr-needs-expire-on-create (key text of members and imported consts)', incrRule, {
  valid: [{ code: channels, filename: channelsFile, settings: persistent('*#keys*', '*:shards*') }],
  invalid: [
    {
      code: movedHash,
      filename: channelsFile,
      settings: persistent('*#keys*', '*:shards*'),
      errors: [{ messageId: 'noExpiry', line: 16, column: 22, data: { command: 'HSET', key: 'this.keyHash', hint: '', client: '' }, suggestions: wrapHash(movedHash) }],
    },
    // a pattern of another separator does not match
    {
      code: channels,
      filename: channelsFile,
      settings: persistent('*:keys*', '*:shards*'),
      errors: [
        {
          messageId: 'noExpiry',
          line: 15,
          column: 22,
          data: { command: 'HSET', key: '*-*-*#keys*[0]', hint: " Kept forever on purpose? Add '*-*-*#keys*[0]' to settings['redis-ttl'].persistentKeys.", client: '' },
          suggestions: wrapHash(channels),
        },
      ],
    },
  ],
});

// a judge registry written with the application's String.prototype.format, and a lock with util.format
const formatted = ioredis(
  [
    "import util from 'node:util';",
    "const SYSTEM_INFO = 'judge-client-system-info:%s';",
    'export const saveInfo = (id: number, info: string) => redis.set(SYSTEM_INFO.format(id), info);',
    "export const saveOwner = (name: string, owner: string) => redis.set(util.format('owner:%s', name), owner);",
  ].join('\n'),
);
// the format string is not known: a pattern naming a family cannot match it
const unknownFormat = ioredis("export const saveInfo = (kind: string, id: number, info: string) => redis.set(`${kind}:%s`.format(id), info);");

// mapped pairs of MSET (node-redis 4): nested and flat, inline or bound to a const
const mappedPairs = nodeRedis(
  [
    'export async function save(txs: { txid: string }[]) {',
    '  await client.mSet(txs.map((tx) => [`mempool:tx:${tx.txid}`, JSON.stringify(tx)]));',
    '  const data = txs.map((tx) => { const copy = { ...tx }; return [`mempool:tx:${tx.txid}`, JSON.stringify(copy)]; });',
    '  await client.MSET(data);',
    "  await client.mSetNX(txs.flatMap((tx) => [`mempool:seen:${tx.txid}`, '1']));",
    '}',
  ].join('\n'),
);
// the key element is not at a key position; the callback returns two shapes of pairs; its elements are keys only
const keyNotAtKeyPosition = nodeRedis('export const save = (txs: { txid: string }[]) => client.mSet(txs.map((tx) => [JSON.stringify(tx), `mempool:tx:${tx.txid}`]));');
const twoReturns = nodeRedis(
  "export const save = (txs: { txid: string; ok: boolean }[]) => client.mSet(txs.map((tx) => { if (tx.ok) return [`mempool:tx:${tx.txid}`, '1']; return [`other:${tx.txid}`, '0']; }));",
);
const keysOnly = nodeRedis('export const save = (txs: { txid: string }[]) => client.mSet(txs.map((tx) => `mempool:tx:${tx.txid}`));');

for (const tester of [untypedTester, typedTester]) {
  runRule(tester, 'set-requires-ttl-or-keepttl (format helpers and mapped MSET pairs)', setRule, {
    valid: [
      { code: formatted, settings: persistent('judge-client-system-info:*', 'owner:*') },
      { code: mappedPairs, settings: persistent('mempool:*') },
    ],
    invalid: [
      // a pattern of the other family does not match the lock
      {
        code: formatted,
        settings: persistent('judge-client-system-info:*'),
        errors: [{ messageId: 'setWithoutTtl', line: 6, column: 65, suggestions: setSuggestions(formatted, "redis.set(util.format('owner:%s', name), owner") }],
      },
      {
        code: unknownFormat,
        settings: persistent('judge-client-system-info:*', '*:%s'),
        errors: [{ messageId: 'setWithoutTtl', line: 3, column: 75, suggestions: setSuggestions(unknownFormat, 'redis.set(`${kind}:%s`.format(id), info') }],
      },
      // no pattern: the message spells each pair's key; no fix is offered (the keys are the callback's)
      {
        code: mappedPairs,
        errors: [
          { messageId: 'msetWithoutTtl', line: 4, column: 16, data: { command: 'MSET', key: 'mempool:tx:*', hint: " Kept forever on purpose? Add 'mempool:tx:*' to settings['redis-ttl'].persistentKeys.", client: '' }, suggestions: [] },
          { messageId: 'msetWithoutTtl', line: 6, column: 16, data: { command: 'MSET', key: 'mempool:tx:*', hint: " Kept forever on purpose? Add 'mempool:tx:*' to settings['redis-ttl'].persistentKeys.", client: '' }, suggestions: [] },
          { messageId: 'msetWithoutTtl', line: 7, column: 16, data: { command: 'MSETNX', key: 'mempool:seen:*', hint: " Kept forever on purpose? Add 'mempool:seen:*' to settings['redis-ttl'].persistentKeys.", client: '' }, suggestions: [] },
        ],
      },
      // reported as before; no fix offered either (EXPIRE cannot take the mapped array as its key)
      { code: keyNotAtKeyPosition, settings: persistent('mempool:*'), errors: [{ messageId: 'msetWithoutTtl', line: 3, column: 57, suggestions: [] }] },
      { code: twoReturns, settings: persistent('mempool:*'), errors: [{ messageId: 'msetWithoutTtl', line: 3, column: 70, suggestions: [] }] },
      { code: keysOnly, settings: persistent('mempool:*'), errors: [{ messageId: 'msetWithoutTtl', line: 3, column: 57, suggestions: [] }] },
    ],
  });
}
