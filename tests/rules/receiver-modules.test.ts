/**
 * Receivers reached through another module of the same repository that a package specifier points
 * to (issue 25, the fourth validation set's recall sample: nest-admin's idempotence interceptor
 * reaches its ioredis client as `this.cacheService.getClient()`, `CacheService` imported through
 * the tsconfig alias `~/shared/redis/cache.service`). A tsconfig `paths` alias or a workspace
 * package of the monorepo is a module of the code (`redis-calls/resolve.ts`), followed as a
 * relative import is: a member typed by an imported class, a method whose declared return type is
 * a client (or, undeclared, whose body returns one), a function returning a client, a client
 * value, a facade class. A third-party package never is: what it exports stays unknown (the name
 * decides), and a class of the code that is no client beats the receiver's name.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import incrRule from '../../rules/incr-needs-expire-on-create.js';
import setRule from '../../rules/set-requires-ttl-or-keepttl.js';
import { runRule, setSuggestions, untypedTester } from './tester.js';

/** tests/fixtures/receiver-modules: an app with a `~/*` alias, workspace packages `@r/cache` and `@r/store`. */
const fixture = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'receiver-modules');
const app = join(fixture, 'app', 'src', 'interceptors', 'idempotence.ts');

/** The nest-admin interceptor: SET EX when the request starts, SET KEEPTTL when it succeeds. */
const interceptor = (receiver: string): string =>
  [
    "import { CacheService } from '~/shared/redis/cache.service';",
    'export class Interceptor {',
    '  constructor(private readonly cacheService: CacheService) {}',
    '  async intercept(key: string, next: Handler) {',
    `    const conn = ${receiver};`,
    "    await conn.set(key, '0', 'EX', 60);",
    "    return next.handle().pipe(tap(async () => { await conn.set(key, '1', 'KEEPTTL'); }));",
    '  }',
    '}',
  ].join('\n');

/** The error for the KEEPTTL SET on line 7 of {@link interceptor}, with its XX suggestion. */
const keepTtl = (code: string) => ({
  messageId: 'keepTtlAfterExpiry' as const,
  line: 7,
  column: 60,
  suggestions: [{ messageId: 'addXx' as const, output: code.replace("'1', 'KEEPTTL')", "'1', 'KEEPTTL', 'XX')") }],
});

/** A SET without TTL through `receiver`, after `imports` (line 1): the SET is on line 2. */
const save = (imports: string, receiver: string): string => `${imports}\nexport async function save(id: string, v: string) { await ${receiver}.set(\`order:\${id}\`, v); }`;

const getClient = interceptor('this.cacheService.getClient()');
const declared = interceptor('this.cacheService.declared()');
const aliasValue = save("import { redis as conn } from '~/shared/redis/client';", 'conn');
const aliasFunction = save("import { getRedis } from '~/shared/redis/client';", 'getRedis()');
const workspaceMethod = save("import { Store } from '@r/cache';\nconst store = new Store();", 'store.getClient()');
const workspaceMember = [
  "import { RedisStore } from '@r/store';",
  'export class Orders {',
  '  constructor(private readonly store: RedisStore) {}',
  '  async save(id: string, v: string) { await this.store.conn.set(`order:${id}`, v); }',
  '}',
].join('\n');
const inheritedClient = [
  "import { RedisStore } from '@r/store';",
  'export class Orders extends RedisStore {',
  '  async save(id: string, v: string) { await this.conn.set(`order:${id}`, v); }',
  '}',
].join('\n');

