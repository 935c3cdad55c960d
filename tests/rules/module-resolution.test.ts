/**
 * Keys named in another module of the same repository that a package specifier points to
 * (issue 25, fourth validation set: keys declared persistent or fixed, written through constants
 * and key helpers of a workspace package or a tsconfig alias): `redis-calls/resolve.ts` follows a
 * tsconfig `paths` alias (through `extends`) or a workspace package (`package.json` `workspaces`,
 * `pnpm-workspace.yaml`, a `node_modules` link) to a source file, and the key shape reads its
 * const objects (nested members too), enums and key-builder functions as it reads a relative
 * module's. An enum or const object indexed by a value that is not constant is one of its values.
 * Never a third-party package's code: a `node_modules` folder that is no link into the repository
 * is not read, and keys named there stay `*`.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { packageSpecifierCandidates } from '../../redis-calls/resolve.js';
import incrRule from '../../rules/incr-needs-expire-on-create.js';
import setRule from '../../rules/set-requires-ttl-or-keepttl.js';
import { keyShapes } from '../helpers/key-shapes.js';
import { ioredis, nodeRedis, runRule, setSuggestions, untypedTester, persistentSettings as persistent } from './tester.js';

const fixtures = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures');
/** A file of the web app of tests/fixtures/monorepo (tsconfig aliases `~/*`, `@mono/redis`; npm workspaces). */
const webApp = join(fixtures, 'monorepo', 'apps', 'web', 'src', 'app.ts');
/** A file of a service of tests/fixtures/pnpm-monorepo (no tsconfig paths: pnpm-workspace.yaml only). */
const pnpmApp = join(fixtures, 'pnpm-monorepo', 'services', 'api', 'src', 'app.ts');

/** A monorepo written to a temporary folder, with `node_modules` links (git keeps none in the fixtures). */
const linked = mkdtempSync(join(tmpdir(), 'redis-ttl-linked-'));
afterAll(() => rmSync(linked, { recursive: true, force: true }));
function write(path: string, text: string): void {
  mkdirSync(dirname(join(linked, path)), { recursive: true });
  writeFileSync(join(linked, path), text);
}
write('package.json', JSON.stringify({ name: 'linked', private: true, workspaces: ['pkgs/*'] }));
write('pkgs/keys/package.json', JSON.stringify({ name: '@l/keys', types: './dist/index.d.ts' }));
write('pkgs/keys/src/index.ts', "export const KEYS = { LOCK: 'lock:global' };\nexport const userKey = (id: string) => `user:${id}`;\n");
// a third-party package installed in node_modules (no link): never read
write('node_modules/@ext/keys/package.json', JSON.stringify({ name: '@ext/keys', main: './index.js' }));
write('node_modules/@ext/keys/index.js', "exports.KEYS = { LOCK: 'ext:lock' };\n");
mkdirSync(join(linked, 'node_modules', '@l'), { recursive: true });
symlinkSync(join(linked, 'pkgs', 'keys'), join(linked, 'node_modules', '@l', 'keys'), 'dir');
const linkedApp = join(linked, 'app', 'src', 'main.ts');

