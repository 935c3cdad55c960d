/**
 * Declared `persistentKeys` patterns matched against keys a key-builder helper spells (issue 25,
 * round 29: the twenty-seventh validation set). A key whose spelling the analysis can resolve
 * statically is matched by that spelling, its run-time parts matching `*`: (a) a key builder
 * formatting with `sprintf` of the `sprintf-js` / `sprintf` package (`sprintf('mission:%s,mission',
 * id)`, read as its README documents it), reached through TypeScript's CommonJS import (`import
 * keys = require('./keys')`), or joining an array literal (`cacheKey(['candle', 'latest', id])` of
 * `(parts) => parts.join(':')`, of the module or imported); (b) a key a KEYS / SCAN ... MATCH
 * listing returned, written back by the loop over the listing, is spelled by the listing's pattern.
 * Near misses stay reported: a format string chosen at run time, a spelling the patterns do not
 * match, parts changed before the join, a listing over a wider pattern than the declared one, and
 * a key derived from the listed one.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import incrRule from '../../rules/incr-needs-expire-on-create.js';
import setRule from '../../rules/set-requires-ttl-or-keepttl.js';
import { keyShapes } from '../helpers/key-shapes.js';
import { ioredis, persistentSettings as persistent, positionOf, runRule, setWithoutTtlAt, untypedTester } from './tester.js';

const app = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'key-builders', 'app.ts');

describe('keyShapeOf, sprintf', () => {
  it('reads sprintf of sprintf-js / sprintf as its README documents it', () => {
    const code = [
      "import sf = require('sprintf');",
      "import { sprintf as sp } from 'sprintf-js';",
      "const sjs = require('sprintf-js');",
      "const { sprintf: fmt } = require('sprintf-js');",
      'var sprintf = sf.sprintf;',
      "probe(sprintf('mission:%s,unit:%d,ts:%d', id, u, t)); probe(sp('current:%s', id)); probe(sjs.sprintf('a:%2$s:%1$s', x, 'b')); probe(fmt('a:%s:%%', x, extra));",
      // a named placeholder, a converted constant (one key), a run-time format, another package's sprintf
      "probe(sp('a:%(name)s', o)); probe(sp('slot:%05d', 3)); probe(sp(format, id)); probe(other.sprintf('lock:%s', id));",
    ].join('\n');
    expect(keyShapes(code)).toEqual([
      'mission:*,unit:*,ts:* many',
      'current:* many',
      'a:b:* many',
      'a:*:% many',
      'a:* many',
      'slot:* one',
      '* many',
      '*lock:%s* many',
    ]);
  });
});

describe('keyShapeOf, a builder joining an array literal', () => {
  it("spells `cacheKey(['candle', 'latest', id])` of `(parts) => parts.join(':')`, here or imported", () => {
    const code = [
      "import { cacheKey as imported, taggedKey } from './join-keys';",
      "function cacheKey(parts: string[]) { return parts.join(':'); }",
      "function pushed(parts: string[]) { parts.push('x'); return parts.join(':'); }",
      "probe(cacheKey(['candle', 'latest', sym, iv])); probe(imported(['quote', 'latest', sym]));",
      // near misses: not an array literal, parts changed, a spread
      "probe(cacheKey(list)); probe(pushed(['a', b])); probe(taggedKey(['a', b])); probe(cacheKey(['a', ...rest]));",
    ].join('\n');
    expect(keyShapes(code, app)).toEqual(['candle:latest:*:* many', 'quote:latest:* many', '*:* many', '*:* many', '* many', '*:* many']);
  });
});

/** The SET at `text` (where its method starts) of `code` reported. */
const setAt = (code: string, text = 'set(') => {
  const { line, column } = positionOf(code, text);
  return setWithoutTtlAt(code, line, column);
};

// (a) key builders of another module reached through `import keys = require(...)`
const through = (body: string) => ioredis(`import redisKeys = require('./sprintf-keys');\nexport function save(id: string, v: string) {\n  ${body}\n}`);
const current = through('redis.set(redisKeys.currentKey(id), v);');
const unit = through('redis.set(redisKeys.unitKey(id, 3, Date.now()), v);');
const missions = through("redis.zadd(redisKeys.allMissionsKey(), Date.now(), id);");
const runTimeFormat = through("redis.set(redisKeys.formattedKey('mission:%s', id), v);");
const outside = through('redis.set(redisKeys.replayKey(id), v);');
const joined = ioredis("import { cacheKey } from './join-keys';\nexport async function publish(symbolId: string, v: string) {\n  await redis.set(cacheKey(['candle', 'latest', symbolId]), v);\n}");
const changedParts = ioredis("import { taggedKey } from './join-keys';\nexport async function publish(symbolId: string, v: string) {\n  await redis.set(taggedKey(['candle', 'latest', symbolId]), v);\n}");

