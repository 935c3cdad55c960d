/**
 * A receiver reached past a client-named name of its path (`client.utils.redis.redisMainUsers`,
 * `redis.redisCache`, `this.redis.redisStore`) whose own name does not name a client by its last
 * word is the application's helper kept under its client, not a client by name
 * (`redis-calls/client-names.ts` helperPastClient, `client-facts.ts` CLIENT_NOUN): its `set(key,
 * value)` builds its key itself and is no SET. Near misses stay reported: a member named for a
 * client below a client-named path (`redis.client`, `app.redisService.redisClient`,
 * `redis.pubRedis`), a client-named member below a path naming no client (`clients.redis`,
 * `ctx.app.redis`, `cache.redis`), `this.redis`, and a name-only receiver of no path (`redisMainUsers`).
 */
import rule from '../../rules/set-requires-ttl-or-keepttl.js';
import { runRule, setWithoutTtlAt, untypedTester } from './tester.js';

const IMPORT = "import Redis from 'ioredis';\n";
const fn = (body: string): string => `${IMPORT}export async function save(client, redis, app, ctx, clients, cache, redisMainUsers, k, v) {\n  ${body}\n}`;
const inClass = (body: string): string => `${IMPORT}export class Store {\n  async save(k, v) {\n    ${body}\n  }\n}`;

runRule(untypedTester, 'set-requires-ttl-or-keepttl', rule, {
  valid: [
    // pwkang/epic-helper's main-users helper, reached through the bot client's utils
    fn('await client.utils.redis.redisMainUsers.set(k, v);'),
    fn('await redis.redisCache.set(k, v);'),
    fn('await app.redis.redisService.set(k, v);'),
    fn('await app.redisService.redisHelper.set(k, v);'),
    inClass('await this.redis.redisStore.set(k, v);'),
  ],
  invalid: [
    { code: fn('await redis.client.set(k, v);'), errors: [setWithoutTtlAt(fn('await redis.client.set(k, v);'), 3, 22)] },
    { code: fn('await app.redisService.redisClient.set(k, v);'), errors: [setWithoutTtlAt(fn('await app.redisService.redisClient.set(k, v);'), 3, 38)] },
    { code: fn('await redis.pubRedis.set(k, v);'), errors: [setWithoutTtlAt(fn('await redis.pubRedis.set(k, v);'), 3, 24)] },
    { code: fn('await clients.redis.set(k, v);'), errors: [setWithoutTtlAt(fn('await clients.redis.set(k, v);'), 3, 23)] },
    { code: fn('await ctx.app.redis.set(k, v);'), errors: [setWithoutTtlAt(fn('await ctx.app.redis.set(k, v);'), 3, 23)] },
    { code: fn('await cache.redis.set(k, v);'), errors: [setWithoutTtlAt(fn('await cache.redis.set(k, v);'), 3, 21)] },
    { code: fn('await redisMainUsers.set(k, v);'), errors: [setWithoutTtlAt(fn('await redisMainUsers.set(k, v);'), 3, 24)] },
    { code: inClass('await this.redis.set(k, v);'), errors: [setWithoutTtlAt(inClass('await this.redis.set(k, v);'), 4, 22)] },
  ],
});
