/**
 * The cost of reading the callers of wrappers under other names (`redis-calls/facades.ts`
 * forwardingCallersRead, bounded by `redis-calls/importers.ts`). Round 15's unbounded walk read
 * every module of the package naming the method (`set`, `put`: nearly every module names them)
 * for every wrapper, and a 355-file application went from 14 s to more than 24 min of CPU.
 *
 * A synthetic application of `n` modules is generated afresh per round (so that no per-run cache
 * carries over): `store.ts` holds a Redis store whose methods are pass-through wrappers under other
 * names (`put(key, v)` sending SET, `bump(key)` INCRBY, `push(key, v)` RPUSH), `container.ts` makes
 * its instance, and every module names `set`, `put`, `bump` and `push` on objects of its own (a
 * `Map`, an object literal) and calls a method of the next module's service, imported through a
 * barrel (`index.ts`: `export * from` every module: resolving that receiver reads the barrel's
 * modules); one module in ten imports the store's instance and calls it. Every
 * module is linted with the `recommended` config, by these rules and by the frozen rules of
 * `--plugin <dir>` (another checkout, `/work/main/.bench-tmp/pfinal` by default when it exists),
 * interleaved over rounds, in one process.
 *
 *   node --import tsx bench/eslint/callers-walk.ts [--modules 600] [--rounds 3] [--plugin <dir>] [--check]
 *
 * Prints the median CPU seconds of each, side by side, and their ratio; `--check` exits 1 when
 * these rules take more than 1.5 times the frozen rules'.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import tsParser from '@typescript-eslint/parser';
import { Linter } from 'eslint';
import ownPlugin from '../../rules/index.js';

function option(name: string, fallback: string | undefined): string | undefined {
  const at = process.argv.indexOf(name);
  return at >= 0 ? process.argv[at + 1] : fallback;
}

/** Writes the synthetic application of `n` modules under a fresh directory; returns its files. */
export function generateApplication(n: number): { root: string; files: Array<{ path: string; text: string }> } {
  const root = mkdtempSync(join(tmpdir(), 'callers-walk-'));
  mkdirSync(join(root, 'src'));
  writeFileSync(join(root, 'package.json'), JSON.stringify({ name: 'callers-walk', private: true }));
  const files: Array<{ path: string; text: string }> = [];
  const add = (name: string, lines: string[]): void => {
    const path = join(root, 'src', name);
    const text = lines.join('\n') + '\n';
    writeFileSync(path, text);
    files.push({ path, text });
  };
  add('store.ts', [
    "import Redis from 'ioredis';",
    'export class Store {',
    '  constructor(private readonly redis: Redis) {}',
    '  put(key: string, value: string) { return this.redis.set(key, value); }',
    '  bump(key: string) { return this.redis.incrby(key, 1); }',
    '  push(key: string, value: string) { return this.redis.rpush(key, value); }',
    '}',
  ]);
  add('container.ts', ["import Redis from 'ioredis';", "import { Store } from './store';", 'export const store = new Store(new Redis());']);
  add('index.ts', Array.from({ length: n }, (_, i) => `export * from './module${i}';`));
  for (let i = 0; i < n; i++) {
    const caller = i % 10 === 0;
    add(`module${i}.ts`, [
      ...(caller ? ["import { store } from './container';"] : []),
      `import { service${(i + 1) % n} } from './index';`,
      `export const service${i} = { handle(id: string) { return id.length; } };`,
      `const seen = new Map<string, number>();`,
      `const local = { put(k: string, v: string) { seen.set(k, v.length); }, bump(k: string) { seen.set(k, (seen.get(k) ?? 0) + 1); }, push(k: string) { seen.set(k, 0); } };`,
      `export async function handle${i}(id: string, v: string) {`,
      `  seen.set(id, ${i});`,
      `  local.put(\`a${i}:\${id}\`, v);`,
      `  local.bump(\`b${i}:\${id}\`);`,
      `  local.push(\`c${i}:\${id}\`);`,
      `  service${(i + 1) % n}.handle(id);`,
      ...(caller ? [`  await store.put(\`session${i}:\${id}\`, v);`, `  await store.bump(\`hits${i}:\${id}\`);`] : []),
      '}',
    ]);
  }
  return { root, files };
}

function cpuSeconds(run: () => void): number {
  const start = process.cpuUsage();
  run();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1e6;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

async function main(): Promise<void> {
  const n = Number(option('--modules', '600'));
  const rounds = Number(option('--rounds', '3'));
  const frozenDir = option('--plugin', existsSync('/work/main/.bench-tmp/pfinal') ? '/work/main/.bench-tmp/pfinal' : undefined);
  const plugins: Array<[string, typeof ownPlugin]> = [['these rules', ownPlugin]];
  if (frozenDir) {
    const frozen = ((await import(pathToFileURL(resolve(frozenDir, 'rules', 'index.ts')).href)) as { default: typeof ownPlugin }).default;
    plugins.push([`frozen (${frozenDir})`, frozen]);
  }
  const times = plugins.map((): number[] => []);
  const findings = plugins.map(() => 0);
  for (let round = 0; round < rounds; round++) {
    // alternate which runs first; each run lints a fresh copy (no cache of a path carries over)
    const order = plugins.map((_, k) => k);
    if (round % 2 === 1) order.reverse();
    for (const k of order) {
      const { root, files } = generateApplication(n);
      const linter = new Linter({ configType: 'flat', cwd: root });
      const config: Linter.Config[] = [{ files: ['**/*.ts'], languageOptions: { parser: tsParser } }, plugins[k]![1].configs.recommended as Linter.Config];
      let count = 0;
      times[k]!.push(cpuSeconds(() => files.forEach(({ path, text }) => (count += linter.verify(text, config, { filename: path }).length))));
      findings[k] = count;
      rmSync(root, { recursive: true, force: true });
    }
  }
  console.log(`${n + 3} modules naming set / put / bump / push, one in ten calling the store's wrappers; median CPU of ${rounds} rounds:`);
  const medians = times.map(median);
  plugins.forEach(([name], k) => console.log(`  ${name}: ${medians[k]!.toFixed(2)} s, ${findings[k]} findings`));
  if (medians.length === 2) {
    const ratio = medians[0]! / medians[1]!;
    console.log(`  ratio: ${ratio.toFixed(2)}x the frozen rules (at most 1.5x)`);
    if (process.argv.includes('--check') && ratio > 1.5) {
      console.error('FAIL: reading the callers costs more than 1.5 times the frozen rules.');
      process.exitCode = 1;
    }
  }
}

if (process.argv[1]?.endsWith('callers-walk.ts')) await main();
