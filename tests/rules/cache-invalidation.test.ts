/**
 * A cache key family's DEL is an invalidation, not the end of its life (redis-calls/cache-keys.ts,
 * lifecycle.ts `deletedElsewhere`): a key family the code gives a TTL somewhere, in a module the
 * linted file imports (SET ... EX, SETEX, EXPIRE) or through a helper that writes its key parameter
 * with an expiry and is called with that family and its TTL argument (passed, or defaulted), is a
 * cache. A write of that family without TTL is reported even though another function of the file
 * deletes the family: `allowDeletedKeys` does not take the invalidation for the key's end. Near
 * misses keep today's exemption: a family never expired anywhere (a per-user hash deleted on
 * change, in-progress state deleted when it ends), a family passed to a helper that expires its key
 * only when a TTL is given, and the caller gives none. With `allowDeletedKeys: false` every write is
 * reported, as before.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import plugin from '../../rules/index.js';
import { lintSnippet } from '../helpers/lint.js';

const app = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'cache-keys', 'app');
const controller = join(app, 'controller.ts');

const INCR = 'incr-needs-expire-on-create' as const;
const SET = 'set-requires-ttl-or-keepttl' as const;

/** [rule, messageId, line, column, the line the message names] of each finding of the two write rules. */
function lint(code: string, filename: string, options: Record<string, unknown> = {}) {
  const rules: Record<string, unknown> = {};
  for (const name of [INCR, SET] as const) {
    const schema = (plugin.rules?.[name]?.meta?.schema as Array<{ properties?: Record<string, unknown> }> | undefined)?.[0];
    rules[`redis-ttl/${name}`] = ['error', Object.fromEntries(Object.entries(options).filter(([key]) => key in (schema?.properties ?? {})))];
  }
  return lintSnippet(code, rules as never, filename).map((m) => [m.ruleId?.replace('redis-ttl/', ''), m.messageId, m.line, m.column, /\bline (\d+)/.exec(m.message)?.[1]]);
}

// a read-through helper of the same file, not exported: its callers are the file's own
const ownHelper = `import Redis from 'ioredis';
const redis = new Redis();
async function cached(key: string, load: () => Promise<string>, ttl = 30) {
  const hit = await redis.get(key);
  if (hit) return hit;
  const value = await load();
  await redis.setex(key, ttl, value);
  return value;
}
export const readOrder = (id: string) => cached(\`order:\${id}\`, async () => id);
export async function saveOrder(id: string, value: string) {
  await redis.set(\`order:\${id}\`, value);
  await redis.sadd(\`order:\${id}:lines\`, value);
}
export async function dropOrder(id: string) {
  await redis.del(\`order:\${id}\`);
  await redis.del(\`order:\${id}:lines\`);
}
`;

describe('a cache key family invalidated by DEL', () => {
  it('reports the writes without TTL of families the code expires elsewhere, keeps the others exempt', () => {
    // tests/fixtures/cache-keys/app: contact:* through wrapRedis's default TTL (contacts.ts),
    // settings:* and visits:* expired in settings.ts, team:* through cacheFor with its TTL passed;
    // profile:* only through remember without a TTL, user:*:prefs and import:*:state never expired
    expect(lint(readFileSync(controller, 'utf8'), controller)).toEqual([
      [SET, 'setWithoutTtl', 6, 15, undefined],
      [SET, 'setWithoutTtl', 7, 15, undefined],
      [SET, 'setWithoutTtl', 8, 15, undefined],
      [INCR, 'noExpiry', 9, 15, undefined],
    ]);
  });

  it('strict (allowDeletedKeys: false) reports every write, the never-expired ones naming their DEL', () => {
    expect(lint(readFileSync(controller, 'utf8'), controller, { allowDeletedKeys: false })).toEqual([
      [SET, 'setWithoutTtl', 6, 15, undefined],
      [SET, 'setWithoutTtl', 7, 15, undefined],
      [SET, 'setWithoutTtl', 8, 15, undefined],
      [INCR, 'noExpiry', 9, 15, undefined],
      [SET, 'deletedElsewhere', 10, 15, '20'],
      [INCR, 'deletedElsewhere', 11, 15, '21'],
      [SET, 'deletedElsewhere', 12, 15, '22'],
    ]);
  });

  it('a helper of the linted file that writes its key with a TTL makes its callers\' family a cache', () => {
    // order:* is cached through `cached`; the order's line set is never expired: still exempt
    expect(lint(ownHelper, join(app, 'orders.ts'))).toEqual([[SET, 'setWithoutTtl', 12, 15, undefined]]);
    // without the helper's call, the family is never expired: the DEL ends its life, as before
    expect(lint(ownHelper.replace(/^export const readOrder.*\n/m, ''), join(app, 'orders.ts'))).toEqual([]);
  });
});
