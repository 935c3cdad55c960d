/**
 * The `lua-lint` command's CPU time, side by side in one run (medians of interleaved rounds):
 *
 * - on the 200 generated scripts of `corpus.ts` (seed 42) written into a folder, next to
 *   luacheck's (`luacheck` on PATH: Debian's `lua-check` package; skipped when absent) on the
 *   same folder: what a CI job pays per run, module loading included;
 * - on one script of 1,280 and one of 2,560 sequential if/else blocks, one arm of each leaving its
 *   key without TTL (1,280 and 2,560 findings): the walk must stay linear in the number of
 *   branches (target: 2,560 within 2.5x the time of 1,280);
 * - the command's choice of TurboFan by input size (lua-lint/cli/tiering.ts: off up to 1 MiB):
 *   the 200 scripts and 800 scripts (3.4 MB, seed 7) also with TurboFan on from the start
 *   (`turbofan-on.mjs`, the same executable without that choice);
 * - with `--baseline <commit>`, the same runs with the lua-lint of that commit (compiled by
 *   `baseline.ts`), and a check that both report the same findings (`--format json`).
 *
 * CPU time is user + system of each child process as `/usr/bin/time` reports it, so that load from
 * other processes on a shared machine disturbs little. Uses `dist/` (run `npm run build` first).
 *
 *   node --import tsx bench/lua-lint/cli.ts [--rounds 5] [--baseline <commit>]
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildBaseline } from './baseline.js';
import { generateCorpus } from './corpus.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const scratch = join(root, '.bench-tmp', 'lua-lint-cli');

/** A script of `blocks` sequential if/else blocks; the then-arm of each writes its key without TTL. */
export function branchesScript(blocks: number): string {
  let source = '';
  for (let i = 1; i <= blocks; i++) {
    source +=
      `local v${i} = tonumber(ARGV[${(i % 50) + 2}])\n` +
      `if ARGV[2] == 'a${i}' then\n  redis.call('SET', KEYS[${i}], ARGV[1])\n` +
      `else\n  redis.call('SET', KEYS[${i}], ARGV[1], 'EX', 60)\nend\n`;
  }
  return `${source}return 1\n`;
}

interface Command {
  name: string;
  argv: string[];
}

