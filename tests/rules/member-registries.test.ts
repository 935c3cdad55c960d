/**
 * Membership registries emptied member by member (`allowConsumedQueues`, redis-calls/member-registry.ts),
 * from the kind's definition: a set, sorted set or hash whose member is added by one function and
 * removed, the same member from the same key (SREM / ZREM / HDEL), by another named function of the
 * file (a leave, a reaper) is deleted by Redis with its last member: not reported in `recommended`.
 * Near misses stay reported: a member no removal names, a member removed only from another key, a
 * removal only on the success path of the operation that added it, a removal by the writer itself,
 * a key with no static part, a key the file gives a TTL, and `strict`.
 */
import { describe, expect, it } from 'vitest';
import { lintKeyRules, lintSnippet, STRICT_KEY_POLICY } from '../helpers/lint.js';
import { ioredis } from './tester.js';

const lines = (...body: string[]): string => ioredis(body.join('\n'));

// a presence service: join adds, leave and the reaper remove the same member (lines 3-)
const presence = lines(
  'const membersKey = (room: string) => `prs:{room:${room}}:members`;',
  'const lastSeenKey = (room: string) => `prs:{room:${room}}:last_seen`;',
  'const metaKey = (room: string) => `prs:{room:${room}}:conn_meta`;',
  'export class Presence {',
  '  async join(options: { roomId: string; userId: string; connId: string }) {',
  '    const tx = redis.multi();',
  '    tx.sadd(membersKey(options.roomId), options.userId);',
  '    tx.zadd(lastSeenKey(options.roomId), Date.now(), options.connId);',
  '    tx.hset(metaKey(options.roomId), options.connId, options.userId);',
  '    await tx.exec();',
  '  }',
  '  async leave(roomId: string, userId: string, connId: string) {',
  '    await redis.srem(membersKey(roomId), userId);',
  '    await redis.hdel(metaKey(roomId), connId);',
  '  }',
  '  async reap(roomId: string) {',
  '    for (const connId of await redis.zrangebyscore(lastSeenKey(roomId), 0, Date.now() - 60_000)) {',
  '      const meta = JSON.parse((await redis.hget(metaKey(roomId), connId)) ?? "{}");',
  '      await redis.multi().zrem(lastSeenKey(roomId), connId).hdel(metaKey(roomId), connId).srem(membersKey(roomId), meta.userId).exec();',
  '    }',
  '  }',
  '}',
);

describe('registries emptied member by member: not reported in recommended', () => {
  it('SADD, ZADD and HSET of a member another function removes', () => {
    expect(lintKeyRules(presence)).toEqual([]);
  });
  it('a member a reaper removes through a forEach over a reply', () => {
    const code = lines(
      'export async function join(room: string, conn: string) {',
      '  await redis.sadd(`room:${room}:conns`, conn);',
      '}',
      'export async function reap(room: string) {',
      '  (await redis.smembers(`room:${room}:conns`)).forEach((conn) => redis.srem(`room:${room}:conns`, conn));',
      '}',
    );
    expect(lintKeyRules(code)).toEqual([]);
  });
});

/** incr-needs-expire-on-create's findings with `options`: [messageId, line, column, the line it names]. */
const incrFindings = (code: string, options: Record<string, unknown>) =>
  lintSnippet(code, { 'redis-ttl/incr-needs-expire-on-create': ['error', options] }).map((m) => [m.messageId, m.line, m.column, /line (\d+)/.exec(m.message)?.[1]]);

describe('registries: reported in strict', () => {
  it('each write, with the removal it names', () => {
    expect(incrFindings(presence, { ...STRICT_KEY_POLICY, allowConsumedQueues: false })).toEqual([
      ['consumedElsewhere', 9, 8, '21'],
      ['consumedElsewhere', 10, 8, '21'],
      ['consumedElsewhere', 11, 8, '21'],
    ]);
  });
  it('and with only allowConsumedQueues off', () => {
    expect(incrFindings(presence, { allowConsumedQueues: false })).toEqual([
      ['consumedElsewhere', 9, 8, '21'],
      ['consumedElsewhere', 10, 8, '21'],
      ['consumedElsewhere', 11, 8, '21'],
    ]);
  });
});

