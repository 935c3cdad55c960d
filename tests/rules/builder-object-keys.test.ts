/**
 * Keys read as a member of the object a key builder returns (`R.space(id).devices` of
 * `space: (id) => ({ devices: \`space-${id}-devices\` })`: redis-calls/key-builders.ts
 * returnedMemberValues, read by key-shape.ts callShape), from the kind's definition: the member's
 * template is the key's spelling, with the builder's parameters bound to the call's arguments, so
 * a declared persistent pattern reaches it. Limits: a builder whose returns disagree, a return that
 * is not an object literal holding the member (a spread, a computed name, a missing member), and
 * a call the linter cannot resolve stay unspelled (`*`), and a spelled key outside the pattern
 * stays reported.
 */
import { describe, expect, it } from 'vitest';
import { keyShapes } from '../helpers/key-shapes.js';
import tsParser from '@typescript-eslint/parser';
import { Linter } from 'eslint';
import plugin from '../../rules/index.js';
import { nodeRedis } from './tester.js';

const R = 'const R = {\n  space: (spaceId: string) => ({\n    devices: `space-${spaceId}-devices`,\n    token: `space-${spaceId}-token`,\n  }),\n  otp: (otp: string) => ({ space: `otp-${otp}-space` }),\n};\n';

describe('a member of the object a key builder returns', () => {
  it('is spelled by the member, the builder bound to the arguments', () => {
    expect(keyShapes(`${R}probe(R.space(id).devices); probe(R.space('main').token); probe(R.otp(code).space);`)).toEqual([
      'space-*-devices many',
      'space-main-token one',
      'otp-*-space many',
    ]);
  });

  it('stays unspelled when the member cannot be read', () => {
    const code = [
      'const K = {',
      '  a: (id: string) => ({ ...base, x: `a:${id}` }),',
      '  b: (id: string, f: boolean) => (f ? { x: `b:${id}` } : { x: `c:${id}` }),',
      '  c: (id: string) => ({ [name]: `c:${id}` }),',
      '};',
      'probe(K.a(id).x); probe(K.c(id).x); probe(unknown(id).x); probe(K.a(id).missing);',
    ].join('\n');
    expect(keyShapes(code)).toEqual(['* many', '* many', '* many', '* many']);
  });
});

describe('a declared persistent pattern reaches it', () => {
  const code = nodeRedis(
    `${R}export async function join(spaceId: string, devices: string[]) {\n  await client.set(R.space(spaceId).devices, JSON.stringify(devices));\n}\nexport async function otp(code: string, spaceId: string) {\n  await client.set(R.otp(code).space, spaceId);\n}`,
  );
  /** set-requires-ttl-or-keepttl's findings with `persistentKeys`: [messageId, line, column]. */
  const findings = (patterns: string[]) =>
    new Linter({ configType: 'flat' })
      .verify(code, [{ files: ['**/*.ts'], languageOptions: { parser: tsParser }, plugins: { 'redis-ttl': plugin }, settings: { 'redis-ttl': { persistentKeys: patterns } }, rules: { 'redis-ttl/set-requires-ttl-or-keepttl': 'error' } }], { filename: 'app.ts' })
      .map((m) => [m.messageId, m.line, m.column]);
  it('space-* leaves the space lists alone; the OTP key outside it stays reported', () => {
    expect(findings(['space-*'])).toEqual([['setWithoutTtl', 14, 16]]);
  });
  it('without the pattern both are reported', () => {
    expect(findings([])).toEqual([['setWithoutTtl', 11, 16], ['setWithoutTtl', 14, 16]]);
  });
});

/**
 * The builder's object held in a `const` first (`const keys = buildKeys(id); keys.userHash`,
 * studybond's buildLeaderboardRedisKeys): the member is read as `buildKeys(id).userHash`, the
 * builder's own statements (a check that throws, a local `const prefix`) before its one return
 * included. A `let` the code reassigns, a member the returned object lacks, and a call of no
 * builder stay unspelled; a `const config = loadConfig()` of no builder keeps its reading as the
 * process's configuration.
 */
const BUILD = [
  'export function buildKeys(institutionId: number) {',
  '  const id = Number(institutionId);',
  "  if (!Number.isInteger(id) || id <= 0) throw new Error('scope');",
  '  const prefix = `lb:v2:institution:${id}`;',
  '  return { weeklyZSet: `${prefix}:weekly:z`, userHash: `${prefix}:user:h` };',
  '}',
  '',
].join('\n');

describe('a member of a const holding a key builder\'s object', () => {
  it('is spelled as the member of the call', () => {
    expect(keyShapes(`${BUILD}const keys = buildKeys(scope); probe(keys.userHash); probe(keys.weeklyZSet); const main = buildKeys(1); probe(main.userHash);`)).toEqual([
      'lb:v2:institution:*:user:h many',
      'lb:v2:institution:*:weekly:z many',
      'lb:v2:institution:*:user:h many',
    ]);
  });

  it('stays unspelled when the const is no builder\'s object', () => {
    const code = `${BUILD}function f(scope: number) { let moved = buildKeys(scope); moved = other(); probe(moved.userHash); const keys = buildKeys(scope); probe(keys.missing); const opaque = unknown(scope); probe(opaque.userHash); }`;
    expect(keyShapes(code)).toEqual(['* many', '* many', '* many']);
  });

  describe('a declared persistent pattern reaches it', () => {
    const code = nodeRedis(
      `${BUILD}export async function project(scope: number, user: string, sp: number) {\n  const keys = buildKeys(scope);\n  await client.hSet(keys.userHash, user, String(sp));\n  await client.zAdd(keys.weeklyZSet, { score: sp, value: user });\n  const sessions = { list: \`sessions:\${user}\` };\n  await client.sAdd(sessions.list, String(scope));\n}`,
    );
    const findings = (patterns: string[]) =>
      new Linter({ configType: 'flat' })
        .verify(code, [{ files: ['**/*.ts'], languageOptions: { parser: tsParser }, plugins: { 'redis-ttl': plugin }, settings: { 'redis-ttl': { persistentKeys: patterns } }, rules: { 'redis-ttl/incr-needs-expire-on-create': 'error' } }], { filename: 'app.ts' })
        .map((m) => [m.messageId, m.line, m.column]);
    it('lb:v2:institution:* leaves the projection alone; the per-user set beside it stays reported', () => {
      expect(findings(['lb:v2:institution:*'])).toEqual([['noExpiry', 14, 16]]);
    });
    it('without the pattern all three are reported', () => {
      expect(findings([])).toEqual([['noExpiry', 11, 16], ['noExpiry', 12, 16], ['noExpiry', 14, 16]]);
    });
  });
});
