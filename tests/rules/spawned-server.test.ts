/**
 * Keys of a Redis server the package starts itself (redis-calls/spawned-server.ts,
 * `allowSpawnedServer`): a program that spawns `redis-server` / `valkey-server` as a child process
 * of its normal run owns that server's lifetime, so the keys written through the client connected
 * to it (no server named, the loopback URL or port it listens on, or the configured URL whose
 * loopback default decides the start) are process-scoped scratch, not reported by `recommended`.
 * A client on another URL, a server started by a test, a script, code nothing calls or behind a
 * flag, a server asked to keep its data (`--appendonly yes`, `--daemonize yes`, a `--save`
 * schedule, `--dir`, a configuration file), `redis-cli`, and everything under `strict`
 * (`allowSpawnedServer: false`) stay reported. Each case writes a small application to a
 * temporary folder and lints one module.
 */
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { loopbackPort, serverArguments, serverBinary } from '../../semantics/server-processes.js';
import { lintApplication } from '../helpers/lint.js';

const roots: string[] = [];
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

const INCR = 'incr-needs-expire-on-create';
const SET = 'set-requires-ttl-or-keepttl';

/**
 * The crawl state: line 11 a flag and line 14 a counter on the crawl's client, line 17 a set on
 * the dedupe client (another URL).
 */
const STATE = `import { Redis } from 'ioredis';
export class CrawlState {
  redis: Redis;
  dedupe: Redis;
  constructor(redis: Redis, dedupe: Redis) {
    this.redis = redis;
    this.dedupe = dedupe;
  }
  async stop(id: string) {
    const key = \`\${id}:stopping\`;
    await this.redis.set(key, '1');
  }
  async markDone(id: string) {
    await this.redis.incr(\`\${id}:done\`);
  }
  async remember(id: string, hash: string) {
    await this.dedupe.sadd(\`h:\${id}\`, hash);
  }
}
`;

const CLIENT = `import { Redis } from 'ioredis';
export async function initRedis(url: string) {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: null });
  await redis.connect();
  return redis;
}
export async function initRedisWaitForSuccess(url: string) {
  while (true) {
    try {
      return await initRedis(url);
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  }
}
`;

/** The crawler: starts redis-server when its state URL is the loopback default, and connects the state's client to that URL. */
const CRAWLER = `import child_process from 'node:child_process';
import os from 'node:os';
import { initRedisWaitForSuccess } from './redis';
import { CrawlState } from './state';
export class Crawler {
  params: { redisStoreUrl?: string; redisDedupeUrl?: string; debug?: boolean } = {};
  state?: CrawlState;
  launchRedis() {
    let args: string[] = ['--save', ''];
    if (this.params.debug) args = ['--save', '', '--protected-mode', 'no'];
    return child_process.spawn('redis-server', args, { cwd: os.tmpdir(), stdio: 'ignore' });
  }
  async bootstrap() {
    const redisUrl = this.params.redisStoreUrl || 'redis://localhost:6379/0';
    if (redisUrl.startsWith('redis://localhost:') || redisUrl.startsWith('redis://127.0.0.1:')) {
      this.launchRedis();
    }
    await this.initState();
  }
  async initState() {
    const redisUrl = this.params.redisStoreUrl || "redis://localhost:6379/0";
    const dedupeUrl = this.params.redisDedupeUrl || redisUrl;
    const redis = await initRedisWaitForSuccess(redisUrl);
    const dedupe = await initRedisWaitForSuccess(dedupeUrl);
    this.state = new CrawlState(redis, dedupe);
    await this.state.markDone('seed');
    await this.state.remember('seed', 'sha1:0');
    await this.state.stop('seed');
  }
}
`;

const MAIN = `import { Crawler } from './crawler';
void new Crawler().bootstrap();
`;

/** The flag, the counter and the dedupe set: what is reported when the server is not the crawl's own. */
const ALL = [
  [SET, 'setWithoutTtl', 11, 22],
  [INCR, 'noExpiry', 14, 22],
  [INCR, 'noExpiry', 17, 23],
];
/** Only the dedupe set, on another URL. */
const DEDUPE_ONLY = [[INCR, 'noExpiry', 17, 23]];

