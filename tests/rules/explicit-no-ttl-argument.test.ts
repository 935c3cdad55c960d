/**
 * An explicit "no TTL" handed to the application's own write helper (round 36, from the kind's
 * definition): a helper whose TTL parameter chooses between a write with expiry and one without
 * (`if (ttl > 0) set(k, v, 'EX', ttl) else set(k, v)`, `ttl ? setex(...) : set(...)`) is read at
 * its callers (`redis-calls/option-arms.ts`), and a caller that passes a value the helper's own
 * test sends to the arm without expiry (`0`, `null`, `undefined`, `false`, a `const` of the file
 * or of a module it imports holding one) makes that write: reported at the caller, the message
 * naming the argument. The same holds for the shapes that hid GAMEDEV11-NEW/virtual-game's session
 * writes: the helper's client read from a `Map` of clients it fills itself (`this.clients.get(name)`,
 * `redis-calls/map-clients.ts`), an argument check that throws before the arms
 * (`if (!key) throw ...`: no arm), and a member set to `null` and filled later with the helper's
 * class (`this.redis = null`; `this.redis = new RedisService()`, `facade-targets.ts`).
 * Near misses, not reported: a positive TTL (a literal or a `const`), `Infinity`, a key persistent
 * by its declared pattern, a fixed key; and a `Map` that holds no client stays no client.
 */
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { lintApplication, lintApplicationMessages } from '../helpers/lint.js';

const roots: string[] = [];
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

const MANIFEST = '{ "name": "app", "private": true, "dependencies": { "ioredis": "^5.3.2" } }';

// src/utils/redis.ts: one client per configured connection, kept in a Map, handed out by name
const SERVICE = `import Redis from 'ioredis';
function createRedisClient(cfg: { url: string; cluster?: boolean }) {
  if (cfg.cluster) return new Redis.Cluster([cfg.url]);
  return new Redis(cfg.url);
}
export class RedisService {
  constructor(names: string[], configs: Map<string, { url: string }>) {
    this.clients = new Map();
    names.forEach((name) => {
      const cfg = configs.get(name);
      if (cfg) this.clients.set(name, createRedisClient(cfg));
    });
    this.defaultClient = names[0];
  }
  getClient(name = this.defaultClient) {
    const client = this.clients.get(name);
    if (!client) throw new Error('no connection ' + name);
    return client;
  }
  async set(key: string, value: unknown, ttlSeconds = 0, connectionName?: string) {
    if (!key) throw new Error('key required');
    const payload = JSON.stringify(value ?? null);
    const client = this.getClient(connectionName);
    if (ttlSeconds > 0) {
      await client.set(key, payload, 'EX', ttlSeconds);
    } else {
      await client.set(key, payload);
    }
  }
}
`;

const CONSTANTS = 'export const NO_TTL = 0;\nexport const SESSION_TTL = 3600;\n';

// src/cron/matchmaking.ts: the service member is null until the first use, and after close()
const MATCHMAKING = `import { RedisService } from '../utils/redis';
import { NO_TTL, SESSION_TTL } from '../constants';
const NONE = null;
export class Matchmaking {
  constructor() {
    this.redis = null;
    this.sessionConnection = 'session';
  }
  async initializeRedis() {
    if (this.redis) return;
    this.redis = new RedisService(['default', 'session'], new Map());
  }
  async close() {
    this.redis = null;
  }
  async ensureSession(userId: string, session: object) {
    await this.initializeRedis();
    const sessionKey = \`session:\${userId}\`;
    await this.redis.set(sessionKey, session, 0, this.sessionConnection);
    await this.redis.set(sessionKey, session, NO_TTL);
    await this.redis.set(sessionKey, session, NONE);
    await this.redis.set(sessionKey, session, false);
    await this.redis.set(sessionKey, session, undefined);
    await this.redis.set(sessionKey, session);
    await this.redis.set(sessionKey, session, 3600, this.sessionConnection);
    await this.redis.set(sessionKey, session, SESSION_TTL);
    await this.redis.set(sessionKey, session, Infinity);
    await this.redis.set(\`config:\${userId}\`, session, 0);
    await this.redis.set('matchmaking:stats', session, 0);
  }
}
`;

