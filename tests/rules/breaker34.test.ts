/**
 * Breaker round 34: odd but realistic code against the round's new readings (a Redis server the
 * package starts itself, allowSpawnedServer). Each case is a leak a reading hid, or a near miss
 * that must keep its result.
 */
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { lintApplication, lintKeyRules } from '../helpers/lint.js';

const roots: string[] = [];
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

const INCR = 'incr-needs-expire-on-create';
const SET = 'set-requires-ttl-or-keepttl';

/** A page cache on the default client (line 4). */
const CACHE = `import Redis from 'ioredis';
const redis = new Redis();
export async function put(page: string, html: string) {
  await redis.set(\`page:\${page}\`, html);
}
`;
const PUT = [[SET, 'setWithoutTtl', 4, 15]];

function lintCache(files: Record<string, string>): Array<[string | undefined, string | undefined, number, number]> {
  return lintApplication(roots, { 'src/cache.ts': CACHE, ...files }, 'src/cache.ts', { [SET]: {}, [INCR]: {} }, []);
}

describe('allowSpawnedServer: a start behind a flag is no start of the program', () => {
  it('an early return on a flag before the spawn: reported', () => {
    const main = `import { spawn } from 'node:child_process';
import { put } from './cache';
function startRedis() {
  if (!process.env.START_REDIS) return;
  spawn('redis-server', ['--save', '']);
}
startRedis();
void put('home', '<html></html>');
`;
    expect(lintCache({ 'src/main.ts': main })).toEqual(PUT);
  });
  it('an early return on a flag in the function calling the start: reported', () => {
    const main = `import { spawn } from 'node:child_process';
import { put } from './cache';
function startRedis() {
  spawn('redis-server', ['--save', '']);
}
function boot() {
  if (process.env.NO_LOCAL_REDIS) return;
  startRedis();
}
boot();
void put('home', '<html></html>');
`;
    expect(lintCache({ 'src/main.ts': main })).toEqual(PUT);
  });
  it('an exported start called by another module behind a flag: reported', () => {
    const dev = `import { spawn } from 'node:child_process';
export function startRedis() {
  return spawn('redis-server', ['--save', '']);
}
`;
    const main = `import { startRedis } from './dev';
import { put } from './cache';
if (process.env.START_REDIS) startRedis();
void put('home', '<html></html>');
`;
    expect(lintCache({ 'src/dev.ts': dev, 'src/main.ts': main })).toEqual(PUT);
  });
  it('a start in a callback run only on a CLI subcommand: reported', () => {
    const main = `import { spawn } from 'node:child_process';
import { put } from './cache';
const command = process.argv[2];
const commands: Record<string, () => void> = {
  'dev-redis': () => { spawn('redis-server', ['--save', '']); },
  serve: () => { void put('home', '<html></html>'); },
};
commands[command ?? 'serve']?.();
`;
    expect(lintCache({ 'src/main.ts': main })).toEqual(PUT);
  });
  it('a start that runs when the URL is not the loopback one: reported', () => {
    const main = `import { spawn } from 'node:child_process';
import Redis from 'ioredis';
const url = process.env.REDIS_URL || 'redis://localhost:6379';
if (!url.startsWith('redis://localhost')) spawn('redis-server', ['--save', '']);
const redis = new Redis(url);
export async function put(page: string, html: string) {
  await redis.set(\`page:\${page}\`, html);
}
`;
    expect(lintApplication(roots, { 'src/main.ts': main }, 'src/main.ts', { [SET]: {}, [INCR]: {} }, [])).toEqual([[SET, 'setWithoutTtl', 7, 15]]);
  });
  it('a start in the else branch of a loopback test: reported', () => {
    const main = `import { spawn } from 'node:child_process';
import Redis from 'ioredis';
const url = process.env.REDIS_URL || 'redis://localhost:6379';
if (url.startsWith('redis://localhost')) console.log('using the local redis');
else spawn('redis-server', ['--save', '']);
const redis = new Redis(url);
export async function put(page: string, html: string) {
  await redis.set(\`page:\${page}\`, html);
}
`;
    expect(lintApplication(roots, { 'src/main.ts': main }, 'src/main.ts', { [SET]: {}, [INCR]: {} }, [])).toEqual([[SET, 'setWithoutTtl', 8, 15]]);
  });
  it('near miss: a start in an immediately run async function stays scratch', () => {
    const main = `import { spawn } from 'node:child_process';
import { put } from './cache';
void (async () => {
  spawn('redis-server', ['--save', '']);
  await put('home', '<html></html>');
})();
`;
    expect(lintCache({ 'src/main.ts': main })).toEqual([]);
  });
  it('near miss: an early return inside a nested callback before the start does not gate it', () => {
    const main = `import { spawn } from 'node:child_process';
import { put } from './cache';
function startRedis() {
  process.on('exit', () => {
    return;
  });
  spawn('redis-server', ['--save', '']);
}
startRedis();
void put('home', '<html></html>');
`;
    expect(lintCache({ 'src/main.ts': main })).toEqual([]);
  });
  it('near miss: an unconditional start called unconditionally stays scratch', () => {
    const main = `import { spawn } from 'node:child_process';
import { put } from './cache';
function startRedis() {
  console.log('starting redis');
  spawn('redis-server', ['--save', '']);
}
startRedis();
void put('home', '<html></html>');
`;
    expect(lintCache({ 'src/main.ts': main })).toEqual([]);
  });
});

