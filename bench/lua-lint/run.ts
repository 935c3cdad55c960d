/**
 * lua-lint benchmark: the analyzer's time per MB of Lua next to luaparse's parse time, side by side
 * in one process (medians of interleaved rounds; a ratio is the median of the rounds' own ratios,
 * with their range), on two corpora:
 *
 * - `generated`: a deterministic corpus of realistic scripts (see corpus.ts; `--scripts`, `--seed`);
 * - `real`: the `.lua` files of the repositories of `bench/lua-real/manifest.json` that parse as
 *   Lua 5.1, read from the mirrors (`--mirrors`, default `/work/.mirror`; skipped when none is there).
 *
 * Two parses are timed: luaparse with its default options, and with the options lua-lint parses
 * with when it reports (ranges and comments, Lua 5.1, pseudo-latin1): the "same-options parse",
 * the floor of any analysis that places findings. Target: analysis <= 2.5x the same-options parse.
 *
 *   node --import tsx bench/lua-lint/run.ts [--scripts 400] [--rounds 11] [--warmup 3] [--seed 42] [--dist]
 *     [--baseline <commit>] [--mirrors <dir>]
 *
 * `--dist` measures the compiled analyzer in dist/ (run `npm run build` first) instead of the
 * sources as tsx compiles them on the fly; tsx adds a little per-function overhead (esbuild's
 * `__name` helper), so `--dist` is the figure a user of the package sees. `--baseline <commit>`
 * adds the analyzer of that commit, compiled the same way (baseline.ts), and checks that both
 * report the same findings on every script. To see where the time goes, run under `node --cpu-prof`.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { analyzeLua as AnalyzeLua } from '../../lua-lint/index.js';
import { buildBaseline } from './baseline.js';
import { generateCorpus } from './corpus.js';
import { blankShebang, defaultParse, realScripts, sameOptionsParse } from './corpora.js';

interface Settings {
  scripts: number;
  rounds: number;
  warmup: number;
  seed: number;
  dist: boolean;
  baseline?: string;
  mirrors: string;
}

const USAGE = 'usage: run.ts [--scripts N] [--rounds N] [--warmup N] [--seed N] [--dist] [--baseline <commit>] [--mirrors <dir>]';

function parseArgs(argv: readonly string[]): Settings {
  const settings: Settings = { scripts: 400, rounds: 11, warmup: 3, seed: 42, dist: false, mirrors: '/work/.mirror' };
  for (let i = 0; i < argv.length; i++) {
    const name = argv[i]?.replace(/^--/, '');
    if (name === 'dist') {
      settings.dist = true;
      continue;
    }
    if (name === 'baseline' || name === 'mirrors') {
      const value = argv[++i];
      if (!value) throw new Error(`${USAGE} (--${name} needs a value)`);
      settings[name] = value;
      continue;
    }
    const value = Number(argv[++i]);
    if ((name !== 'scripts' && name !== 'rounds' && name !== 'warmup' && name !== 'seed') || !Number.isInteger(value) || value < 1) {
      throw new Error(`${USAGE} (got ${argv.slice(i - 1, i + 1).join(' ')})`);
    }
    settings[name] = value;
  }
  return settings;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/**
 * CPU milliseconds (this process's user + system time) to run `step` over every source once: other
 * load on a shared machine preempts the process, which wall time would count and CPU time does not.
 */
function time(sources: readonly string[], step: (source: string) => unknown): number {
  let sink = 0;
  const start = process.cpuUsage();
  for (const source of sources) sink += step(source) ? 1 : 0;
  const used = process.cpuUsage(start);
  const elapsed = (used.user + used.system) / 1000;
  if (sink < 0) console.log(sink); // keeps the results observable
  return elapsed;
}

type Analyze = (source: string) => Array<{ ruleId: string | null }>;

