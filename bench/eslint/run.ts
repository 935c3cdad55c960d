/**
 * Benchmark of the ESLint rules on code none of us wrote: the JavaScript of the Redis clients and
 * rate-limit / queue libraries installed under node_modules. Every round lints the whole corpus
 * twice, once with ESLint's recommended rules only ("off") and once with the plugin's `strict`
 * config added ("on"), alternating the order; the report gives the median ratio over the rounds. Without type
 * information, as most users run it. Each file is linted with both configs back to back and the
 * process's CPU time is measured, so load from other processes on the machine disturbs little.
 *
 *   node --import tsx bench/eslint/run.ts [--rounds 7] [--check]
 *
 * `--check` lints every .js/.cjs/.mjs/.ts file (declaration files included) under the clients'
 * packages once with every rule on and fails (exit 1) if any rule throws.
 */
import { readdirSync, readFileSync, statSync, existsSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import js from '@eslint/js';
import tsParser from '@typescript-eslint/parser';
import { Linter } from 'eslint';
import plugin from '../../rules/index.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The corpus: installed client and rate-limiter packages (whatever of them is installed). */
const CORPUS_DIRS = [
  'node_modules/ioredis/built',
  'node_modules/@redis',
  'node_modules/redis/dist',
  'node_modules/@upstash/redis',
  'node_modules/rate-limiter-flexible',
  'node_modules/bullmq/dist',
  'node_modules/bull/lib',
];

function sourceFiles(dir: string, declarations: boolean): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    const stat = statSync(path);
    if (stat.isDirectory()) {
      // nested node_modules and dot-directories (editor worktrees shipped by accident) are not the package's code
      if (entry !== 'node_modules' && !entry.startsWith('.')) out.push(...sourceFiles(path, declarations));
    } else if (/\.(c|m)?js$/.test(entry) || (/\.(c|m)?ts$/.test(entry) && (declarations || !/\.d\.(c|m)?ts$/.test(entry)))) {
      out.push(path);
    }
  }
  return out;
}

interface SourceFile {
  /** A name outside node_modules (flat config ignores node_modules). */
  filename: string;
  path: string;
  text: string;
}

/** The corpus files; `declarations` adds the packages' `.d.ts` files (for `--check`). */
function loadCorpus(declarations = false): SourceFile[] {
  const files: SourceFile[] = [];
  for (const dir of CORPUS_DIRS) {
    const abs = join(root, dir);
    if (!existsSync(abs)) continue;
    for (const path of sourceFiles(abs, declarations)) {
      const filename = join(root, 'virtual', relative(root, path).replace(/node_modules/g, 'deps'));
      files.push({ filename, path, text: readFileSync(path, 'utf8') });
    }
  }
  return files;
}

const languageOptions = {
  files: ['**/*.{js,cjs,mjs}'],
  languageOptions: { sourceType: 'module' as const, ecmaVersion: 'latest' as const },
};
const tsFiles = { files: ['**/*.{ts,cts,mts}'], languageOptions: { parser: tsParser } };
const commonJs = { files: ['**/*.cjs', '**/built/**/*.js', '**/dist/**/*.js', '**/lib/**/*.js'], languageOptions: { sourceType: 'commonjs' as const } };
const baseline: Linter.Config[] = [languageOptions, tsFiles, commonJs, js.configs.recommended];
const withPlugin: Linter.Config[] = [...baseline, plugin.configs.strict];
const pluginOnly: Linter.Config[] = [languageOptions, tsFiles, commonJs];
const parseOnlyWithPlugin: Linter.Config[] = [...pluginOnly, plugin.configs.strict];

function lintAll(linter: Linter, files: SourceFile[], config: Linter.Config[]): { ms: number; findings: number; crashes: string[] } {
  let findings = 0;
  const crashes: string[] = [];
  const start = performance.now();
  for (const file of files) {
    try {
      const messages = linter.verify(file.text, config, { filename: file.filename });
      for (const message of messages) {
        if (message.ruleId?.startsWith('redis-ttl/')) findings++;
        if (message.fatal) crashes.push(`${relative(root, file.path)}: ${message.message}`);
      }
    } catch (error) {
      crashes.push(`${relative(root, file.path)}: ${(error as Error).message.split('\n')[0]}`);
    }
  }
  return { ms: performance.now() - start, findings, crashes };
}

/**
 * One round: every file is linted with each config back to back (the order rotating from file to
 * file), so that GC pauses and cache effects hit all sides alike. Time is this process's CPU time
 * (user + system), which other processes on a busy machine disturb far less than wall time.
 * @returns the CPU milliseconds per config, and the plugin's findings of the last config.
 */
