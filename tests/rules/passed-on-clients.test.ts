/**
 * Clients the code hands on, and cleanups that run only when nothing failed:
 *
 * - a client value followed through the code's own modules that pass it on
 *   (redis-calls/passed-on-clients.ts): `export { client as redisClient }`, then `import {
 *   redisClient } ...; export default redisClient;`, then `const client = redisClient; export
 *   default client;`: a file importing the last one has a client, though neither module it
 *   imports names a client package; a `let client: any` written a client on one path and a stub
 *   object on the other is that client (Concordia-Backend's rate limiters);
 * - a call whose explicit type argument is a client type, when its callee returns that type
 *   parameter or the code declares no callee (redis-calls/type-argument-clients.ts): a DI
 *   container's `container.get<Redis>(kRedis)` (yuudachi's anti-spam counters);
 * - a DEL in another module (or function) reached only when nothing in its `try` block threw, the
 *   `catch` going on without it (redis-calls/error-path-deletions.ts): not the key's end (dub's
 *   CSV import rows, deleted when the cron import completes).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import tsParser from '@typescript-eslint/parser';
import { Linter } from 'eslint';
import { afterAll, describe, expect, it } from 'vitest';
import plugin from '../../rules/index.js';

const repo = mkdtempSync(join(tmpdir(), 'redis-ttl-passed-on-'));
afterAll(() => rmSync(repo, { recursive: true, force: true }));
function write(path: string, text: string): void {
  mkdirSync(dirname(join(repo, path)), { recursive: true });
  writeFileSync(join(repo, path), text);
}
write('package.json', '{ "name": "app", "dependencies": { "redis": "5.0.0", "ioredis": "5.0.0" } }\n');

function lint(file: string, code: string): Array<[string | undefined, number, number]> {
  const linter = new Linter({ configType: 'flat', cwd: repo });
  const messages = linter.verify(code, [{ files: ['**/*.ts'], languageOptions: { parser: tsParser } }, plugin.configs.recommended as Linter.Config], {
    filename: join(repo, file),
  });
  return messages.map((m) => [m.messageId, m.line, m.column]);
}

// the counter: INCR, then EXPIRE in a second round trip when the window opens
const counter = (from: string, name = 'client') =>
  `import ${name} from '${from}';\n` +
  'export async function hit(ip: string) {\n' +
  '  const key = `rate:${ip}`;\n' +
  `  const current = await ${name}.incr(key);\n` +
  `  if (current === 1) await ${name}.expire(key, 60);\n` +
  '  return current;\n' +
  '}\n';

describe('a client value passed on through the code’s own modules', () => {
  write(
    'src/lib/redis.ts',
    "import { createClient } from 'redis';\n" +
      'let client: any;\n' +
      'if (process.env.REDIS_URL) {\n  client = createClient({ url: process.env.REDIS_URL });\n} else {\n  client = { get: async () => null, set: async () => "OK" };\n}\n' +
      'export const connectRedis = async () => { await client.connect(); };\n' +
      'export { client as redisClient };\n',
  );
  write('src/redis/client.ts', "import { connectRedis, redisClient } from '../lib/redis';\nexport { connectRedis };\nexport default redisClient;\n");
  write('src/redis/redisClient.ts', "import redisClient from './client';\nconst client = redisClient;\nexport async function getCache(key: string) { return client.get(key); }\nexport default client;\n");
  // a chain of the same shape ending at a value that is no client
  write('src/store/memory.ts', 'const store = new Map<string, number>();\nexport { store as memoryStore };\n');
  write('src/store/client.ts', "import { memoryStore } from './memory';\nexport default memoryStore;\n");
  write('src/store/index.ts', "import memoryStore from './client';\nconst client = memoryStore;\nexport default client;\n");
  // a `let` written a client on one path and a value nothing settles on the other
  write('src/maybe/redis.ts', "import { createClient } from 'redis';\nlet client: any;\nif (process.env.X) client = createClient();\nelse client = (globalThis as any).store;\nexport default client;\n");

  it('reports the counter on a client two and three modules away', () => {
    expect(lint('src/middleware/limit.ts', counter('../redis/redisClient'))).toEqual([['separateRoundTrip', 4, 32]]);
    expect(lint('src/middleware/limit.ts', counter('../redis/client'))).toEqual([['separateRoundTrip', 4, 32]]);
  });

  it('takes a `let` written a client or a stub object for the client', () => {
    expect(lint('src/middleware/limit.ts', `import { redisClient as client } from '../lib/redis';\n${counter('x').split('\n').slice(1).join('\n')}`)).toEqual([['separateRoundTrip', 4, 32]]);
  });

  it('stays silent when the chain ends at a value that is no client, or one nothing settles', () => {
    expect(lint('src/middleware/limit.ts', counter('../store/index'))).toEqual([]);
    expect(lint('src/middleware/limit.ts', counter('../maybe/redis', 'store'))).toEqual([]);
  });
});

