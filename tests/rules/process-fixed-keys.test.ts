/**
 * Keys fixed by the code's own structure (round 22): a key with no part that varies with the data
 * is one key (or a few), bounded like a constant key.
 *
 * - **A property of the module's configuration**: `config.keyPrefix` of a top-level `const config =
 *   loadConfig()` that the module never writes to: one value for the process's life, so
 *   `` `${prefix}agents` `` is one key per installation (manuelfedele/postino's `po:agents`).
 * - **A call of a function that returns only literals**: `this.getTier(level)` of a `getTier`
 *   whose every `return` is a string or number literal is one of those few values, so
 *   `` `matchmaking:tier:${tier}` `` is one of three keys (SaqibUsman02/NexusArena).
 *
 * Limits (still reported): a top-level value made per process start (`randomUUID()`, itself no
 * property of configuration), a property the module writes (`state.current = id`), a `let`, a
 * `const` inside a function (the data of a call), and a function with one return that is not a
 * literal.
 */
import incrRule from '../../rules/incr-needs-expire-on-create.js';
import { ioredis, nodeRedis, runRule, typedTester, untypedTester } from './tester.js';

const bounded = [
  // postino's shape: a prefix read from the configuration the module loads once
  ioredis(
    "declare function loadConfig(): { keyPrefix: string };\nconst config = loadConfig();\nconst prefix = config.keyPrefix;\nexport const keys = { agents: () => `${prefix}agents` };\nexport const register = (name: string) => redis.sadd(keys.agents(), name);",
  ),
  // read directly, the configuration exported, awaited at the top level
  ioredis("declare function loadConfig(): { prefix: string };\nexport const config = loadConfig();\nexport const push = (e: string) => redis.rpush(`${config.prefix}:events`, e);"),
  nodeRedis("declare function readSettings(): Promise<{ ns: string }>;\nconst settings = await readSettings();\nexport const add = (m: string) => client.sAdd(settings.ns + ':members', m);"),
  // NexusArena's shape: a static method whose every return is a literal
  ioredis(
    "export class Matchmaking {\n  private static getTier(level: number): number {\n    if (level <= 5) return 1;\n    if (level <= 10) return 2;\n    return 3;\n  }\n  static async join(id: string, level: number) {\n    const tier = this.getTier(level);\n    await redis.sadd(`matchmaking:tier:${tier}`, id);\n  }\n}",
  ),
  // an instance method, returning from a loop too
  ioredis(
    "export class Ranks {\n  private rank(score: number) {\n    for (const limit of [10, 100]) if (score < limit) return 'low';\n    return 'high';\n  }\n  add(id: string, score: number) { return redis.sadd(`rank:${this.rank(score)}`, id); }\n}",
  ),
  // a function of the module, an arrow with a conditional of literals
  ioredis("function bucket(n: number) {\n  if (n > 100) return 'big';\n  return 'small';\n}\nexport const add = (id: string, n: number) => redis.sadd(`bucket:${bucket(n)}`, id);"),
  ioredis("const parity = (n: number) => (n % 2 === 0 ? 'even' : 'odd');\nexport const add = (id: string, n: number) => redis.sadd(`parity:${parity(n)}`, id);"),
];

const reported = [
  // one value per process start, not configuration: a key per restart
  { code: ioredis("import { randomUUID } from 'node:crypto';\nconst instance = randomUUID();\nexport const beat = (m: string) => redis.sadd(`workers:${instance}`, m);"), line: 5 },
  // a property the module writes: the data of a call
  { code: ioredis("declare function makeState(): { current: string };\nconst state = makeState();\nexport const use = (id: string) => { state.current = id; };\nexport const add = (m: string) => redis.sadd(`s:${state.current}`, m);"), line: 6 },
  // configuration the module merges into at run time
  { code: ioredis("declare function loadConfig(): { prefix: string };\nconst config = loadConfig();\nexport const use = (o: { prefix: string }) => Object.assign(config, o);\nexport const add = (m: string) => redis.sadd(`${config.prefix}:m`, m);"), line: 6 },
  // a method whose loop returns data: every return counts, not only the last
  { code: ioredis("export class Ranks {\n  private rank(score: number) {\n    if (score < 10) return String(score);\n    return 'high';\n  }\n  add(id: string, score: number) { return redis.sadd(`rank:${this.rank(score)}`, id); }\n}"), line: 8 },
  // a method the class does not declare (inherited): unknown
  { code: ioredis("declare class Base { tier(n: number): string }\nexport class Pools extends Base {\n  add(id: string, n: number) { return redis.sadd(`pool:${this.tier(n)}`, id); }\n}"), line: 5 },
  // a `let` of the module, reassigned
  { code: ioredis("declare function loadConfig(): { prefix: string };\nlet config = loadConfig();\nexport const reload = () => { config = loadConfig(); };\nexport const add = (m: string) => redis.sadd(`${config.prefix}:m`, m);"), line: 6 },
  // a `const` of the function: the request's data
  { code: ioredis("export const add = (req: { body: { room: string } }, m: string) => {\n  const body = req.body;\n  return redis.sadd(`room:${body.room}`, m);\n};"), line: 5 },
  // a function with a return that is no literal
  { code: ioredis("function bucket(n: number) {\n  if (n > 100) return 'big';\n  return String(n);\n}\nexport const add = (id: string, n: number) => redis.sadd(`bucket:${bucket(n)}`, id);"), line: 7 },
];

for (const tester of [untypedTester, typedTester]) {
  runRule(tester, 'incr-needs-expire-on-create', incrRule, {
    valid: bounded,
    invalid: reported.map(({ code, line }) => ({ code, errors: [{ messageId: 'noExpiry' as const, line }] })),
  });
}
