/**
 * Breaker round 31: odd but realistic code against the round's new readings (GETSET + EXPIRE in
 * one MULTI, configured durations, members a middleware stores a client in, ...). Each case is a
 * leak a reading hid, or a finding nobody would fix, and the result it must give.
 */
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { lintApplication, lintSnippet } from '../helpers/lint.js';

const roots: string[] = [];
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

const H = "import Redis from 'ioredis';\nconst redis = new Redis();\n";
const NR = "import { createClient } from 'redis';\nconst client = createClient();\n";
const getset = (code: string) => lintSnippet(code, { 'redis-ttl/no-getset': 'error' }).map((m) => [m.ruleId, m.messageId, m.line, m.column]);
const GETSET = 'redis-ttl/no-getset';

describe('no-getset: the TTL given back in the same MULTI only when the EXPIRE is always queued', () => {
  it('an EXPIRE queued under an `if` leaves the key without TTL whenever the test is false: reported', () => {
    const code = `${H}export async function swap(k: string, v: string, keep: boolean) {
  const m = redis.multi();
  m.getset(k, v);
  if (keep) m.expire(k, 60);
  await m.exec();
}
`;
    expect(getset(code)).toEqual([[GETSET, 'getset', 5, 5]]);
  });
  it('an EXPIRE queued in a callback may come after the transaction was sent: reported', () => {
    const code = `${H}export function swap(k: string, v: string) {
  const m = redis.multi();
  m.getset(k, v);
  setTimeout(() => { m.expire(k, 60); }, 10);
  return m.exec();
}
`;
    expect(getset(code)).toEqual([[GETSET, 'getset', 5, 5]]);
  });
  it('a node-redis multi() sent by its variable with execAsPipeline() is no transaction: reported', () => {
    const code = `${NR}export async function swap(k: string, v: string) {
  const m = client.multi();
  m.getSet(k, v);
  m.expire(k, 60);
  await m.execAsPipeline();
}
`;
    expect(getset(code)).toEqual([[GETSET, 'getset', 5, 5]]);
  });
  it('an EXPIRE of the key variable reassigned, or after an early return that sends the MULTI: reported', () => {
    const reassigned = `${H}export async function swap(k: string, v: string, next: string) {
  const m = redis.multi();
  m.getset(k, v);
  k = next;
  m.expire(k, 60);
  await m.exec();
}
`;
    const early = `${H}export async function swap(k: string, v: string, keep: boolean) {
  const m = redis.multi();
  m.getset(k, v);
  if (!keep) return m.exec();
  m.expire(k, 60);
  return m.exec();
}
`;
    expect(getset(reassigned)).toEqual([[GETSET, 'getset', 5, 5]]);
    expect(getset(early)).toEqual([[GETSET, 'getset', 5, 5]]);
  });
  it('a loop left by its own break between them, or a return in a callback: not reported', () => {
    const code = `${H}export async function swap(k: string, v: string, tags: string[]) {
  const m = redis.multi();
  m.getset(k, v);
  for (const tag of tags) { if (!tag) break; m.sadd(\`tags:\${k}\`, tag); }
  tags.forEach((tag) => { if (!tag) return; });
  m.expire(k, 60);
  await m.exec();
}
`;
    expect(getset(code)).toEqual([]);
  });
  it('an EXPIRE always queued (a statement, a chain, a try block) after it: not reported', () => {
    const statement = `${H}export async function swap(k: string, v: string) {
  const m = redis.multi();
  m.getset(k, v);
  try { m.expire(k, 60); } catch { /* queued locally */ }
  await m.exec();
}
`;
    const chain = `${NR}export async function swap(k: string, v: string) {
  await client.multi().getSet(k, v).expire(k, 60).exec();
}
`;
    const variable = `${NR}export async function swap(k: string, v: string) {
  const m = client.multi();
  m.getSet(k, v);
  m.expire(k, 60);
  await m.exec();
}
`;
    expect(getset(statement)).toEqual([]);
    expect(getset(chain)).toEqual([]);
    expect(getset(variable)).toEqual([]);
  });
});