runRule(untypedTester, 'set-requires-ttl-or-keepttl (receivers of another module of the repository)', setRule, {
  valid: [
    // a method of the class that returns no client
    { code: interceptor('this.cacheService.label()'), filename: app },
    // a package the repository does not hold (a third-party one): its value stays unknown
    { code: save("import { client as conn } from '@ext/cache';", 'conn'), filename: app },
    // a workspace manifest whose entry lies outside the monorepo (`"main": "../../../elsewhere"`) is not followed
    { code: save("import { client as conn } from '@r/escape';", 'conn'), filename: app },
    // the app's own cache class, inherited from a base class imported through the alias: no client,
    // though the member's name matches clientNames
    {
      code: "import { Base } from '~/shared/cache/base';\nexport class Adapter extends Base {\n  async save(id: string, v: string) { await this.redisCache.set(`withdrawal:${id}`, v); }\n}",
      filename: app,
    },
    // the same class held directly, imported through the alias
    {
      code: "import { AppCache } from '~/shared/cache/app-cache';\nexport class Adapter {\n  constructor(private redisCache: AppCache) {}\n  async save(id: string, v: string) { await this.redisCache.set(`withdrawal:${id}`, v); }\n}",
      filename: app,
    },
  ],
  invalid: [
    // the nest-admin shape: a method without a declared return type returning a typed getter
    { code: getClient, filename: app, errors: [keepTtl(getClient)] },
    // a method whose declared return type is the client
    { code: declared, filename: app, errors: [keepTtl(declared)] },
    // a client value and a function returning it, imported through the alias
    { code: aliasValue, filename: app, errors: [{ messageId: 'setWithoutTtl', line: 2, column: 64, suggestions: setSuggestions(aliasValue, 'conn.set(`order:${id}`, v') }] },
    { code: aliasFunction, filename: app, errors: [{ messageId: 'setWithoutTtl', line: 2, column: 70, suggestions: setSuggestions(aliasFunction, 'getRedis().set(`order:${id}`, v') }] },
    // a workspace package: a method of its class that returns its client, a member typed by the client
    {
      code: workspaceMethod,
      filename: app,
      errors: [
        {
          messageId: 'setWithoutTtl',
          line: 3,
          column: 77,
          suggestions: [
            { messageId: 'addExpiryPlaceholder', output: workspaceMethod.replace('`order:${id}`, v)', '`order:${id}`, v, { EX: TTL_SECONDS })') },
            { messageId: 'addKeepTtl', output: workspaceMethod.replace('`order:${id}`, v)', '`order:${id}`, v, { KEEPTTL: true })') },
          ],
        },
      ],
    },
    { code: workspaceMember, filename: app, errors: [{ messageId: 'setWithoutTtl', line: 4, column: 61, suggestions: setSuggestions(workspaceMember, 'this.store.conn.set(`order:${id}`, v') }] },
    // a member inherited from a class of a workspace package
    { code: inheritedClient, filename: app, errors: [{ messageId: 'setWithoutTtl', line: 3, column: 55, suggestions: setSuggestions(inheritedClient, 'this.conn.set(`order:${id}`, v') }] },
  ],
});

/**
 * Nango's UsageCache: the store's type is `Awaited<ReturnType<typeof getRedis>>` of a workspace
 * package whose manifest names its unbuilt `dist/` (its tsconfig compiles `lib/` into `dist/`);
 * INCR passes a TTL, the overwrite HSETs the same per-period key without one (line 11).
 */
const usageCache = (storeType: string, overwrite = 'await this.store.hSet(key, { count, at: `${Date.now()}` });', imports = "import type { getRedis, getLocalStore } from '@r/kv';") =>
  [
    imports,
    'type Redis = Awaited<ReturnType<typeof getRedis>>;',
    'export class UsageCache {',
    `  constructor(private readonly store: ${storeType}) {}`,
    '  async incr(key: string, delta: number, ttlMs?: number) {',
    '    const multi = this.store.multi();',
    "    multi.hIncrBy(key, 'count', delta);",
    '    if (ttlMs) multi.pExpire(key, ttlMs);',
    '    return multi.exec();',
    '  }',
    `  async overwrite(key: string, count: number) { ${overwrite} }`,
    '}',
  ].join('\n');

const viaAliasType = usageCache('Redis');
const viaInlineType = usageCache('Awaited<ReturnType<typeof getRedis>>');

/** The HSET of line 11, with the suggestion that queues the expiry after it in one MULTI. */
const hsetError = (code: string) => ({
  messageId: 'noExpiry' as const,
  line: 11,
  column: 66,
  suggestions: [
    {
      messageId: 'wrapInMulti' as const,
      output: code.replace('this.store.hSet(key, { count, at: `${Date.now()}` })', 'this.store.multi().hSet(key, { count, at: `${Date.now()}` }).expire(key, TTL_SECONDS).exec()'),
    },
  ],
});

runRule(untypedTester, 'incr-needs-expire-on-create (receivers of another module of the repository)', incrRule, {
  valid: [
    // the package's other factory makes a Map, no client
    { code: usageCache('ReturnType<typeof getLocalStore>'), filename: app },
    // the overwrite expires the key in the same MULTI
    { code: usageCache('Redis', 'await this.store.multi().hSet(key, { count }).pExpire(key, 60_000).exec();'), filename: app },
  ],
  invalid: [
    { code: viaAliasType, filename: app, errors: [hsetError(viaAliasType)] },
    { code: viaInlineType, filename: app, errors: [hsetError(viaInlineType)] },
  ],
});
