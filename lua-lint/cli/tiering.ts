/**
 * Whether the `lua-lint` command lets V8 optimize with TurboFan.
 *
 * A cold run on a few hundred small scripts ends before TurboFan's compilations pay back: it
 * compiles the analyzer's large functions on background threads, whose CPU the run pays too, and
 * the optimized code then runs for a second or two. Measured with the bench corpus's scripts
 * (bench/lua-lint/cli.ts; README "Benchmarks"), the command's CPU with TurboFan off is about 0.65x
 * on 200 scripts (0.85 MB) and 0.86x on 800 (3.4 MB), and 1.05x on 1,200 (5.3 MB), where the
 * optimized code starts to pay. Turning it on in the middle of a run cost more than either (all
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

/** Input size (bytes, files as stored) above which a run keeps TurboFan on: 4 MiB. */
export const OPTIMIZE_ABOVE_BYTES = 4 * 1024 * 1024;

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