function lintState(files: Record<string, string>, options: Record<string, unknown> = {}): Array<[string | undefined, string | undefined, number, number]> {
  return lintApplication(roots, { 'src/state.ts': STATE, 'src/redis.ts': CLIENT, 'src/crawler.ts': CRAWLER, 'src/main.ts': MAIN, ...files }, 'src/state.ts', { [SET]: options, [INCR]: options }, []);
}

/** A page cache on the default client (line 4) beside a program that starts `start`'s server. */
const CACHE = (client: string) => `import Redis from 'ioredis';
const redis = ${client};
export async function put(page: string, html: string) {
  await redis.set(\`page:\${page}\`, html);
}
`;
const STARTS = (start: string) => `import { spawn, exec } from 'node:child_process';
import { execa } from 'execa';
import { put } from './cache';
${start}
void put('home', '<html></html>');
`;
const PUT = [[SET, 'setWithoutTtl', 4, 15]];

function lintCache(client: string, start: string, extra: Record<string, string> = {}): Array<[string | undefined, string | undefined, number, number]> {
  return lintApplication(roots, { 'src/cache.ts': CACHE(client), 'src/main.ts': STARTS(start), ...extra }, 'src/cache.ts', { [SET]: {}, [INCR]: {} }, []);
}

describe('keys of a Redis server the package starts itself (allowSpawnedServer)', () => {
  describe('the client of the started server writes scratch (recommended)', () => {
    it("the crawl state's client, made two calls down from the URL whose loopback default decides the start; the dedupe client on another URL stays reported", () => {
      expect(lintState({})).toEqual(DEDUPE_ONLY);
    });
    it('a server started unconditionally, and a client with no server named, the loopback URL, or its port', () => {
      expect(lintCache('new Redis()', "spawn('redis-server', ['--save', '']);")).toEqual([]);
      expect(lintCache("new Redis('redis://127.0.0.1:6379')", "spawn('redis-server', ['--save', '']);")).toEqual([]);
      expect(lintCache('new Redis(6390)', `exec('redis-server --port 6390 --save ""');`)).toEqual([]);
      expect(lintCache("new Redis({ host: 'localhost', port: 6390 })", "void execa('valkey-server', ['--port', '6390', '--save', '']);")).toEqual([]);
    });
    it('a binary named by a const, or by its path', () => {
      expect(lintCache('new Redis()', "const SERVER = '/usr/local/bin/redis-server';\nspawn(SERVER, ['--save', '']);")).toEqual([]);
    });
  });

  describe('near misses stay reported', () => {
    it('a server started with its defaults: it snapshots its keys into its working folder and loads them at its next start', () => {
      expect(lintState({ 'src/crawler.ts': CRAWLER.replace("let args: string[] = ['--save', ''];", 'let args: string[] = [];') })).toEqual(ALL);
      expect(lintCache('new Redis()', "spawn('redis-server');")).toEqual(PUT);
      expect(lintCache('new Redis(6390)', "exec('redis-server --port 6390');")).toEqual(PUT);
    });
    it('no server started: the crawler connects to its configured URL only', () => {
      expect(lintState({ 'src/crawler.ts': CRAWLER.replace('this.launchRedis();', 'console.log(redisUrl);') })).toEqual(ALL);
    });
    it('the client on another port than the started server, or on a configured URL when the start is unconditional', () => {
      expect(lintCache('new Redis(6379)', "spawn('redis-server', ['--port', '6380']);")).toEqual(PUT);
      expect(lintCache("new Redis(process.env.REDIS_URL || 'redis://localhost:6379')", "spawn('redis-server');")).toEqual(PUT);
      expect(lintCache("new Redis('redis://cache.internal:6379')", "spawn('redis-server');")).toEqual(PUT);
    });
    it('a configured URL other than the one whose loopback value decides the start', () => {
      const other = CRAWLER.replace('const redis = await initRedisWaitForSuccess(redisUrl);', "const redis = await initRedisWaitForSuccess(process.env.STATE_URL || 'redis://localhost:6379/0');");
      expect(lintState({ 'src/crawler.ts': other })).toEqual(ALL);
    });
    it('a start behind another condition than the loopback URL', () => {
      const flagged = CRAWLER.replace("if (redisUrl.startsWith('redis://localhost:') || redisUrl.startsWith('redis://127.0.0.1:')) {", 'if (this.params.debug) {');
      expect(lintState({ 'src/crawler.ts': flagged })).toEqual(ALL);
      expect(lintCache('new Redis()', "if (process.env.START_REDIS) spawn('redis-server');")).toEqual(PUT);
    });
    it('a server asked to keep its data or to outlive the program, or read from a configuration file', () => {
      expect(lintCache('new Redis()', "spawn('redis-server', ['--appendonly', 'yes']);")).toEqual(PUT);
      expect(lintCache('new Redis()', "exec('redis-server --save 900 1 --save 300 10 --daemonize yes');")).toEqual(PUT);
      expect(lintCache('new Redis()', "spawn('redis-server', ['--dir', '/var/lib/redis']);")).toEqual(PUT);
      expect(lintCache('new Redis()', "spawn('redis-server', ['/etc/redis/redis.conf']);")).toEqual(PUT);
      const persistent = CRAWLER.replace("let args: string[] = ['--save', ''];", "let args: string[] = ['--save', '', '--appendonly', 'yes'];");
      expect(lintState({ 'src/crawler.ts': persistent })).toEqual(ALL);
    });
    it('redis-cli and redis-benchmark start no server; arguments not written out are not read', () => {
      expect(lintCache('new Redis()', "spawn('redis-cli', ['ping']);")).toEqual(PUT);
      expect(lintCache('new Redis()', "spawn('redis-benchmark', ['-q']);")).toEqual(PUT);
      expect(lintCache('new Redis()', "spawn('redis-server', process.argv.slice(2));")).toEqual(PUT);
    });
    it('a server started only by a test, a test helper or an operator script', () => {
      const harness = "import { spawn } from 'node:child_process';\nexport const server = spawn('redis-server', ['--save', '']);\n";
      expect(lintCache('new Redis()', '', { 'src/__tests__/setup.test.ts': harness })).toEqual(PUT);
      expect(lintCache('new Redis()', '', { 'test/helpers/redis.ts': harness })).toEqual(PUT);
      expect(lintCache('new Redis()', '', { 'scripts/dev-redis.ts': harness })).toEqual(PUT);
      // a test helper the package's benchmarks import too is still not the program's run
      expect(lintCache('new Redis()', '', { 'test/helpers/redis.ts': harness, 'bench/run.ts': "import { server } from '../test/helpers/redis';\nserver.kill();\n" })).toEqual(PUT);
    });
    it('a start in a function nothing calls', () => {
      expect(lintCache('new Redis()', "function startRedis() {\n  spawn('redis-server');\n}")).toEqual(PUT);
    });
  });

  it('strict (allowSpawnedServer: false) reports the scratch keys', () => {
    expect(lintState({}, { allowSpawnedServer: false })).toEqual(ALL);
  });

  it('reads the server binary, its arguments and a loopback URL as redis.io documents them', () => {
    expect(['redis-server', '/usr/bin/valkey-server', 'redis-cli', 'redis-server.service'].map(serverBinary)).toEqual(['redis-server', 'valkey-server', undefined, undefined]);
    expect(serverArguments([])).toEqual({ port: 6379, keepsData: true });
    expect(serverArguments(['--save', ''])).toEqual({ port: 6379, keepsData: false });
    expect(serverArguments(['--save', '', '--appendonly', 'yes'])?.keepsData).toBe(true);
    expect(serverArguments(['--port', '6380', '--save', '""', '--appendonly', 'no'])).toEqual({ port: 6380, keepsData: false });
    expect(serverArguments(['--port=6381', "--save=''"])).toEqual({ port: 6381, keepsData: false });
    expect(serverArguments(['--port=6381'])).toEqual({ port: 6381, keepsData: true });
    expect(serverArguments(['--daemonize', 'yes'])?.keepsData).toBe(true);
    expect(serverArguments(['--save', '60', '1'])?.keepsData).toBe(true);
    expect(serverArguments(['--dbfilename', 'crawl.rdb'])?.keepsData).toBe(true);
    expect(serverArguments(['redis.conf'])).toBeUndefined();
    expect(serverArguments(['--include', 'extra.conf'])).toBeUndefined();
    expect(serverArguments(['--port'])).toBeUndefined();
    expect(['redis://localhost:6379/0', 'redis://127.0.0.1', 'redis://:pw@[::1]:6380', 'redis://redis:6379', 'rediss://localhost:6379'].map(loopbackPort)).toEqual([6379, 6379, 6380, undefined, undefined]);
  });
});