const SET = 'set-requires-ttl-or-keepttl';

/** `[rule, messageId, line, column]` of each finding of the SET rule and valid-ttl-args on `target`. */
function lint(files: Record<string, string>, target: string) {
  return lintApplication(roots, files, target, { [SET]: undefined, 'valid-ttl-args': undefined }, ['config:*'], MANIFEST);
}

/** The messages of the SET rule's findings on `target`, in order. */
function lintMessages(files: Record<string, string>, target: string): string[] {
  return lintApplicationMessages(roots, files, target, { [SET]: undefined }, ['config:*'], MANIFEST).map((m) => m.message);
}

describe('an explicit no-TTL argument handed to the application\'s write helper', () => {
  const files = { 'src/utils/redis.ts': SERVICE, 'src/constants.ts': CONSTANTS, 'src/cron/matchmaking.ts': MATCHMAKING };

  it('reports the caller that passes 0, a const 0 or null, false, undefined, or nothing; not a positive TTL, Infinity, a persistent or a fixed key', () => {
    expect(lint(files, 'src/cron/matchmaking.ts')).toEqual([
      [SET, 'setWithoutTtl', 19, 22],
      [SET, 'setWithoutTtl', 20, 22],
      [SET, 'setWithoutTtl', 21, 22],
      [SET, 'setWithoutTtl', 22, 22],
      [SET, 'setWithoutTtl', 23, 22],
      [SET, 'setWithoutTtl', 24, 22],
    ]);
  });

  it('says which argument took the branch without expiry', () => {
    const messages = lintMessages(files, 'src/cron/matchmaking.ts');
    expect(messages[0]).toContain("(TTL `0` takes `this.redis.set`'s SET without expiry, ../utils/redis.ts:27.)");
    expect(messages[1]).toContain('(TTL `NO_TTL` takes');
    // left out: the helper's default chose it, the message names the helper
    expect(messages[5]).toContain('(`this.redis.set` forwards the key to SET, ../utils/redis.ts:27.)');
  });

  it('leaves the helper alone: its callers choose', () => {
    expect(lint(files, 'src/utils/redis.ts')).toEqual([]);
  });

  it('a Map the class fills with something else holds no client', () => {
    const other = `export class Registry {
  constructor() {
    this.maps = new Map();
    this.maps.set('a', new Map());
  }
  put(id: string) {
    const m = this.maps.get('a');
    m.set(\`user:\${id}\`, 1);
  }
}
`;
    expect(lint({ 'src/registry.ts': other, 'src/x.ts': "import Redis from 'ioredis';\nexport const r = new Redis();\n" }, 'src/registry.ts')).toEqual([]);
  });

  it('an argument check of the TTL itself still counts: a caller whose TTL makes the helper throw writes nothing', () => {
    const cache = `import Redis from 'ioredis';
const clients = new Map();
clients.set('main', new Redis());
export async function set(key: string, value: string, ttl = 0) {
  if (ttl < 0) throw new Error('ttl must not be negative');
  if (ttl > 0) return clients.get('main').set(key, value, 'EX', ttl);
  return clients.get('main').set(key, value);
}
`;
    const use = `import { set } from './cache';
export async function save(id: string, v: string) {
  await set(\`profile:\${id}\`, v, -1);
  await set(\`profile:\${id}\`, v, 0);
}
`;
    expect(lint({ 'src/cache.ts': cache, 'src/use.ts': use }, 'src/use.ts')).toEqual([[SET, 'setWithoutTtl', 4, 9]]);
  });

  it('a ternary helper (`ttl ? setex : set`) called with 0 writes without expiry; with a TTL it does not', () => {
    const cache = `import Redis from 'ioredis';
const client = new Redis();
export function set(key: string, value: string, ttl?: number) {
  return ttl ? client.setex(key, ttl, value) : client.set(key, value);
}
`;
    const use = `import { set } from './cache';
export async function save(id: string, v: string) {
  await set(\`profile:\${id}\`, v, 0);
  await set(\`profile:\${id}\`, v, 600);
}
`;
    expect(lint({ 'src/cache.ts': cache, 'src/use.ts': use }, 'src/use.ts')).toEqual([[SET, 'setWithoutTtl', 3, 9]]);
  });
});
