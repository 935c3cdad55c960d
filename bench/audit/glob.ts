/**
 * The audit's local Redis glob (audit/glob.ts) against the port before the CVE-2022-36021 fix, side
 * by side in one process: BENCH_ROUNDS interleaved rounds (default 5; which of the two runs first
 * alternates), median CPU time of each.
 *
 *   node --import tsx bench/audit/glob.ts                        (baseline: commit 8be68f9)
 *   node --import tsx bench/audit/glob.ts --baseline <commit>    (audit/glob.ts of another commit)
 *
 * The baseline's audit/glob.ts is read with `git show` into the gitignored .bench-tmp/.
 * Workloads:
 * - typical: the patterns of the docs' --match / --fail-on-persistent examples and a few more, on
 *   100,000 generated keys of the shapes the audit meets (sessions, limiters, caches, locks);
 *   what a --match costs per key inspected;
 * - pathological: `*a` repeated k times then `*b` on one key of 30 `a`s (k = 6, 8, 10): the
 *   pattern of CVE-2022-36021, exponential in k before the fix. Larger k would not end before.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { compileGlob, type RedisGlob } from '../../audit/glob.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const baselineAt = process.argv.includes('--baseline') ? process.argv[process.argv.indexOf('--baseline') + 1]! : '8be68f9';

async function loadBaseline(commit: string): Promise<(pattern: string) => RedisGlob> {
  const dir = path.join(ROOT, '.bench-tmp', 'glob-baseline');
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `glob-${commit}.ts`);
  writeFileSync(file, execFileSync('git', ['show', `${commit}:audit/glob.ts`], { cwd: ROOT }));
  return ((await import(pathToFileURL(file).href)) as { compileGlob: (pattern: string) => RedisGlob }).compileGlob;
}

function keys(): Buffer[] {
  const out: Buffer[] = [];
  for (let i = 0; i < 100_000; i += 1) {
    const id = (i * 2654435761) % 4294967296;
    switch (i % 5) {
      case 0: out.push(Buffer.from(`session:${id.toString(16)}-${(id >>> 7).toString(36)}`)); break;
      case 1: out.push(Buffer.from(`rl:fixed:v1:{${id.toString(36)}}:login`)); break;
      case 2: out.push(Buffer.from(`cache:user:${id}:profile`)); break;
      case 3: out.push(Buffer.from(`lock:job:${id % 977}`)); break;
      default: out.push(Buffer.from(`metrics:2024-01-${String((id % 28) + 1).padStart(2, '0')}:hits`));
    }
  }
  return out;
}

const TYPICAL = ['rl:*', 'session:*', 'rl:fixed:v1:{*}:login', 'cache:user:[0-9]*:profile', '*:lock', 'metrics:*:hits', 'lock:job:?', '*'];

/** CPU milliseconds of `work`. */
function cpuMs(work: () => void): number {
  const started = process.cpuUsage();
  work();
  const used = process.cpuUsage(started);
  return (used.user + used.system) / 1000;
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

const baseline = await loadBaseline(baselineAt);
const keyList = keys();
const workloads: Array<{ name: string; run: (compile: (pattern: string) => RedisGlob) => number; perKey: boolean }> = [
  {
    name: `typical: ${TYPICAL.length} patterns x ${keyList.length.toLocaleString('en-US')} keys`,
    perKey: true,
    run(compile) {
      let matched = 0;
      for (const pattern of TYPICAL) {
        const glob = compile(pattern);
        for (const key of keyList) if (glob.test(key)) matched += 1;
      }
      return matched;
    },
  },
  ...[6, 8, 10].map((k) => ({
    name: `pathological: ${'*a'.repeat(2)}...*b (${k + 1} stars) on 30 a's`,
    perKey: false,
    run(compile: (pattern: string) => RedisGlob) {
      return compile(`${'*a'.repeat(k)}*b`).test('a'.repeat(30)) ? 1 : 0;
    },
  })),
];

console.log(`audit glob: this tree vs ${baselineAt}, ${ROUNDS} interleaved rounds, median CPU ms (node ${process.version})\n`);
console.log('| workload | before (ms) | after (ms) | after / before | same answers |');
console.log('| --- | ---: | ---: | ---: | --- |');
for (const workload of workloads) {
  const before: number[] = [];
  const after: number[] = [];
  let same = true;
  for (let round = 0; round < ROUNDS; round += 1) {
    let a = 0;
    let b = 0;
    // alternate which goes first, so that neither always runs on a warmer (or more collected) heap
    const runBefore = () => before.push(cpuMs(() => (a = workload.run(baseline))));
    const runAfter = () => after.push(cpuMs(() => (b = workload.run(compileGlob))));
    if (round % 2 === 0) {
      runBefore();
      runAfter();
    } else {
      runAfter();
      runBefore();
    }
    same &&= a === b;
  }
  const [mb, ma] = [median(before), median(after)];
  console.log(`| ${workload.name} | ${mb.toFixed(2)} | ${ma.toFixed(2)} | ${(ma / mb).toFixed(ma / mb < 0.01 ? 5 : 2)} | ${same ? 'yes' : 'NO'} |`);
}
