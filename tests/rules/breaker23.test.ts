/**
 * Breaker round 23: readings that left a finding out and hid a real leak, each with the case that
 * broke it.
 */
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { lintApplication, lintSnippet, lintWriteRules } from '../helpers/lint.js';
import { ioredis } from './tester.js';

const roots: string[] = [];
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

/** An application linted by `lintApplication` (tests/helpers/lint.ts), its folder removed after the tests. */
function lintApp(files: Record<string, string>, target: string, rules: Record<string, unknown>, persistentKeys: string[]) {
  return lintApplication(roots, files, target, rules, persistentKeys);
}

const SET = 'set-requires-ttl-or-keepttl';

describe('a key deleted after the write in its own function (deleted-after.ts)', () => {
  it('a DEL of another key of the same shape (a rename) does not end the written key', () => {
    const code = ioredis(`export async function rename(oldId: string, newId: string) {
  const data = await redis.get(\`room:\${oldId}\`);
  await redis.set(\`room:\${newId}\`, data ?? '');
  await redis.del(\`room:\${oldId}\`);
}
`);
    expect(lintWriteRules(code)).toEqual([[SET, 'setWithoutTtl', 5, 15, undefined]]);
  });
  it('nor a DEL of the key variable once it names another key', () => {
    const code = ioredis(`export async function move(id: string, other: string) {
  let key = \`job:\${id}:status\`;
  await redis.set(key, 'running');
  key = \`job:\${other}:status\`;
  await redis.del(key);
}
`);
    expect(lintWriteRules(code)).toEqual([[SET, 'setWithoutTtl', 5, 15, undefined]]);
  });
  it('nor a DEL after a yield: the consumer may stop asking for values', () => {
    const code = ioredis(`export async function* stream(id: string) {
  await redis.set(\`job:\${id}:status\`, 'running');
  yield 1;
  await redis.del(\`job:\${id}:status\`);
}
`);
    expect(lintWriteRules(code)).toEqual([[SET, 'setWithoutTtl', 4, 15, undefined]]);
  });
  it('nor a cleanup function called with another key, or a parameter that shadows its name', () => {
    const cleanup = `async function clearSession(pin: string) {
  await redis.del(\`pin:\${pin}:status\`);
}
`;
    const otherArgument = ioredis(`${cleanup}export function register(io: any) {
  io.on('abort', async (pin: string, previous: string) => {
    await redis.set(\`pin:\${pin}:status\`, 'finished');
    await redis.expire(\`pin:\${pin}:log\`, 60);
    await clearSession(previous);
  });
}
`);
    const shadowed = ioredis(`${cleanup}export function register(io: any, clearSession: (pin: string) => Promise<void>) {
  io.on('abort', async (pin: string) => {
    await redis.set(\`pin:\${pin}:status\`, 'finished');
    await redis.expire(\`pin:\${pin}:log\`, 60);
    await clearSession(pin);
  });
}
`);
    expect(lintWriteRules(otherArgument)).toEqual([[SET, 'setWithoutTtl', 8, 17, undefined]]);
    expect(lintWriteRules(shadowed)).toEqual([[SET, 'setWithoutTtl', 8, 17, undefined]]);
    // the same cleanup called with the written key's own piece still ends it
    expect(lintWriteRules(otherArgument.replace('clearSession(previous)', 'clearSession(pin)'))).toEqual([]);
  });
});

describe('a compensating decrement (reserved-counter.ts)', () => {
  const INCR_ONLY = { 'redis-ttl/incr-needs-expire-on-create': 'error' } as const;
  const findings = (code: string) => lintSnippet(code, INCR_ONLY).map((m) => [m.messageId, m.line, m.column]);
  const reserve = (between: string, header = 'export async function enter(id: string, limit: number)') =>
    ioredis(`${header} {
  const key = \`active:\${id}\`;
  const [[, count]] = (await redis.multi().incr(key).expire(key, 10).exec()) as [[null, number]];
  if (count > limit) {
    ${between}
    await redis.decr(key);
  }
}
`);
  it('the bare correction stays left alone', () => {
    expect(findings(reserve('await redis.get(`wake:${id}`);'))).toEqual([]);
  });
  it('is not one after a blocking command: BLPOP waits as long as any work', () => {
    expect(findings(reserve('await redis.blpop(`wake:${id}`, 30);'))).toEqual([['noExpiry', 8, 17]]);
  });
  it('nor after a for await, nor a yield', () => {
    expect(findings(reserve('for await (const job of jobs) console.log(job);', 'export async function enter(id: string, limit: number, jobs: AsyncIterable<string>)'))).toEqual([
      ['noExpiry', 8, 17],
    ]);
    expect(findings(reserve("yield 'waiting';", 'export async function* enter(id: string, limit: number)'))).toEqual([['noExpiry', 8, 17]]);
  });
  it('nor of a key variable assigned another key in between', () => {
    const code = ioredis(`export async function enter(id: string, other: string, limit: number) {
  let key = \`active:\${id}\`;
  const [[, count]] = (await redis.multi().incr(key).expire(key, 10).exec()) as [[null, number]];
  key = \`active:\${other}\`;
  if (count > limit) await redis.decr(key);
}
`);
    expect(findings(code)).toEqual([['noExpiry', 7, 34]]);
  });
});

