/**
 * Breaker round 25: odd but realistic code against the round's new readings (a wrapper whose
 * positional TTL chooses its command, a drain through a key pattern, a read that saw the key).
 * Each case is a leak a reading hid, or a finding nobody would fix, and the result it must give.
 */
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { lintApplication, lintWriteRules } from '../helpers/lint.js';
import { ioredis } from './tester.js';

const roots: string[] = [];
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

const SET = 'set-requires-ttl-or-keepttl';
const INCR = 'incr-needs-expire-on-create';
const RULES = { [SET]: undefined, [INCR]: undefined };
const TSCONFIG = JSON.stringify({ compilerOptions: { baseUrl: './', paths: { '@redis/*': ['src/redis/*'] } } });

/** src/redis/redis.service.ts: a `RedisService` whose `set` has the given parameters and body. */
const service = (params: string, body: string): string => `import Redis from 'ioredis';
export class RedisService {
  private client!: Redis;
  async set(${params}): Promise<void> {
${body}
  }
}
`;
const UNLESS_UNDEFINED = `    if (ttl !== undefined) {
      await this.client.setex(key, ttl, value);
    } else {
      await this.client.set(key, value);
    }`;
const IF_TTL = `    if (ttl) {
      await this.client.setex(key, ttl, value);
    } else {
      await this.client.set(key, value);
    }`;
/** src/cats.ts: a caller whose `call` is line 5. */
const caller = (call: string): string => `import { RedisService } from '@redis/redis.service';
export class Cats {
  constructor(private readonly redisService: RedisService) {}
  async cache(id: string, json: string, remember: boolean): Promise<void> {
    ${call};
  }
}
`;
const lintCaller = (serviceText: string, call: string, target = 'src/cats.ts') =>
  lintApplication(roots, { 'tsconfig.json': TSCONFIG, 'src/redis/redis.service.ts': serviceText, 'src/cats.ts': caller(call) }, target, RULES, []);

describe('a wrapper whose positional TTL chooses its command', () => {
  it('reads an explicit `undefined` (the builtin global), `void 0`, `undefined as ...` as no TTL', () => {
    const wrapper = service('key: string, value: string, ttl?: number', UNLESS_UNDEFINED);
    expect(lintCaller(wrapper, 'await this.redisService.set(`cats:${id}`, json, undefined)')).toEqual([[SET, 'setWithoutTtl', 5, 29]]);
    expect(lintCaller(wrapper, 'await this.redisService.set(`cats:${id}`, json, void 0)')).toEqual([[SET, 'setWithoutTtl', 5, 29]]);
    expect(lintCaller(wrapper, 'await this.redisService.set(`cats:${id}`, json, undefined as unknown as number)')).toEqual([[SET, 'setWithoutTtl', 5, 29]]);
    const truthy = service('key: string, value: string, ttl?: number', IF_TTL);
    expect(lintCaller(truthy, 'await this.redisService.set(`cats:${id}`, json, undefined)')).toEqual([[SET, 'setWithoutTtl', 5, 29]]);
  });

  it('reads a TTL chosen at the call (`remember ? WEEK : undefined`) as the plain SET it sends on one path', () => {
    const wrapper = service('key: string, value: string, ttl?: number', UNLESS_UNDEFINED);
    expect(lintCaller(wrapper, 'await this.redisService.set(`cats:${id}`, json, remember ? 604800 : undefined)')).toEqual([[SET, 'setWithoutTtl', 5, 29]]);
    expect(lintCaller(service('key: string, value: string, ttl?: number', IF_TTL), 'await this.redisService.set(`cats:${id}`, json, remember ? 604800 : 0)')).toEqual([[SET, 'setWithoutTtl', 5, 29]]);
    // both sides expire: no finding
    expect(lintCaller(wrapper, 'await this.redisService.set(`cats:${id}`, json, remember ? 604800 : 60)')).toEqual([]);
  });

  it('takes a default the body spells (`ttl = ttl ?? 3600`) as the default', () => {
    const defaulted = service('key: string, value: string, ttl?: number', `    ttl = ttl ?? 3600;\n${IF_TTL}`);
    expect(lintCaller(defaulted, 'await this.redisService.set(`cats:${id}`, json)')).toEqual([]);
    const orDefault = service('key: string, value: string, ttl?: number', `    ttl ||= 3600;\n${IF_TTL}`);
    expect(lintCaller(orDefault, 'await this.redisService.set(`cats:${id}`, json, 0)')).toEqual([]);
  });
});