async function main(): Promise<void> {
  const settings = parseArgs(process.argv.slice(2));
  const modulePath = settings.dist ? '../../dist/lua-lint/index.js' : '../../lua-lint/index.js';
  const { analyzeLua } = (await import(modulePath)) as { analyzeLua: typeof AnalyzeLua };
  const analyze: Analyze = (source) => analyzeLua(source);
  let baseline: Analyze | undefined;
  if (settings.baseline) {
    const dir = buildBaseline(settings.baseline);
    const mod = (await import(pathToFileURL(join(dir, 'lua-lint', 'index.js')).href)) as { analyzeLua: typeof AnalyzeLua };
    baseline = (source) => mod.analyzeLua(source);
  }
  const generated = generateCorpus(settings.scripts, settings.seed).map((script) => script.source);
  const real = realScripts(settings.mirrors);
  const corpora = [
    { name: `generated (${settings.scripts} scripts, seed ${settings.seed})`, sources: generated },
    ...(real.sources.length > 0 ? [{ name: `real (${real.sources.length} files of ${real.repos} repositories)`, sources: real.sources }] : []),
  ];

  // Sanity: the generated corpus is valid Lua; the baseline reports the same findings.
  const counts = new Map<string, number>();
  let differing = 0;
  for (const corpus of corpora) {
    for (const source of corpus.sources) {
      const findings = analyze(source);
      if (corpus.sources === generated) {
        for (const finding of findings) counts.set(finding.ruleId ?? 'parse-error', (counts.get(finding.ruleId ?? 'parse-error') ?? 0) + 1);
      }
      if (baseline && JSON.stringify(findings) !== JSON.stringify(baseline(source))) differing++;
    }
  }
  if (counts.has('parse-error')) throw new Error('the generated corpus does not parse; fix corpus.ts');

  const steps: Array<{ name: string; run: (source: string) => unknown; parse?: boolean }> = [
    { name: 'luaparse, default options', run: defaultParse, parse: true },
    { name: 'luaparse, same options', run: sameOptionsParse, parse: true },
    { name: 'analyzeLua', run: analyze },
    ...(baseline ? [{ name: `analyzeLua of ${settings.baseline}`, run: baseline }] : []),
  ];
  const rows = corpora.map((corpus) => ({
    ...corpus,
    parseSources: corpus.sources.map(blankShebang),
    megabytes: corpus.sources.reduce((sum, source) => sum + Buffer.byteLength(source), 0) / (1024 * 1024),
    ms: steps.map(() => [] as number[]),
  }));
  for (let round = 0; round < settings.warmup + settings.rounds; round++) {
    for (const row of rows) {
      // rotate the order of the steps from round to round
      for (let k = 0; k < steps.length; k++) {
        const index = (round + k) % steps.length;
        const step = steps[index]!;
        const ms = time(step.parse ? row.parseSources : row.sources, step.run);
        if (round >= settings.warmup) row.ms[index]!.push(ms / row.megabytes);
      }
    }
  }

  const lines = [
    `lua-lint benchmark: ${settings.warmup} warm-up + ${settings.rounds} measured rounds, order rotating, medians in CPU ms per MB, ratios as the median (and range) of the rounds' ratios; ` +
      `analyzer from ${settings.dist ? 'dist/ (compiled)' : 'sources via tsx'}; Node ${process.version}`,
    '',
    `| corpus | MB | ${steps.map((s) => s.name).join(' | ')} | analysis / same-options parse |${baseline ? ' analysis / baseline |' : ''}`,
    `| --- | --: | ${steps.map(() => '--:').join(' | ')} | --: |${baseline ? ' --: |' : ''}`,
  ];
  let worst = 0;
  for (const row of rows) {
    const medians = row.ms.map(median);
    // the ratio of each round (its steps ran seconds apart at most: the same phase of a VM whose
    // speed swings), then their median and range
    const perRound = row.ms[2]!.map((ms, round) => ms / row.ms[1]![round]!);
    const ratio = median(perRound);
    worst = Math.max(worst, ratio);
    lines.push(
      `| ${row.name} | ${row.megabytes.toFixed(2)} | ${medians.map((m) => m.toFixed(1)).join(' | ')} | ${ratio.toFixed(2)}x (${Math.min(...perRound).toFixed(2)}-${Math.max(...perRound).toFixed(2)}) |${baseline ? ` ${median(row.ms[2]!.map((ms, round) => ms / row.ms[3]![round]!)).toFixed(2)}x |` : ''}`,
    );
  }
  lines.push(
    '',
    `analysis / same-options parse, worst corpus: ${worst.toFixed(2)}x (target <= 2.5x) ${worst <= 2.5 ? 'OK' : 'OVER TARGET'}`,
    `findings on the generated corpus: ${[...counts].map(([id, n]) => `${id} ${n}`).join(', ') || 'none'}`,
    ...(baseline ? [`scripts whose findings differ from the baseline's: ${differing}`] : []),
  );
  console.log(lines.join('\n'));
  if (differing > 0) process.exitCode = 1;
}

await main();