describe('a call whose type argument names the client it returns', () => {
  write('packages/framework/package.json', '{ "name": "@acme/framework", "main": "src/index.ts" }\n');
  write('packages/framework/src/index.ts', "export * from './tokens';\nexport { container } from './container';\n");
  write('packages/framework/src/tokens.ts', "export const kRedis = Symbol('Redis');\nexport const kLogger = Symbol('Logger');\n");
  write('packages/framework/src/container.ts', "import { Container } from '@needle-di/core';\nexport const container = new Container();\n");
  write(
    'src/di/registry.ts',
    'export const registry = {\n' +
      '  get<T>(token: symbol): T { return (globalThis as any)[token] as T; },\n' +
      '  lookup<T>(token: symbol): string { return String(token); },\n' +
      '};\n',
  );
  const mentions = (made: string, imports = "import { container, kRedis } from '../framework';\n") =>
    `${imports}import type { Redis } from 'ioredis';\n` +
    'export async function total(guild: string, user: string, n: number) {\n' +
    `  const redis = ${made};\n` +
    '  const key = `guild:${guild}:user:${user}:mentions`;\n' +
    '  const total = await redis.incrby(key, n);\n' +
    '  if (total === n) await redis.expire(key, 60);\n' +
    '  return total;\n' +
    '}\n';
  write('src/framework.ts', "export * from '../packages/framework/src/index';\n");

  it('reports the counter on `container.get<Redis>(kRedis)` of a package’s container', () => {
    expect(lint('src/spam/mentions.ts', mentions('container.get<Redis>(kRedis)'))).toEqual([['separateRoundTrip', 6, 29]]);
  });

  it('reports it when the callee’s declared return type is the type parameter', () => {
    expect(lint('src/spam/mentions.ts', mentions('registry.get<Redis>(kRedis)', "import { registry } from '../di/registry';\nconst kRedis = Symbol('r');\n"))).toEqual([
      ['separateRoundTrip', 7, 29],
    ]);
  });

  it('stays silent for a type argument that is no client, and a callee declared to return something else', () => {
    const store = (made: string, imports = "import { container, kLogger } from '../framework';\n") =>
      `${imports}interface Counter { incrby(key: string, n: number): Promise<number>; expire(key: string, s: number): Promise<number> }\n` +
      'export async function total(user: string, n: number) {\n' +
      `  const store = ${made};\n` +
      '  const key = `user:${user}:mentions`;\n' +
      '  const total = await store.incrby(key, n);\n' +
      '  if (total === n) await store.expire(key, 60);\n' +
      '}\n';
    expect(lint('src/spam/mentions.ts', store('container.get<Map<string, number>>(kLogger) as any'))).toEqual([]);
    expect(lint('src/spam/mentions.ts', mentions('registry.lookup<Redis>(kRedis) as any', "import { registry } from '../di/registry';\nconst kRedis = Symbol('r');\n"))).toEqual([]);
  });
});

