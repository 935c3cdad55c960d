/**
 * `no-getset` leaves GETSET (and SET ... GET) alone when the same MULTI / EXEC queues, after it,
 * an unconditional EXPIRE-family command of the same key (`multi().getset(key, v).expire(key,
 * 60).exec()`, getcord/cord's presence context): the transaction gives the TTL back before any
 * other client runs, so no TTL is lost. GETSET's deprecation (Redis 6.2) is not this rule's
 * subject, which is the TTL it drops. Near misses stay reported: the EXPIRE in a later round trip,
 * in a pipeline (not atomic), of another key, or only when a parameter asks for it.
 */
import tsParser from '@typescript-eslint/parser';
import { Linter } from 'eslint';
import { describe, expect, it } from 'vitest';
import plugin from '../../rules/index.js';
import rule from '../../rules/no-getset.js';
import { ioredis, nodeRedis, runRule, untypedTester } from './tester.js';

runRule(untypedTester, 'no-getset (TTL given back in the same transaction)', rule, {
  valid: [
    ioredis('export async function present(key: string, v: string) {\n  await redis.multi().getset(key, v).expire(key, 30).incr(`${key}:seq`).exec();\n}'),
    ioredis('export async function present(key: string, v: string) {\n  const m = redis.multi();\n  m.getset(key, v);\n  m.pexpire(key, 30000);\n  return m.exec();\n}'),
    nodeRedis("export async function swap(id: string, v: string) {\n  return client.multi().set(`s:${id}`, v, { GET: true }).expire(`s:${id}`, 60).exec();\n}"),
  ],
  invalid: [],
});

/** [rule, messageId, line, column] of each no-getset finding on `code` (suggestions aside). */
function lint(code: string): Array<[string | null, string | undefined, number, number]> {
  const linter = new Linter({ configType: 'flat' });
  const config = [{ files: ['**/*.ts'], languageOptions: { parser: tsParser }, plugins: { 'redis-ttl': plugin }, rules: { 'redis-ttl/no-getset': 'error' } as Linter.RulesRecord }];
  return linter.verify(code, config, { filename: 'file.ts' }).map((m) => [m.ruleId, m.messageId, m.line, m.column]);
}

describe('near misses stay reported', () => {
  it('EXPIRE in a later round trip: a crash in between leaves the key without TTL', () => {
    expect(lint(ioredis('export async function present(key: string, v: string) {\n  await redis.getset(key, v);\n  await redis.expire(key, 30);\n}'))).toEqual([['redis-ttl/no-getset', 'getset', 4, 15]]);
  });
  it('a pipeline is not atomic', () => {
    expect(lint(ioredis('export async function present(key: string, v: string) {\n  await redis.pipeline().getset(key, v).expire(key, 30).exec();\n}'))).toEqual([['redis-ttl/no-getset', 'getset', 4, 26]]);
  });
  it('the EXPIRE names another key', () => {
    expect(lint(ioredis('export async function present(key: string, other: string, v: string) {\n  await redis.multi().getset(key, v).expire(other, 30).exec();\n}'))).toEqual([['redis-ttl/no-getset', 'getset', 4, 23]]);
  });
});
