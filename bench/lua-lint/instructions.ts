/**
 * lua-lint's cost against a same-options luaparse parse, counted in instructions executed instead
 * of CPU time: on this project's shared 2-core VMs the CPU time of one and the same parse moves by
 * up to 2x from one second to the next, which no number of rounds averages out of a 2.5x target.
 *
 * Each step runs in its own `node` process under valgrind's callgrind (`valgrind` on PATH: Debian's
 * `valgrind` package), whose total instruction count ("Collected") is the figure read. The child
 * runs with V8's `--single-threaded --predictable-gc-schedule`: compiling and garbage collection
 * on the main thread, on a fixed schedule, so that the count grows linearly with the rounds once
 * warm (two runs of the same step agree within ~0.2%). Without those flags the count of N more
 * rounds moved by up to 50% with the round count the process stopped at (TurboFan's and the GC's
 * helper threads finish their work at different points), which made a difference of two runs
 * meaningless on the 0.2 MB real corpus.
 *
 * For each corpus (the generated scripts of run.ts and, when the mirrors are there, the real
 * ones), seven processes: one that only loads the modules and the corpus, then the parse and
 * `analyzeLua` (from dist/) over the corpus W, W + M and W + 2M times, where W rounds make at least
 * `--warm-mb` MB of input (default 4.5: V8 has compiled what it compiles) and M rounds at least
 * `--measure-mb` more (default 3). Printed per corpus:
 *
 * - steady state: (count after W + 2M rounds - count after W) / 2M, the instructions of one more
 *   round once warm (the figure to read against the target, 2.5x);
 * - linearity: how far the second M rounds' count is from the first M rounds' (a few percent at
 *   most when the step is warm; the row says "not steady" beyond 5%);
 * - first round: the count of a process that ran W rounds minus W steady rounds and the process
 *   that did nothing: the warm-up's extra cost (V8 compiling), as a cold CLI run pays it.
 *
 * Slow: callgrind runs node ~50x slower; each corpus takes ~15 minutes.
 *
 *   npm run build && node --import tsx bench/lua-lint/instructions.ts [--scripts 400] [--seed 42]
 *     [--warm-mb 4.5] [--measure-mb 3] [--corpus generated|real|both] [--mirrors <dir>]
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { realScripts } from './corpora.js';
import { generateCorpus } from './corpus.js';

const here = dirname(fileURLToPath(import.meta.url));
const child = join(here, 'instructions-child.mjs');

function option(name: string, fallback: string): string {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 && process.argv[at + 1] !== undefined ? process.argv[at + 1]! : fallback;
}

/** Compiling and GC on the main thread, on a fixed schedule: counts linear in the rounds (see above). */
const V8_FLAGS = ['--single-threaded', '--predictable-gc-schedule'];

/** The instructions callgrind counted for one run of the child, or an Error with its output. */
function instructions(corpusFile: string, mode: 'none' | 'parse' | 'analyze', rounds: number): number {
  const run = spawnSync(
    'valgrind',
    ['--tool=callgrind', '--callgrind-out-file=/dev/null', process.execPath, ...V8_FLAGS, child, corpusFile, mode, String(rounds)],
    { encoding: 'utf8', maxBuffer: 1 << 26 },
  );
  const collected = /Collected : (\d+)/.exec(run.stderr ?? '');
  if (run.status !== 0 || !collected) throw new Error(`callgrind run of ${mode} x${rounds} failed (exit ${run.status}):\n${run.stderr?.slice(-2000)}`);
  return Number(collected[1]);
}

function main(): void {
  const scripts = Number(option('scripts', '400'));
  const seed = Number(option('seed', '42'));
  const warmMb = Number(option('warm-mb', '4.5'));
  const measureMb = Number(option('measure-mb', '3'));
  const which = option('corpus', 'both');
  if (!Number.isInteger(scripts) || scripts < 1 || !Number.isInteger(seed) || !(warmMb > 0) || !(measureMb > 0) || !['generated', 'real', 'both'].includes(which)) {
    throw new Error('usage: instructions.ts [--scripts N>=1] [--seed N] [--warm-mb MB>0] [--measure-mb MB>0] [--corpus generated|real|both] [--mirrors <dir>]');
  }
  try {
    execFileSync('valgrind', ['--version'], { stdio: 'ignore' });
  } catch {
    throw new Error('valgrind is not on PATH (Debian: apt-get install valgrind)');
  }
  const real = which === 'generated' ? { sources: [], repos: 0 } : realScripts(option('mirrors', '/work/.mirror'));
  const corpora = [
    ...(which === 'real' ? [] : [{ name: `generated (${scripts} scripts, seed ${seed})`, sources: generateCorpus(scripts, seed).map((s) => s.source) }]),
    ...(real.sources.length > 0 ? [{ name: `real (${real.sources.length} files of ${real.repos} repositories)`, sources: real.sources }] : []),
  ];
  const scratch = mkdtempSync(join(tmpdir(), 'lua-lint-instructions-'));
  try {
    console.log(`lua-lint vs a same-options luaparse parse, instructions executed (callgrind; node ${V8_FLAGS.join(' ')}; analyzeLua from dist/; Node ${process.version}; warm-up >= ${warmMb} MB, two measured segments of >= ${measureMb} MB)\n`);
    console.log('| corpus | MB | rounds (warm + 2 x measured) | parse, steady (M instr./MB) | analyzeLua, steady | steady ratio | linearity (parse / analyzeLua) | warm-up extra, parse (M instr.) | warm-up extra, analyzeLua |');
    console.log('| --- | --: | --: | --: | --: | --: | --: | --: | --: |');
    for (const corpus of corpora) {
      const file = join(scratch, 'corpus.json');
      writeFileSync(file, JSON.stringify(corpus.sources));
      const megabytes = corpus.sources.reduce((sum, source) => sum + Buffer.byteLength(source), 0) / (1024 * 1024);
      const warm = Math.max(1, Math.ceil(warmMb / megabytes));
      const measured = Math.max(1, Math.ceil(measureMb / megabytes));
      const none = instructions(file, 'none', 0);
      const count = (mode: 'parse' | 'analyze') => {
        const warmed = instructions(file, mode, warm);
        const once = instructions(file, mode, warm + measured);
        const twice = instructions(file, mode, warm + 2 * measured);
        const steady = (twice - warmed) / (2 * measured);
        const first = once - warmed;
        const second = twice - once;
        return { steady, linearity: (second - first) / ((first + second) / 2), warmUpExtra: warmed - none - warm * steady };
      };
      const parse = count('parse');
      const analyze = count('analyze');
      const perMb = (n: number) => (n / 1e6 / megabytes).toFixed(0);
      const percent = (x: number) => `${x >= 0 ? '+' : ''}${(100 * x).toFixed(1)}%`;
      const steadyEnough = Math.abs(parse.linearity) <= 0.05 && Math.abs(analyze.linearity) <= 0.05;
      console.log(
        `| ${corpus.name} | ${megabytes.toFixed(2)} | ${warm} + 2 x ${measured} | ${perMb(parse.steady)} | ${perMb(analyze.steady)} | ${(analyze.steady / parse.steady).toFixed(2)}x${steadyEnough ? '' : ' (not steady)'} | ${percent(parse.linearity)} / ${percent(analyze.linearity)} | ${(parse.warmUpExtra / 1e6).toFixed(0)} | ${(analyze.warmUpExtra / 1e6).toFixed(0)} |`,
      );
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

main();