describe('package specifiers into the repository', () => {
  it('follows a tsconfig alias (through extends) to a const object, its nested members and an enum', () => {
    const code = [
      "import { REDIS_SYS_KEYS, REDIS_KEYS } from '@mono/redis';",
      "import { API_CACHE_PREFIX, RedisKeys } from '~/constants/cache.constant';",
      'probe(REDIS_SYS_KEYS.SYSTEM.FEATURES);',
      "probe(REDIS_SYS_KEYS['QUEUES'].BUCKETS);",
      'probe(`${REDIS_KEYS.USER.SESSION}:${id}`);',
      'probe(API_CACHE_PREFIX + path);',
      'probe(RedisKeys.AUTH_TOKEN_PREFIX + id);',
    ].join('\n');
    expect(keyShapes(code, webApp)).toEqual(['system:features one', 'queues:buckets one', 'session:user:* many', 'api-cache:* many', 'auth:token:* many']);
  });

  it('reads imported key builders: functions, const arrows, namespace members and functions held in a const object', () => {
    const code = [
      "import { genAuthPermKey, genAuthTokenKey, genCaptchaKey } from '~/helper/genRedisKey';",
      "import * as keys from '~/helper/genRedisKey';",
      "import { REDIS_KEYS } from '@mono/redis/client';",
      'probe(genAuthPermKey(user.id));',
      'probe(genAuthTokenKey(7));',
      "probe(genCaptchaKey('login'));",
      'probe(keys.genAuthPermKey(uid));',
      'probe(REDIS_KEYS.userCache(uid));',
    ].join('\n');
    expect(keyShapes(code, webApp)).toEqual(['auth:permission:* many', 'auth:token:7 one', 'captcha:login one', 'auth:permission:* many', 'cache:user:* many']);
  });

  it('reads a function that checks its input before returning text (round 9; a longer body returning no text stays unread)', () => {
    const code = "import { checkedKey } from '~/helper/genRedisKey';\nprobe(checkedKey('mail', id));\nprobe(checkedKey('mail', 'x'));";
    expect(keyShapes(code, webApp)).toEqual(['checked:mail:* many', 'checked:mail:x one']);
  });

  it('reads a workspace package whose manifest points at an unbuilt dist/ from its src/, re-exports and subpath exports included', () => {
    const code = [
      "import { LEADERBOARD_KEY, sessionKey, Queues } from '@mono/keys';",
      "import { DEAD_LETTER } from '@mono/keys/queues';",
      'probe(LEADERBOARD_KEY);',
      'probe(sessionKey(id));',
      'probe(Queues.Mail);',
      'probe(DEAD_LETTER);',
    ].join('\n');
    expect(keyShapes(code, webApp)).toEqual(['board:weekly one', 'sess:* many', 'queue:mail one', 'queue:dead one']);
  });

  it('finds a package through pnpm-workspace.yaml, and through a node_modules link', () => {
    const code = "import { CACHE_KEYS, tokenKey } from '@p/cache';\nprobe(CACHE_KEYS.FLAGS);\nprobe(CACHE_KEYS.STATS.DAILY);\nprobe(tokenKey(id));";
    expect(keyShapes(code, pnpmApp)).toEqual(['flags:all one', 'stats:daily one', 'token:* many']);
    const viaLink = "import { KEYS, userKey } from '@l/keys';\nprobe(KEYS.LOCK);\nprobe(userKey(id));";
    expect(keyShapes(viaLink, linkedApp, linked)).toEqual(['lock:global one', 'user:* many']);
  });

  it('never reads a third-party package, nor a specifier nothing resolves', () => {
    const code = [
      "import { KEYS } from '@ext/keys';",
      "import { OTHER } from '@mono/missing';",
      "import { NOPE } from '~/constants/nope';",
      'probe(KEYS.LOCK);',
      'probe(`${OTHER}:${id}`);',
      'probe(NOPE + id);',
    ].join('\n');
    // a member of a binding whose module is not read is `*`, as before
    expect(keyShapes(code, linkedApp, linked)).toEqual(['* many', '*:* many', '* many']);
    expect(packageSpecifierCandidates(linkedApp, '@ext/keys')).toEqual([]);
    expect(packageSpecifierCandidates(webApp, './relative')).toEqual([]);
    expect(packageSpecifierCandidates(webApp, 'node:fs')).toEqual([]);
  });
});

describe('an enum or const object indexed by a value that is not constant', () => {
  it('is one of its values: the spelling they share, bounded', () => {
    const code = [
      "enum ScamKeys { DISCORD = 'scamdomains_discord', MAIN = 'scamdomains' }",
      "const LISTS = { a: 'list:one', b: 'list:two' } as const;",
      'function f(env: string, k: string) { probe(ScamKeys[env]); probe(`${ScamKeys[env]}:refresh`); probe(LISTS[k]); }',
      "const KEY = 'a';",
      'probe(LISTS[KEY]);',
    ].join('\n');
    expect(keyShapes(code, join(fixtures, 'a.ts'))).toEqual(['scamdomains* one', 'scamdomains*:refresh one', 'list:* one', 'list:one one']);
  });

  it('stays unknown when the object is not fixed: written to, or spread from elsewhere', () => {
    const code = [
      "const LISTS = { a: 'list:alpha', b: 'list:beta' };",
      "LISTS.c = 'other';",
      'function f(k: string, extra: object) { probe(LISTS[k]); const ALL = { ...extra, a: "x:a" }; probe(ALL[k]); }',
    ].join('\n');
    expect(keyShapes(code, join(fixtures, 'a.ts'))).toEqual(['* many', '* many']);
  });
});

