/**
 * Key pieces that range over a finite set known from the code (round 23), bounded like a
 * constant key:
 *
 * - **a property of a parameter whose declared type makes it finite**: `m.type` of `(m:
 *   Message)` where `interface Message { type: MessageType }` and `type MessageType = 'tell' |
 *   'emote'` (Coffee-Nerd/MudVault-Mesh's `message_history:${message.type}`), the interface of the
 *   file, imported relatively, or an object type written in place;
 * - **`x.toString()` of a fixed value**: `NATIVE_MINT.toString()` of an imported binding
 *   (Fenguoz/trading-bot's `${solmint}_price`), as `String(NATIVE_MINT)` is.
 *
 * Limits (still reported): a property typed `string`, a property of a type with an index
 * signature, a property the type does not declare, `toString()` of data (a parameter, a call's
 * result: `v4().toString()`, `Date.now().toString()`).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import tsParser from '@typescript-eslint/parser';
import { Linter } from 'eslint';
import { afterAll, describe, expect, it } from 'vitest';
import plugin from '../../rules/index.js';
import incrRule from '../../rules/incr-needs-expire-on-create.js';
import { ioredis, runRule, typedTester, untypedTester } from './tester.js';

const bounded = [
  // an interface of the file whose property is a union of literals (through an alias)
  ioredis("type Kind = 'tell' | 'emote';\ninterface Message { type: Kind; from: string }\nexport const store = (m: Message) => redis.lpush(`history:${m.type}`, 'x');"),
  // an object type written in place, an enum member type
  ioredis("export const store = (m: { kind: 'a' | 'b' }) => redis.lpush(`k:${m.kind}`, 'x');"),
  ioredis("enum Level { Low, High }\ntype Row = { level: Level };\nexport const store = (r: Row, id: string) => redis.sadd(`lvl:${r.level}`, id);"),
  // the text of an imported binding
  ioredis("import { NATIVE_MINT } from '@solana/spl-token';\nexport const update = async (price: string) => {\n  const mint = NATIVE_MINT.toString();\n  await redis.sadd(`${mint}_price`, price);\n};"),
  // of a const of the module
  ioredis("const REGION = 'eu';\nexport const add = (id: string) => redis.sadd(`r:${REGION.toString()}`, id);"),
];

const reported = [
  // a property typed string: data
  { code: ioredis("interface Message { type: string }\nexport const store = (m: Message) => redis.lpush(`history:${m.type}`, 'x');"), line: 4, column: 44 },
  // another property of the same interface, typed string
  { code: ioredis("type Kind = 'tell' | 'emote';\ninterface Message { type: Kind; from: string }\nexport const store = (m: Message) => redis.lpush(`history:${m.from}`, 'x');"), line: 5, column: 44 },
  // an index signature admits any property
  { code: ioredis("export const store = (m: { [k: string]: 'a' | 'b'; kind: 'a' | 'b' }) => redis.lpush(`k:${m.kind}`, 'x');"), line: 3, column: 80 },
  // a property the type does not declare
  { code: ioredis("interface Message { type: 'a' | 'b' }\nexport const store = (m: Message) => redis.lpush(`history:${(m as any).other}`, 'x');"), line: 4, column: 44 },
  // an interface that extends another: not all its members are here
  { code: ioredis("interface Base { id: string }\ninterface Message extends Base { type: 'a' | 'b' }\nexport const store = (m: Message) => redis.lpush(`history:${m.type}`, 'x');"), line: 5, column: 44 },
  // toString of a call's result, of a parameter, of the clock
  { code: ioredis("import { v4 } from 'uuid';\nexport const add = () => redis.sadd(`${v4().toString()}_price`, '1');"), line: 4, column: 32 },
  { code: ioredis("export const add = (id: number) => redis.sadd(`p:${id.toString()}`, '1');"), line: 3, column: 42 },
  { code: ioredis("export const add = () => redis.sadd(`p:${Date.now().toString()}`, '1');"), line: 3, column: 32 },
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
  const root = mkdtempSync(join(tmpdir(), 'finite-pieces-'));
  roots.push(root);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
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

describe('an interface imported from a module of the application (MudVault-Mesh)', () => {
  const types = "export type MessageType = 'tell' | 'emote';\nexport interface MudVaultMessage { type: MessageType; from: string }\n";
  const app = JSON.stringify({ name: 'app', private: true });
  const gateway = (piece: string): string =>
    ioredis(`import type { MudVaultMessage } from '../types';\nexport const store = (message: MudVaultMessage) => redis.lpush(\`message_history:\${${piece}}\`, 'x');\n`);

  it('its property of a union type: one list per message type', () => {
    expect(lint({ 'package.json': app, 'src/types/index.ts': types, 'src/services/gateway.ts': gateway('message.type') }, 'src/services/gateway.ts')).toEqual([]);
  });

  it('its property typed string: reported', () => {
    expect(lint({ 'package.json': app, 'src/types/index.ts': types, 'src/services/gateway.ts': gateway('message.from') }, 'src/services/gateway.ts')).toEqual([
      ['redis-ttl/incr-needs-expire-on-create', 4, 58, 'noExpiry'],
    ]);
  });
});
