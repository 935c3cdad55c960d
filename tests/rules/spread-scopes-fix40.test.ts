/**
 * Round 40 review of a const array spread in place of a key builder's rest parameter
 * (`redis-calls/key-shape.ts` spreadRestArguments): the array's elements are the key's parts only
 * while nothing changes the array. A `push` on it (any call but a read-only one) or a write into
 * it makes the key the prefix, then anything, as a spread of an array the code does not write out;
 * a read-only call (`join`) leaves it one key.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { keyShapes } from '../helpers/key-shapes.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'configured-prefix');
const app = join(root, 'app', 'store.ts');
const shapes = (use: string) =>
  keyShapes(
    [
      "import { createRedisKey } from '../lib/keys';",
      "const SCOPES = { jobs: { index: ['jobs', 'index'] } };",
      `export function add(id: string) {\n  ${use}\n}`,
      'probe(createRedisKey(...SCOPES.jobs.index));',
    ].join('\n'),
    app,
  );

describe('a spread const array the code changes', () => {
  it('a push on it: not its literal elements', () => {
    expect(shapes('SCOPES.jobs.index.push(id);')).toEqual(['app:* many']);
  });
  it('a write into it: not its literal elements', () => {
    expect(shapes('SCOPES.jobs.index[0] = id;')).toEqual(['app:* many']);
  });
  it('near miss: a read-only call leaves it one key', () => {
    expect(shapes("return SCOPES.jobs.index.join(':') + id;")).toEqual(['app:jobs:index one']);
  });
});