describe('near misses stay reported', () => {
  it("a member removed only by its owner's own exit (no reaper: a crashed owner never removes it)", () => {
    const code = lines(
      'export async function start(crawl: string, job: string) {',
      '  await redis.zadd(`crawl-active:${crawl}`, Date.now(), job);',
      '}',
      'export async function done(crawl: string, job: string) {',
      '  await redis.zrem(`crawl-active:${crawl}`, job);',
      '}',
    );
    expect(lintKeyRules(code)).toEqual([['redis-ttl/incr-needs-expire-on-create', 'noExpiry', 4, 15]]);
  });
  it('a member no removal names (a set only grown)', () => {
    const code = presence.replace('.srem(membersKey(roomId), meta.userId)', '.srem(membersKey(roomId), meta.connId)');
    expect(lintKeyRules(code)).toEqual([['redis-ttl/incr-needs-expire-on-create', 'noExpiry', 9, 8]]);
  });
  it('a member removed only from another key', () => {
    const code = presence.replaceAll('.hdel(metaKey(roomId), connId)', '.hdel(`other:${roomId}`, connId)');
    expect(lintKeyRules(code)).toEqual([['redis-ttl/incr-needs-expire-on-create', 'noExpiry', 11, 8]]);
  });
  it('a removal only on the success path of the operation that added it', () => {
    const code = lines(
      'async function start(job: string, worker: string) {',
      '  await redis.sadd(`running:${job}`, worker);',
      '}',
      'export async function run(job: string, worker: string) {',
      '  await start(job, worker);',
      '  await work(job);',
      '  await redis.srem(`running:${job}`, worker);',
      '}',
      'declare function work(job: string): Promise<void>;',
    );
    expect(lintKeyRules(code)).toEqual([['redis-ttl/incr-needs-expire-on-create', 'noExpiry', 4, 15]]);
  });
  it('a removal in the writing function itself', () => {
    const code = lines(
      'export async function touch(id: string, member: string, stale: string) {',
      '  await redis.sadd(`seen:${id}`, member);',
      '  await redis.srem(`seen:${id}`, member);',
      '}',
    );
    expect(lintKeyRules(code)).toEqual([['redis-ttl/incr-needs-expire-on-create', 'noExpiry', 4, 15]]);
  });
  it('a key with no static part', () => {
    const code = lines(
      'export async function add(key: string, member: string) {',
      '  await redis.sadd(key, member);',
      '}',
      'export async function remove(key: string, member: string) {',
      '  await redis.srem(key, member);',
      '}',
    );
    expect(lintKeyRules(code)).toEqual([['redis-ttl/incr-needs-expire-on-create', 'noExpiry', 4, 15]]);
  });
  it('a key the file gives a TTL', () => {
    const code = lines(
      'export async function add(id: string, member: string) {',
      '  await redis.sadd(`online:${id}`, member);',
      '}',
      'export async function remove(id: string, member: string) {',
      '  await redis.srem(`online:${id}`, member);',
      '}',
      'export async function refresh(id: string) {',
      '  await redis.expire(`online:${id}`, 60);',
      '}',
    );
    expect(lintKeyRules(code)).toEqual([['redis-ttl/incr-needs-expire-on-create', 'noExpiry', 4, 15]]);
  });
  it('a member that is built, not named', () => {
    const code = lines(
      'export async function add(id: string, v: object) {',
      '  await redis.sadd(`items:${id}`, JSON.stringify(v));',
      '}',
      'export async function remove(id: string, v: object) {',
      '  await redis.srem(`items:${id}`, JSON.stringify(v));',
      '}',
    );
    expect(lintKeyRules(code)).toEqual([['redis-ttl/incr-needs-expire-on-create', 'noExpiry', 4, 15]]);
  });
});
