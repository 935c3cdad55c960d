/**
 * A client package's binding passed on by a module of the code (`export { createClient } from
 * 'redis'` in `src/lib/kv.ts`) comes from that package: a client made from it is a client whatever
 * the variable's name, as when the package is imported directly. A name the code declares itself
 * stays the code's.
 */
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { lintApplication } from '../helpers/lint.js';

const roots: string[] = [];
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

const SET = 'set-requires-ttl-or-keepttl';
const INCR = 'incr-needs-expire-on-create';
const RULES = { [SET]: undefined, [INCR]: undefined };

/** Lints src/app.ts, whose lines 1-2 import and make `store`, and whose INCR is line 4, column 15. */
const lint = (kv: Record<string, string>, imports: string, make: string) =>
  lintApplication(
    roots,
    { ...kv, 'src/app.ts': `${imports}\n${make}\nexport async function hit(id: string) {\n  await store.incr(\`hits:\${id}\`);\n}\n` },
    'src/app.ts',
    RULES,
    [],
  );
const REPORTED = [[INCR, 'noExpiry', 4, 15]];

describe('a client package binding re-exported by a module of the code', () => {
  it('follows a named re-export, renamed or not, to the package', () => {
    expect(lint({ 'src/lib/kv.ts': `export { createClient } from 'redis';\n` }, `import { createClient } from './lib/kv';`, 'const store = createClient();')).toEqual(REPORTED);
    expect(lint({ 'src/lib/kv.ts': `export { createClient as makeStore } from 'redis';\n` }, `import { makeStore } from './lib/kv';`, 'const store = makeStore();')).toEqual(REPORTED);
  });

  it('follows a default export passed on under a name, and as the default', () => {
    expect(lint({ 'src/lib/kv.ts': `export { default as Store } from 'ioredis';\n` }, `import { Store } from './lib/kv';`, 'const store = new Store();')).toEqual(REPORTED);
    expect(lint({ 'src/lib/kv.ts': `export { default } from 'ioredis';\n` }, `import Store from './lib/kv';`, 'const store = new Store();')).toEqual(REPORTED);
  });

  it('follows `export *` of a client package, and re-exports between the code modules', () => {
    expect(lint({ 'src/lib/kv.ts': `export * from 'ioredis';\n` }, `import { Redis } from './lib/kv';`, 'const store = new Redis();')).toEqual(REPORTED);
    const twoHops = { 'src/lib/kv.ts': `export { createClient } from 'redis';\n`, 'src/lib/index.ts': `export * from './kv';\n` };
    expect(lint(twoHops, `import { createClient } from './lib';`, 'const store = createClient();')).toEqual(REPORTED);
  });

  it('follows a CommonJS destructuring require of the module', () => {
    expect(lint({ 'src/lib/kv.ts': `export { createClient } from 'redis';\n` }, `const { createClient } = require('./lib/kv');`, 'const store = createClient();')).toEqual(REPORTED);
  });

  it('reads a type passed on from the package as the client type', () => {
    const files = {
      'src/lib/kv.ts': `export type { RedisClientType } from 'redis';\n`,
      'src/app.ts': `import type { RedisClientType } from './lib/kv';\n\nexport async function hit(store: RedisClientType, id: string) {\n  await store.incr(\`hits:\${id}\`);\n}\n`,
    };
    expect(lintApplication(roots, files, 'src/app.ts', RULES, [])).toEqual(REPORTED);
  });

  it('keeps a name the code declares itself, and an `export *` of another package, the code\'s', () => {
    const own = { 'src/lib/kv.ts': `export * from 'redis';\nexport function createClient() {\n  return new Map<string, number>();\n}\n` };
    expect(lint(own, `import { createClient } from './lib/kv';`, 'const store = createClient();')).toEqual([]);
    expect(lint({ 'src/lib/kv.ts': `export * from 'lodash';\n` }, `import { createClient } from './lib/kv';`, 'const store = createClient();')).toEqual([]);
    expect(lint({ 'src/lib/kv.ts': `export * from 'redis';\n` }, `import Store from './lib/kv';`, 'const store = new Store();')).toEqual([]);
  });
});
