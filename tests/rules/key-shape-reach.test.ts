/**
 * Keys kept on purpose whose shape the rules could not spell, so that the declared
 * `persistentKeys` pattern could not reach them (round 20, the eighteenth held-out set's false
 * findings):
 *
 * - a static key-builder method of a class another module exports (`QueryBuilder.messages(chatId)`
 *   of `import QueryBuilder from '@/lib/queryBuilder'`) is read there, as an imported key-builder
 *   function is (`redis-calls/builder-lookup.ts`);
 * - a builder that joins its rest parameter (`static _joinQuery(...args) { return args.join(':'); }`)
 *   spells its arguments with the separator between them, when the rest parameter is only joined
 *   and the call spreads nothing into it (`redis-calls/rest-arguments.ts`);
 * - a script's `KEYS[n]` takes the declared shape of the n-th key its defined command is called
 *   with, and never one beyond `numberOfKeys` (already so; @effect's keys stay `*:pending` because
 *   `options.prefix ?? 'effectq:'` is read in a function returning `Store.of({ ... })`, which is
 *   not taken for a factory: `tool({ execute })` of a per-request helper has the same form);
 * - a bare import naming a workspace package of the repository (`@oldschoolgg/util`, declared by
 *   `pnpm-workspace.yaml` and that package's `package.json` `name`) is read like a relative module;
 *   a package that is not the repository's stays unread.
 *
 * Limits kept reported or unread: a builder with branches whose returns differ, a rest parameter
 * the builder changes (`args.unshift('user')`) or a call that spreads into it, an instance method
 * called on the class (not static), an option that is no key prefix (`options.thread ?? 'x'`: per-call data) or a
 * prefix read from no parameter, and a `KEYS[n]` beyond the keys the command is declared to take.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import embeddedLuaRule from '../../rules/embedded-lua.js';
import incrRule from '../../rules/incr-needs-expire-on-create.js';
import { keyShapes } from '../helpers/key-shapes.js';
import { runRule, untypedTester, upstash, persistentSettings as persistent } from './tester.js';

const root = mkdtempSync(join(tmpdir(), 'redis-ttl-reach-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
function write(path: string, text: string): void {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), text);
}

// an application with a key-builder class (the realtime-chat shape) and a `@/*` alias
const app = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'key-builder-class');
const appFile = join(app, 'src', 'repositories', 'send.ts');

describe('a static key builder of a class of another module', () => {
  it('is read there: a default import through an alias, a named import through a relative path', () => {
    const code = [
      "import QueryBuilder from '@/lib/queryBuilder';",
      "import { Keys } from '../lib/queryBuilder';",
      'probe(QueryBuilder.messages(chatId));',
      'probe(Keys.session(id));',
    ].join('\n');
    expect(keyShapes(code, appFile)).toEqual(['chat:*:messages many', 'sess:* many']);
  });

  it('stays unread when the rest parameter is changed or spread into, when the builder branches, and for an instance method', () => {
    const code = [
      "import QueryBuilder from '@/lib/queryBuilder';",
      'probe(QueryBuilder.user(u));',
      'probe(QueryBuilder.spread(parts));',
      'probe(QueryBuilder.room(id));',
      'probe(QueryBuilder.member(id));',
      'probe(QueryBuilder.missing(id));',
    ].join('\n');
    // user: _append changes its rest parameter (args.unshift): not a builder, its call stays `*`;
    // spread: `chat` then what the spread holds is not written at the call; room: `room:*:long` and
    // `room:*` differ, the call keeps its arguments' spelling only
    expect(keyShapes(code, appFile)).toEqual(['* many', '*chat* many', '* many', '* many', '* many']);
  });
});

describe('a builder joining its rest parameter, in the linted module', () => {
  it('spells its arguments with the separator between them', () => {
    const code = [
      "const key = (...parts: string[]) => parts.join(':');",
      "function dotted(head: string, ...rest: string[]) { return head + '.' + rest.join('.'); }",
      "probe(key('q', name, 'wait'));",
      "probe(dotted('a', 'b', id));",
      "probe(key('lock'));",
    ].join('\n');
    expect(keyShapes(code, 'local.ts')).toEqual(['q:*:wait many', 'a.b.* many', 'lock one']);
  });

  it('is not read when the rest parameter is pushed to, passed on, or the call spreads into it', () => {
    const code = [
      "const pushed = (...parts: string[]) => { parts.push('x'); return parts.join(':'); };",
      "const passed = (...parts: string[]) => [norm(parts), parts.join(':')].join('/');",
      "const key = (...parts: string[]) => parts.join(':');",
      "probe(pushed('q', id));",
      "probe(passed('q', id));",
      "probe(key('q', ...ids));",
    ].join('\n');
    // the join is then a call the linter cannot read, its separator kept: never `q:*`
    expect(keyShapes(code, 'local.ts')).toEqual(['*:* many', '*/*:* many', '*:* many']);
  });
});

