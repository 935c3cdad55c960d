/**
 * Whether the `lua-lint` command lets V8 optimize with TurboFan.
 *
 * A cold run on a few hundred small scripts ends before TurboFan's compilations pay back: it
 * compiles the analyzer's large functions on background threads, whose CPU the run pays too, and
 * the optimized code then runs for a second or two. Measured with the bench corpus's scripts
 * (bench/lua-lint/cli.ts; README "Benchmarks"; medians of 5 interleaved runs), the command's CPU
 * with TurboFan off is 0.80x the CPU with TurboFan on from the start on 100 scripts (0.43 MiB),
 * 0.86-0.93x on 200 (0.83 MiB), 0.99x on 250 (1.03 MiB), and 1.11-1.23x on 300-350 (1.25-1.49
 * MiB), 1.5x on 800 (3.4 MiB), where the optimized code pays. (Before the walk got cheaper, at
 * d8b8c17, the crossover was near 5 MB: the less the interpreter costs per MB, the sooner
 * TurboFan's compile time pays back.) Turning it on in the middle of a run cost more than either (all
 * the hot functions are compiled at once), so the choice is made once, from the size of the input:
 * the executable starts with TurboFan off (the interpreter and the Sparkplug baseline compiler stay
 * on) and {@link chooseOptimization} turns it on when the files to lint (and standard input) add up to more than
 * {@link OPTIMIZE_ABOVE_BYTES}.
 *
 * The switch is V8's `--turbofan` flag, set with `v8.setFlagsFromString`
 * (https://nodejs.org/api/v8.html#v8setflagsfromstringflags): V8 reads it each time it considers
 * a function for optimization. Only the executable (`bin.ts`) calls {@link deferOptimization}:
 * `main()` run in-process (tests, API users) leaves the host process's flags alone, and
 * {@link chooseOptimization} is then a no-op.
 */
import { setFlagsFromString } from 'node:v8';

/** Input size (bytes, files as stored) above which a run keeps TurboFan on: 1 MiB. */
export const OPTIMIZE_ABOVE_BYTES = 1024 * 1024;

let deferred = false;

/** Turns TurboFan off until {@link chooseOptimization} decides (see the module comment). */
export function deferOptimization(): void {
  setFlagsFromString('--no-turbofan');
  deferred = true;
}

/**
 * Turns TurboFan back on when the run's input is larger than `threshold` bytes; a no-op (and
 * `inputBytes` is not called) unless {@link deferOptimization} was called.
 * @param inputBytes the size of the files the run will read, in bytes
 * @returns whether TurboFan was turned back on
 */
export function chooseOptimization(inputBytes: () => number, threshold = OPTIMIZE_ABOVE_BYTES): boolean {
  if (!deferred) return false;
  deferred = false;
  if (inputBytes() <= threshold) return false;
  setFlagsFromString('--turbofan');
  return true;
}
