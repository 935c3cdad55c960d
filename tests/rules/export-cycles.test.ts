/**
 * `export *` cycles: a module that re-exports itself, or modules that re-export each other, are
 * searched once per export name (redis-calls/modules.ts findExport for key values,
 * ClientDetector.exported for clients), not once per path through the cycle (30 self re-exports
 * took 17 s for one five-line file; 30 modules re-exporting each other, 133 s: the cost is the
 * breaker's repos, not asserted here). These tests hold what the cut must not lose: what lies
 * behind the cycle is still found, also when a module was first reached too deep to search it (a
 * plain visited set fails the second test).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import tsParser from '@typescript-eslint/parser';
import { Linter } from 'eslint';
import { afterAll, describe, expect, it } from 'vitest';
import plugin from '../../rules/index.js';
import { keyShapes } from '../helpers/key-shapes.js';

const repo = mkdtempSync(join(tmpdir(), 'redis-ttl-export-cycles-'));
afterAll(() => rmSync(repo, { recursive: true, force: true }));
function write(path: string, text: string): void {
  mkdirSync(dirname(join(repo, path)), { recursive: true });
  writeFileSync(join(repo, path), text);
}
const selfCycle = Array.from({ length: 30 }, () => "export * from './hub';").join('\n');
write('src/hub.ts', `${selfCycle}\nexport * from './keys';\nexport * from './client';\n`);
write('src/keys.ts', "export * from './hub';\nexport const LOCK = 'lock:global';\n");
write('src/client.ts', "import Redis from 'ioredis';\nexport * from './hub';\nexport const conn = new Redis();\n");
// ten modules each re-exporting all ten, then the client
for (let i = 0; i < 10; i++) {
  const all = Array.from({ length: 10 }, (_, j) => `export * from './m${j}';`).join('\n');
  write(`src/mesh/m${i}.ts`, `${all}\nexport * from '../client';\n`);
}
const app = join(repo, 'src', 'app.ts');

describe('export * cycles', () => {
  it('finds a key constant behind a module that re-exports itself', () => {
    expect(keyShapes("import { LOCK, MISSING } from './hub';\nprobe(LOCK);\nprobe(MISSING);", app, repo)).toEqual(['lock:global one', '* one']);
  });

  it('finds a client behind modules that re-export each other, and reports its write', () => {
    const code = "import { conn } from './mesh/m0';\nexport async function save(id: string) { await conn.set(`o:${id}`, 'v'); }\n";
    const linter = new Linter({ configType: 'flat', cwd: repo });
    const messages = linter.verify(
      code,
      [{ files: ['**/*.ts'], languageOptions: { parser: tsParser }, plugins: { 'redis-ttl': plugin }, rules: { 'redis-ttl/set-requires-ttl-or-keepttl': 'error' } }],
      { filename: app },
    );
    expect(messages.map((m) => [m.messageId, m.line, m.column])).toEqual([['setWithoutTtl', 2, 53]]);
  });
});