describe("an option default of a function that returns its instance through a call (left for a later round)", () => {
  const factory = (returned: string) =>
    [
      'export const make = Effect.fnUntraced(function* (options) {',
      "  const prefix = options.prefix ?? 'effectq:';",
      '  const keyPending = (name) => `${prefix}${name}:pending`;',
      '  probe(keyPending(n));',
      `  return ${returned};`,
      '});',
    ].join('\n');

  it('stays `*`: the function may be a per-call helper (`tool({ execute })`), its options data', () => {
    expect(keyShapes(factory('Store.of({ offer: () => 1 })'), 'q.ts')).toEqual(['*:pending many']);
    expect(keyShapes(factory('tool({ execute: async () => 1 })'), 'q.ts')).toEqual(['*:pending many']);
    // the object literal itself is an instance: its option default spells the key
    expect(keyShapes(factory('{ offer: () => 1 }'), 'q.ts')).toEqual(['effectq:*:pending many']);
  });
});

// the oldschoolbot shape: RedisKeys of a workspace package named in its own package.json
write('mono/package.json', JSON.stringify({ name: 'bot', private: true, type: 'module' }));
write('mono/pnpm-workspace.yaml', 'packages:\n  - packages/*\n');
write('mono/packages/util/package.json', JSON.stringify({ name: '@bot/util', type: 'module', exports: { '.': { types: './dist/index.d.ts', import: './dist/index.js' } } }));
write('mono/packages/util/src/index.ts', "export * from './array.js';\nexport * from './redis-keys.js';\n");
write('mono/packages/util/src/array.ts', 'export const chunk = (a: unknown[]) => a;\n');
write(
  'mono/packages/util/src/redis-keys.ts',
  "export const RedisKeys = {\n  BlacklistedUsers: 'blacklist:users',\n  OSB: { DisabledCommands: 'osb:disabled_commands', Webhook: (id: string): string => `osb:webhook:${id}` },\n} as const;\n",
);
// a package of the same scope that is not the repository's: installed, never read
write('mono/node_modules/@bot/ext/package.json', JSON.stringify({ name: '@bot/ext', main: './index.js' }));
write('mono/node_modules/@bot/ext/index.js', "exports.RedisKeys = { BlacklistedUsers: 'ext:users' };\n");
const botFile = join(root, 'mono', 'packages', 'robochimp', 'src', 'lib', 'sync.ts');
const rootFile = join(root, 'mono', 'src', 'lib', 'cache', 'redis.ts');

