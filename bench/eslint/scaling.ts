/**
 * How the rules' cost grows with the number of Redis calls in one file. A generated module of `n`
 * groups of functions (a writer: SET, INCR whose reply is used, EXPIRE of another key; a deleter:
 * DEL of the writer's key and of another; a record's creator: HSET then EXPIRE; its updater:
 * HINCRBY of the record and SADD of another key, the TTL-keeping writes `recommended` looks for a
 * creator of), linted with the `recommended` and the `strict` config and with no rule (the parse
 * and ESLint's own traversal), at a small and at an eight-times larger size, interleaved over
 * rounds. The rules' CPU time per Redis call should stay flat; a per-file analysis that scans
 * every call of the file for each call (the kind of defect this guards against) makes the large
 * file's per-call cost grow with the file: eight times the calls, eight times the cost per call.
 *
 *   node --import tsx bench/eslint/scaling.ts [--rounds 5] [--small 100] [--check]
 *
 * Prints, per config, the rules' median CPU milliseconds per call at both sizes and their ratio.
 * `--check` exits 1 when a ratio is above 2 (a quadratic scan gives about 8; the rules of stop 37
 * gave 1.2 to 1.6 on a busy machine with `strict` and the writer / deleter pairs only).
 */
import { performance } from 'node:perf_hooks';
import tsParser from '@typescript-eslint/parser';
import { Linter } from 'eslint';
import plugin from '../../rules/index.js';

/** Redis calls per group of generated functions (SET, INCR, EXPIRE; DEL, DEL; HSET, EXPIRE; HINCRBY, SADD). */
const CALLS_PER_PAIR = 9;

/** A module with `pairs` groups of functions over ioredis (writer, deleter, creator, updater). */
export function generatedModule(pairs: number): string {
  const lines = ["import Redis from 'ioredis';", 'const redis = new Redis();'];
  for (let i = 0; i < pairs; i++) {
    lines.push(
      `export async function put${i}(id: string) {`,
      `  await redis.set(\`item${i}:\${id}\`, 'v');`,
      `  const seq = await redis.incr(\`count${i % 7}:\${id}\`);`,
      `  await redis.expire(\`seen${i}:\${seq}\`, 60);`,
      '}',
      `export async function drop${i}(id: string) {`,
      `  await redis.del(\`item${i}:\${id}\`);`,
      `  await redis.del(\`other${i}:\${id}\`);`,
      '}',
      `export async function make${i}(id: string) {`,
      `  await redis.hset(\`rec${i}:\${id}\`, 'a', 1);`,
      `  await redis.expire(\`rec${i}:\${id}\`, 60);`,
      '}',
      `export async function touch${i}(id: string) {`,
      `  await redis.hincrby(\`rec${i}:\${id}\`, 'n', 1);`,
      `  await redis.sadd(\`tag${i}:\${id}\`, 'x');`,
      '}',
    );
  }
  return lines.join('\n') + '\n';
}

function option(name: string, fallback: number): number {
  const at = process.argv.indexOf(name);
  return at >= 0 ? Number(process.argv[at + 1]) : fallback;
}

function cpuMs(run: () => void): number {
  const start = process.cpuUsage();
  run();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

function main(): void {
  const rounds = option('--rounds', 5);
  const small = option('--small', 100);
  const sizes = [small, small * 8];
  const linter = new Linter({ configType: 'flat' });
  const base: Linter.Config[] = [{ files: ['**/*.ts'], languageOptions: { parser: tsParser } }];
  const configs = { recommended: [...base, plugin.configs.recommended], strict: [...base, plugin.configs.strict] } satisfies Record<string, Linter.Config[]>;
  const texts = sizes.map(generatedModule);
  const perCall = Object.fromEntries(Object.keys(configs).map((name) => [name, sizes.map((): number[] => [])])) as Record<keyof typeof configs, number[][]>;
  const started = performance.now();
  for (let round = 0; round < rounds; round++) {
    sizes.forEach((pairs, k) => {
      const text = texts[k]!;
      const filename = `scaling-${pairs}.ts`;
      for (const [name, withRules] of Object.entries(configs) as Array<[keyof typeof configs, Linter.Config[]]>) {
        // the two configs back to back, order alternating by round
        const order = round % 2 === 0 ? [withRules, base] : [base, withRules];
        const times = order.map((config) => cpuMs(() => linter.verify(text, config, { filename })));
        const [rules, bare] = round % 2 === 0 ? times : [times[1]!, times[0]!];
        perCall[name][k]!.push(Math.max(0, rules! - bare!) / (pairs * CALLS_PER_PAIR));
      }
    });
  }
  console.log(`rules' CPU per Redis call, median of ${rounds} rounds (${((performance.now() - started) / 1000).toFixed(0)} s):`);
  let failed = false;
  for (const [name, values] of Object.entries(perCall)) {
    const [a, b] = values.map(median) as [number, number];
    const ratio = b / a;
    console.log(`  ${name}: ${sizes[0]! * CALLS_PER_PAIR} calls ${a.toFixed(3)} ms, ${sizes[1]! * CALLS_PER_PAIR} calls ${b.toFixed(3)} ms`);
    console.log(`    ratio (8x the calls): ${ratio.toFixed(2)}x (flat is 1x; a scan of the file per call gives about 8x)`);
    if (ratio > 2) failed = true;
  }
  if (process.argv.includes('--check') && failed) {
    console.error('FAIL: the per-call cost grows with the file (a ratio above 2).');
    process.exitCode = 1;
  }
}

if (process.argv[1]?.endsWith('scaling.ts')) main();