describe('a wrapper\'s write judged at its callers (wrapper-callers.ts)', () => {
  /** A kv wrapper whose `set` has an NX arm without EX (line 8, column 14); `extra` goes after `set`. */
  const kv = (extra = '') => `import Redis from 'ioredis';
const r = new Redis();
export const kv = {
  async set(key: string, value: string, opts?: { nx?: boolean; ex?: number }) {
    const serialized = String(value);
    if (opts?.nx && opts?.ex) return r.set(key, serialized, 'EX', opts.ex, 'NX');
    if (opts?.nx) {
      return r.set(key, serialized, 'NX');
    }
    if (opts?.ex) return r.set(key, serialized, 'EX', opts.ex);
    return r.set(key, serialized);
  },
${extra}};
`;
  const seed = "import { kv } from './lib/redis';\nexport async function seed(n: number) {\n  await kv.set('lottery:records:total', String(n), { nx: true });\n}\n";
  const NX_ARM = [SET, 'createWithoutTtl', 8, 16];
  const judge = (files: Record<string, string>) => lintApp({ 'lib/redis.ts': kv(), 'seed.ts': seed, ...files }, 'lib/redis.ts', { [SET]: {} }, ['lottery:records*']);

  it('the persistent caller alone leaves the arm alone', () => {
    expect(judge({})).toEqual([]);
  });
  it('this aliased inside the object (const self = this) calls the arm under a name no walk follows', () => {
    const claimAll = `  async claimAll(ids: string[]) {
    const self = this;
    await Promise.all(ids.map(function (id) { return self.set(\`claim:\${id}\`, '1', { nx: true }); }));
  },
`;
    expect(judge({ 'lib/redis.ts': kv(claimAll) })).toEqual([NX_ARM]);
  });
  it('an options object the caller changes after writing it is not its literal', () => {
    const conditional = "import { kv } from './lib/redis';\nexport async function claim(id: string, once: boolean) {\n  const opts: { nx?: boolean; ex?: number } = {};\n  if (once) opts.nx = true;\n  return kv.set(`claim:${id}`, '1', opts);\n}\n";
    expect(judge({ 'claim.ts': conditional })).toEqual([NX_ARM]);
    const assigned = "import { kv } from './lib/redis';\nexport async function claim(id: string) {\n  const opts = { ex: 60 };\n  Object.assign(opts, { nx: true, ex: undefined });\n  return kv.set(`claim:${id}`, '1', opts);\n}\n";
    expect(judge({ 'claim.ts': assigned })).toEqual([NX_ARM]);
    // read only: the literal decides (its EX keeps the call out of the NX-only arm)
    const readOnly = "import { kv } from './lib/redis';\nexport async function claim(id: string) {\n  const opts = { nx: true, ex: 60 };\n  console.log(opts.ex);\n  return kv.set(`claim:${id}`, '1', opts);\n}\n";
    expect(judge({ 'claim.ts': readOnly })).toEqual([]);
  });
  it('a module importing the wrapper with a template-literal dynamic import is a caller too', () => {
    const dynamic = "export async function claim(id: string) {\n  const { kv } = await import(`./lib/redis`);\n  return kv.set(`claim:${id}`, '1', { nx: true });\n}\n";
    expect(judge({ 'claim.ts': dynamic })).toEqual([NX_ARM]);
  });
});