describe('a bare import naming a workspace package of the repository', () => {
  it('is read like a relative module, from another package and from the root application', () => {
    const code = "import { RedisKeys } from '@bot/util';\nprobe(RedisKeys.BlacklistedUsers);\nprobe(RedisKeys.OSB.DisabledCommands);\nprobe(RedisKeys.OSB.Webhook(id));";
    expect(keyShapes(code, botFile, root)).toEqual(['blacklist:users one', 'osb:disabled_commands one', 'osb:webhook:* many']);
    expect(keyShapes(code, rootFile, root)).toEqual(['blacklist:users one', 'osb:disabled_commands one', 'osb:webhook:* many']);
  });

  it('is not read when the package is not the repository\'s', () => {
    const code = "import { RedisKeys } from '@bot/ext';\nimport { Other } from '@bot/missing';\nprobe(RedisKeys.BlacklistedUsers);\nprobe(Other.Key);";
    expect(keyShapes(code, botFile, root)).toEqual(['* many', '* many']);
  });
});

const chat = upstash(
  "import QueryBuilder from '@/lib/queryBuilder';\nexport async function send(chatId: string, m: string) {\n  await redis.zadd(QueryBuilder.messages(chatId), { score: 1, member: m });\n}",
);

runRule(untypedTester, 'incr-needs-expire-on-create (a key of a static builder of another module)', incrRule, {
  valid: [{ code: chat, filename: appFile, settings: persistent('chat:*') }],
  invalid: [
    // the pattern names other keys: the message spells the key the builder gives
    {
      code: chat,
      filename: appFile,
      settings: persistent('user:*'),
      errors: [
        {
          messageId: 'noExpiry',
          line: 5,
          column: 15,
          suggestions: [
            {
              messageId: 'wrapInMulti',
              output: chat.replace(
                'redis.zadd(QueryBuilder.messages(chatId), { score: 1, member: m })',
                'redis.multi().zadd(QueryBuilder.messages(chatId), { score: 1, member: m }).expire(QueryBuilder.messages(chatId), TTL_SECONDS).exec()',
              ),
            },
          ],
        },
      ],
    },
  ],
});

const queue = (failedKeys: number) =>
  [
    "import Redis from 'ioredis';",
    'export const make = Effect.fnUntraced(function* (options) {',
    '  const redis = new Redis(options);',
    "  redis.defineCommand('take', { numberOfKeys: 2, lua: `",
    'local payload = redis.call("LPOP", KEYS[1])',
    'redis.call("HSET", KEYS[2], ARGV[1], payload)',
    '` });',
    `  redis.defineCommand('failed', { numberOfKeys: ${failedKeys}, lua: \``,
    'redis.call("HDEL", KEYS[1], ARGV[1])',
    'redis.call("RPUSH", KEYS[2], ARGV[2])',
    '` });',
    "  const prefix = 'effectq:';",
    '  const keyPending = (name) => `${prefix}${name}:pending`;',
    '  const keyFailed = (name) => `${prefix}${name}:failed`;',
    '  return Store.of({',
    '    take: (name) => redis.take(`${prefix}${name}`, keyPending(name), 5),',
    '    failed: (name, id, p) => redis.failed(keyPending(name), keyFailed(name), id, p),',
    '  });',
    '});',
  ].join('\n');

runRule(untypedTester, 'embedded-lua (KEYS[n] of a defined command: the n-th key its calls pass, none beyond numberOfKeys)', embeddedLuaRule, {
  valid: [{ code: queue(2), settings: persistent('effectq:*:pending', 'effectq:*:failed') }],
  invalid: [
    // numberOfKeys 1: the failed list is ARGV[1], so the script's KEYS[2] is no key the call names
    {
      code: queue(1),
      settings: persistent('effectq:*:pending', 'effectq:*:failed'),
      errors: [{ messageId: 'luaFinding', line: 10, column: 1 }],
    },
    // a pattern naming other keys: HSET of the pending hash is reported (with the `failed`
    // script's HDEL of the same field left aside: allowConsumedQueues, embedded-lua-drained.test.ts)
    {
      code: queue(2),
      options: [{ allowConsumedQueues: false }],
      settings: persistent('effectq:*:failed'),
      errors: [{ messageId: 'luaFinding', line: 6, column: 1 }],
    },
  ],
});