describe('a key-building method written the pre-class way (C.prototype.m = function)', () => {
  const limiter = [
    'function RateLimit(client, options) { this.client = client; this.options = options; }',
    "RateLimit.prototype.prefixKey = function (key, force) { var parts = [key]; if (force || !this.options.clientPrefix) parts.unshift(this.options.prefix); return _.compact(parts).join(':'); };",
    "RateLimit.prototype.whitelistKey = function () { return this.prefixKey('whitelist', true); };",
    "RateLimit.prototype.userKey = function (id) { return 'rl:user:' + id; };",
    'Other.prototype.otherKey = function () { return "other"; };',
  ].join('\n');

  it('reads it through `this`, an IIFE parameter bound to `this` and `var self = this`', () => {
    const code = [
      limiter,
      'RateLimit.prototype.whitelist = function (keys) {',
      '  var fn = (function (_this) { return function (key) { probe(_this.whitelistKey()); probe(_this.userKey(key)); }; })(this);',
      '  var self = this;',
      '  probe(self.whitelistKey());',
      '  probe(this.userKey(keys[0]));',
      '};',
    ].join('\n');
    expect(keyShapes(code, join(fixtures, 'a.ts'))).toEqual(['*whitelist* one', 'rl:user:* many', '*whitelist* one', 'rl:user:* many']);
  });

  it('does not take another value for the instance, nor a method of another constructor', () => {
    const code = [
      limiter,
      'RateLimit.prototype.whitelist = function (other) {',
      '  (function (_this) { probe(_this.whitelistKey()); })(other);',
      '  probe(this.otherKey());',
      '};',
      'function loose() { probe(this.whitelistKey()); }',
    ].join('\n');
    expect(keyShapes(code, join(fixtures, 'a.ts'))).toEqual(['* many', '* many', '* many']);
  });
});


// the nest-admin shape: a key helper imported through the `~/*` alias, the key declared persistent
const permCache = ioredis(
  "import { genAuthPermKey, genCaptchaKey } from '~/helper/genRedisKey';\nexport async function save(uid: number, perms: string[]) {\n  await redis.set(genAuthPermKey(uid), JSON.stringify(perms));\n}",
);
// the civitai shape: a fixed key of a workspace package's nested const object
const systemFlags = nodeRedis(
  "import { REDIS_SYS_KEYS } from '@mono/redis';\nexport async function enable(flag: string) {\n  await client.hSet(REDIS_SYS_KEYS.SYSTEM.FEATURES, flag, '1');\n  await client.set(REDIS_SYS_KEYS.SYSTEM.PERMISSIONS, '{}', { EX: 60 });\n}",
);

runRule(untypedTester, 'set-requires-ttl-or-keepttl (keys of another module of the repository)', setRule, {
  valid: [
    { code: permCache, filename: webApp, settings: persistent('auth:permission:*') },
    // a fixed key spelled through the package: a constant key, left alone in recommended
    { code: nodeRedis("import { REDIS_SYS_KEYS } from '@mono/redis';\nexport const f = () => client.set(REDIS_SYS_KEYS.SYSTEM.PERMISSIONS, '{}');"), filename: webApp, options: [{ allowConstantKeys: true }] },
  ],
  invalid: [
    // a pattern naming another key does not match: the key is spelled in the message
    {
      code: permCache,
      filename: webApp,
      settings: persistent('auth:token:*'),
      errors: [{ messageId: 'setWithoutTtl', line: 5, column: 15, suggestions: setSuggestions(permCache, 'redis.set(genAuthPermKey(uid), JSON.stringify(perms)') }],
    },
  ],
});

const expiredElsewhere = nodeRedis(
  "import { REDIS_SYS_KEYS } from '@mono/redis';\nexport async function enable(flag: string) {\n  await client.hSet(REDIS_SYS_KEYS.SYSTEM.FEATURES, flag, '1');\n}\nexport const reset = () => client.expire(REDIS_SYS_KEYS.SYSTEM.FEATURES, 60);",
);

runRule(untypedTester, 'incr-needs-expire-on-create (keys of another module of the repository)', incrRule, {
  valid: [
    { code: systemFlags, filename: webApp, settings: persistent('system:*') },
    // not declared: the hash is one fixed key, which the file never gives a TTL (the SET with EX is another key)
    { code: systemFlags, filename: webApp },
  ],
  invalid: [
    // the same key given a TTL elsewhere in the file: the bounded key is meant to expire
    {
      code: expiredElsewhere,
      filename: webApp,
      errors: [
        {
          messageId: 'noExpiry',
          line: 5,
          column: 16,
          data: { command: 'HSET', key: 'system:features', hint: " Kept forever on purpose? Add 'system:features' to settings['redis-ttl'].persistentKeys.", client: '' },
          suggestions: [
            {
              messageId: 'wrapInMulti',
              output: expiredElsewhere.replace(
                "client.hSet(REDIS_SYS_KEYS.SYSTEM.FEATURES, flag, '1')",
                "client.multi().hSet(REDIS_SYS_KEYS.SYSTEM.FEATURES, flag, '1').expire(REDIS_SYS_KEYS.SYSTEM.FEATURES, TTL_SECONDS).exec()",
              ),
            },
          ],
        },
      ],
    },
  ],
});
