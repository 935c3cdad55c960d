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
