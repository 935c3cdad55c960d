/**
 * The promise of tests/helpers/redis.ts, checked: a test run pointed at a named test server
 * (`REDIS_TEST_URL`) leaves it exactly as it found it.
 *
 * A redis-server of our own plays the user's server: keys in databases 0, 8, 9 and 15 (with and
 * without TTL, several types), a non-default `maxmemory-policy`, a script in the script cache, an
 * ACL user, a function library. Then every test file that uses the shared Redis helpers
 * (`useRedis`) runs in a child vitest with `REDIS_TEST_URL` naming that server, and afterwards the
 * server must hold the same keys (name, type, value, TTL or none), the same configuration, the
 * same ACL users and function libraries, and still the script (no SCRIPT FLUSH). The child run
 * must pass, and must print why it skipped what it skipped.
 */
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startRedisServer, type RedisHandle } from '../helpers/redis-server.js';

const run = promisify(execFile);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const DATABASES = [0, 8, 9, 15];
const SCRIPT = "return 'sentinel'";

let server: RedisHandle;
let admin: Redis;

/** Every test file (relative to the root) that takes its Redis from useRedis(). */
function filesUsingUseRedis(): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(path.join(root, dir), { withFileTypes: true })) {
      const rel = `${dir}/${entry.name}`;
      if (entry.isDirectory() && entry.name !== 'fixtures' && entry.name !== 'isolation') walk(rel);
      else if (entry.name.endsWith('.test.ts') && /= useRedis\(\)/.test(readFileSync(path.join(root, rel), 'utf8'))) out.push(rel);
    }
  };
  walk('tests');
  return out.sort();
}

interface Snapshot {
  keys: Record<number, Record<string, { type: string; dump: string; ttl: 'none' | 'some' }>>;
  config: Record<string, string>;
  acl: string[];
  functions: unknown;
  scriptCached: number[];
}

async function snapshot(): Promise<Snapshot> {
  const keys: Snapshot['keys'] = {};
  for (const db of DATABASES) {
    const c = new Redis(`${server.url}/${db}`);
    const found: Snapshot['keys'][number] = {};
    let cursor = '0';
    do {
      const [next, batch] = await c.scan(cursor, 'COUNT', 1000);
      cursor = next;
      for (const key of batch) {
        const dump = await c.dumpBuffer(key);
        found[key] = { type: await c.type(key), dump: dump === null ? '' : dump.toString('base64'), ttl: (await c.pttl(key)) === -1 ? 'none' : 'some' };
      }
    } while (cursor !== '0');
    keys[db] = found;
    c.disconnect();
  }
  const pairs = (await admin.config('GET', '*')) as string[];
  const config: Record<string, string> = {};
  for (let i = 0; i + 1 < pairs.length; i += 2) config[pairs[i]!] = pairs[i + 1]!;
  return {
    keys,
    config,
    acl: ((await admin.acl('LIST')) as string[]).sort(),
    functions: await admin.call('FUNCTION', 'LIST', 'WITHCODE'),
    scriptCached: (await admin.script('EXISTS', (await admin.script('LOAD', SCRIPT)) as string)) as number[],
  };
}

beforeAll(async () => {
  server = await startRedisServer();
  admin = new Redis(server.url);
  for (const db of DATABASES) {
    const c = new Redis(`${server.url}/${db}`);
    await c.set(`app:${db}:config`, 'persistent on purpose');
    await c.set(`app:${db}:session`, 'expires', 'EX', 3600);
    await c.hset(`app:${db}:user`, 'name', 'ada');
    await c.zadd(`app:${db}:board`, 1, 'ada');
    await c.incr(`rl:${db}:counter`);
    c.disconnect();
  }
  await admin.config('SET', 'maxmemory-policy', 'volatile-lru');
  await admin.acl('SETUSER', 'app-user', 'on', '>app-pw', '~app:*', '+@read');
  await admin.call('FUNCTION', 'LOAD', "#!lua name=applib\nredis.register_function('appfn', function() return 1 end)");
  await admin.script('LOAD', SCRIPT);
}, 30_000);

afterAll(async () => {
  admin?.disconnect();
  await server?.stop();
});

it('a test run against a named test server (REDIS_TEST_URL) leaves it exactly as found', async () => {
  const before = await snapshot();
  const files = filesUsingUseRedis();
  expect(files.length).toBeGreaterThan(10);
  expect(files).not.toContain('tests/isolation/named-server.test.ts');
  const env: NodeJS.ProcessEnv = { ...process.env, REDIS_TEST_URL: server.url, REDIS_URL: 'redis://127.0.0.1:1' };
  delete env.REDIS_TEST_CLUSTER_NODES;
  let output: string;
  try {
    const result = await run(process.execPath, [path.join(root, 'node_modules/vitest/vitest.mjs'), 'run', ...files], {
      cwd: root,
      env,
      timeout: 300_000,
      maxBuffer: 64 * 1024 * 1024,
    });
    output = result.stdout + result.stderr;
  } catch (error) {
    const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
    throw new Error(`the test run on the named server failed:\n${stdout.slice(-6000)}\n${stderr.slice(-6000)}`, { cause: error });
  }
  // The tests that need powers a named server does not give are skipped, and say why.
  expect(output).toContain('skipped on the named test server (REDIS_TEST_URL): the NOSCRIPT fallback tests run SCRIPT FLUSH');
  expect(output).toContain('skipped on the named test server (REDIS_TEST_URL): tests/audit/cli.test.ts counts every key');
  const after = await snapshot();
  for (const db of DATABASES) {
    expect(Object.keys(after.keys[db]!).sort(), `keys of database ${db}`).toEqual(Object.keys(before.keys[db]!).sort());
  }
  expect(after).toEqual(before);
}, 360_000);
