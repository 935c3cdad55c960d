/**
 * The runtime works bundled: tests/fixtures/bundle-app/app.ts, which uses every helper of
 * redis-ttl-runtime, is bundled by esbuild (the package resolved as an app would, through its
 * `exports`, into `runtime/dist/`; ioredis inside too) into one file, copied alone into an empty
 * folder and run with node against a real Redis. The Lua scripts are compiled into the JavaScript,
 * so nothing is read from disk: before, the first call crashed on a missing `.lua` file.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, ROOT } from '../helpers/build.js';
import { scanWithPttl, uniquePrefix, useRedis } from '../helpers/redis.js';

const run = promisify(execFile);
const redis = useRedis();
let work: string;

beforeAll(() => {
  ensureBuilt();
  work = mkdtempSync(join(tmpdir(), 'redis-ttl-bundle-'));
}, 120_000);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('an app bundled with esbuild', () => {
  it('runs every runtime helper against Redis from a single file, and every key it wrote has a TTL', async () => {
    const result = await build({
      entryPoints: [join(ROOT, 'tests/fixtures/bundle-app/app.ts')],
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      outfile: join(work, 'app.mjs'),
      // ioredis is CommonJS: give the ES module bundle a `require` for Node's built-ins
      banner: { js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);" },
      logLevel: 'silent',
      metafile: true,
    });
    expect(result.errors).toEqual([]);
    const inputs = Object.keys(result.metafile.inputs);
    expect(inputs.some((file) => file.startsWith('runtime/dist/'))).toBe(true);
    expect(inputs.filter((file) => file.endsWith('.lua'))).toEqual([]);
    expect(readdirSync(work)).toEqual(['app.mjs']);
    expect(readFileSync(join(work, 'app.mjs'), 'utf8')).not.toMatch(/\.lua['"]/);

    const prefix = uniquePrefix('bundle');
    const { stdout } = await run(process.execPath, [join(work, 'app.mjs')], {
      cwd: work,
      env: { PATH: process.env.PATH, APP_REDIS_URL: redis.url(), KEY_PREFIX: prefix },
      timeout: 30_000,
    });
    const out = JSON.parse(stdout) as Record<string, unknown>;
    expect(out).toEqual({
      increment: 5,
      incrementAgain: 7,
      collect: '7',
      setKeepTtl: true,
      setKeepTtlMissing: false,
      buildKey: expect.stringMatching(new RegExp(`^${prefix}:fw:v1:\\{[A-Za-z0-9_-]{22}\\}:login$`)) as unknown,
      hashLength: 22,
      limiters: Object.fromEntries(
        ['fixed-window', 'sliding-window-log', 'sliding-window-counter', 'token-bucket', 'gcra', 'leaky-bucket'].map((a) => [a, [true, true, false]]),
      ),
      fallbackLimiter: true,
      memoryStore: true,
      breaker: [true, 'open', false],
      cache: [{ id: 1 }, { id: 1 }, null],
      cacheLoads: 1,
    });
    const keys = await scanWithPttl(redis.client(), `${prefix}*`);
    expect(keys.size).toBe(10); // the counter, 6 limiters, the fallback limiter, the breaker, the cached absent user:2
    for (const [key, pttl] of keys) expect(pttl, key).toBeGreaterThan(0);
  });
});
