/**
 * Breaker round 24: odd but realistic code against the round's new readings. Each case is a real
 * leak a reading hid, and the finding it must keep.
 */
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { lintApplication, lintKeyRules, lintSnippet } from '../helpers/lint.js';
import { ioredis } from './tester.js';

/** [rule, messageId, line, column] of each finding of the two key rules. */
const lint = (code: string) => lintKeyRules(code);
const INCR = 'redis-ttl/incr-needs-expire-on-create';
const SET = 'redis-ttl/set-requires-ttl-or-keepttl';

describe('created-before: a creation the key may not outlive', () => {
  it('keeps a write after an EXPIRE whose TTL may be <= 0 or past (Redis deletes the key)', () => {
    const code = ioredis(`export async function hit(id: string, deadline: number, at: number) {
  await redis.set(\`a:\${id}\`, 0, 'EX', 60);
  await redis.pexpire(\`a:\${id}\`, deadline - Date.now());
  await redis.incr(\`a:\${id}\`);
  await redis.set(\`b:\${id}\`, 0, 'EX', 60);
  await redis.expireat(\`b:\${id}\`, at);
  await redis.incr(\`b:\${id}\`);
  await redis.set(\`c:\${id}\`, 0, 'EX', 60);
  await redis.expire(\`c:\${id}\`, 120);
  await redis.incr(\`c:\${id}\`);
}
`);
    expect(lint(code)).toEqual([
      [INCR, 'expiryBeforeCreate', 6, 15],
      [INCR, 'expiryBeforeCreate', 9, 15],
    ]);
  });

  it('keeps a write after a script or a FLUSHDB that may delete the key unnamed', () => {
    const code = ioredis(`export async function hit(id: string) {
  await redis.set(\`a:\${id}\`, 0, 'EX', 60);
  await redis.eval('return redis.call("DEL", KEYS[1])', 1, \`a:\${id}\`);
  await redis.incr(\`a:\${id}\`);
}
export async function reset(id: string) {
  await redis.set(\`b:\${id}\`, 0, 'EX', 60);
  await redis.flushdb();
  await redis.incr(\`b:\${id}\`);
}
`);
    expect(lint(code)).toEqual([
      [INCR, 'noExpiry', 6, 15],
      [INCR, 'noExpiry', 11, 15],
    ]);
  });

  it('keeps a write whose key variable is reassigned on the next turn of its loop or in a closure', () => {
    const code = ioredis(`export async function each(ids: string[]) {
  let k = \`a:\${ids[0]}\`;
  await redis.set(k, 0, 'EX', 60);
  for (const id of ids) {
    await redis.incr(k);
    k = \`a:\${id}\`;
  }
}
export async function next(ids: string[]) {
  let k = \`b:\${ids[0]}\`;
  const advance = () => {
    k = \`b:\${ids[1]}\`;
  };
  await redis.set(k, 0, 'EX', 60);
  advance();
  await redis.incr(k);
}
`);
    expect(lint(code)).toEqual([
      [INCR, 'noExpiry', 7, 17],
      [INCR, 'noExpiry', 18, 15],
    ]);
  });
});

const roots: string[] = [];
afterAll(() => roots.forEach((root) => rmSync(root, { recursive: true, force: true })));

/** Lints `target` of an application made of `files` with the TTL rules (defaults); [rule id, messageId, line, column] per finding. */
function lintApp(files: Record<string, string>, target: string): Array<[string | null, string | undefined, number, number]> {
  const rules = { 'valid-ttl-args': undefined, 'set-requires-ttl-or-keepttl': undefined, 'incr-needs-expire-on-create': undefined, 'ttl-units': undefined };
  return lintApplication(roots, files, target, rules, []).map(([rule, ...rest]) => [`redis-ttl/${rule}`, ...rest]);
}

describe('created-before: a warm-up of another key than the one written', () => {
  it('keeps a write whose key variable is shadowed or reassigned after the read the warm-up follows', () => {
    const code = ioredis(`export async function shadow(key: string, others: string[]) {
  const cur = await redis.get(key);
  if (cur === null) await redis.set(key, 0);
  for (const key of others) await redis.incr(key);
}
export async function moved(id: string, other: string) {
  let key = \`c:\${id}\`;
  const cur = await redis.get(key);
  key = \`c:\${other}\`;
  if (cur === null) await redis.set(key, 0);
  await redis.incr(key);
}
`);
    expect(lint(code)).toEqual([
      [SET, 'setWithoutTtl', 5, 33],
      [INCR, 'noExpiry', 6, 41],
      [SET, 'setWithoutTtl', 12, 33],
      [INCR, 'noExpiry', 13, 15],
    ]);
  });
});