describe('allowSpawnedServer: a client whose options name another host is not on the started server', () => {
  const main = `import { spawn } from 'node:child_process';
import { put } from './cache';
spawn('redis-server', ['--save', '']);
void put('home', '<html></html>');
`;
  const cache = (client: string) => CACHE.replace('new Redis()', client);
  it('new Redis(port, { host }) of another host: reported', () => {
    expect(lintCache({ 'src/main.ts': main, 'src/cache.ts': cache("new Redis(6379, { host: 'redis.internal' })") })).toEqual(PUT);
    expect(lintCache({ 'src/main.ts': main, 'src/cache.ts': cache('new Redis(6379, { host: process.env.REDIS_HOST })') })).toEqual(PUT);
  });
  it('near miss: new Redis(port, options) naming no host, or the loopback one, stays scratch', () => {
    expect(lintCache({ 'src/main.ts': main, 'src/cache.ts': cache('new Redis(6379, { maxRetriesPerRequest: null })') })).toEqual([]);
    expect(lintCache({ 'src/main.ts': main, 'src/cache.ts': cache("new Redis(6379, { host: '127.0.0.1' })") })).toEqual([]);
  });
});

describe('allowSpawnedServer: an example or a demo of the package is not its run', () => {
  const demo = `import { spawn } from 'node:child_process';
import { put } from '../src/cache';
spawn('redis-server', ['--save', '']);
void put('home', '<html></html>');
`;
  it('a server started by examples/ or a demo: reported', () => {
    expect(lintCache({ 'examples/basic.ts': demo })).toEqual(PUT);
    expect(lintCache({ 'example/basic.ts': demo })).toEqual(PUT);
    expect(lintCache({ 'demo/index.ts': demo })).toEqual(PUT);
  });
  it('near miss: the same start in src/ stays scratch', () => {
    expect(lintCache({ 'src/main.ts': demo.replace('../src/cache', './cache') })).toEqual([]);
  });
});

describe('incr-needs-expire-on-create: an update of a record on another server is not the creation\'s', () => {
  it('an HINCRBY through a client of another URL than the creation\'s HSET: both reported', () => {
    const code = `import Redis from 'ioredis';
const sessions = new Redis(process.env.SESSIONS_URL!);
const stats = new Redis(process.env.STATS_URL!);
export async function open(id: string, user: string) {
  await sessions.hset(\`session:\${id}\`, { user, hits: 0 });
}
export async function hit(id: string) {
  await stats.hincrby(\`session:\${id}\`, 'hits', 1);
}
`;
    expect(lintKeyRules(code)).toEqual([
      ['redis-ttl/incr-needs-expire-on-create', 'noExpiry', 5, 18],
      ['redis-ttl/incr-needs-expire-on-create', 'noExpiry', 8, 15],
    ]);
  });
  it('near miss: the same client: the creation alone', () => {
    const code = `import Redis from 'ioredis';
const sessions = new Redis(process.env.SESSIONS_URL!);
export async function open(id: string, user: string) {
  await sessions.hset(\`session:\${id}\`, { user, hits: 0 });
}
export async function hit(id: string) {
  await sessions.hincrby(\`session:\${id}\`, 'hits', 1);
}
`;
    expect(lintKeyRules(code)).toEqual([['redis-ttl/incr-needs-expire-on-create', 'noExpiry', 4, 18]]);
  });
});

describe('allowSpawnedServer: a loopback test joined with a flag', () => {
  const main = (test: string) => `import { spawn } from 'node:child_process';
import Redis from 'ioredis';
const url = process.env.REDIS_URL || 'redis://localhost:6379';
if (${test}) spawn('redis-server', ['--save', '']);
const redis = new Redis(url);
export async function put(page: string, html: string) {
  await redis.set(\`page:\${page}\`, html);
}
`;
  const lintMain = (test: string) => lintApplication(roots, { 'src/main.ts': main(test) }, 'src/main.ts', { [SET]: {}, [INCR]: {} }, []);
  it('the loopback URL and a flag: reported (the flag off, the local server is not started)', () => {
    expect(lintMain("url.startsWith('redis://localhost') && process.env.START_REDIS === '1'")).toEqual([[SET, 'setWithoutTtl', 7, 15]]);
  });
  it('near miss: either loopback spelling stays scratch', () => {
    expect(lintMain("url.startsWith('redis://localhost') || url.startsWith('redis://127.0.0.1')")).toEqual([]);
  });
});

describe('passed-on clients: modules that import each other do not crash the reading', () => {
  it('a class module and its user importing each other: the write is reported once', () => {
    const manifest = '{ "name": "bot", "private": true, "dependencies": { "redis": "^4.6.7" } }';
    const files = {
      'src/lib/redis.ts': "import { createClient } from 'redis';\nexport const redis = createClient({});\n",
      'src/structures/Client.ts': "import { redis } from '../lib/redis';\nimport { Worker } from '../lib/Worker';\nexport class Client {\n  public readonly cache: typeof redis;\n  public worker?: Worker;\n  constructor() {\n    this.cache = redis;\n  }\n}\n",
      'src/lib/Worker.ts': "import { Client } from '../structures/Client';\nexport class Worker {\n  constructor(private readonly client: Client) {}\n  async hit(tag: string) {\n    await this.client.cache.incr(`hits:${tag}`);\n  }\n}\n",
    };
    // (the app runs the worker: a class nothing constructs is code nothing calls, allowUncalledCode)
    const main = "import { Client } from './structures/Client';\nimport { Worker } from './lib/Worker';\nvoid new Worker(new Client()).hit('x');\n";
    expect(lintApplication(roots, { ...files, 'src/main.ts': main }, 'src/lib/Worker.ts', { [SET]: undefined, [INCR]: undefined }, [], manifest)).toEqual([[INCR, 'noExpiry', 5, 29]]);
  });
});
