/** Runs the redis-ttl-keys CLI in-process with captured streams. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { main } from '../../keys/cli/main.js';

export async function runKeys(args: string[], cwd = process.cwd()): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await main(args, { stdout: { write: (t: string) => (stdout += t) }, stderr: { write: (t: string) => (stderr += t) }, env: {}, cwd });
  return { code, stdout, stderr };
}

/**
 * A folder with a TS file and a Lua file that do not parse and one that does (made per run: a
 * checked-in fixture that does not parse would break the tests that lint every fixture).
 */
export function brokenSources(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'keys-broken-'));
  writeFileSync(path.join(dir, 'broken.ts'), "import type { Redis } from 'ioredis';\nexport async function f(redis: Redis) {\n  await redis.set('a:' + , 1);\n}\n");
  writeFileSync(path.join(dir, 'broken.lua'), "redis.call('SET', KEYS[1], 1\nreturn 1\n");
  writeFileSync(path.join(dir, 'ok.ts'), "import type { Redis } from 'ioredis';\nexport async function g(redis: Redis, id: string) {\n  await redis.set(`ok:${id}`, 1);\n}\n");
  return dir;
}
