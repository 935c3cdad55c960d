/**
 * `key-must-come-from-keys` is left out when the script's client is a module's exported `let`
 * that only a standalone client is ever assigned to (`export let redisClient:
 * ReturnType<typeof createClient>;` set by `connectRedis()` to `createClient({ url, database: 2 })`),
 * or whose declared type is TypeScript's `ReturnType<typeof createClient>` / `InstanceType<typeof
 * Redis>` of the client package's standalone builder (`redis-calls/standalone-client.ts`): a
 * module's `let` is written only by that module. Near misses stay reported: an exported `let`
 * that some code of its module assigns a Cluster client (`createCluster`, `new Redis.Cluster`),
 * one assigned what a caller hands in, and `ReturnType<typeof createCluster>`. Each project is a
 * library (`main`), so the project-wide "no cluster anywhere" fact never applies.
 */
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { type EmbeddedLuaFinding, lintEmbeddedLuaFile, writeProject } from '../helpers/lint.js';

const roots: string[] = [];
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

/** [Lua rule id, line, column] of each embedded-lua finding on `file` of a project of `files`. */
function lint(files: Record<string, string>, file: string, code: string): EmbeddedLuaFinding[] {
  return lintEmbeddedLuaFile(writeProject(roots, { 'package.json': LIBRARY, ...files }), file, code);
}

const LIBRARY = JSON.stringify({ name: 'lib', version: '1.0.0', main: 'index.js' });
const ARGV_KEY = `"redis.call('SET', ARGV[1], 1, 'EX', 60)"`;
const USE = `import { redisClient } from './connection';\nexport async function assign() {\n  return redisClient.EVAL(${ARGV_KEY}, { keys: [], arguments: ['k'] });\n}\n`;
const cluster = (line: number, column: number): [string, number, number] => ['key-must-come-from-keys', line, column];

describe('an exported let assigned only a standalone client', () => {
  it('`export let redisClient: ReturnType<typeof createClient>` set by connectRedis()', () => {
    const connection = `import { createClient } from 'redis';\nexport let redisClient: ReturnType<typeof createClient>;\nexport async function connectRedis() {\n  redisClient = createClient({ url: process.env.REDIS_URL, database: 2 });\n  await redisClient.connect();\n}\n`;
    expect(lint({ 'connection.ts': connection }, 'use.ts', USE)).toEqual([]);
  });

  it('an untyped `let` exported by a specifier, assigned createClient() on connect', () => {
    const connection = `import { createClient } from 'redis';\nlet client = null;\nexport function connect() {\n  client = createClient({ url: process.env.REDIS_URL });\n}\nexport { client as redisClient };\n`;
    expect(lint({ 'connection.ts': connection }, 'use.ts', USE)).toEqual([]);
  });

  it('a `let` of a type the code does not say, written only with new Redis() in its module', () => {
    const connection = `import Redis from 'ioredis';\nimport type { Client } from './types';\nexport let redisClient: Client | undefined;\nexport function connect() {\n  redisClient = new Redis(process.env.REDIS_URL!);\n}\n`;
    expect(lint({ 'connection.ts': connection }, 'use.ts', USE)).toEqual([]);
  });

  it('a parameter declared `ReturnType<typeof createClient>` or `InstanceType<typeof Redis>`', () => {
    const code = `import { createClient } from 'redis';\nimport Redis from 'ioredis';\nexport async function a(client: ReturnType<typeof createClient>) {\n  await client.eval(${ARGV_KEY}, { keys: [], arguments: ['k'] });\n}\nexport async function b(redis: InstanceType<typeof Redis>) {\n  await redis.eval(${ARGV_KEY}, 0, 'k');\n}\n`;
    expect(lint({}, 'use.ts', code)).toEqual([]);
  });
});

describe('near misses stay reported', () => {
  it('an exported let that its module may assign a Cluster client', () => {
    const connection = `import { createClient, createCluster } from 'redis';\nexport let redisClient: ReturnType<typeof createClient> | ReturnType<typeof createCluster>;\nexport function connectRedis() {\n  redisClient = process.env.CLUSTER ? createCluster({ rootNodes: [] }) : createClient({ url: process.env.REDIS_URL });\n}\n`;
    expect(lint({ 'connection.ts': connection }, 'use.ts', USE)).toEqual([cluster(3, 28)]);
  });

  it('an exported let assigned new Redis.Cluster in one branch', () => {
    const connection = `import Redis from 'ioredis';\nexport let redisClient;\nexport function connect(nodes) {\n  if (nodes) redisClient = new Redis.Cluster(nodes);\n  else redisClient = new Redis();\n}\n`;
    expect(lint({ 'connection.ts': connection }, 'use.ts', USE)).toEqual([cluster(3, 28)]);
  });

  it('an exported let assigned what a caller hands in', () => {
    const connection = `export let redisClient;\nexport function setClient(client) {\n  redisClient = client;\n}\n`;
    expect(lint({ 'connection.ts': connection }, 'use.ts', USE)).toEqual([cluster(3, 28)]);
  });

  it('a parameter declared `ReturnType<typeof createCluster>`', () => {
    const code = `import { createCluster } from 'redis';\nexport async function a(client: ReturnType<typeof createCluster>) {\n  await client.eval(${ARGV_KEY}, { keys: [], arguments: ['k'] });\n}\n`;
    expect(lint({}, 'use.ts', code)).toEqual([cluster(3, 22)]);
  });
});