describe('expire-needs-positive-ttl: a configured duration whose configuration module writes its default', () => {
  const SERVICE = "import Redis from 'ioredis';\nimport { appConfig } from './config';\nconst redis = new Redis();\nexport async function hold(k: string) {\n  await redis.set(k, '1', 'EX', appConfig.dialogueTimeoutMs / 1000);\n}\n";
  const lint = (config: string) => lintApplication(roots, { 'src/service.ts': SERVICE, 'src/config.ts': config }, 'src/service.ts', { 'expire-needs-positive-ttl': undefined }, []);
  it('a default of 1500 ms (or one of 500 and 1500) is 1.5 s, which Redis rejects: reported', () => {
    const fallback = 'const DIALOGUE_TIMEOUT_MS = Number(process.env.DIALOGUE_TIMEOUT_MS) || 1500;\nexport const appConfig = { dialogueTimeoutMs: DIALOGUE_TIMEOUT_MS };\n';
    const inEnv = "const envVars = { DIALOGUE_TIMEOUT_MS: Number(process.env.DIALOGUE_TIMEOUT_MS ?? '1500') };\nexport const appConfig = { dialogueTimeoutMs: envVars.DIALOGUE_TIMEOUT_MS };\n";
    const twoLiterals = 'const DIALOGUE_TIMEOUT_MS = process.env.FAST ? 500 : 1500;\nexport const appConfig = { dialogueTimeoutMs: DIALOGUE_TIMEOUT_MS };\n';
    for (const config of [fallback, inEnv, twoLiterals]) expect(lint(config)).toEqual([['expire-needs-positive-ttl', 'computed', 5, 33]]);
  });
  it('a default in whole seconds, or a setting the module only names: not reported', () => {
    const whole = "const envVars = { DIALOGUE_TIMEOUT_MS: Number(process.env.DIALOGUE_TIMEOUT_MS ?? '30000') };\nexport const appConfig = { dialogueTimeoutMs: envVars.DIALOGUE_TIMEOUT_MS };\n";
    const named = "import { envVars } from './env';\nexport const appConfig = { dialogueTimeoutMs: envVars.DIALOGUE_TIMEOUT_MS };\n";
    expect(lint(whole)).toEqual([]);
    expect(lint(named)).toEqual([]);
  });
});

describe('a TTL forwarded as { EX: ttl }: the caller passes a value that may be undefined', () => {
  const METHODS = "import { createClient } from 'redis';\nexport default class RedisMethods {\n  constructor(private client: ReturnType<typeof createClient>) {}\n  async setString(key: string, value: string, ttl?: number) {\n    return Boolean(await this.client.set(key, value, { EX: ttl }));\n  }\n}\n";
  const cache = (params: string, ttl: string) =>
    `import { createClient } from 'redis';\nimport RedisMethods from './methods';\nconst methods = new RedisMethods(createClient());\nexport async function store(id: string, data: string${params}) {\n  return methods.setString(\`user:\${id}\`, data, ${ttl});\n}\n`;
  const RULES = { 'set-requires-ttl-or-keepttl': undefined, 'valid-ttl-args': undefined };
  const lint = (params: string, ttl: string, target: string) => lintApplication(roots, { 'src/methods.ts': METHODS, 'src/cache.ts': cache(params, ttl) }, target, RULES, []);
  it('an arm of undefined, an optional chain, an untested optional parameter: SET without expiry at the caller, and the wrapper keeps its remark', () => {
    for (const [params, ttl] of [['', 'id ? 300 : undefined'], [', opts?: { ttl: number }', 'opts?.ttl'], [', ttl?: number', 'ttl']]) {
      expect(lint(params!, ttl!, 'src/cache.ts')).toEqual([['set-requires-ttl-or-keepttl', 'setWithoutTtl', 5, 18]]);
      expect(lint(params!, ttl!, 'src/methods.ts')).toEqual([['valid-ttl-args', 'mayBeUndefined', 5, 60]]);
    }
  });
  it('a value on every path (a number, a tested optional, a default): not reported', () => {
    for (const [params, ttl] of [['', '300'], [', ttl?: number', 'ttl ?? 60'], [', ttl = 60', 'ttl']]) {
      expect(lint(params!, ttl!, 'src/cache.ts')).toEqual([]);
      expect(lint(params!, ttl!, 'src/methods.ts')).toEqual([]);
    }
  });
});

