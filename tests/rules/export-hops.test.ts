/**
 * Re-exports between the importing file and the declaration: redis-calls/modules.ts locateExport
 * is the one resolver behind key values (findExport) and clients (ClientDetector.exported), so
 * both follow the same chains the same number of hops (four modules past the one imported).
 * Before it, clients were lost after two `export *` hops (the depth was counted twice per hop).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import tsParser from '@typescript-eslint/parser';
import { Linter } from 'eslint';
import { afterAll, describe, expect, it } from 'vitest';
import plugin from '../../rules/index.js';
import { keyShapes } from '../helpers/key-shapes.js';

const repo = mkdtempSync(join(tmpdir(), 'redis-ttl-export-hops-'));
afterAll(() => rmSync(repo, { recursive: true, force: true }));
function write(path: string, text: string): void {
  mkdirSync(dirname(join(repo, path)), { recursive: true });
  writeFileSync(join(repo, path), text);
}
// a chain of `export *`: star1 -> star2 -> ... -> star5 -> client / keys (starK is 6 - K hops away)
for (let i = 1; i < 5; i++) write(`src/star${i}.ts`, `export * from './star${i + 1}';\n`);
write('src/star5.ts', "export * from './client';\nexport * from './keys';\n");
write('src/client.ts', "import Redis from 'ioredis';\nexport const conn = new Redis();\nconst main = new Redis();\nexport default main;\n");
write('src/keys.ts', "export const LOCK = 'lock:global';\n");
// a chain of renaming re-exports: named0 -> named1 -> named2 -> named3 -> keys / client
write('src/named0.ts', "export { L1 as LOCK_KEY, C1 as store } from './named1';\n");
write('src/named1.ts', "export { L2 as L1, C2 as C1 } from './named2';\n");
write('src/named2.ts', "export { L3 as L2, C3 as C2 } from './named3';\n");
write('src/named3.ts', "export { LOCK as L3 } from './keys';\nexport { default as C3 } from './client';\n");
const app = join(repo, 'src', 'app.ts');

function lint(code: string): Array<[string | undefined, number, number]> {
  const linter = new Linter({ configType: 'flat', cwd: repo });
  const messages = linter.verify(
    code,
    [{ files: ['**/*.ts'], languageOptions: { parser: tsParser }, plugins: { 'redis-ttl': plugin }, rules: { 'redis-ttl/set-requires-ttl-or-keepttl': 'error' } }],
    { filename: app },
  );
  return messages.map((m) => [m.messageId, m.line, m.column]);
}
const save = (from: string) => `import { conn } from '${from}';\nexport async function save(id: string) { await conn.set(\`o:\${id}\`, 'v'); }\n`;

describe('re-export chains', () => {
  it('finds a client two, three and four `export *` hops away', () => {
    expect(lint(save('./star2'))).toEqual([['setWithoutTtl', 2, 53]]);
    expect(lint(save('./star3'))).toEqual([['setWithoutTtl', 2, 53]]);
    expect(lint(save('./star4'))).toEqual([['setWithoutTtl', 2, 53]]);
  });

  it('stops past four hops, for clients and key values alike', () => {
    expect(lint(save('./star1'))).toEqual([]);
    expect(keyShapes("import { LOCK } from './star2';\nprobe(LOCK);", app, repo)).toEqual(['lock:global one']);
    expect(keyShapes("import { LOCK } from './star1';\nprobe(LOCK);", app, repo)).toEqual(['* one']);
  });

  it('follows renaming re-exports down to a const and to a default export', () => {
    expect(keyShapes("import { LOCK_KEY } from './named0';\nprobe(LOCK_KEY);", app, repo)).toEqual(['lock:global one']);
    const code = "import { store } from './named0';\nexport async function save(id: string) { await store.set(`o:${id}`, 'v'); }\n";
    expect(lint(code)).toEqual([['setWithoutTtl', 2, 54]]);
  });
});
