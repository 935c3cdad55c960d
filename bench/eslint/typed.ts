/**
 * What typed linting costs with the plugin: CPU time and peak memory of a whole ESLint run with
 * type information, the same config with and without `redis-ttl` recommended, and no other
 * type-aware rule (so that nothing else asks the type checker: the plugin pays for it alone).
 *
 * The corpus is the typed program of the precision benchmark: the published JavaScript and `.d.ts`
 * files of the 36 Redis packages of its tuning set in `.bench-tmp/eslint-precision/tuning/` (run `npm run bench:eslint-precision`
 * once first; it installs them), linted with `@typescript-eslint/parser` and `parserOptions.project`
 * on its `tsconfig.json`. Each run is a child process that builds the program, lints every file of
 * it once and reports its own CPU time (user + system) and peak RSS; rounds alternate which config
 * goes first, and the report gives the medians and their ratios. A child pays for the checker
 * once: that is what a user's CI run pays.
 *
 *   node --import tsx bench/eslint/typed.ts [--rounds 5] [--plugin <dir>]
 *
 * `--plugin <dir>` adds a third config: the plugin of another checkout (`<dir>/rules/index.ts`,
 * e.g. `git archive <commit> rules semantics lua-lint package.json | tar -x -C <dir>`), to measure
 * before and after side by side in the same rounds.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import js from '@eslint/js';
import tsParser from '@typescript-eslint/parser';
import { Linter } from 'eslint';
import { median, runChild } from './child.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const scratch = join(root, '.bench-tmp', 'eslint-precision', 'tuning');
const tsconfig = join(scratch, 'tsconfig.json');

interface Sample {
  cpuMs: number;
  maxRssMiB: number;
  findings: number;
  files: number;
}

/** The child: lints the corpus once with one config and prints a {@link Sample} as JSON. */
async function child(config: 'off' | 'on', pluginDir: string | undefined): Promise<void> {
  const files = (JSON.parse(readFileSync(tsconfig, 'utf8')) as { files: string[] }).files.map((file) => join(scratch, file));
  const configs: Linter.Config[] = [
    {
      files: ['**/*.{js,cjs,mjs,ts,cts,mts}'],
      languageOptions: { parser: tsParser, sourceType: 'module', parserOptions: { project: tsconfig, tsconfigRootDir: scratch } },
    },
    js.configs.recommended,
  ];
  if (config === 'on') {
    const plugin = pluginDir
      ? ((await import(pathToFileURL(join(resolve(pluginDir), 'rules', 'index.ts')).href)) as { default: { configs: { recommended: Linter.Config } } }).default
      : ((await import('../../rules/index.js')) as unknown as { default: { configs: { recommended: Linter.Config } } }).default;
    configs.push(plugin.configs.recommended);
  }
  const linter = new Linter({ configType: 'flat' });
  let findings = 0;
  for (const file of files) {
    const messages = linter.verify(readFileSync(file, 'utf8'), configs, { filename: file });
    findings += messages.filter((m) => m.ruleId?.startsWith('redis-ttl/')).length;
  }
  const cpu = process.cpuUsage();
  const sample: Sample = {
    cpuMs: (cpu.user + cpu.system) / 1000,
    maxRssMiB: process.resourceUsage().maxRSS / 1024,
    findings,
    files: files.length,
  };
  process.stdout.write(`${JSON.stringify(sample)}\n`);
}

function runOne(config: string, pluginDir: string | undefined): Sample {
  return runChild<Sample>(import.meta.url, config, pluginDir, root);
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const pluginDir = args.includes('--plugin') ? args[args.indexOf('--plugin') + 1] : undefined;
  if (args.includes('--child')) {
    const which = args[args.indexOf('--child') + 1]!;
    await child(which === 'base' ? 'on' : (which as 'off' | 'on'), which === 'base' ? pluginDir : undefined);
    return;
  }
  if (!existsSync(tsconfig)) {
    console.error(`${tsconfig} is missing: run \`npm run bench:eslint-precision\` once first (it installs the corpus).`);
    process.exitCode = 2;
    return;
  }
  const rounds = args.includes('--rounds') ? Number(args[args.indexOf('--rounds') + 1]) : 5;
  const configs = ['off', 'on', ...(pluginDir ? ['base'] : [])];
  const samples = new Map<string, Sample[]>(configs.map((c) => [c, []]));
  for (let round = 0; round < rounds; round++) {
    // rotate the order, so that a slow moment of the machine hits every config alike
    for (let k = 0; k < configs.length; k++) {
      const config = configs[(round + k) % configs.length]!;
      samples.get(config)!.push(runOne(config, pluginDir));
    }
  }
  const off = samples.get('off')!;
  const offRss = median(off.map((s) => s.maxRssMiB));
  const label: Record<string, string> = {
    off: '@eslint/js recommended, typed parser',
    on: '+ redis-ttl recommended',
    base: `+ redis-ttl recommended of ${pluginDir ?? ''}`,
  };
  console.log(`typed ESLint over ${off[0]!.files} files of .bench-tmp/eslint-precision/tuning (parserOptions.project), ${rounds} rounds, one child process per run; medians:`);
  console.log('| config | CPU s | CPU vs off | peak RSS MiB | RSS vs off | redis-ttl findings |');
  console.log('| --- | --: | --: | --: | --: | --: |');
  for (const config of configs) {
    const list = samples.get(config)!;
    const cpu = median(list.map((s) => s.cpuMs));
    const rss = median(list.map((s) => s.maxRssMiB));
    const ratios = list.map((s, i) => s.cpuMs / off[i]!.cpuMs);
    console.log(
      `| ${label[config]} | ${(cpu / 1000).toFixed(2)} | ${((median(ratios) - 1) * 100).toFixed(1)}% (rounds ${ratios.map((r) => r.toFixed(3)).join(' ')}) | ${rss.toFixed(0)} | ${rss - offRss >= 0 ? '+' : ''}${(rss - offRss).toFixed(0)} | ${list[0]!.findings} |`,
    );
  }
}

await main();