describe('a member a middleware stores a client in: a test storing another client there', () => {
  const REDIS = "import { createClient } from 'redis';\nexport async function getRedisClient() {\n  const client = createClient();\n  await client.connect();\n  return client;\n}\n";
  const MIDDLEWARE = "import { getRedisClient } from './redis';\nexport async function attach(req: any, _res: any, next: () => void) {\n  req.redisClient = await getRedisClient();\n  next();\n}\n";
  const HANDLER = "export async function save(req: any, res: any) {\n  await req.redisClient.set(`session:${req.params.id}`, 'v', 'EX', 60);\n  res.end();\n}\n";
  const SPEC = "import Redis from 'ioredis';\nimport { save } from './handler';\nit('saves', async () => {\n  const req: any = { params: { id: '1' } };\n  req.redisClient = new Redis();\n  await save(req, { end() {} });\n});\n";
  const PACKAGE = '{ "name": "app", "private": true, "dependencies": { "redis": "^4.6.0" }, "devDependencies": { "ioredis": "^5.0.0" } }';
  it('is no application code: node-redis drops the ioredis-style EX, reported', () => {
    const files = { 'src/redis.ts': REDIS, 'src/middleware.ts': MIDDLEWARE, 'src/handler.ts': HANDLER, 'src/handler.test.ts': SPEC };
    expect(lintApplication(roots, files, 'src/handler.ts', { 'valid-ttl-args': undefined }, [], PACKAGE)).toEqual([['valid-ttl-args', 'positionalTokens', 2, 62]]);
  });
});

describe('a sandboxed processor started by a computed path through a renamed Worker class', () => {
  const PROCESSOR = "import Redis from 'ioredis';\nconst redis = new Redis();\nexport default async function handle(job: { id: string }) { await redis.incr(`sent:${job.id}`); }\n";
  const STARTED = '{ "name": "app", "private": true, "scripts": { "start": "node dist/index.js" } }';
  const lintProcessor = (index: string) => lintApplication(roots, { 'src/index.ts': index, 'src/workers/mailer.ts': PROCESSOR }, 'src/workers/mailer.ts', { 'incr-needs-expire-on-create': {} }, [], STARTED);
  it('a namespace (bull.Worker), an import renamed (Worker as Queue) or a require renamed runs the processor: reported', () => {
    const namespace = "import * as bull from 'bullmq';\nimport { join } from 'node:path';\nnew bull.Worker('mail', join(__dirname, 'workers', process.env.JOB!));\n";
    const renamed = "import { Worker as Queue } from 'bullmq';\nimport { join } from 'node:path';\nnew Queue('mail', join(__dirname, 'workers', process.env.JOB!));\n";
    const required = "const { Worker: Queue } = require('bullmq');\nconst { join } = require('node:path');\nnew Queue('mail', join(__dirname, 'workers', process.env.JOB));\n";
    for (const index of [namespace, renamed, required]) expect(lintProcessor(index)).toEqual([['incr-needs-expire-on-create', 'noExpiry', 3, 73]]);
  });
  it('a renamed BullMQ Worker given a processor function starts no file: the processor nobody starts stays unreached', () => {
    expect(lintProcessor("import { Worker as Queue } from 'bullmq';\nnew Queue('mail', async () => undefined);\n")).toEqual([]);
  });
});
