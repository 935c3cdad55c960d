/**
 * What the fault tests measure: the latency of every answer, the heap after a full GC, and the
 * keys left without a TTL.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { Cluster, Redis } from 'ioredis';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** Bytes of live heap after two full garbage collections. */
export function liveHeap(): number {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

/** What {@link hammer} saw. */
export interface Hammered {
  /** How many answers of each kind (`describe(answer)`), so that millions of answers take no memory. */
  kinds: Map<string, number>;
  /** Answers in all. */
  count: number;
  /** The slowest answer, ms. */
  maxMs: number;
  /** Answers slower than `slowMs`. */
  slow: number;
}

/**
 * Runs `callers` loops that call `call(i)` back to back until `durationMs` have passed (the
 * loops yield to the event loop only when `call` does), times each answer and counts the answers
 * by `describe(answer or thrown error)`.
 */
export async function hammer<T>(
  callers: number,
  durationMs: number,
  call: (i: number) => Promise<T>,
  describe: (answer: T | Error) => string,
  slowMs = Infinity,
): Promise<Hammered> {
  const kinds = new Map<string, number>();
  let count = 0;
  let maxMs = 0;
  let slow = 0;
  let i = 0;
  const end = performance.now() + durationMs;
  await Promise.all(
    Array.from({ length: callers }, async () => {
      while (performance.now() < end) {
        const started = performance.now();
        const answer = await call(i++).catch((error: unknown) => (error instanceof Error ? error : new Error(String(error))));
        const ms = performance.now() - started;
        if (ms > maxMs) maxMs = ms;
        if (ms > slowMs) slow += 1;
        const kind = describe(answer);
        kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
        count += 1;
      }
    }),
  );
  return { kinds, count, maxMs, slow };
}

/**
 * Runs `work` while measuring the event loop's delay, and returns its result with the largest
 * delay seen, ms: how late this process ran its timers because the machine did not run it (a
 * busy CI machine), which no code in it can answer faster than.
 */
export async function withLoopDelay<T>(work: () => Promise<T>): Promise<[T, number]> {
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  try {
    const result = await work();
    return [result, delay.max / 1e6];
  } finally {
    delay.disable();
  }
}

/** Keys (of every node) that have no TTL (PTTL -1), walking with SCAN. */
export async function keysWithoutTtl(client: Redis | Cluster): Promise<string[]> {
  const nodes = 'nodes' in client && typeof client.nodes === 'function' ? (client as Cluster).nodes('master') : [client as Redis];
  const found: string[] = [];
  for (const node of nodes) {
    let cursor = '0';
    do {
      const [next, keys] = await node.scan(cursor, 'COUNT', 1000);
      cursor = next;
      for (const key of keys) if ((await node.pttl(key)) === -1) found.push(key);
    } while (cursor !== '0');
  }
  return found;
}

/** Resolves once `check()` returns true, polling every `intervalMs`; rejects after `timeoutMs`. */
export async function until(check: () => Promise<boolean> | boolean, timeoutMs: number, intervalMs = 20): Promise<number> {
  const started = performance.now();
  for (;;) {
    if (await check()) return performance.now() - started;
    if (performance.now() - started > timeoutMs) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
