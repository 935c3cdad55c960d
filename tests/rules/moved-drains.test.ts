/**
 * Buffers a job drains by moving them away (redis-calls/moved-keys.ts): another function of the
 * file that may run RENAMEs (or RENAMENX) the key its writers fill to a processing key and deletes
 * that destination later in the same function (DEL / UNLINK / GETDEL of the same expression). The
 * key lives only until the next flush, so a write whose EXPIRE follows in a separate round trip
 * (or is missing) is left out by `recommended` (`allowDeletedKeys`), even though the file gives the
 * shape a TTL: a safety net. `strict` reports it as deleted elsewhere, naming the RENAME. Near
 * misses stay reported: a RENAME to a key nothing deletes (the value lives on), a DEL of another
 * key than the destination, a fixed key's drain for a per-id family, a drain nothing calls (dead
 * code), and a plain DEL of a shape the file expires (an invalidation).
 */
import { describe, expect, it } from 'vitest';
import { describeCommand, movedTo } from '../../semantics/commands.js';
import { drainCovers } from '../../redis-calls/moved-keys.js';
import { lintWriteRules } from '../helpers/lint.js';
import { ioredis, nodeRedis } from './tester.js';

const lint = lintWriteRules;
const INCR = 'incr-needs-expire-on-create';
const SET = 'set-requires-ttl-or-keepttl';

// a fixed buffer and a per-day buffer, each EXPIREd in a separate round trip, flushed by RENAME then DEL (veriworkly's view buffers)
const d1 = nodeRedis(`export class Views {
  static async record(id: string, day: string) {
    await client.lPush('views:buffer', id);
    await client.hIncrBy(\`views:daily:\${day}\`, id, 1);
    await client.multi().expire('views:buffer', 60).expire(\`views:daily:\${day}\`, 60).exec();
  }
  static async flush() {
    const processing = 'views:buffer:processing';
    try {
      await client.rename('views:buffer', processing);
    } catch {
      // no buffer
    }
    console.log(await client.lRange(processing, 0, -1));
    await client.del([processing, 'views:batch']);
  }
  static async flushDay(day: string) {
    const key = \`views:daily:\${day}\`;
    const processingKey = \`\${key}:processing\`;
    if (!(await client.exists(processingKey))) await client.renameNX(key, processingKey);
    const data = await client.hGetAll(processingKey);
    if (Object.keys(data).length === 0) {
      await client.del(processingKey);
      return;
    }
    await save(data);
    await client.unlink(processingKey);
  }
}
declare function save(data: object): Promise<void>;
`);
// without any expiry: a SET of a per-id key, moved away and deleted by an exported job
const d2 = ioredis(`export async function mark(id: string) {
  await redis.set(\`pending:\${id}\`, '1');
}
export async function drain(id: string) {
  await redis.rename(\`pending:\${id}\`, \`work:\${id}\`);
  console.log(await redis.get(\`work:\${id}\`));
  await redis.del(\`work:\${id}\`);
}
`);

// near misses: the destination is never deleted, another key is deleted, a fixed key's drain for a family
const n1 = ioredis(`export async function a(id: string) {
  await redis.incr(\`hits:\${id}\`);
  await redis.rpush(\`log:\${id}\`, id);
  await redis.sadd(\`seen:\${id}\`, 'x');
}
export async function archive(id: string) {
  await redis.rename(\`hits:\${id}\`, \`hits:\${id}:archived\`);
  console.log(await redis.get(\`hits:\${id}:archived\`));
}
export async function rotate(id: string) {
  await redis.rename(\`log:\${id}\`, \`log:\${id}:old\`);
  await redis.del(\`log:\${id}:older\`);
}
export async function sweep() {
  await redis.rename('seen', 'seen:work');
  await redis.del('seen:work');
}
`);
// a drain nothing calls (a private method named nowhere else), and a DEL alone of a shape the file expires
const n2 = nodeRedis(`export class Buffer {
  async push(id: string) {
    await client.lPush(\`buf:\${id}\`, id);
    await client.expire(\`buf:\${id}\`, 60);
    await client.hIncrBy(\`counts:\${id}\`, id, 1);
    await client.expire(\`counts:\${id}\`, 60);
  }
  private async flush(id: string) {
    await client.rename(\`buf:\${id}\`, \`buf:\${id}:processing\`);
    await client.del(\`buf:\${id}:processing\`);
  }
  async reset(id: string) {
    await client.del(\`counts:\${id}\`);
  }
}
`);
// the destination reassigned between the move and the deletion: the key deleted is another one
const n3 = ioredis(`export async function put(id: string) {
  await redis.set(\`queue:\${id}\`, id);
}
export async function take(id: string) {
  let target = \`work:\${id}\`;
  await redis.rename(\`queue:\${id}\`, target);
  target = \`other:\${id}\`;
  await redis.del(target);
}
`);

describe('buffers a job moves away and deletes (RENAME then DEL of the destination)', () => {
  it('leaves them alone by default, even with an expiry in a separate round trip', () => {
    expect(lint(d1)).toEqual([]);
    expect(lint(d2)).toEqual([]);
  });

  it('reports them without allowDeletedKeys, naming the RENAME', () => {
    expect(lint(d1, { allowDeletedKeys: false })).toEqual([
      [INCR, 'deletedElsewhere', 5, 18, '12'],
      [INCR, 'deletedElsewhere', 6, 18, '22'],
    ]);
    expect(lint(d2, { allowDeletedKeys: false })).toEqual([[SET, 'deletedElsewhere', 4, 15, '7']]);
  });

  it('keeps reporting a RENAME to a key nothing deletes, a DEL of another key, a fixed key\'s drain for a family', () => {
    expect(lint(n1)).toEqual([
      [INCR, 'noExpiry', 4, 15, undefined],
      [INCR, 'noExpiry', 5, 15, undefined],
      [INCR, 'noExpiry', 6, 15, undefined],
    ]);
  });

  it('keeps reporting a drain nothing calls, and a DEL alone of a shape the file expires', () => {
    expect(lint(n2)).toEqual([
      [INCR, 'separateRoundTrip', 5, 18, '6'],
      [INCR, 'separateRoundTrip', 7, 18, '8'],
    ]);
  });

  it('keeps reporting a move whose destination is reassigned before the DEL', () => {
    expect(lint(n3)).toEqual([[SET, 'setWithoutTtl', 4, 15, undefined]]);
  });
});

describe('the facts a drain by move needs', () => {
  it('RENAME / RENAMENX move their source to their destination; DEL and COPY do not', () => {
    expect(movedTo(describeCommand('RENAME', ['a', 'b']), 0)).toBe(1);
    expect(movedTo(describeCommand('RENAMENX', ['a', 'b']), 0)).toBe(1);
    expect(movedTo(describeCommand('RENAME', ['a', 'b']), 1)).toBeUndefined();
    expect(movedTo(describeCommand('DEL', ['a']), 0)).toBeUndefined();
    expect(movedTo(describeCommand('COPY', ['a', 'b']), 0)).toBeUndefined();
  });

  it('a moved shape covers the same shape, or runs without a colon; not a fixed key for a family, nor the keys below', () => {
    expect(drainCovers('views:buffer', 'views:buffer')).toBe(true);
    expect(drainCovers('views:buffer:*', 'views:buffer:*0*10*')).toBe(true);
    expect(drainCovers('views:buffer', 'views:buffer:*')).toBe(false);
    expect(drainCovers('room:*', 'room:*:members')).toBe(false);
  });
});
