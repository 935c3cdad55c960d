/**
 * Breaker round 36: odd but realistic code against the round's new readings (a key builder's
 * object held in a const, the Map of clients, another module's creation run, uninformative
 * receiver types). Each case is a leak a reading hid, or a near miss that must keep its result.
 */
import tsParser from '@typescript-eslint/parser';
import { Linter } from 'eslint';
import { describe, expect, it } from 'vitest';
import plugin from '../../rules/index.js';
import { nodeRedis } from './tester.js';

const BUILD = [
  'export function buildKeys(institutionId: number) {',
  '  const prefix = `lb:v2:institution:${institutionId}`;',
  '  return { weeklyZSet: `${prefix}:weekly:z`, userHash: `${prefix}:user:h` };',
  '}',
  '',
].join('\n');

/** incr-needs-expire-on-create's findings with `persistentKeys: ['lb:v2:institution:*']`: [messageId, line, column]. */
function persistentBuilder(body: string): Array<[string | undefined, number, number]> {
  const code = nodeRedis(`${BUILD}export async function project(scope: number, user: string, sp: number) {\n  const keys = buildKeys(scope);\n${body}}\n`);
  return new Linter({ configType: 'flat' })
    .verify(code, [{ files: ['**/*.ts'], languageOptions: { parser: tsParser }, plugins: { 'redis-ttl': plugin }, settings: { 'redis-ttl': { persistentKeys: ['lb:v2:institution:*'] } }, rules: { 'redis-ttl/incr-needs-expire-on-create': 'error' } }], { filename: 'app.ts' })
    .map((m) => [m.messageId, m.line, m.column]);
}

describe("a key builder's object in a const whose member the code changes after: the builder no longer spells it", () => {
  // lines 1-2 the client, 3-6 the builder, 7-8 the function's head and its const; the body starts on line 9
  it('the member reassigned to a per-user key: the HSET to it reported', () => {
    expect(persistentBuilder('  keys.userHash = `sessions:${user}`;\n  await client.hSet(keys.userHash, user, String(sp));\n')).toEqual([['noExpiry', 10, 16]]);
  });
  it('the member reassigned by a computed name: reported', () => {
    expect(persistentBuilder("  keys['userHash'] = `sessions:${user}`;\n  await client.hSet(keys.userHash, user, String(sp));\n")).toEqual([['noExpiry', 10, 16]]);
  });
  it('the object merged into with Object.assign: reported', () => {
    expect(persistentBuilder('  Object.assign(keys, { userHash: `sessions:${user}` });\n  await client.hSet(keys.userHash, user, String(sp));\n')).toEqual([['noExpiry', 10, 16]]);
  });
  it('the member appended to: reported', () => {
    expect(persistentBuilder('  keys.userHash += `:${user}`;\n  await client.hSet(keys.userHash, user, String(sp));\n')).toEqual([['noExpiry', 10, 16]]);
  });
  it('near miss: another member changed, the one written untouched: still left alone', () => {
    expect(persistentBuilder('  keys.weeklyZSet = `sessions:${user}`;\n  await client.hSet(keys.userHash, user, String(sp));\n')).toEqual([]);
  });
  it('near miss: the object only read: still left alone', () => {
    expect(persistentBuilder('  const copy = { ...keys };\n  await client.hSet(keys.userHash, user, String(copy.weeklyZSet));\n')).toEqual([]);
  });
});
