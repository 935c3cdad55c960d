/**
 * A plain SET through a wrapper whose optional TTL argument chooses SETEX or SET, with the key
 * prefixed inside the wrapper (round 37, MtSatou/MTE's rate limiter, from the kind's definition):
 * SET discards the TTL the key had (https://redis.io/docs/latest/commands/set/: "Any previous
 * time to live associated with the key is discarded on successful SET operation"), so a counter
 * created with the window as TTL and then rewritten with `count + 1` by a plain SET never expires.
 * The wrapper's arms (`option-arms.ts`, positional TTL) are read at the caller also when the
 * wrapper hands its key parameter on through a key builder of the code, with a configured prefix,
 * or through a `const` of the wrapper holding one of these (`const prefixedKey =
 * this.addPrefix(key)`), as a pass-through wrapper's key is read (`pass-through.ts`). A literal
 * family written in the wrapper itself (`` const prefixedKey = `app:${key}` ``) is the wrapper's own
 * choice: not read (a key builder's is the builder's, read as pass-through wrappers read it).
 */
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { lintApplication, lintApplicationMessages, lintKeyRules, lintSnippet } from '../helpers/lint.js';

const roots: string[] = [];
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

const ENV = "export default { Redis: { KeyPrefix: process.env.REDIS_PREFIX ?? 'mte:' } };\n";
/** MTE's RedisClient: `set(key, value, ttl?)` sends SETEX when a TTL is given, else SET, of the prefixed key. */
const WRAPPER = [
  "import { createClient } from 'redis';",
  "import EnvVars from './env';",
  'class RedisClient {',
  '  private client = createClient();',
  '  private getClient() { return this.client; }',
  '  private addPrefix(key: string): string { return `${EnvVars.Redis.KeyPrefix}${key}`; }',
  '  public async set(key: string, value: string, ttl?: number): Promise<void> {',
  '    const client = this.getClient();',
  '    const prefixedKey = this.addPrefix(key);',
  '    if (ttl) {',
  '      await client.setEx(prefixedKey, ttl, value);',
  '    } else {',
  '      await client.set(prefixedKey, value);',
  '    }',
  '  }',
  '  public async get(key: string): Promise<string | null> {',
  '    return this.getClient().get(this.addPrefix(key));',
  '  }',
  '}',
  'export default new RedisClient();',
  '',
].join('\n');

/** A fixed-window limiter: GET, then SET with the window on the first hit, plain SET of count + 1 after. */
const LIMITER = [
  "import redisClient from './redis';",
  'export async function setRateLimit(identifier: string, limit: number, windowSeconds: number): Promise<boolean> {',
  '  const key = `rate_limit:${identifier}`;',
  '  const current = await redisClient.get(key);',
  '  if (!current) {',
  "    await redisClient.set(key, '1', windowSeconds);",
  '    return true;',
  '  }',
  '  const count = parseInt(current);',
  '  if (count >= limit) return false;',
  '  await redisClient.set(key, String(count + 1));',
  '  return true;',
  '}',
  '',
].join('\n');

const PACKAGE = '{ "name": "app", "private": true, "dependencies": { "redis": "^4.6.0" } }';
const RULES = { 'set-requires-ttl-or-keepttl': undefined, 'incr-needs-expire-on-create': undefined };
const lint = (wrapper: string, caller: string, target = 'src/limiter.ts') =>
  lintApplication(roots, { 'src/env.ts': ENV, 'src/redis.ts': wrapper, 'src/limiter.ts': caller }, target, RULES, [], PACKAGE);

