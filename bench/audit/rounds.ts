/**
 * Interleaved CPU-time rounds for the per-key benches of the audit (fold.ts, match.ts): each run
 * once per round, in a rotating order, the first round a warm-up.
 */

/** A named run: does its work over `perKeys` keys and returns a number (so the work is not optimised away). */
export type BenchRun = [name: string, run: () => number];

/**
 * Runs each of `runs` `rounds` times (the first a warm-up) and returns, per name, the median CPU
 * time in nanoseconds per key and the run's last output.
 * @param keys how many keys each run handles (the divisor)
 */
export function medianNsPerKey(runs: readonly BenchRun[], keys: number, rounds = 6): Map<string, { ns: number; output: number }> {
  const times = new Map<string, number[]>(runs.map(([name]) => [name, []]));
  const outputs = new Map<string, number>();
  for (let round = 0; round < rounds; round += 1) {
    for (let k = 0; k < runs.length; k += 1) {
      const [name, run] = runs[(k + round) % runs.length]!;
      const started = process.cpuUsage();
      outputs.set(name, run());
      const used = process.cpuUsage(started);
      if (round > 0) times.get(name)!.push(((used.user + used.system) * 1000) / keys);
    }
  }
  const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)]!;
  return new Map(runs.map(([name]) => [name, { ns: median(times.get(name)!), output: outputs.get(name)! }]));
}
