/**
 * "Counter INCR whose missing TTL is repaired": the function that writes a key also re-arms it
 * whenever its TTL is missing: an EXPIRE / PEXPIRE of the same key on a branch guarded by that
 * key's TTL / PTTL reply being -1 (`ttl < 0`, `ttl === -1`, `-1 === pttl`, `<= 0`), read in the
 * same round trip or another, before or after the write, with or without an `n === 1` branch
 * (redis-calls/ttl-repair.ts). A crash between the write and its expiry is healed on the next
 * call, so `recommended` (`allowTtlRepair`, on by default) leaves it alone; `strict` reports it
 * with its own message (a key never hit again keeps no TTL). Near misses keep their findings: the
 * TTL of another key, a guard that does not hold for -1 (`ttl > 0`, `ttl === -2`), the expiry in
 * the arm where the TTL is present, of another key, or in another function.
 */
import { Linter } from 'eslint';
import { describe, expect, it } from 'vitest';
import plugin from '../../rules/index.js';
import { lintSnippet } from '../helpers/lint.js';
import { ioredis, nodeRedis } from './tester.js';

/** [messageId, line, column, the line named in the message] of each finding of the rule. */
function lint(code: string, options: Record<string, unknown> = {}): Array<[string | undefined, number, number, string | undefined]> {
  const messages = lintSnippet(code, { 'redis-ttl/incr-needs-expire-on-create': ['error', options] });
  return messages.map((m) => [m.messageId, m.line, m.column, /at line (\d+)|\(line (\d+)\)/.exec(m.message)?.slice(1).find(Boolean)]);
}

// the first hit expires it, later ones re-arm a missing TTL (civitai blocks.router.ts)
const v1 = nodeRedis(`export async function reserve(userId: number, cost: number) {
  const key = \`cap:\${userId}\`;
  const total = await client.incrBy(key, cost);
  if (total <= cost) {
    await client.expire(key, 86400);
  } else {
    const ttl = await client.ttl(key);
    if (ttl < 0) await client.expire(key, 86400);
  }
  return total;
}
`);
// the TTL read after the n === 1 branch, `=== -1`, a `let` assigned later
const v2 = ioredis(`export async function guard(page: string) {
  let ttl: number;
  const key = \`rl:\${page}\`;
  const count = await redis.incr(key);
  if (count === 1) {
    await redis.expire(key, 60);
  }
  ttl = await redis.ttl(key);
  if (ttl === -1) {
    await redis.expire(key, 60);
    ttl = 60;
  }
  return count;
}
`);
// the TTL read inline, behind Number()
const v3 = ioredis(`export async function hit(id: string) {
  const count = await redis.incrby(\`budget:\${id}\`, 5);
  if (count === 5) await redis.expire(\`budget:\${id}\`, 3600);
  else if (Number(await redis.ttl(\`budget:\${id}\`)) < 0) await redis.expire(\`budget:\${id}\`, 3600);
  return count;
}
`);
// no n === 1 branch: only the repair, the reply behind .catch(() => -1)
const v4 = nodeRedis(`export async function hit(id: string) {
  const n = await client.hIncrBy(\`stats:\${id}\`, 'views', 1);
  const ttl = await client.ttl(\`stats:\${id}\`).catch(() => -1);
  if (ttl < 0) await client.expire(\`stats:\${id}\`, 600);
  return n;
}
`);
// PTTL read in the MULTI of the write, the literal on the left, an element of the reply
const v5 = ioredis(`export async function hit(id: string) {
  const res = await redis.multi().pttl(\`w:\${id}\`).incr(\`w:\${id}\`).exec();
  if (-1 === res?.[0]?.[1]) await redis.pexpire(\`w:\${id}\`, 60_000);
  return res;
}
`);
// the TTL queued in the pipeline of the write, destructured from exec(), the guard an &&
const v6 = ioredis(`export async function hit(id: string) {
  const pipe = redis.pipeline();
  pipe.sadd(\`seen:\${id}\`, 'x');
  pipe.ttl(\`seen:\${id}\`);
  const [, [, ttl]] = (await pipe.exec())!;
  (ttl as number) <= 0 && (await redis.expire(\`seen:\${id}\`, 60));
}
`);
// the TTL read is of another key
const i1 = ioredis(`export async function hit(id: string) {
  const count = await redis.incr(\`rl:\${id}\`);
  if (count === 1) await redis.expire(\`rl:\${id}\`, 60);
  else if ((await redis.ttl(\`rl:\${id}:start\`)) < 0) await redis.expire(\`rl:\${id}\`, 60);
}
`);
// guards that do not hold for a key without TTL (-1): only while it has one, only when it is missing
const i2 = ioredis(`export async function hit(id: string) {
  const count = await redis.incr(\`rl:\${id}\`);
  const ttl = await redis.ttl(\`rl:\${id}\`);
  if (ttl > 0) await redis.expire(\`rl:\${id}\`, 60);
  if (ttl === -2) await redis.expire(\`rl:\${id}\`, 60);
  return count;
}
`);
// the repair is in another function
const i3 = ioredis(`export async function hit(id: string) {
  return redis.incr(\`rl:\${id}\`);
}
export async function repair(id: string) {
  if ((await redis.ttl(\`rl:\${id}\`)) < 0) await redis.expire(\`rl:\${id}\`, 60);
}
`);
// the guarded expiry is of another key; the expiry in the arm where the TTL is present
const i4 = ioredis(`export async function hit(id: string) {
  const count = await redis.incr(\`rl:\${id}\`);
  if ((await redis.ttl(\`rl:\${id}\`)) < 0) await redis.expire(\`other:\${id}\`, 60);
  const ttl = await redis.ttl(\`rl:\${id}\`);
  if (ttl < 0) {
  } else await redis.expire(\`rl:\${id}\`, 60);
  return count;
}
`);
// GLIDE: the TTL queued in the transaction of the write, its reply from client.exec(tx)
const v7 = `import { Batch, GlideClient } from '@valkey/valkey-glide';
const client = await GlideClient.createClient({ addresses: [] });
export async function hit(id: string) {
  const tx = new Batch(true);
  tx.incr(\`g:\${id}\`);
  tx.ttl(\`g:\${id}\`);
  const [n, ttl] = (await client.exec(tx))!;
  if ((ttl as number) === -1) await client.expire(\`g:\${id}\`, 60);
  return n;
}
`;

