/**
 * A client held by a member of a class, interface or type declared in another module of the code
 * (round 34, lilith's `this.client.cache.set(...)`: `cache: typeof redis` in structures/Client.ts,
 * read from lib/Worker.ts through `readonly client: Client`), untyped. The declared-type reading
 * (`redis-calls/declared-types.ts`) already follows such a member across modules; the file-level
 * evidence (`ClientDetector.mayUseRedis`, `redis-calls/passed-on-clients.ts`) now also looks
 * through an imported module that exports a class, interface or type alias to the modules it
 * imports, so the file using the member is read at all. Near misses: a member whose declared type
 * is no client (a `Map`, `typeof` a plain object) stays unreported; a declaration module that
 * imports nothing holding a client gives no evidence.
 */
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { lintApplication } from '../helpers/lint.js';

const roots: string[] = [];
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

const manifest = '{ "name": "bot", "private": true, "dependencies": { "redis": "^4.6.7" } }';
const redisModule = `import { createClient } from 'redis';\nexport const redis = createClient({});\n`;
/** structures/Client.ts: a class whose member `cache` is declared with `member`, assigned from `value`. */
const clientClass = (member: string, value: string, imports = `import { redis } from '../lib/redis';\n`) =>
  `${imports}export class Client {\n  public readonly cache: ${member};\n  constructor() {\n    this.cache = ${value};\n  }\n}\n`;

/** Lints lib/Worker.ts of a bot made of `files` with `set-requires-ttl-or-keepttl` and `incr-needs-expire-on-create`. */
function lintWorker(files: Record<string, string>): Array<[string | undefined, string | undefined, number, number]> {
  return lintApplication(roots, { 'src/lib/redis.ts': redisModule, ...files }, 'src/lib/Worker.ts', { 'set-requires-ttl-or-keepttl': undefined, 'incr-needs-expire-on-create': undefined }, [], manifest);
}

describe('a client member of a class declared in another module', () => {
  it('reports a write through a parameter annotated with the imported class', () => {
    const worker = `import { Client } from '../structures/Client';\nexport async function remember(c: Client, tag: string) {\n  await c.cache.set(\`players:\${tag}\`, 'x');\n}\n`;
    expect(lintWorker({ 'src/structures/Client.ts': clientClass('typeof redis', 'redis'), 'src/lib/Worker.ts': worker })).toEqual([
      ['set-requires-ttl-or-keepttl', 'setWithoutTtl', 3, 17],
    ]);
  });

  it('reports a write through a field annotated with the imported class (`this.client.cache`)', () => {
    const worker = `import { Client } from '../structures/Client';\nexport class Worker {\n  readonly client: Client;\n  constructor(c: Client) {\n    this.client = c;\n  }\n  async refresh(tag: string) {\n    await this.client.cache.set(\`players:\${tag}\`, 'x');\n  }\n}\n`;
    expect(lintWorker({ 'src/structures/Client.ts': clientClass('typeof redis', 'redis'), 'src/lib/Worker.ts': worker })).toEqual([
      ['set-requires-ttl-or-keepttl', 'setWithoutTtl', 8, 29],
    ]);
  });

  it('reports a write through a constructor parameter property', () => {
    const worker = `import { Client } from '../structures/Client';\nexport class Worker {\n  constructor(private readonly client: Client) {}\n  async hit(tag: string) {\n    await this.client.cache.incr(\`hits:\${tag}\`);\n  }\n}\n`;
    expect(lintWorker({ 'src/structures/Client.ts': clientClass('typeof redis', 'redis'), 'src/lib/Worker.ts': worker })).toEqual([
      ['incr-needs-expire-on-create', 'noExpiry', 5, 29],
    ]);
  });

  it('reports a write through an imported interface whose member is `typeof` a client, two modules away', () => {
    const files = {
      'src/lib/client.ts': `import { redis } from './redis';\nexport default redis;\n`,
      'src/types.ts': `import redis from './lib/client';\nexport interface Context {\n  store: typeof redis;\n}\n`,
      'src/lib/Worker.ts': `import type { Context } from '../types';\nexport async function track(ctx: Context, id: string) {\n  await ctx.store.set(\`seen:\${id}\`, '1');\n}\n`,
    };
    expect(lintWorker(files)).toEqual([['set-requires-ttl-or-keepttl', 'setWithoutTtl', 3, 19]]);
  });

  it('looks through a declaration module only when it is the one imported', () => {
    // Worker imports a class module that imports another class module holding the client: two declaration hops
    const files = {
      'src/structures/Cache.ts': clientClass('typeof redis', 'redis').replace('class Client', 'class Cache'),
      'src/structures/Client.ts': `import { Cache } from './Cache';\nexport class Client {\n  readonly holder: Cache = new Cache();\n}\n`,
      'src/lib/Worker.ts': `import { Client } from '../structures/Client';\nexport async function remember(c: Client, tag: string) {\n  await c.holder.cache.set(\`players:\${tag}\`, 'x');\n}\n`,
    };
    expect(lintWorker(files)).toEqual([]);
  });

  it('keeps a member declared as a Map unreported, though its module imports the client', () => {
    const worker = `import { Client } from '../structures/Client';\nexport async function remember(c: Client, tag: string) {\n  c.cache.set(\`players:\${tag}\`, 'x');\n}\n`;
    expect(lintWorker({ 'src/structures/Client.ts': clientClass('Map<string, string>', 'new Map()'), 'src/lib/Worker.ts': worker })).toEqual([]);
  });

  it('keeps a member that is `typeof` a plain object unreported', () => {
    const files = {
      'src/structures/Client.ts': clientClass('typeof memo', 'memo', `import { redis } from '../lib/redis';\nconst memo = { set(k: string, v: string) { return [k, v, redis]; } };\n`),
      'src/lib/Worker.ts': `import { Client } from '../structures/Client';\nexport async function remember(c: Client, tag: string) {\n  await c.cache.set(\`players:\${tag}\`, 'x');\n}\n`,
    };
    expect(lintWorker(files)).toEqual([]);
  });

  it('gives no evidence through a declaration module that imports nothing holding a client', () => {
    const files = {
      'src/lib/memo.ts': `export const memo = new Map<string, string>();\n`,
      'src/structures/Client.ts': clientClass('typeof memo', 'memo', `import { memo } from '../lib/memo';\n`),
      'src/lib/Worker.ts': `import { Client } from '../structures/Client';\nexport async function remember(c: Client, tag: string) {\n  await c.cache.set(\`players:\${tag}\`, 'x');\n}\n`,
    };
    expect(lintWorker(files)).toEqual([]);
  });
});