describe('implemented-interfaces: an interface a client class implements describes a client', () => {
  it('keeps reading calls through an interface whose implementing class extends ioredis', () => {
    const store = `export interface Store {
  set(key: string, value: string, mode?: string, ttl?: number): Promise<unknown>;
  incr(key: string): Promise<number>;
  expire(key: string, seconds: number): Promise<unknown>;
  get(key: string): Promise<string | null>;
}
`;
    const cache = `import Redis from 'ioredis';
import type { Store } from './store';
export class Cache extends Redis implements Store {}
`;
    const use = `import type { Store } from './store';
export async function save(redis: Store, id: string) {
  await redis.set(\`f:\${id}\`, 'x');
  await redis.incr(\`h:\${id}\`);
  await redis.set(\`g:\${id}\`, 'x', 'EX', 60);
}
`;
    expect(lintApp({ 'lib/store.ts': store, 'lib/cache.ts': cache, 'lib/use.ts': use }, 'lib/use.ts')).toEqual([
      [SET, 'setWithoutTtl', 3, 15],
      [INCR, 'noExpiry', 4, 15],
    ]);
  });
});

describe('caller-expiry: the expiry a caller queues must be of the same key on the same batch', () => {
  const helper = `import type { ChainableCommander } from 'ioredis';
function bump(p: ChainableCommander, k: string) {
  p.hincrby(k, 'n', 1);
}
`;
  it('keeps the helper reported when a caller reassigns the key or the unit in between', () => {
    expect(
      lint(
        ioredis(`${helper}export async function a(ids: string[]) {
  const p = redis.pipeline();
  let k = \`a:\${ids[0]}\`;
  bump(p, k);
  k = \`a:\${ids[1]}\`;
  p.expire(k, 60);
  await p.exec();
}
`),
      ),
    ).toEqual([[INCR, 'noExpiry', 5, 5]]);
    expect(
      lint(
        ioredis(`${helper}export async function a(id: string) {
  let p = redis.pipeline();
  bump(p, \`a:\${id}\`);
  const first = p;
  p = redis.pipeline();
  p.expire(\`a:\${id}\`, 60);
  await first.exec();
  await p.exec();
}
`),
      ),
    ).toEqual([[INCR, 'noExpiry', 5, 5]]);
  });

  it('keeps the helper reported when a caller passes a client: the EXPIRE is another round trip', () => {
    expect(
      lint(
        ioredis(`${helper}export async function a(id: string) {
  bump(redis, \`a:\${id}\`);
  await redis.expire(\`a:\${id}\`, 60);
}
`),
      ),
    ).toEqual([[INCR, 'noExpiry', 5, 5]]);
  });
});

describe('traced-values: a TTL named like an absolute time', () => {
  /** [messageId, line, column] of each ttl-units finding. */
  const units = (code: string): Array<[string | undefined, number, number]> =>
    lintSnippet(code, { 'redis-ttl/ttl-units': 'error' }, 'app.ts').map((m) => [m.messageId, m.line, m.column]);
  const SECONDS_LEFT = `import moment from 'moment';
import dayjs from 'dayjs';
const secondsLeftToday = () => moment().endOf('day').diff(moment(), 'seconds');
`;

  it('keeps the name reading when a caller in the file passes a point in time', () => {
    expect(
      units(
        ioredis(`${SECONDS_LEFT}export async function setCache(key: string, value: string, expiresAt: number = 0) {
  if (!expiresAt) expiresAt = secondsLeftToday();
  await redis.setex(key, expiresAt, value);
}
export async function save(key: string) {
  await setCache(key, 'x', Date.now() + 60000);
}
`),
      ),
    ).toEqual([['absoluteAsDuration', 8, 26]]);
  });

  it("reads dayjs' diff in 'ms' as milliseconds", () => {
    expect(
      units(
        ioredis(`${SECONDS_LEFT}export async function a(key: string) {
  await redis.expire(key, dayjs().endOf('day').diff(dayjs(), 'ms'));
}
`),
      ),
    ).toEqual([['msAsSeconds', 7, 27]]);
  });
});