describe('a defined command\'s KEYS judged at its calls (defined-command-callers.ts)', () => {
  /** A client exported with a command defined from a script (its LPUSH reported at line 5, column 69). */
  const CLIENT = `import Redis from 'ioredis';
export const redis = new Redis();
redis.defineCommand('idempotentEnqueue', {
  numberOfKeys: 2,
  lua: "if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'EX', 60) then redis.call('LPUSH', KEYS[2], ARGV[1]) end return 1",
});
`;
  const LPUSH = ['embedded-lua', 'luaFinding', 5, 69];
  const persistent = "import { redis } from './client';\nexport async function add(q: string, id: string) {\n  return (redis as any).idempotentEnqueue(`idem:${id}`, `queue:${q}:waiting`, id);\n}\n";
  const judge = (files: Record<string, string>, client = CLIENT) => lintApp({ 'client.ts': client, 'queue.ts': persistent, ...files }, 'client.ts', { 'embedded-lua': {} }, ['queue:*']);

  it('every call persistent: left alone', () => {
    expect(judge({})).toEqual([]);
  });
  it('a call through the method bound under another name keeps the finding', () => {
    const bound = "import { redis } from './client';\nconst enqueue = (redis as any).idempotentEnqueue.bind(redis);\nexport async function tmp(id: string) {\n  return enqueue(`idem:${id}`, `tmp:${id}`, id);\n}\n";
    expect(judge({ 'tmp.ts': bound })).toEqual([LPUSH]);
  });
  it('a call by a name held in a constant of another module keeps the finding', () => {
    const names = "export const ENQUEUE = 'idempotentEnqueue';\n";
    const computed = "import { redis } from './client';\nimport { ENQUEUE } from './names';\nexport async function tmp(id: string) {\n  return (redis as any)[ENQUEUE](`idem:${id}`, `tmp:${id}`, id);\n}\n";
    expect(judge({ 'names.ts': names, 'tmp.ts': computed })).toEqual([LPUSH]);
  });
  it('a persistent call in the defining file does not stand for the calls elsewhere', () => {
    const seeded = `${CLIENT}export async function seed() {\n  return (redis as any).idempotentEnqueue('idem:seed', 'queue:seed:waiting', 'x');\n}\n`;
    const runtime = "import { redis } from './client';\nexport async function tmp(id: string) {\n  return (redis as any).idempotentEnqueue(`idem:${id}`, `tmp:${id}`, id);\n}\n";
    expect(judge({ 'tmp.ts': runtime }, seeded)).toEqual([LPUSH]);
    expect(judge({}, seeded)).toEqual([]);
  });
});

describe('a method returning only literals that something else replaces (overridden-methods.ts)', () => {
  const POOLS = ioredis("export class Pools {\n  tier(n: number) { return n > 5 ? 'big' : 'small'; }\n  add(id: string, n: number) { return redis.sadd(`pool:${this.tier(n)}`, id); }\n}\n");
  const FINDING = ['incr-needs-expire-on-create', 'noExpiry', 5, 45];
  const judge = (files: Record<string, string>, pools = POOLS) =>
    lintApp({ 'src/pools.ts': pools, ...files }, 'src/pools.ts', { 'incr-needs-expire-on-create': {} }, []);
  const subclass = (head: string, base: string) => `${head}\nexport class UserPools extends ${base} {\n  tier(n: number) { return String(n); }\n}\nnew UserPools().add('a', 1);\n`;

  it('a subclass that does not declare it leaves the key bounded', () => {
    expect(judge({ 'src/user-pools.ts': "import { Pools } from './pools';\nexport class UserPools extends Pools {\n  size() { return 1; }\n}\nnew UserPools().add('a', 1);\n" })).toEqual([]);
  });
  it('a subclass of an importer reaching the class under a barrel\'s new name, a namespace, a mixin or an alias', () => {
    expect(judge({ 'src/index.ts': "export { Pools as BasePools } from './pools';\n", 'src/user-pools.ts': subclass("import { BasePools } from './index';", 'BasePools') })).toEqual([FINDING]);
    expect(judge({ 'src/user-pools.ts': subclass("import * as p from './pools';", 'p.Pools') })).toEqual([FINDING]);
    expect(
      judge({ 'src/user-pools.ts': subclass("import { Pools } from './pools';\nconst Logged = <T extends new (...a: any[]) => object>(B: T) => class extends B {};", 'Logged(Pools)') }),
    ).toEqual([FINDING]);
    expect(judge({ 'src/user-pools.ts': subclass("import { Pools } from './pools';\nconst Base = Pools;", 'Base') })).toEqual([FINDING]);
  });
  it('the member replaced on the prototype or an instance of an importer', () => {
    expect(judge({ 'src/user-pools.ts': "import { Pools } from './pools';\nPools.prototype.tier = function (n: number) { return String(n); };\nnew Pools().add('a', 1);\n" })).toEqual([FINDING]);
    expect(judge({ 'src/user-pools.ts': "import { Pools } from './pools';\nObject.assign(Pools.prototype, { tier: (n: number) => String(n) });\nnew Pools().add('a', 1);\n" })).toEqual([FINDING]);
    expect(judge({ 'src/user-pools.ts': "import { Pools } from './pools';\nconst p = new Pools();\np.tier = (n: number) => String(n);\np.add('a', 1);\n" })).toEqual([FINDING]);
  });
  it('the member replaced by the constructor with a strategy it is given', () => {
    const strategy = ioredis(
      "export class Pools {\n  constructor(tier?: (n: number) => string) { if (tier) this.tier = tier; }\n  tier(n: number) { return n > 5 ? 'big' : 'small'; }\n  add(id: string, n: number) { return redis.sadd(`pool:${this.tier(n)}`, id); }\n}\n",
    );
    expect(judge({}, strategy)).toEqual([['incr-needs-expire-on-create', 'noExpiry', 6, 45]]);
  });
});
