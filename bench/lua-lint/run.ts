/**
 * lua-lint benchmark: the analyzer's time per MB of Lua next to luaparse's bare parse time, on a
 * deterministic corpus of realistic scripts (see corpus.ts). Target: analysis <= 1.5x the bare
 * parse.
 *
 *   node --import tsx bench/lua-lint/run.ts [--scripts 400] [--rounds 11] [--warmup 3] [--seed 42] [--dist]
 *
 * `--dist` measures the compiled analyzer in dist/ (run `npm run build` first) instead of the
 * sources as tsx compiles them on the fly; tsx adds a little per-function overhead (esbuild's
 * `__name` helper), so `--dist` is the figure a user of the package sees.
 *
 * Each round times the whole corpus once with `luaparse.parse(src)` (default options) and once
 * with `analyzeLua(src)`, alternating which goes first; the report is the median over the
 * measured rounds. To see where the analyzer's time goes, run it under `node --cpu-prof`.
 */
import { performance } from 'node:perf_hooks';
import luaparse from 'luaparse';
import type { analyzeLua as AnalyzeLua } from '../../lua-lint/index.js';
import { generateCorpus } from './corpus.js';

interface Settings {
  scripts: number;
  rounds: number;
  warmup: number;
  seed: number;
  dist: boolean;
}

const USAGE = 'usage: run.ts [--scripts N] [--rounds N] [--warmup N] [--seed N] [--dist]';

function parseArgs(argv: readonly string[]): Settings {
  const settings: Settings = { scripts: 400, rounds: 11, warmup: 3, seed: 42, dist: false };
  for (let i = 0; i < argv.length; i++) {
    const name = argv[i]?.replace(/^--/, '');
    if (name === 'dist') {
      settings.dist = true;
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

/** Milliseconds to run `step` over every source once. */
function time(sources: readonly string[], step: (source: string) => unknown): number {
  let sink = 0;
  const start = performance.now();
  for (const source of sources) sink += step(source) ? 1 : 0;
  const elapsed = performance.now() - start;
  if (sink < 0) console.log(sink); // keeps the results observable
  return elapsed;
}

const bareParse = (source: string): unknown => luaparse.parse(source);

async function main(): Promise<void> {
  const settings = parseArgs(process.argv.slice(2));
  const modulePath = settings.dist ? '../../dist/lua-lint/index.js' : '../../lua-lint/index.js';
  const { analyzeLua } = (await import(modulePath)) as { analyzeLua: typeof AnalyzeLua };
  const analyze = (source: string): unknown => analyzeLua(source);
  const corpus = generateCorpus(settings.scripts, settings.seed);
  const sources = corpus.map((script) => script.source);
  const megabytes = sources.reduce((sum, source) => sum + Buffer.byteLength(source), 0) / (1024 * 1024);

  // Sanity: the corpus is valid Lua, and the analyzer has something to say about part of it.
  const counts = new Map<string, number>();
  const clean: string[] = [];
  const reported: string[] = [];
  for (const source of sources) {
    const findings = analyzeLua(source);
    (findings.length === 0 ? clean : reported).push(source);
    for (const finding of findings) {
      const id = finding.ruleId ?? 'parse-error';
      counts.set(id, (counts.get(id) ?? 0) + 1);
    }
  }
  if (counts.has('parse-error')) throw new Error('the generated corpus does not parse; fix corpus.ts');

  // The whole corpus is the headline; the two halves show what a clean script costs and what a
  // script with findings costs (the analyzer may do more work to place its findings).
  const subsets = [
    { name: 'all scripts', sources },
    { name: 'scripts without findings', sources: clean },
    { name: 'scripts with findings', sources: reported },
  ].map((subset) => ({
    ...subset,
    // A library's `#!lua` line is not Lua: the bare parse gets the blanking the analyzer does.
    parseSources: subset.sources.map((source) => (source.startsWith('#!') ? `--${source.slice(2)}` : source)),
    megabytes: subset.sources.reduce((sum, source) => sum + Buffer.byteLength(source), 0) / (1024 * 1024),
    parseMs: [] as number[],
    analyzeMs: [] as number[],
  }));

  for (let round = 0; round < settings.warmup + settings.rounds; round++) {
    for (const subset of subsets) {
      let p: number;
      let a: number;
      if (round % 2 === 0) {
        p = time(subset.parseSources, bareParse);
        a = time(subset.sources, analyze);
      } else {
        a = time(subset.sources, analyze);
        p = time(subset.parseSources, bareParse);
      }
      if (round >= settings.warmup) {
        subset.parseMs.push(p / subset.megabytes);
        subset.analyzeMs.push(a / subset.megabytes);
      }
    }
  }

  const headline = subsets[0] as (typeof subsets)[number];
  const ratio = median(headline.analyzeMs) / median(headline.parseMs);
  const lines = [
    `lua-lint benchmark: ${corpus.length} scripts, ${megabytes.toFixed(2)} MB (seed ${settings.seed}), ` +
      `${settings.warmup} warm-up + ${settings.rounds} measured rounds, alternating order, medians; ` +
      `analyzer from ${settings.dist ? 'dist/ (compiled)' : 'sources via tsx'}; Node ${process.version}`,
    '',
    '| corpus                   | scripts |   MB | luaparse.parse ms/MB | analyzeLua ms/MB | ratio |',
    '| ------------------------ | ------: | ---: | -------------------: | ---------------: | ----: |',
    ...subsets.map((subset) => {
      const p = median(subset.parseMs);
      const a = median(subset.analyzeMs);
      return (
        `| ${subset.name.padEnd(24)} | ${String(subset.sources.length).padStart(7)} | ${subset.megabytes.toFixed(2)} | ` +
        `${p.toFixed(1).padStart(20)} | ${a.toFixed(1).padStart(16)} | ${`${(a / p).toFixed(2)}x`.padStart(5)} |`
      );
    }),
    '',
    `analysis / bare parse: ${ratio.toFixed(2)}x (target <= 1.5x) ${ratio <= 1.5 ? 'OK' : 'OVER TARGET'}`,
    `findings on the corpus: ${[...counts].map(([id, n]) => `${id} ${n}`).join(', ') || 'none'}`,
  ];
  console.log(lines.join('\n'));
}

await main();
