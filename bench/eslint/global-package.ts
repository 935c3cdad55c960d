/**
 * What a global client costs the first file of its package: a receiver taken for a client by its
 * name that no file declares (`redis`, redis-calls/global-clients.ts) gets its library from the
 * other files of its package, so linting one file reads the package. A generated package of `n`
 * modules, a third of which call the global `redis` with `get` / `set(k, v)` (syntax every client
 * runs: no evidence) and one of which calls `redis.lPop(k)` (node-redis), is linted one file at a
 * time with `set-requires-ttl-or-keepttl` (a fresh package folder per round, so no cache answers),
 * against the same file with a local `redis` binding (no package read). Interleaved over rounds.
 *
 *   node --import tsx bench/eslint/global-package.ts [--rounds 3] [--files 3000]
 *
 * Prints the median wall milliseconds of both and the milliseconds per thousand files of the
 * package. Before the text filter of 2026-12-04 every module naming the global was parsed
 * (116 s for 3,000 modules on a loaded 2-core machine); with it, only the modules whose text may
 * show a library are (1.9 s, most of it reading the 3,000 files).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import tsParser from '@typescript-eslint/parser';
import { Linter } from 'eslint';
import plugin from '../../rules/index.js';

function option(name: string, fallback: number): number {
  const at = process.argv.indexOf(name);
  return at >= 0 ? Number(process.argv[at + 1]) : fallback;
}

/** Writes a package of `files` modules under a new temporary folder; returns the linted file's path. */
function generatedPackage(files: number): { root: string; linted: string } {
  const root = mkdtempSync(join(tmpdir(), 'redis-ttl-global-'));
  mkdirSync(join(root, 'src'));
  writeFileSync(join(root, 'package.json'), '{"name":"global-bench","version":"1.0.0"}\n');
  for (let i = 0; i < files; i++) {
    const lines = Array.from({ length: 30 }, (_, j) => `export function f${i}_${j}(k, v) { return ${j} + k.length + v.length; }`);
    if (i % 3 === 0) lines.push(`export async function w${i}(k, v) { await redis.get(k); await redis.set(\`c${i}:\${k}\`, v); }`);
    if (i === files - 1) lines.push('export async function pop(k) { return redis.lPop(k); }');
    writeFileSync(join(root, 'src', `m${i}.js`), lines.join('\n') + '\n');
  }
  const linted = join(root, 'src', 'linted.js');
  writeFileSync(linted, 'export async function w(k, v) { await redis.set(`c:${k}`, v, 300); }\n');
  return { root, linted };
}

const config = [
  {
    files: ['**/*.js'],
    languageOptions: { parser: tsParser as never },
    plugins: { 'redis-ttl': plugin },
    rules: { 'redis-ttl/set-requires-ttl-or-keepttl': 'error' as const },
  },
];

/** Lints `code` as `filename` (in the package at `root`); returns [wall milliseconds, findings]. */
function wallMs(root: string, code: string, filename: string): [number, number] {
  const linter = new Linter({ configType: 'flat', cwd: root });
  const start = performance.now();
  const findings = linter.verify(code, config as never, filename).length;
  return [performance.now() - start, findings];
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

const rounds = option('--rounds', 3);
const files = option('--files', 3000);
const global: number[] = [];
const local: number[] = [];
for (let round = 0; round < rounds; round++) {
  const { root, linted } = generatedPackage(files);
  try {
    const [localMs] = wallMs(root, 'const redis = { set: async () => {} };\nexport async function w(k, v) { await redis.set(`c:${k}`, v, 300); }\n', linted);
    const [globalMs, findings] = wallMs(root, 'export async function w(k, v) { await redis.set(`c:${k}`, v, 300); }\n', linted);
    // the package shows node-redis (`redis.lPop`), so the bare-number TTL is reported: the package was read
    if (findings !== 1) throw new Error(`expected 1 finding on the global receiver, got ${findings}`);
    local.push(localMs);
    global.push(globalMs);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
const g = median(global);
const l = median(local);
console.log(`package of ${files} modules, ${rounds} rounds (median wall ms)`);
console.log(`  global receiver: ${g.toFixed(0)} ms; local receiver: ${l.toFixed(0)} ms`);
console.log(`  the package read costs ${(((g - l) / files) * 1000).toFixed(0)} ms per 1,000 modules`);