/** CPU seconds (user + system) of one run of `argv`, and its standard output. */
function cpuOf(argv: string[]): { cpu: number; stdout: string } {
  const result = spawnSync('/usr/bin/time', ['-f', '\nCPU %U %S', ...argv], { cwd: root, encoding: 'utf8', maxBuffer: 1 << 28 });
  const match = /CPU ([\d.]+) ([\d.]+)\s*$/.exec(result.stderr);
  if (!match) throw new Error(`${argv.join(' ')} did not run: ${result.stderr.slice(-500)}`);
  return { cpu: Number(match[1]) + Number(match[2]), stdout: result.stdout };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** The findings of a `--format json` report, without the file paths' folder. */
function findingsOf(stdout: string): string {
  const results = JSON.parse(stdout) as Array<{ filePath: string; messages: Array<{ ruleId: string | null; line: number; column: number; message: string }> }>;
  return JSON.stringify(results.map((r) => [r.filePath.split('/').pop(), r.messages.map((m) => [m.ruleId, m.line, m.column, m.message])]));
}

function main(): void {
  const args = process.argv.slice(2);
  const rounds = args.includes('--rounds') ? Number(args[args.indexOf('--rounds') + 1]) : 5;
  const baselineCommit = args.includes('--baseline') ? args[args.indexOf('--baseline') + 1] : undefined;
  const bin = join(root, 'dist', 'lua-lint', 'cli', 'bin.js');
  if (!existsSync(bin)) throw new Error('dist/lua-lint/cli/bin.js is missing: run `npm run build` first');
  const baseBin = baselineCommit ? join(buildBaseline(baselineCommit), 'lua-lint', 'cli', 'bin.js') : undefined;

  rmSync(scratch, { recursive: true, force: true });
  const corpusDir = join(scratch, 'corpus200');
  mkdirSync(corpusDir, { recursive: true });
  for (const [i, script] of generateCorpus(200, 42).entries()) writeFileSync(join(corpusDir, `script-${String(i).padStart(3, '0')}.lua`), script.source);
  const corpus800 = join(scratch, 'corpus800');
  mkdirSync(corpus800, { recursive: true });
  for (const [i, script] of generateCorpus(800, 7).entries()) writeFileSync(join(corpus800, `script-${String(i).padStart(3, '0')}.lua`), script.source);
  const turbofanOn = join(root, 'bench', 'lua-lint', 'turbofan-on.mjs');
  for (const blocks of [1280, 2560]) writeFileSync(join(scratch, `branches-${blocks}.lua`), branchesScript(blocks));
  const luacheck = spawnSync('luacheck', ['--version'], { encoding: 'utf8' }).status === 0;

  const lint = (which: string, target: string): string[] => [process.execPath, which, target, '--no-config-lookup', '--format', 'json'];
  const commands: Command[] = [
    { name: 'lua-lint, 200 scripts', argv: lint(bin, corpusDir) },
    ...(luacheck ? [{ name: 'luacheck, 200 scripts', argv: ['luacheck', '--no-config', '--no-color', '--formatter', 'plain', corpusDir] }] : []),
    { name: 'lua-lint, 200 scripts, TurboFan from the start', argv: lint(turbofanOn, corpusDir) },
    { name: 'lua-lint, 800 scripts', argv: lint(bin, corpus800) },
    { name: 'lua-lint, 800 scripts, TurboFan from the start', argv: lint(turbofanOn, corpus800) },
    { name: 'lua-lint, 1,280 if/else blocks', argv: lint(bin, join(scratch, 'branches-1280.lua')) },
    { name: 'lua-lint, 2,560 if/else blocks', argv: lint(bin, join(scratch, 'branches-2560.lua')) },
    ...(baseBin
      ? [
          { name: `baseline ${baselineCommit}, 200 scripts`, argv: lint(baseBin, corpusDir) },
          { name: `baseline ${baselineCommit}, 1,280 if/else blocks`, argv: lint(baseBin, join(scratch, 'branches-1280.lua')) },
          { name: `baseline ${baselineCommit}, 2,560 if/else blocks`, argv: lint(baseBin, join(scratch, 'branches-2560.lua')) },
        ]
      : []),
  ];

  const samples = new Map<string, number[]>(commands.map((c) => [c.name, []]));
  const outputs = new Map<string, string>();
  for (let round = 0; round < rounds; round++) {
    for (let k = 0; k < commands.length; k++) {
      const command = commands[(round + k) % commands.length]!;
      const { cpu, stdout } = cpuOf(command.argv);
      samples.get(command.name)!.push(cpu);
      if (round === 0 && !command.name.startsWith('luacheck')) outputs.set(command.name, findingsOf(stdout));
    }
  }

  const cpu = (name: string) => median(samples.get(name)!);
  console.log(`lua-lint CLI (dist/), CPU time (user + system) per run, medians of ${rounds} interleaved rounds; Node ${process.version}${luacheck ? `; ${execFileSync('luacheck', ['--version'], { encoding: 'utf8' }).split('\n')[0]}` : '; luacheck not installed'}`);
  console.log('| run | CPU s |');
  console.log('| --- | --: |');
  for (const command of commands) console.log(`| ${command.name} | ${cpu(command.name).toFixed(3)} |`);
  if (luacheck) {
    const ratio = cpu('lua-lint, 200 scripts') / cpu('luacheck, 200 scripts');
    console.log(`lua-lint / luacheck on 200 scripts: ${ratio.toFixed(2)}x (target <= 1.0x) ${ratio <= 1 ? 'OK' : 'OVER TARGET'}`);
  }
  for (const what of ['200 scripts', '800 scripts']) {
    console.log(`${what}: the command (TurboFan off up to 1 MiB of input, on above) ${(cpu(`lua-lint, ${what}`) / cpu(`lua-lint, ${what}, TurboFan from the start`)).toFixed(2)}x the CPU of TurboFan from the start`);
  }
  const growth = cpu('lua-lint, 2,560 if/else blocks') / cpu('lua-lint, 1,280 if/else blocks');
  console.log(`2,560 / 1,280 if/else blocks: ${growth.toFixed(2)}x (target <= 2.5x) ${growth <= 2.5 ? 'OK' : 'OVER TARGET'}`);
  if (baseBin) {
    for (const what of ['200 scripts', '1,280 if/else blocks', '2,560 if/else blocks']) {
      const now = cpu(`lua-lint, ${what}`);
      const before = cpu(`baseline ${baselineCommit}, ${what}`);
      const same = outputs.get(`lua-lint, ${what}`) === outputs.get(`baseline ${baselineCommit}, ${what}`);
      console.log(`${what}: ${(now / before).toFixed(2)}x the baseline's CPU; findings ${same ? 'identical' : 'DIFFER'}`);
      if (!same) process.exitCode = 1;
    }
  }
}

main();
