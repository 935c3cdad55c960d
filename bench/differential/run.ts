/**
 * The differential tester: generates random Redis scripts, runs each on a real redis-server over
 * many pre-states and arguments, compares the leaks Redis shows with lua-lint's verdict, and
 * shrinks every disagreement to a few lines.
 *
 *   node --import tsx bench/differential/run.ts [--seed 5000] [--scripts 5000] [--runs 150]
 *     [--minimize 40] [--out report.md]
 *
 * Starts its own redis-server from PATH on a free loopback port (never REDIS_URL: it flushes the
 * database between runs). Prints the rates of issues 12 and 28: among the scripts lua-lint calls
 * clean, the share that leaked with valid arguments; among the scripts it reports (GETSET /
 * PERSIST findings alone, reported by design, are not counted), the share that no run with valid
 * arguments leaked, split into those that leaked only with invalid ARGV (<= 0, a negative
 * increment, fractional, not a number, empty: every such value is tried at each ARGV position)
 * and the "other" ones, which no run leaked at all. `--out` writes every minimized disagreement as
 * a Markdown report.
 */
import { writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { Redis } from 'ioredis';
import { startRedisServer } from '../../tests/helpers/redis-server.js';
import { compareScript, minimize, plansFor, type Agreement, type Comparison } from './compare.js';
import { generateScript, type GeneratorFeatures } from './generate.js';

/** Settings of one differential run. */
export interface DifferentialSettings {
  seed: number;
  scripts: number;
  runs: number;
  /** How many disagreements to minimize, missed leaks first (the others are counted only). */
  minimize: number;
  /** Newer commands the generator may use (set from the server's version by `main`). */
  features?: GeneratorFeatures;
}

/** The outcome of a differential run. */
export interface DifferentialReport {
  settings: DifferentialSettings;
  counts: Record<Agreement, number>;
  clean: number;
  reported: number;
  /** missed-leak / clean */
  missRate: number;
  /** false-alarm / reported */
  falseAlarmRate: number;
  disagreements: Comparison[];
  minimized: Comparison[];
  seconds: number;
}

/** Runs the comparison over `settings.scripts` scripts on the Redis at `redis`. */
export async function runDifferential(redis: Redis, settings: DifferentialSettings, onProgress?: (done: number) => void): Promise<DifferentialReport> {
  const start = performance.now();
  const counts: Record<Agreement, number> = {
    'missed-leak': 0,
    'missed-invalid-args': 0,
    'false-alarm': 0,
    'reported-invalid-args': 0,
    agree: 0,
    unusable: 0,
  };
  let clean = 0;
  let reported = 0;
  const disagreements: Comparison[] = [];
  for (let id = 0; id < settings.scripts; id++) {
    const script = generateScript(settings.seed, id, settings.features ?? {});
    const comparison = await compareScript(redis, script, plansFor(script, settings.runs));
    counts[comparison.agreement]++;
    if (comparison.verdict === 'clean') clean++;
    if (comparison.verdict === 'reported') reported++;
    if (comparison.agreement === 'missed-leak' || comparison.agreement === 'false-alarm') disagreements.push(comparison);
    if (id % 500 === 499) {
      await redis.script('FLUSH');
      onProgress?.(id + 1);
    }
  }
  // missed leaks first (the disagreement that costs a user memory), each kind in script order
  const worstFirst = [...disagreements.filter((d) => d.agreement === 'missed-leak'), ...disagreements.filter((d) => d.agreement !== 'missed-leak')];
  const minimized: Comparison[] = [];
  for (const comparison of worstFirst.slice(0, settings.minimize)) minimized.push(await minimize(redis, comparison, settings.runs));
  return {
    settings,
    counts,
    clean,
    reported,
    missRate: clean === 0 ? 0 : counts['missed-leak'] / clean,
    falseAlarmRate: reported === 0 ? 0 : counts['false-alarm'] / reported,
    disagreements,
    minimized,
    seconds: (performance.now() - start) / 1000,
  };
}

/** A disagreement as Markdown: the minimized script, what lua-lint said, what Redis did. */
export function describeComparison(comparison: Comparison): string {
  const leaks = comparison.oracle.runs.filter((run) => run.leaked.length > 0).slice(0, 2);
  const keys = comparison.script.keys.map((k) => `${k.expr}=${k.name} (${k.type})`).join(', ');
  return [
    `### ${comparison.agreement}: seed ${comparison.script.seed}, script ${comparison.script.id}`,
    '',
    '```lua',
    comparison.source,
    '```',
    '',
    `keys: ${keys}`,
    `lua-lint: ${comparison.findings.map((f) => `${f.ruleId ?? 'fatal'}@${f.line}`).join(', ') || 'clean'}`,
    `redis: ${leaks.map((run) => `leaked ${run.leaked.join(', ')} with pre-state ${run.plan.pre.join('/')} and ARGV ${JSON.stringify(run.plan.argv)}${run.error ? ` (raised: ${run.error})` : ''}`).join('; ') || 'never leaked'}`,
    '',
  ].join('\n');
}

function parseArgs(argv: readonly string[]): DifferentialSettings & { out?: string } {
  const settings: DifferentialSettings & { out?: string } = { seed: 5000, scripts: 5000, runs: 150, minimize: 40 };
  for (let i = 0; i < argv.length; i += 2) {
    const name = argv[i]?.replace(/^--/, '');
    const raw = argv[i + 1];
    if (name === 'out' && raw) {
      settings.out = raw;
      continue;
    }
    const value = Number(raw);
    if ((name !== 'seed' && name !== 'scripts' && name !== 'runs' && name !== 'minimize') || !Number.isInteger(value) || value < 0) {
      throw new Error('usage: run.ts [--seed N] [--scripts N] [--runs N] [--minimize N] [--out report.md]');
    }
    settings[name] = value;
  }
  return settings;
}

async function main(): Promise<void> {
  const settings = parseArgs(process.argv.slice(2));
  const server = await startRedisServer();
  const redis = new Redis(server.url, { maxRetriesPerRequest: 2 });
  try {
    // newer commands only where the server has them (the generator is unchanged without them)
    const info = (await redis.info('server')) as string;
    const version = /redis_version:(\d+)\.(\d+)/.exec(info);
    const [major, minor] = version ? [Number(version[1]), Number(version[2])] : [0, 0];
    settings.features = { hashFieldExpiration: major > 7 || (major === 7 && minor >= 4), hashFieldWrites: major >= 8 };
    console.log(`redis-server ${version ? `${major}.${minor}` : '(unknown version)'}: hash-field expiration ${settings.features.hashFieldExpiration ? 'on' : 'off'}, HSETEX/HGETEX ${settings.features.hashFieldWrites ? 'on' : 'off'}`);
    const report = await runDifferential(redis, settings, (done) => process.stderr.write(`${done} scripts\n`));
    const pct = (x: number) => `${(100 * x).toFixed(2)}%`;
    const c = report.counts;
    console.log(
      [
        `differential test: seed ${settings.seed}, ${settings.scripts} scripts x ${settings.runs} runs on redis-server, ${report.seconds.toFixed(0)} s`,
        `lua-lint clean: ${report.clean}; reported: ${report.reported}; by-design findings only: ${settings.scripts - report.clean - report.reported - c.unusable}; unusable: ${c.unusable}`,
        `clean but leaked (valid ARGV):        ${c['missed-leak']} = ${pct(report.missRate)} of clean (target <= 0.1%)`,
        `clean, leaked only with invalid ARGV: ${c['missed-invalid-args']} (modelling choice: ARGV assumed valid)`,
        `reported, no run with valid ARGV leaked: ${c['false-alarm'] + c['reported-invalid-args']} = ${pct(report.reported === 0 ? 0 : (c['false-alarm'] + c['reported-invalid-args']) / report.reported)} of reported`,
        `  leaked only with invalid ARGV (<= 0, a negative increment, fractional, not a number): ${c['reported-invalid-args']}`,
        `  never leaked at all ("other"):      ${c['false-alarm']} = ${pct(report.falseAlarmRate)} of reported (target <= 1.5%)`,
      ].join('\n'),
    );
    if (settings.out) {
      writeFileSync(settings.out, `# Differential disagreements (seed ${settings.seed})\n\n${report.minimized.map(describeComparison).join('\n')}`);
      console.log(`minimized ${report.minimized.length} of ${report.disagreements.length} disagreements into ${settings.out}`);
    }
  } finally {
    redis.disconnect();
    await server.stop();
  }
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].replace(/.*\//, ''))) await main();