describe('a DEL reached only when nothing before it in its try block threw', () => {
  const upload = "import { redis } from './store';\nexport async function upload(id: string, rows: string[]) {\n  await redis.lPush(`import:${id}:rows`, rows);\n}\n";
  const step = '    await work(await redis.lRange(`import:${id}:rows`, 0, -1));\n';
  const del = '    await redis.del(`import:${id}:rows`);\n';
  /** A package of its own (the project a module's related modules are read in): the client module, the upload and the cron job deleting the rows. */
  const job = (name: string, body: string) => {
    write(`jobs/${name}/package.json`, `{ "name": "${name}", "dependencies": { "redis": "5.0.0" } }\n`);
    write(`jobs/${name}/store.ts`, "import { createClient } from 'redis';\nexport const redis = createClient();\n");
    write(`jobs/${name}/upload.ts`, upload);
    write(`jobs/${name}/cron.ts`, "import { redis } from './store';\nimport { work } from './work';\n" + `export async function run(id: string) {\n${body}}\n`);
    return `jobs/${name}/upload.ts`;
  };
  const successOnly = job('success-only', `  try {\n${step}${del}  } catch (error) {\n    console.error(error);\n    return 500;\n  }\n`);
  const plain = job('plain', `${step}${del}`);
  const inFinally = job('finally', `  try {\n${step}  } finally {\n${del}  }\n`);
  const first = job('first', `  try {\n${del}${step}  } catch (error) {\n    console.error(error);\n  }\n`);
  const catchDeletes = job('catch-deletes', `  try {\n${step}${del}  } catch (error) {\n${del}  }\n`);
  const rethrows = job('rethrows', `  try {\n${step}${del}  } catch (error) {\n    console.error(error);\n    throw error;\n  }\n`);
  const caught = (before: string) => `  try {\n${before}${del}  } catch (error) {\n    console.error(error);\n  }\n`;
  // what may fail before the DEL: awaited work that is not a Redis command, or a throw
  const throwsFirst = job('throws-first', caught('    if (!id) throw new Error(\'no id\');\n'));
  const queryFirst = job('query-first', caught('    const rows = await work([]);\n'));
  // not a failure the catch survives: a computation, a Redis command (the DEL of a sibling key, a read)
  const computeFirst = job('compute-first', caught('    const label = `import ${id}`.trim();\n'));
  const siblingFirst = job('sibling-first', caught('    await redis.del(`import:${id}:meta`);\n    await redis.lRange(`import:${id}:rows`, 0, -1);\n'));
  // still Redis: a command with a rejection handler, a transaction's exec()
  const caughtSibling = job('caught-sibling', caught('    await redis.del(`import:${id}:meta`).catch(() => 0);\n'));
  const execFirst = job('exec-first', caught('    await redis.multi().del(`import:${id}:meta`).lRange(`import:${id}:rows`, 0, -1).exec();\n'));

  it('reports the write when the other module’s DEL runs only on the success path of its try', () => {
    expect(lint(successOnly, upload)).toEqual([['noExpiry', 3, 15]]);
  });

  it('reports it when what precedes the DEL in its try throws or awaits work other than Redis', () => {
    for (const file of [throwsFirst, queryFirst]) expect(lint(file, upload), file).toEqual([['noExpiry', 3, 15]]);
  });

  it('stays silent when the DEL is outside a try, in a finally, first in its try, or the catch deletes too or rethrows', () => {
    for (const file of [plain, inFinally, first, catchDeletes, rethrows]) expect(lint(file, upload), file).toEqual([]);
  });

  it('stays silent when only computations or Redis commands precede the DEL in its try', () => {
    for (const file of [computeFirst, siblingFirst, caughtSibling, execFirst]) expect(lint(file, upload), file).toEqual([]);
  });
});