describe('incr-needs-expire-on-create: a key re-armed whenever its TTL is missing', () => {
  it('leaves it alone by default (allowTtlRepair)', () => {
    for (const code of [v1, v2, v3, v4, v5, v6, v7]) expect(lint(code), code).toEqual([]);
  });

  it('reports it without allowTtlRepair, saying which expiry repairs it', () => {
    expect(lint(v1, { allowTtlRepair: false })).toEqual([['repairedOnNextHit', 5, 30, '10']]);
    expect(lint(v2, { allowTtlRepair: false })).toEqual([['repairedOnNextHit', 6, 29, '12']]);
    expect(lint(v3, { allowTtlRepair: false })).toEqual([['repairedOnNextHit', 4, 29, '6']]);
    expect(lint(v4, { allowTtlRepair: false })).toEqual([['repairedOnNextHit', 4, 26, '6']]);
    expect(lint(v5, { allowTtlRepair: false })).toEqual([['repairedOnNextHit', 4, 51, '5']]);
    expect(lint(v6, { allowTtlRepair: false })).toEqual([['repairedOnNextHit', 5, 8, '8']]);
    expect(lint(v7, { allowTtlRepair: false })).toEqual([['repairedOnNextHit', 5, 6, '8']]);
  });

  it('is off in the strict config only', () => {
    const entry = (config: Linter.Config) => config.rules?.['redis-ttl/incr-needs-expire-on-create'];
    expect(entry(plugin.configs.strict)).toEqual(['error', expect.objectContaining({ allowTtlRepair: false })]);
    expect(entry(plugin.configs.recommended)).toBe('error');
  });

  it('keeps reporting what does not repair the key', () => {
    expect(lint(i1)).toEqual([['separateRoundTrip', 4, 29, '5']]);
    expect(lint(i2)).toEqual([['separateRoundTrip', 4, 29, '6']]);
    expect(lint(i3)).toEqual([['noExpiry', 4, 16, undefined]]);
    expect(lint(i4)).toEqual([['separateRoundTrip', 4, 29, '8']]);
  });
});