runRule(untypedTester, 'set-requires-ttl-or-keepttl (declared persistent keys spelled by sprintf or a join helper)', setRule, {
  valid: [
    { code: current, filename: app, settings: persistent('missions', 'mission:*', 'currentInstanceId:*') },
    { code: unit, filename: app, settings: persistent('missions', 'mission:*', 'currentInstanceId:*') },
    { code: joined, filename: app, settings: persistent('candle:latest:*') },
  ],
  invalid: [
    { code: current, filename: app, settings: persistent('missions', 'mission:*'), errors: [setAt(current)] },
    { code: runTimeFormat, filename: app, settings: persistent('mission:*'), errors: [setAt(runTimeFormat)] },
    { code: outside, filename: app, settings: persistent('missions', 'mission:*', 'currentInstanceId:*'), errors: [setAt(outside)] },
    { code: joined, filename: app, settings: persistent('quote:latest:*'), errors: [setAt(joined)] },
    { code: changedParts, filename: app, settings: persistent('candle:latest:*'), errors: [setAt(changedParts)] },
  ],
});

runRule(untypedTester, 'incr-needs-expire-on-create (a constant key returned by a builder of an import-equals module)', incrRule, {
  // spelled `missions`: the declared pattern names it, constant-key allowance or not
  valid: [{ code: missions, filename: app, settings: persistent('missions'), options: [{ allowConstantKeys: false }] }],
  invalid: [],
});

// (b) a key a KEYS / SCAN MATCH listing returned, written back
const listed = (listing: string, write = 'redis.set(key, v);') =>
  ioredis(`export async function tick(v: string) {\n  ${listing}\n  for (const key of keys) {\n    await ${write}\n  }\n}`);
const byKeys = listed("const keys = await redis.keys('candle:latest:*');");
const byScan = listed("const [, keys] = await redis.scan('0', 'MATCH', 'candle:latest:*', 'COUNT', 100);");
const wider = listed("const keys = await redis.keys('candle:*');");
const derived = listed("const keys = await redis.keys('candle:latest:*');", 'redis.set(`${key}:copy`, v);');
const notListed = listed("const keys = await redis.smembers('candle:latest:index');");

runRule(untypedTester, 'set-requires-ttl-or-keepttl (a key a KEYS or SCAN listing returned, spelled by its pattern)', setRule, {
  valid: [
    { code: byKeys, settings: persistent('candle:latest:*') },
    { code: byScan, settings: persistent('candle:latest:*') },
  ],
  invalid: [
    { code: wider, settings: persistent('candle:latest:*'), errors: [setAt(wider, 'set(key')] },
    { code: byKeys, settings: persistent('quote:latest:*'), errors: [setAt(byKeys, 'set(key')] },
    { code: derived, settings: persistent('candle:latest:*'), errors: [setAt(derived, 'set(`')] },
    { code: notListed, settings: persistent('candle:latest:*'), errors: [setAt(notListed, 'set(key')] },
  ],
});

// (c) a wrapper method named after HMSET that sends HMSET or HSET (node-redis' hSet) by its client:
// one write (HMSET is HSET with field-value pairs), judged at its callers
const wrapper = (call: string) =>
  `import Redis from 'ioredis';\nimport { createClient } from 'redis';\nclass Store {\n  constructor(private client: Redis | ReturnType<typeof createClient>) {}\n  hmset(key: string, value: Record<string, string>) {\n    if (this.client instanceof Redis) {\n      return this.client.hmset(key, value);\n    } else {\n      return (this.client as ReturnType<typeof createClient>).hSet(key, value);\n    }\n  }\n}\nconst store = new Store(new Redis());\nexport async function share(id: string, v: Record<string, string>) {\n  await ${call};\n}`;
const chats = wrapper('store.hmset(`chat:${id}`, v)');
const drafts = wrapper('store.hmset(`draft:${id}`, v)');

runRule(untypedTester, 'incr-needs-expire-on-create (a wrapper sending HMSET or HSET, judged at its callers)', incrRule, {
  valid: [{ code: chats, settings: persistent('chat:*') }],
  invalid: [
    // the caller's key outside the declared patterns: reported at the caller, the wrapper left alone
    { code: drafts, settings: persistent('chat:*'), errors: [{ messageId: 'noExpiry', ...positionOf(drafts, 'hmset(`') }] },
  ],
});
