/**
 * A TTL divided by a constant is whole when what is divided is a multiple of it (issue 25): a class
 * member that only the constructor (or its field initialiser) assigns, each time to such a
 * multiple (`this.ttlMs = seconds * 1000`, then `this.ttlMs / 1000`), a `const` of one, `minutes *
 * 60000`, a conditional whose numeric arms are. A division of anything else stays reported as
 * possibly fractional (Redis rejects a fraction): a parameter, a member another method or a
 * callback assigns, a member that is a constructor parameter property, a factor that is no
 * multiple (`seconds * 1500`).
 */
import rule from '../../rules/expire-needs-positive-ttl.js';
import { ioredis, nodeRedis, runRule, typedTester, untypedTester } from './tester.js';

/** A class holding a node-redis client whose constructor is `ctor` and whose `save` sends `call`. */
const cache = (members: string, ctor: string, call: string): string =>
  nodeRedis(`export class Cache {\n${members}\n  constructor(seconds: number, ms: number) {\n${ctor}\n  }\n  async save(key: string, v: string) {\n    ${call}\n  }\n}`);

/** The finding on `text` in `code` (line 9 of {@link cache}), with its clamp suggestion. */
function fractional(code: string, text: string) {
  const line = code.split('\n').findIndex((l) => l.includes(text)) + 1;
  const column = code.split('\n')[line - 1]!.indexOf(text) + 1;
  return {
    code,
    errors: [{ messageId: 'computed' as const, line, column, suggestions: [{ messageId: 'clampToOne' as const, output: code.replace(text, `Math.max(1, Math.ceil(${text}))`) }] }],
  };
}

for (const tester of [untypedTester, typedTester]) {
  runRule(tester, 'expire-needs-positive-ttl (a division of a multiple)', rule, {
    valid: [
      cache('  private readonly ttlMs: number;', '    this.ttlMs = seconds * 1000;', 'await client.set(key, v, { EX: this.ttlMs / 1000 });'),
      // the 'never' arm is tested before the division
      cache(
        "  private readonly expiresTTL: number | 'never';",
        "    this.expiresTTL = seconds < 0 ? 'never' : seconds * 1000;",
        "if (this.expiresTTL !== 'never') await client.expire(key, this.expiresTTL / 1000);",
      ),
      cache('  #ttlMs: number;', '    this.#ttlMs = (seconds + 5) * 60_000;', 'await client.expire(key, this.#ttlMs / 60_000);'),
      cache('  private ttlMs = 5 * 60_000;', '', 'await client.expire(key, this.ttlMs / 1000);'),
      cache('  private readonly ttlMs: number;', '    const MINUTE_MS = 60_000;\n    this.ttlMs = seconds * MINUTE_MS;', 'await client.expire(key, this.ttlMs / 1000);'),
      ioredis("const DAY_MS = 86_400_000;\nconst WEEK_MS = 7 * DAY_MS;\nexport const keep = (key: string) => redis.expire(key, WEEK_MS / 1000);"),
      ioredis("export const keep = (key: string, minutes: number) => redis.expire(key, (minutes * 60_000) / 1000);"),
      // JavaScript: a member the constructor alone assigns
      ioredis('class Store {\n  constructor(opts) {\n    this.ttl = opts.ttlSeconds * 1000;\n  }\n  touch(key) {\n    return redis.pexpire(key, this.ttl);\n  }\n  save(key, v) {\n    return redis.set(key, v, "EX", this.ttl / 1000);\n  }\n}'),
    ],
    invalid: [
      fractional(cache('  private ttlMs: number;', '    this.ttlMs = seconds * 1000;', 'await client.expire(key, this.ttlMs / 1000);').replace('  async save', '  configure(ms: number) {\n    this.ttlMs = ms;\n  }\n  async save'), 'this.ttlMs / 1000'),
      fractional(cache('  private readonly ttlMs: number;', '    this.ttlMs = ms;', 'await client.expire(key, this.ttlMs / 1000);'), 'this.ttlMs / 1000'),
      fractional(cache('  private readonly ttlMs: number;', '    this.ttlMs = seconds * 1500;', 'await client.expire(key, this.ttlMs / 1000);'), 'this.ttlMs / 1000'),
      fractional(cache('  private ttlMs: number;', '    this.ttlMs = seconds * 1000;\n    process.on("SIGHUP", () => { this.ttlMs = ms; });', 'await client.expire(key, this.ttlMs / 1000);'), 'this.ttlMs / 1000'),
      fractional(cache('', '', 'await client.expire(key, ms / 1000);'), 'ms / 1000'),
      fractional(
        nodeRedis('export class Cache {\n  constructor(private readonly ttlMs: number) {\n    this.ttlMs = ttlMs * 1000;\n  }\n  save(key: string) {\n    return client.expire(key, this.ttlMs / 1000);\n  }\n}'),
        'this.ttlMs / 1000',
      ),
    ],
  });
}
