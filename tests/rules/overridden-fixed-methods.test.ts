/**
 * A method that returns only literals is one of a few values only when no subclass overrides it
 * (round 23): `this.tier(n)` in `Pools` runs `UserPools.tier` on a `UserPools`, so
 * `` `pool:${this.tier(n)}` `` is then the subclass's key, unknown. Overridden in the file (also
 * through an intermediate class, also a static method), or by a class of a module importing it:
 * still reported. Not overridden (a subclass that does not declare the name, a `private` method,
 * a subclass's static of the name): bounded, as before. The project tests call `add`, so an
 * application's uncalled method (`allowUncalledCode`) does not hide the verdict.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import tsParser from '@typescript-eslint/parser';
import { Linter } from 'eslint';
import { afterAll, describe, expect, it } from 'vitest';
import plugin from '../../rules/index.js';
import { writeProject } from '../helpers/lint.js';
import incrRule from '../../rules/incr-needs-expire-on-create.js';
import { ioredis, runRule, typedTester, untypedTester } from './tester.js';

const POOLS = "export class Pools {\n  tier(n: number) { return n > 5 ? 'big' : 'small'; }\n  add(id: string, n: number) { return redis.sadd(`pool:${this.tier(n)}`, id); }\n}\n";

const bounded = [
  // a subclass that does not declare the name
  ioredis(`${POOLS}export class UserPools extends Pools {\n  other() { return 'x'; }\n}`),
  // a private method cannot be overridden (TypeScript rejects it)
  ioredis(
    "export class Pools {\n  private tier(n: number) { return n > 5 ? 'big' : 'small'; }\n  add(id: string, n: number) { return redis.sadd(`pool:${this.tier(n)}`, id); }\n}\nexport class Other extends Pools {\n  run() { return 1; }\n}",
  ),
  // a subclass's static member of the name does not override an instance method
  ioredis(`${POOLS}export class UserPools extends Pools {\n  static tier(n: number) { return String(n); }\n}`),
];

const reported = [
  // overridden by a subclass of the file: the instance may run the subclass's
  { code: ioredis(`${POOLS}export class UserPools extends Pools {\n  tier(n: number) { return \`u\${n}\`; }\n}`), line: 5, column: 45 },
  // through an intermediate class of the file
  { code: ioredis(`${POOLS}class Mid extends Pools {}\nexport class Last extends Mid {\n  tier(n: number) { return String(n); }\n}`), line: 5, column: 45 },
  // one literal (read as a key builder's) overridden: not one key either
  {
    code: ioredis("export class Stats {\n  key() { return 'all'; }\n  bump(id: string) { return redis.sadd(`s:${this.key()}`, id); }\n}\nexport class UserStats extends Stats {\n  key() { return String(Date.now()); }\n}"),
    line: 5,
    column: 35,
  },
  // a static method overridden by a static of a subclass (`this` in a static is the subclass)
  {
    code: ioredis(
      "export class Ranks {\n  static tier(n: number) { return n > 5 ? 'a' : 'b'; }\n  static add(id: string, n: number) { return redis.sadd(`rank:${this.tier(n)}`, id); }\n}\nexport class Scores extends Ranks {\n  static tier(n: number) { return String(n); }\n}",
    ),
    line: 5,
    column: 52,
  },
];

for (const tester of [untypedTester, typedTester]) {
  runRule(tester, 'incr-needs-expire-on-create', incrRule, {
    valid: bounded,
    invalid: reported.map(({ code, line, column }) => ({ code, errors: [{ messageId: 'noExpiry' as const, line, column }] })),
  });
}

const roots: string[] = [];
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

/** [rule, line, column, messageId] of each finding of incr-needs-expire-on-create on `file` of a project made of `files`. */
function lint(files: Record<string, string>, file: string): Array<[string | null, number, number, string | undefined]> {
  const root = writeProject(roots, files);
  const linter = new Linter({ configType: 'flat', cwd: root });
  const config = [
    {
      files: ['**/*.ts'],
      languageOptions: { parser: tsParser },
      plugins: { 'redis-ttl': plugin },
      rules: { 'redis-ttl/incr-needs-expire-on-create': 'error' } as Linter.RulesRecord,
    },
  ];
  return linter.verify(files[file]!, config, { filename: join(root, file) }).map((m) => [m.ruleId, m.line, m.column, m.messageId]);
}

describe('a method overridden by a class of a module that imports it', () => {
  const pools = ioredis(POOLS);
  const app = JSON.stringify({ name: 'app', private: true });

  it('overridden in an importer: reported', () => {
    const files = {
      'package.json': app,
      'src/pools.ts': pools,
      'src/user-pools.ts': "import { Pools } from './pools';\nexport class UserPools extends Pools {\n  tier(n: number) { return String(n); }\n}\nnew UserPools().add('a', 1);\n",
    };
    expect(lint(files, 'src/pools.ts')).toEqual([['redis-ttl/incr-needs-expire-on-create', 5, 45, 'noExpiry']]);
  });

  it('an importer that extends it without declaring the name: bounded', () => {
    const files = {
      'package.json': app,
      'src/pools.ts': pools,
      'src/user-pools.ts': "import { Pools } from './pools';\nexport class UserPools extends Pools {\n  size() { return 1; }\n}\nnew UserPools().add('a', 1);\n",
    };
    expect(lint(files, 'src/pools.ts')).toEqual([]);
  });

  it('an importer declaring the name on a class that extends something else: bounded', () => {
    const files = {
      'package.json': app,
      'src/pools.ts': pools,
      'src/user-pools.ts': "import { Pools } from './pools';\nclass Base {}\nexport class UserPools extends Base {\n  tier(n: number) { return String(n); }\n}\nnew Pools().add('a', 1);\nnew UserPools().tier(1);\n",
    };
    expect(lint(files, 'src/pools.ts')).toEqual([]);
  });
});
