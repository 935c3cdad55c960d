/**
 * `embedded-lua` with `allowUncalledCode` (on in `recommended`): a script whose only sending calls
 * are in code nothing runs (an exported function no importer names, a module no entry point
 * reaches: `redis-calls/uncalled.ts`) sends nothing, and is not analyzed.
 *
 * Stays reported: the function called by an importer; a module an entry point imports; a script
 * held in a constant that a live call sends too (reported once, at the script); the strict config.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import tsParser from '@typescript-eslint/parser';
import { Linter } from 'eslint';
import { afterAll, describe, expect, it } from 'vitest';
import plugin from '../../rules/index.js';

const QUEUE = [
  "import Redis from 'ioredis';",
  'const redis = new Redis();',
  'const SUBMIT = `',
  "redis.call('SET', KEYS[1], ARGV[1])",
  'return 1',
  '`;',
  'export async function submit(id: string) {',
  '  return redis.eval(SUBMIT, 1, `job:${id}`, id);',
  '}',
  'export function ping() {',
  '  return redis.ping();',
  '}',
  '',
].join('\n');

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** An application (`"private": true`, started by `node dist/server.js`) in a fresh directory, with `files`. */
function app(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'embedded-lua-uncalled-'));
  dirs.push(dir);
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'app', private: true, main: 'dist/server.js', scripts: { start: 'node dist/server.js' } }));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

function lines(dir: string, file: string, options: Record<string, unknown> = {}) {
  const filename = join(dir, file);
  const linter = new Linter({ configType: 'flat', cwd: dir });
  const config = [{ files: ['**/*.ts'], languageOptions: { parser: tsParser }, plugins: { 'redis-ttl': plugin }, rules: { 'redis-ttl/embedded-lua': ['error', options] } as Linter.RulesRecord }];
  return linter.verify(readFileSync(filename, 'utf8'), config, { filename }).map((m) => [m.line, m.column, m.messageId]);
}

describe('embedded-lua: a script sent only from code nothing runs', () => {
  it('an exported function no importer names sends nothing', () => {
    const server = "import { ping } from './src/queue';\nping();\n";
    expect(lines(app({ 'src/queue.ts': QUEUE, 'server.ts': server }), 'src/queue.ts')).toEqual([]);
    // near misses: called by an importer; the strict reading (allowUncalledCode: false)
    const called = "import { ping, submit } from './src/queue';\nping();\nsubmit('a');\n";
    expect(lines(app({ 'src/queue.ts': QUEUE, 'server.ts': called }), 'src/queue.ts')).toEqual([[4, 1, 'luaFinding']]);
    expect(lines(app({ 'src/queue.ts': QUEUE, 'server.ts': server }), 'src/queue.ts', { allowUncalledCode: false })).toEqual([[4, 1, 'luaFinding']]);
  });

  it('a module no entry point reaches sends nothing', () => {
    const server = "import { start } from './src/worker';\nstart();\n";
    const worker = 'export function start() {\n  return 1;\n}\n';
    const queue = QUEUE.replace('export async function submit', 'async function submit').replace('export function ping() {', 'export function ping() {\n  void submit;');
    expect(lines(app({ 'src/legacy/queue.ts': queue, 'src/worker.ts': worker, 'server.ts': server }), 'src/legacy/queue.ts')).toEqual([]);
    // near miss: the entry point imports it
    const reached = "import { start } from './src/worker';\nimport { ping } from './src/legacy/queue';\nstart();\nping();\n";
    expect(lines(app({ 'src/legacy/queue.ts': queue, 'src/worker.ts': worker, 'server.ts': reached }), 'src/legacy/queue.ts')).toEqual([[4, 1, 'luaFinding']]);
  });

  it('a script a live call sends too is reported once', () => {
    const shared = QUEUE.replace('export function ping() {\n  return redis.ping();', 'export function ping() {\n  return redis.eval(SUBMIT, 1, `job:x`, 1);');
    const server = "import { ping } from './src/queue';\nping();\n";
    expect(lines(app({ 'src/queue.ts': shared, 'server.ts': server }), 'src/queue.ts')).toEqual([[4, 1, 'luaFinding']]);
  });
});