describe('a plain SET through a TTL-arms wrapper that prefixes its key', () => {
  it("the counter's count + 1 written without the TTL argument: reported at the caller, the message naming the write that gave the TTL", () => {
    expect(lint(WRAPPER, LIMITER)).toEqual([['set-requires-ttl-or-keepttl', 'setClearsTtl', 11, 21]]);
    const [message] = lintApplicationMessages(roots, { 'src/env.ts': ENV, 'src/redis.ts': WRAPPER, 'src/limiter.ts': LIMITER }, 'src/limiter.ts', RULES, [], PACKAGE);
    expect(message?.message).toMatch(/^SET of `rate_limit:\*` without EX\/PX\/EXAT\/PXAT or KEEPTTL discards the TTL line 6 gives the key: .*KEEPTTL XX.*INCR/);
    expect(message!.message.length).toBeLessThanOrEqual(300);
  });
  it('the key handed on as it is through a const, or given to the builder in the call: read the same', () => {
    const alias = WRAPPER.replace('const prefixedKey = this.addPrefix(key);', 'const prefixedKey = key;');
    const inline = WRAPPER.replace('const prefixedKey = this.addPrefix(key);\n', '').replace(/\(prefixedKey,/g, '(this.addPrefix(key),');
    for (const wrapper of [alias, inline]) expect(lint(wrapper, LIMITER)).toEqual([['set-requires-ttl-or-keepttl', 'setClearsTtl', 11, 21]]);
  });
  it('every write given the TTL (also the rewrite): not reported', () => {
    const withTtl = LIMITER.replace('String(count + 1));', 'String(count + 1), windowSeconds);');
    expect(lint(WRAPPER, withTtl)).toEqual([]);
  });
  it("near miss: a literal family the wrapper writes (`app:${key}`) is its own choice, not read at the caller; the wrapper's own file has no finding", () => {
    const family = WRAPPER.replace('const prefixedKey = this.addPrefix(key);', 'const prefixedKey = `app:${key}`;');
    expect(lint(family, LIMITER)).toEqual([]);
    expect(lint(WRAPPER, LIMITER, 'src/redis.ts')).toEqual([]);
  });
  it('near miss: another key written without TTL through the same wrapper stays reported', () => {
    const other = LIMITER.replace('await redisClient.set(key, String(count + 1));', 'await redisClient.set(`last_hit:${identifier}`, String(Date.now()));');
    expect(lint(WRAPPER, other)).toEqual([['set-requires-ttl-or-keepttl', 'setWithoutTtl', 11, 21]]);
  });
});


/** The same counter on the client itself (ioredis): GET, SET with the window on the first hit, SET of count + 1. */
const direct = (first: string, rewrite = 'await redis.set(key, String(count + 1));') =>
  `import Redis from 'ioredis';\nconst redis = new Redis();\nexport async function hit(id: string, limit: number, windowSeconds: number) {\n  const key = \`rate_limit:\${id}\`;\n  const current = await redis.get(key);\n  if (!current) {\n    ${first}\n    return true;\n  }\n  const count = parseInt(current);\n  if (count >= limit) return false;\n  ${rewrite}\n  return true;\n}\n`;

describe('a plain SET of a key its function gives a TTL on another path', () => {
  it('SET ... EX, SETEX or SET then EXPIRE on the first hit, plain SET of count + 1 after: setClearsTtl at the rewrite', () => {
    for (const first of ["await redis.set(key, '1', 'EX', windowSeconds);", "await redis.setex(key, windowSeconds, '1');", "await redis.multi().set(key, '1').expire(key, windowSeconds).exec();"]) {
      expect(lintKeyRules(direct(first))).toEqual([['redis-ttl/set-requires-ttl-or-keepttl', 'setClearsTtl', 12, 15]]);
    }
  });
  it('suggests an expiry first, then KEEPTTL XX (not KEEPTTL alone, which recreates an expired counter without TTL)', () => {
    const code = direct("await redis.set(key, '1', 'EX', windowSeconds);");
    const [message, ...rest] = lintSnippet(code, { 'redis-ttl/set-requires-ttl-or-keepttl': 'error' });
    expect(rest).toEqual([]);
    expect([message?.messageId, message?.line, message?.column]).toEqual(['setClearsTtl', 12, 15]);
    expect(message?.message).toMatch(/^SET of `rate_limit:\*` without EX\/PX\/EXAT\/PXAT or KEEPTTL discards the TTL line 7 gives the key/);
    const suggestions = (message?.suggestions ?? []).map((s) => s.messageId);
    expect(suggestions.at(-1)).toBe('addKeepTtlXx');
    expect(suggestions).not.toContain('addKeepTtl');
    const keep = message?.suggestions?.at(-1)?.fix;
    expect(keep && code.slice(0, keep.range[0]) + keep.text + code.slice(keep.range[1])).toContain("await redis.set(key, String(count + 1), 'KEEPTTL', 'XX');");
  });
  it('near miss: the rewrite keeps the TTL (KEEPTTL, INCR) or passes one: no SET finding (an INCR after the GET is incr-needs-expire-on-create\'s stale read)', () => {
    const first = "await redis.set(key, '1', 'EX', windowSeconds);";
    for (const rewrite of ["await redis.set(key, String(count + 1), 'KEEPTTL');", "await redis.set(key, String(count + 1), 'EX', windowSeconds);"]) {
      expect(lintKeyRules(direct(first, rewrite))).toEqual([]);
    }
    expect(lintKeyRules(direct(first, 'await redis.incr(key);'))).toEqual([['redis-ttl/incr-needs-expire-on-create', 'staleExists', 12, 15]]);
  });
  it('near miss: the expiring write chosen by the caller\'s arguments only (if (ttl) ... return), not by a reply: the plain message', () => {
    const code = "import Redis from 'ioredis';\nconst redis = new Redis();\nexport async function put(key: string, v: string, ttl?: number) {\n  if (ttl) {\n    await redis.set(key, v, 'EX', ttl);\n    return;\n  }\n  await redis.set(key, v);\n}\n";
    // (recommended leaves such an optional-TTL wrapper to its callers: allowOptionalTtl off to see the write)
    expect(lintKeyRules(code, { allowOptionalTtl: false })).toEqual([['redis-ttl/set-requires-ttl-or-keepttl', 'setWithoutTtl', 8, 15]]);
    // the same shape chosen by a GET's reply keeps setClearsTtl
    expect(lintKeyRules(code.replace('  if (ttl) {', '  const current = await redis.get(key);\n  if (!current) {'))).toEqual([['redis-ttl/set-requires-ttl-or-keepttl', 'setClearsTtl', 9, 15]]);
  });
  it('near miss: another key given the TTL, or no TTL anywhere in the function: the plain message', () => {
    expect(lintKeyRules(direct("await redis.set(`window:${id}`, '1', 'EX', windowSeconds);"))).toEqual([['redis-ttl/set-requires-ttl-or-keepttl', 'setWithoutTtl', 12, 15]]);
    expect(lintKeyRules(direct("await redis.set(key, '1');"))).toEqual([
      ['redis-ttl/set-requires-ttl-or-keepttl', 'setWithoutTtl', 7, 17],
      ['redis-ttl/set-requires-ttl-or-keepttl', 'setWithoutTtl', 12, 15],
    ]);
  });
  it('near miss: the TTL given in another function, or after the write on its path (a separate round trip): not this message', () => {
    const other = direct("await redis.set(key, '1');").replace('export async function hit', "export async function open(id: string) {\n  await redis.set(`rate_limit:${id}`, '0', 'EX', 60);\n}\nexport async function hit");
    expect(lintKeyRules(other).map((f) => f[1])).not.toContain('setClearsTtl');
    const after = direct("await redis.set(key, '1', 'EX', windowSeconds);", 'await redis.set(key, String(count + 1));\n  await redis.expire(key, windowSeconds);');
    expect(lintKeyRules(after)).toEqual([['redis-ttl/set-requires-ttl-or-keepttl', 'setThenExpire', 12, 15]]);
  });
});