function interleavedRound(linter: Linter, files: SourceFile[], configs: Linter.Config[][], round: number) {
  const ms = configs.map(() => 0);
  let findings = 0;
  files.forEach((file, index) => {
    for (let k = 0; k < configs.length; k++) {
      const which = (index + round + k) % configs.length;
      const start = process.cpuUsage();
      const messages = linter.verify(file.text, configs[which]!, { filename: file.filename });
      const used = process.cpuUsage(start);
      ms[which]! += (used.user + used.system) / 1000;
      if (which === configs.length - 1) findings += messages.filter((m) => m.ruleId?.startsWith('redis-ttl/')).length;
    }
  });
  return { ms, findings };
}

/**
 * Four rules that listen to every call and do nothing: what ESLint itself charges for four more
 * rules of this shape, to tell ESLint's dispatch cost apart from the rules' own work.
 */
const noopRule = { create: () => ({ CallExpression() {}, 'Program:exit'() {} }) };
const noopPlugin = { rules: { a: noopRule, b: noopRule, c: noopRule, d: noopRule } };
const withNoop: Linter.Config[] = [
  ...baseline,
  { plugins: { noop: noopPlugin }, rules: { 'noop/a': 'error', 'noop/b': 'error', 'noop/c': 'error', 'noop/d': 'error' } },
];

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

function main(): void {
  const args = process.argv.slice(2);
  const roundsIndex = args.indexOf('--rounds');
  const rounds = roundsIndex >= 0 ? Number(args[roundsIndex + 1]) : 7;
  const check = args.includes('--check');
  const files = loadCorpus(check);
  const bytes = files.reduce((sum, f) => sum + f.text.length, 0);
  const linter = new Linter({ configType: 'flat' });
  console.log(`corpus: ${files.length} files, ${(bytes / 1024 / 1024).toFixed(1)} MiB (${CORPUS_DIRS.filter((d) => existsSync(join(root, d))).join(', ')})`);

  if (check) {
    const result = lintAll(linter, files, parseOnlyWithPlugin);
    console.log(`check: ${files.length} files linted with every rule, ${result.findings} findings, ${result.crashes.length} crashes or parse failures`);
    for (const crash of result.crashes) console.log(`  crash: ${crash}`);
    process.exitCode = result.crashes.length ? 1 : 0;
    return;
  }

  // warm-up: JIT and module caches
  interleavedRound(linter, files, [baseline, withNoop, withPlugin], 0);
  interleavedRound(linter, files, [pluginOnly, parseOnlyWithPlugin], 0);

  const ratios: number[] = [];
  const noopRatios: number[] = [];
  const parseRatios: number[] = [];
  const off: number[] = [];
  const on: number[] = [];
  let findings = 0;
  for (let round = 0; round < rounds; round++) {
    const main = interleavedRound(linter, files, [baseline, withNoop, withPlugin], round);
    const [offMs, noopMs, onMs] = main.ms as [number, number, number];
    off.push(offMs);
    on.push(onMs);
    ratios.push(onMs / offMs);
    noopRatios.push(noopMs / offMs);
    findings = main.findings;
    const bare = interleavedRound(linter, files, [pluginOnly, parseOnlyWithPlugin], round);
    parseRatios.push(bare.ms[1]! / bare.ms[0]!);
  }
  const ratio = median(ratios);
  const noopRatio = median(noopRatios);
  const parseRatio = median(parseRatios);
  const pct = (r: number) => `${r >= 1 ? '+' : ''}${((r - 1) * 100).toFixed(1)}%`;
  console.log(`rounds: ${rounds}, each file linted with every config back to back, CPU time; medians:`);
  console.log(`  @eslint/js recommended                    ${median(off).toFixed(0)} ms per corpus pass`);
  console.log(`  @eslint/js recommended + redis-ttl strict ${median(on).toFixed(0)} ms per corpus pass`);
  console.log(`  time ratio (rules on / off), recommended baseline: ${ratio.toFixed(3)} (${pct(ratio)}); per round: ${ratios.map((r) => r.toFixed(3)).join(' ')}`);
  console.log(`  for comparison, four do-nothing CallExpression rules: ${noopRatio.toFixed(3)} (${pct(noopRatio)})`);
  console.log(`  time ratio, bare baseline (parse + scope, no rules): ${parseRatio.toFixed(3)} (${pct(parseRatio)})`);
  console.log(`  redis-ttl findings in the corpus: ${findings}`);
  console.log(ratio <= 1.1 ? 'target met: the rules add at most 10% to ESLint\'s time' : 'target missed: the rules add more than 10% to ESLint\'s time');
}

main();
