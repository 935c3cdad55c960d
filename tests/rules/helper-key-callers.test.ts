/**
 * A helper whose key is its own parameter takes the persistence of its callers' keys
 * (`redis-calls/helper-keys.ts`): a function or method that does more than forward its key (no
 * pass-through facade) is not reported when every call of it passes a key persistent by design (a
 * `persistentKeys` pattern, also two different ones, or a `// redis-ttl persistent:` annotation at
 * the call), also through a helper that passes its own parameter on, a key read from a loop over a
 * constant array, and callers in other modules of its application. Near misses stay reported: a
 * helper also called with a key that is not persistent, an exported helper whose callers are
 * unknown (a file outside any package, a library's export), a helper nothing calls.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import incrRule from '../../rules/incr-needs-expire-on-create.js';
import setRule from '../../rules/set-requires-ttl-or-keepttl.js';
import luaRule from '../../rules/embedded-lua.js';
import { ioredis, nodeRedis, runRule, typedTester, untypedTester } from './tester.js';

const settings = { 'redis-ttl': { persistentKeys: ['ts:*', 'q:*', 'jobs:*'] } };
const fixtures = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'helper-keys');
const appFile = (name: string) => join(fixtures, 'app', name);
const libFile = join(fixtures, 'lib', 'queue.ts');

/** A module helper that logs after its write (no pass-through); lines 6-7 are its callers. */
const queue = (a: string, b: string) =>
  ioredis(`async function addToQueue(key: string, item: string) {\n  const n = await redis.rpush(key, item);\n  console.log(n);\n}\nexport async function a(id: string) {\n  await addToQueue(${a}, id);\n  await addToQueue(${b}, id);\n}`);

/** Private methods passing the key on, called from a loop over a constant array. */
const chain = nodeRedis(
  `class Metrics {\n  private async tsAdd(key: string, value: number) {\n    const args = ['TS.ADD', key, '*', String(value)];\n    await client.sendCommand(args);\n  }\n  private async safeAdd(key: string, value: number) {\n    console.log(key);\n    await this.tsAdd(key, value);\n  }\n  async record(id: string) {\n    const series = [{ key: \`ts:cpu:\${id}\` }, { key: \`ts:mem:\${id}\` }];\n    for (const { key } of series) await this.safeAdd(key, 1);\n  }\n}\nexport const metrics = new Metrics();`,
);

/** An annotation at the one call. */
const annotated = ioredis(
  `async function put(key: string, v: string) {\n  await redis.set(key, v);\n  console.log('saved');\n}\nexport async function save(id: string) {\n  // redis-ttl persistent: user profiles are kept for the account's life\n  await put(\`user:\${id}\`, 'x');\n}`,
);

/** An embedded script's KEYS[1] from the helper's parameter. */
const script = (caller: string) =>
  ioredis(`async function ensure(key: string) {\n  console.log(key);\n  await redis.eval("return redis.call('TS.CREATE', KEYS[1])", 1, key);\n}\nexport const make = (id: string) => ensure(${caller});`);

for (const tester of [untypedTester, typedTester]) {
  runRule(tester, 'incr-needs-expire-on-create (a helper whose key is its parameter)', incrRule, {
    valid: [
      // two persistent families: no single pattern names their common spelling (`*`)
      { code: queue('`q:${id}`', '`jobs:${id}`'), settings },
      { code: chain, settings },
    ],
    invalid: [
      // one caller passes a key that is not persistent
      { code: queue('`q:${id}`', '`tmp:${id}`'), settings, errors: [{ messageId: 'noExpiry', line: 4, column: 25 }] },
      // exported, and the file belongs to no package: its callers are unknown
      {
        code: queue('`q:${id}`', '`jobs:${id}`').replace('async function addToQueue', 'export async function addToQueue'),
        settings,
        errors: [{ messageId: 'noExpiry', line: 4, column: 25 }],
      },
    ],
  });
  runRule(tester, 'set-requires-ttl-or-keepttl (a helper whose key is its parameter)', setRule, {
    valid: [{ code: annotated, settings }],
    invalid: [],
  });
  runRule(tester, 'embedded-lua (a helper whose key is its parameter)', luaRule, {
    valid: [{ code: `${script('`ts:disk:${id}`')}\nexport const other = (id: string) => ensure(\`jobs:\${id}\`);`, settings }],
    invalid: [
      { code: script('`tmp:${id}`'), settings, errors: [{ messageId: 'luaFinding', line: 5, column: 28 }] },
      // nothing calls it
      { code: script('`ts:disk:${id}`').replace(/\nexport const make.*$/, ''), settings, errors: [{ messageId: 'luaFinding', line: 5, column: 28 }] },
    ],
  });
}

// callers in other modules of an application (tests/fixtures/helper-keys/app: record.ts calls
// series.ts's helpers with ts:* and q:* keys), and a library's exported helper
runRule(untypedTester, 'incr-needs-expire-on-create (a helper called from other modules)', incrRule, {
  valid: [{ code: readFileSync(appFile('series.ts'), 'utf8'), filename: appFile('series.ts'), settings }],
  invalid: [
    // the same helpers, with one more caller of its own passing a key that is not persistent
    {
      code: `${readFileSync(appFile('series.ts'), 'utf8')}\nexport const log = (id: string) => addToQueue(\`log:\${id}\`, id);\n`,
      filename: appFile('series.ts'),
      settings,
      errors: [{ messageId: 'noExpiry', line: 20, column: 31 }],
    },
    { code: readFileSync(libFile, 'utf8'), filename: libFile, settings, errors: [{ messageId: 'noExpiry', line: 7, column: 31 }] },
  ],
});
