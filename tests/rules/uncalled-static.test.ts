/**
 * A static method nothing calls (redis-calls/uncalled.ts, redis-calls/class-values.ts): a static
 * method is a member of the class object, never of its instances, so an instance handed to a
 * library (`rateLimit({ store: new Counter() })`), which keeps the class's instance methods
 * reported, cannot reach it; only the class itself written as a value can. `recommended` leaves
 * the write of a static method whose name nothing else writes out, when the class is written
 * elsewhere only as `new Counter()`, `Counter.member`, a type, or in an import.
 *
 * Stays reported: the static method called by name from another file; the class handed on as a
 * value (an argument, a default export, a superclass); a computed member call on the class; the
 * instance method of the escaped instance; the class imported or exported under another name
 * (`import { Counter as C }`, `export { Counter as default }`); and everything in `strict`. Not
 * read: a namespace import handed on whole (`import * as m; register(m)`).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import tsParser from '@typescript-eslint/parser';
import { Linter } from 'eslint';
import { afterAll, describe, expect, it } from 'vitest';
import plugin from '../../rules/index.js';

const INCR = 'incr-needs-expire-on-create';

const COUNTER = [
  "import Redis from 'ioredis';",
  'const redis = new Redis();',
  'export class Counter {',
  '  async increment(key: string) {',
  '    return redis.incr(`hits:${key}:${Date.now()}`);',
  '  }',
  '  static async bump(key: string) {',
  '    return redis.incr(`bumps:${key}:${Date.now()}`);',
  '  }',
  '}',
  '',
].join('\n');

const INCREMENT: Array<[number, number, string]> = [[5, 18, 'noExpiry']];
const BUMP: Array<[number, number, string]> = [[8, 18, 'noExpiry']];
const BOTH = [...INCREMENT, ...BUMP];

/** The entry point's first lines: it imports the class and hands an instance to a library. */
const SERVER = "import { rateLimit } from 'express-rate-limit';\nimport { Counter } from './src/counter';\nrateLimit({ store: new Counter() });\n";

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** An application (`"private": true`, started by `node dist/server.js`) in a fresh directory: `src/counter.ts` is {@link COUNTER} unless said. */
function app(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'uncalled-static-'));
  dirs.push(dir);
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'app', private: true, scripts: { start: 'node dist/server.js' } }));
  for (const [path, text] of Object.entries({ 'src/counter.ts': COUNTER, ...files })) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

function lines(dir: string, options: Record<string, unknown> = {}, file = 'src/counter.ts') {
  const filename = join(dir, file);
  const linter = new Linter({ configType: 'flat', cwd: dir });
  const config = [{ files: ['**/*.ts', '**/*.tsx'], languageOptions: { parser: tsParser, parserOptions: { ecmaFeatures: { jsx: true } } }, plugins: { 'redis-ttl': plugin }, rules: { [`redis-ttl/${INCR}`]: ['error', options] } as Linter.RulesRecord }];
  return linter.verify(readFileSync(filename, 'utf8'), config, { filename }).map((m) => [m.line, m.column, m.messageId]);
}

describe('a static method nothing calls, of a class whose instances leave the application', () => {
  it('an instance handed to a library carries no static method: only the instance method stays reported', () => {
    expect(lines(app({ 'server.ts': SERVER }))).toEqual(INCREMENT);
    // the class written as a type, a member read and a `new` elsewhere hands nothing on
    const typed = "import { Counter } from './counter';\nlet held: Counter | null = null;\nexport const get = (): Counter => (held ??= new Counter());\nexport const kind = Counter.name;\n";
    expect(lines(app({ 'src/holder.ts': typed, 'server.ts': `${SERVER}import { get } from './src/holder';\nget();\n` }))).toEqual(INCREMENT);
  });

  it('a name written elsewhere only in a comment of a module that does not parse calls nothing', () => {
    const broken = '// Counter disabled during the migration\nexport const x = ;\n';
    expect(lines(app({ 'src/broken.ts': broken, 'server.ts': SERVER }))).toEqual(INCREMENT);
    // near miss: the module that does not parse writes the class in its code
    expect(lines(app({ 'src/broken.ts': 'register(Counter);\nexport const x = ;\n', 'server.ts': SERVER }))).toEqual(BOTH);
  });

  it('stays reported: called by name, or the class itself handed on', () => {
    expect(lines(app({ 'server.ts': `${SERVER}Counter.bump('x');\n` }))).toEqual(BOTH);
    // the class as an argument, a property value, a computed member call, a superclass, a JSX element
    expect(lines(app({ 'server.ts': `${SERVER}register(Counter);\n` }))).toEqual(BOTH);
    expect(lines(app({ 'server.ts': `${SERVER}export const models = { counter: Counter };\n` }))).toEqual(BOTH);
    expect(lines(app({ 'server.ts': `${SERVER}const op = process.argv[2] as 'bump';\nCounter[op]('x');\n` }))).toEqual(BOTH);
    expect(lines(app({ 'server.ts': `${SERVER}export class Shared extends Counter {}\n` }))).toEqual(BOTH);
    expect(lines(app({ 'server.ts': SERVER, 'src/view.tsx': "import { Counter } from './counter';\nexport const View = () => <Counter />;\n" }))).toEqual(BOTH);
    // its own module hands it on as its default export
    expect(lines(app({ 'src/counter.ts': `${COUNTER}export default Counter;\n`, 'server.ts': SERVER }))).toEqual(BOTH);
  });

  it('stays reported: the class handed on under another name (a renamed import or export)', () => {
    // `register(C)` names C, never Counter: the renamed binding counts as the class handed on
    expect(lines(app({ 'server.ts': `${SERVER}import { Counter as C } from './src/counter';\nregister(C);\n` }))).toEqual(BOTH);
    expect(lines(app({ 'src/index.ts': "export { Counter as default } from './counter';\n", 'server.ts': SERVER }))).toEqual(BOTH);
    expect(lines(app({ 'src/index.ts': "export { Counter as Store } from './counter';\n", 'server.ts': SERVER }))).toEqual(BOTH);
    // near miss: a re-export under its own name hands nothing on by itself
    expect(lines(app({ 'src/index.ts': "export { Counter } from './counter';\n", 'server.ts': SERVER }))).toEqual(INCREMENT);
  });

  it('strict (allowUncalledCode: false) reports the static method too', () => {
    expect(lines(app({ 'server.ts': SERVER }), { allowUncalledCode: false })).toEqual(BOTH);
  });
});
