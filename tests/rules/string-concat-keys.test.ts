/**
 * Keys built with `String.prototype.concat` on a value that spells text (issue 25, round 30: the
 * twenty-ninth validation set's "declared persistent key built by a key-builder helper"):
 * `const createFeedKey = (id) => feedNamespace.concat(id)` of a `const feedNamespace = 't:feed:'`,
 * and `createFeedKey(id).concat(':delayed')` of such a builder, are spelled `t:feed:*` and
 * `t:feed:*:delayed` by the one key speller (`redis-calls/key-shape.ts`), so a declared
 * `persistentKeys` pattern (`t:feed*`) names them. Near misses stay reported: a builder result the
 * declared pattern does not match, and an array's `concat` (no text: an unread key).
 */
import { describe, expect, it } from 'vitest';
import { keyShapes } from '../helpers/key-shapes.js';
import tsParser from '@typescript-eslint/parser';
import { Linter } from 'eslint';
import plugin from '../../rules/index.js';
import { ioredis, persistentSettings as persistent, positionOf } from './tester.js';

const BUILDERS = [
  "const feedNamespace = 't:feed:';",
  "const delayedSuffix = ':delayed';",
  'const createFeedKey = (id) => feedNamespace.concat(id);',
  'const createDelayedFeedKey = (id) => createFeedKey(id).concat(delayedSuffix);',
].join('\n');

describe('keyShapeOf, String.prototype.concat on text', () => {
  it('spells a const string and a builder result it is called on; an array concat stays unread', () => {
    const code = [
      BUILDERS,
      "const parts = ['t:feed:'];",
      'probe(createFeedKey(x)); probe(feedNamespace.concat(x, \':meta\')); probe(createDelayedFeedKey(x)); probe(parts.concat(x)); probe(other.concat(x));',
    ].join('\n');
    expect(keyShapes(code)).toEqual(['t:feed:* many', 't:feed:*:meta many', 't:feed:*:delayed many', '* many', '* many']);
  });
});

const addFeed = ioredis(`${BUILDERS}\nexport async function addFeed(feed) {\n  const key = createFeedKey(feed.id);\n  await redis.multi().hset(key, 'id', feed.id, 'url', feed.url).sadd('t:feeds', feed.id).exec();\n}`);
const arrayConcat = ioredis(`const parts = ['t:feed:'];\nexport async function addFeed(feed) {\n  await redis.hset(parts.concat(feed.id).join(''), 'id', feed.id);\n}`);

/** [messageId, line, column] of each `incr-needs-expire-on-create` finding on `code` with the declared `patterns`. */
function findings(code: string, ...patterns: string[]): Array<[string | undefined, number, number]> {
  const linter = new Linter({ configType: 'flat' });
  const config = [{ files: ['**/*.ts'], languageOptions: { parser: tsParser }, plugins: { 'redis-ttl': plugin }, settings: persistent(...patterns), rules: { 'redis-ttl/incr-needs-expire-on-create': 'error' } as Linter.RulesRecord }];
  return linter.verify(code, config, { filename: 'app.ts' }).map((m) => [m.messageId, m.line, m.column]);
}

describe('incr-needs-expire-on-create, declared persistent keys built with String.prototype.concat', () => {
  it('a builder result the declared pattern names is kept', () => {
    expect(findings(addFeed, 't:feed*', 't:post*')).toEqual([]);
  });

  it('near misses stay reported: a result outside the declared patterns, an array concat', () => {
    const at = (code: string): [string, number, number] => {
      const { line, column } = positionOf(code, 'hset(');
      return ['noExpiry', line, column];
    };
    expect(findings(addFeed, 't:post*')).toEqual([at(addFeed)]);
    expect(findings(arrayConcat, 't:feed*')).toEqual([at(arrayConcat)]);
  });
});
