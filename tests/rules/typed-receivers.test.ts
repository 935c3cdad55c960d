/**
 * With type information, a receiver the code settles (a client made from or annotated with a
 * client package, `typeof client`, `ReturnType<typeof createClient>`, a member of a client, a
 * parameter object's annotated member) is not asked of the type checker, whose first question
 * about a node-redis 5 client type costs seconds (issue 25, item 7; timed in
 * bench/eslint/typed-file.ts, not here). The test counts the checker's questions about receivers
 * through a parser that wraps the program's checker, and checks the findings stay the same.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import tsParser from '@typescript-eslint/parser';
import { Linter } from 'eslint';
import { describe, expect, it } from 'vitest';
import plugin from '../../rules/index.js';

const fixturesDir = join(dirname(fileURLToPath(import.meta.url)), 'fixtures');

/** The source texts the checker was asked the type of, during one lint. */
let asked: string[] = [];

/** @typescript-eslint/parser, with the program's checker counting `getTypeAtLocation`. */
const countingParser = {
  meta: { name: 'counting-parser' },
  parseForESLint(code: string, options: object) {
    const result = tsParser.parseForESLint(code, options as never);
    const program = result.services.program;
    if (program) {
      const getTypeChecker = program.getTypeChecker.bind(program);
      program.getTypeChecker = () => {
        const checker = getTypeChecker();
        return new Proxy(checker, {
          get(target, key, receiver) {
            if (key === 'getTypeAtLocation') {
              return (node: { getText(): string }) => {
                asked.push(node.getText());
                return target.getTypeAtLocation(node as never);
              };
            }
            return Reflect.get(target, key, receiver) as unknown;
          },
        });
      };
    }
    return result;
  },
};

function lint(code: string): { findings: string[]; asked: string[] } {
  asked = [];
  const linter = new Linter({ configType: 'flat' });
  const messages = linter.verify(
    code,
    [
      {
        files: ['**/*.ts'],
        languageOptions: { parser: countingParser, parserOptions: { projectService: { allowDefaultProject: ['*.ts'] }, tsconfigRootDir: fixturesDir } },
        plugins: { 'redis-ttl': plugin },
        rules: plugin.configs.recommended.rules,
      },
    ],
    { filename: join(fixturesDir, 'typed-receivers.ts') },
  );
  const fatal = messages.find((m) => m.fatal);
  if (fatal) throw new Error(fatal.message);
  return { findings: messages.map((m) => `${m.ruleId}@${m.line}`), asked };
}

describe('typed receivers the code settles are not asked of the checker', () => {
  const cases: Array<{ name: string; code: string; findings: string[] }> = [
    {
      name: 'a node-redis 5 client made with scripts options, used through typeof, ReturnType and members',
      code: [
        "import { createClient, defineScript, type RedisClientType } from 'redis';",
        "const scripts = { hit: defineScript({ NUMBER_OF_KEYS: 1, SCRIPT: 'return 1', parseCommand(parser, key: string) { parser.pushKey(key); }, transformReply: (r: unknown) => r as number }) };",
        'const client = createClient({ scripts });',
        'type Conn = ReturnType<typeof createClient>;',
        'export class Store {',
        '  constructor(private readonly redis: typeof client) {}',
        '  save(id: string) { return this.redis.set(`s:${id}`, "v"); }',
        '}',
        'export const viaReturnType = (c: Conn, id: string) => c.lPush(`l:${id}`, "v");',
        'export const viaAnnotation = (c: RedisClientType, id: string) => c.sAdd(`m:${id}`, "v");',
        'export const viaObject = (o: { redis: typeof client }, id: string) => o.redis.hSet(`h:${id}`, "f", "v");',
        'export const viaModule = (id: string) => client.json.set(`d:${id}`, "$", 1);',
      ].join('\n'),
      findings: [
        'redis-ttl/set-requires-ttl-or-keepttl@7',
        'redis-ttl/incr-needs-expire-on-create@9',
        'redis-ttl/incr-needs-expire-on-create@10',
        'redis-ttl/incr-needs-expire-on-create@11',
        // JSON.SET at the root creates the document without TTL (issue 28)
        'redis-ttl/incr-needs-expire-on-create@12',
      ],
    },
    {
      name: 'an ioredis client and a Map named like one',
      code: "import Redis from 'ioredis';\nconst redis = new Redis();\nconst redisTimers = new Map<string, number>();\nexport const f = (id: string) => { redisTimers.set(id, 1); return redis.set(`s:${id}`, 'v'); };",
      findings: ['redis-ttl/set-requires-ttl-or-keepttl@4'],
    },
  ];
  for (const { name, code, findings } of cases) {
    it(name, () => {
      const result = lint(code);
      expect(result.findings).toEqual(findings);
      expect(result.asked).toEqual([]);
    });
  }

  it('asks the checker what the code does not settle (a value of a package that is no client package)', () => {
    const result = lint("import { kv } from 'some-kv-package';\nexport const f = (id: string) => kv.set(`s:${id}`, 'v');");
    expect(result.asked).toEqual(['kv']);
    expect(result.findings).toEqual([]);
  });
});