describe('a read that saw the key: the refresh and the loop after the write', () => {
  it('keeps a write refreshed on some paths only (an EXPIRE under an `if`)', () => {
    const code = ioredis(`export async function open(id: string) {
  await redis.set(\`w:\${id}\`, 0, 'EX', 60);
}
export async function hit(id: string, extend: boolean) {
  const w = await redis.get(\`w:\${id}\`);
  if (w === null) return;
  await redis.incr(\`w:\${id}\`);
  if (extend) await redis.expire(\`w:\${id}\`, 60);
}
`);
    expect(lintWriteRules(code)).toEqual([[INCR, 'separateRoundTrip', 9, 15, '10']]);
  });

  it('keeps a write refreshed after an early exit between them', () => {
    const code = ioredis(`export async function open(id: string) {
  await redis.set(\`w:\${id}\`, 0, 'EX', 60);
}
export async function hit(id: string, done: boolean) {
  const w = await redis.get(\`w:\${id}\`);
  if (w === null) return;
  await redis.incr(\`w:\${id}\`);
  if (done) return;
  await redis.expire(\`w:\${id}\`, 60);
}
`);
    expect(lintWriteRules(code)).toEqual([[INCR, 'separateRoundTrip', 9, 15, '11']]);
  });

  it('keeps a write in a loop that deletes the key after it (the next turn creates it anew)', () => {
    const code = ioredis(`export async function play(id: string, moves: string[]) {
  const state = await redis.hget(\`game:\${id}\`, 'state');
  if (!state) return;
  for (const move of moves) {
    await redis.hset(\`game:\${id}\`, 'last', move);
    if (move === 'resign') await redis.del(\`game:\${id}\`);
  }
}
`);
    expect(lintWriteRules(code)).toEqual([[INCR, 'noExpiry', 7, 17, undefined]]);
  });
});

describe('a drain through a key pattern that does not end every key', () => {
  it('keeps a counter a drain skips on some turns (a threshold `continue`, a `return` in its callback)', () => {
    const sweep = ioredis(`export async function hit(id: string) {
  await redis.incr(\`views:\${id}\`);
}
export async function flush() {
  const keys = await redis.keys('views:*');
  for (const key of keys) {
    const views = await redis.get(key);
    if (Number(views) < 100) continue;
    await save(key, Number(views));
    await redis.del(key);
  }
}
declare function save(k: string, n: number): Promise<void>;
`);
    expect(lintWriteRules(sweep)).toEqual([[INCR, 'noExpiry', 4, 15, undefined]]);
    const callback = ioredis(`export async function hit(id: string) {
  await redis.incr(\`views:\${id}\`);
}
export async function flush() {
  const keys = await redis.keys('views:*');
  await Promise.all(keys.map(async (key) => {
    const views = await redis.get(key);
    if (Number(views) < 10) return;
    await redis.del(key);
  }));
}
`);
    expect(lintWriteRules(callback)).toEqual([[INCR, 'noExpiry', 4, 15, undefined]]);
  });

  it('still takes a drain that skips only a key already gone (`if (!views) continue`)', () => {
    const code = ioredis(`export async function hit(id: string) {
  await redis.incr(\`views:\${id}\`);
}
export async function flush() {
  for (const key of await redis.keys('views:*')) {
    const views = await redis.get(key);
    if (!views) continue;
    await save(key, Number(views));
    await redis.del(key);
  }
}
declare function save(k: string, n: number): Promise<void>;
`);
    expect(lintWriteRules(code)).toEqual([]);
    expect(lintWriteRules(code, { allowDeletedKeys: false })).toEqual([[INCR, 'deletedElsewhere', 4, 15, '11']]);
  });

  it('keeps a counter drained through an ioredis client with a keyPrefix (KEYS patterns and replies are not prefixed)', () => {
    const code = `import Redis from 'ioredis';
const redis = new Redis({ keyPrefix: 'app:' });
export async function hit(id: string) {
  await redis.incr(\`views:\${id}\`);
}
export async function flush() {
  const keys = await redis.keys('views:*');
  for (const key of keys) await redis.getdel(key);
}
`;
    expect(lintWriteRules(code)).toEqual([[INCR, 'noExpiry', 4, 15, undefined]]);
  });

  it('keeps a drain named only in a comment (a scheduler left disabled) or inside a string', () => {
    const disabled = ioredis(`export class Views {
  constructor() {
    // setInterval(() => this.syncViewCounts(), 60_000);
  }
  async incrementViews(id: string) {
    await redis.incr(\`views:\${id}\`);
  }
  private async syncViewCounts() {
    const keys = await redis.keys('views:*');
    for (const key of keys) await redis.getdel(key);
  }
}
`);
    expect(lintWriteRules(disabled)).toEqual([[INCR, 'noExpiry', 8, 17, undefined]]);
    const logged = ioredis(`export class Views {
  async incrementViews(id: string) {
    await redis.incr(\`views:\${id}\`);
    console.log('flushViews is disabled');
  }
  private async flushViews() {
    for (const key of await redis.keys('views:*')) await redis.getdel(key);
  }
}
`);
    expect(lintWriteRules(logged)).toEqual([[INCR, 'noExpiry', 5, 17, undefined]]);
  });

  it('takes a private method a decorator schedules (`@Cron`): the framework calls it', () => {
    const code = ioredis(`export class Views {
  async incrementViews(id: string) {
    await redis.incr(\`views:\${id}\`);
  }
  @Cron('* * * * *')
  private async syncViewCounts() {
    const keys = await redis.keys('views:*');
    for (const key of keys) await redis.getdel(key);
  }
}
declare function Cron(s: string): MethodDecorator;
`);
    expect(lintWriteRules(code)).toEqual([]);
    expect(lintWriteRules(code, { allowDeletedKeys: false })).toEqual([[INCR, 'deletedElsewhere', 5, 17, '10']]);
  });
});
