/**
 * The full-length outage scenario of issue 14: a network blackhole (a proxy that neither reads
 * nor writes, no RST) between an ioredis client (its default options) and a redis-server started
 * here, with 512 concurrent callers for 45 s, each call going to a fail-closed, a fail-open or a
 * fallback limiter, `incrementWithTtl` or a cache read, in turn, over 1,000 identities.
 *
 *   npm run bench:faults
 *   BLACKHOLE_MS=10000 CALLERS=128 TIMEOUT_MS=100 npm run bench:faults
 *   BENCH_RUNTIME=/path/to/runtime/dist/index.js npm run bench:faults   (another build, e.g. the one before)
 *   BENCH_KINDS=fail-closed,fail-open,fallback npm run bench:faults       (only some kinds of call)
 *
 * Reports every answer's latency (the slowest, and how many exceeded timeoutMs + 50 ms), the live
 * heap after a full GC before the blackhole and at its end (and the largest heap seen, sampled
 * without GC every second), the commands left in the client, what ran on Redis for the
 * fail-closed identities after the network healed (their counters), and the recovery time.
 * Needs `node --expose-gc` (the npm script passes it).
 */
import { monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { Redis } from 'ioredis';
import { FaultProxy } from '../../tests/faults/proxy.js';
import { startOwnServer } from '../../tests/faults/servers.js';

type Runtime = typeof import('../../runtime/index.js');

const BLACKHOLE_MS = Number(process.env.BLACKHOLE_MS ?? 45_000);
const CALLERS = Number(process.env.CALLERS ?? 512);
const TIMEOUT_MS = Number(process.env.TIMEOUT_MS ?? 100);
const IDENTITIES = 1000;
const gc = (globalThis as { gc?: () => void }).gc;

function liveHeapMB(): number {
  if (gc === undefined) throw new Error('run with node --expose-gc (npm run bench:faults does)');
  gc();
  gc();
  return process.memoryUsage().heapUsed / 1e6;
}

async function main(): Promise<void> {
  const rt: Runtime = process.env.BENCH_RUNTIME
    ? ((await import(pathToFileURL(process.env.BENCH_RUNTIME).href)) as Runtime)
    : await import('../../runtime/index.js');
  const server = await startOwnServer();
  const proxy = await FaultProxy.start(server.url);
  const redis = new Redis(proxy.url);
  redis.on('error', () => undefined);
  const admin = new Redis(server.url);
  const common = { algorithm: 'fixed-window', limit: 1_000_000, windowMs: 3_600_000, timeoutMs: TIMEOUT_MS } as const;
  const closed = rt.createLimiter(redis, { ...common, onRedisError: 'fail-closed', namespace: 'closed' });
  const open = rt.createLimiter(redis, { ...common, onRedisError: 'fail-open', namespace: 'open' });
  const fallback = rt.createLimiter(redis, { ...common, onRedisError: 'fallback', namespace: 'fallback', fallback: rt.createMemoryStore({ maxKeys: 100_000 }) });
  const cache = rt.createCache<number>(redis, { namespace: 'cache', ttlMs: 3_600_000, ...(process.env.BENCH_RUNTIME ? {} : { timeoutMs: TIMEOUT_MS }) });
  const allKinds = ['fail-closed', 'fail-open', 'fallback', 'incrementWithTtl', 'cache'] as const;
  const kinds = allKinds.filter((k) => (process.env.BENCH_KINDS ?? allKinds.join(',')).split(',').includes(k));
  const calls: Record<(typeof allKinds)[number], (id: number) => Promise<unknown>> = {
    'fail-closed': (id) => closed.take(`user-${id}`),
    'fail-open': (id) => open.take(`user-${id}`),
    fallback: (id) => fallback.take(`user-${id}`),
    incrementWithTtl: (id) => rt.incrementWithTtl(redis, `counter:{${id}}`, { ttlMs: 3_600_000, timeoutMs: TIMEOUT_MS } as never),
    cache: (id) => cache.getOrLoad(`item-${id}`, () => id),
  };
  try {
    await redis.ping();
    for (const kind of kinds) await calls[kind](0).catch(() => undefined); // scripts loaded, connection warm
    const heapBefore = liveHeapMB();
    const stats = Object.fromEntries(kinds.map((k) => [k, { answers: 0, errors: 0, late: 0, lateAfterFirst: 0, maxMs: 0, maxAfterFirstMs: 0, reasons: new Map<string, number>() }]));
    let heapPeak = 0;
    const sampler = setInterval(() => (heapPeak = Math.max(heapPeak, process.memoryUsage().heapUsed / 1e6)), 1000);
    const loopDelay = monitorEventLoopDelay({ resolution: 10 });
    loopDelay.enable();
    let gcMaxMs = 0;
    let gcTotalMs = 0;
    const gcObserver = new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) {
        gcMaxMs = Math.max(gcMaxMs, entry.duration);
        gcTotalMs += entry.duration;
      }
    });
    gcObserver.observe({ entryTypes: ['gc'] });
    proxy.freeze();
    const frozenAt = performance.now();
    let n = 0;
    const callers = Promise.all(
      Array.from({ length: CALLERS }, async (_, caller) => {
        for (let turn = 0; performance.now() - frozenAt < BLACKHOLE_MS; turn += 1) {
          const kind = kinds[(caller + turn) % kinds.length]!;
          const s = stats[kind]!;
          const started = performance.now();
          let reason: string;
          try {
            const answer = (await calls[kind](n++ % IDENTITIES)) as { reason?: string } | number;
            reason = typeof answer === 'object' && answer !== null ? (answer.reason ?? 'redis') : typeof answer;
          } catch (error) {
            s.errors += 1;
            reason = (error as Error).name;
          }
          const ms = performance.now() - started;
          s.answers += 1;
          s.maxMs = Math.max(s.maxMs, ms);
          if (ms > TIMEOUT_MS + 50) s.late += 1;
          if (turn > 0) {
            // the calls after each caller's first, which was in flight when the blackhole began
            s.maxAfterFirstMs = Math.max(s.maxAfterFirstMs, ms);
            if (ms > TIMEOUT_MS + 50) s.lateAfterFirst += 1;
          }
          s.reasons.set(reason, (s.reasons.get(reason) ?? 0) + 1);
        }
      }),
    );
    // the callers stop calling after BLACKHOLE_MS; the network heals once they are done, or a
    // second later at most (a runtime without deadlines would otherwise never let them finish)
    await new Promise((resolve) => setTimeout(resolve, BLACKHOLE_MS));
    await Promise.race([callers, new Promise((resolve) => setTimeout(resolve, TIMEOUT_MS + 1000))]);
    loopDelay.disable();
    gcObserver.disconnect();
    clearInterval(sampler);
    const queued = redis.commandQueue.length + (redis as unknown as { offlineQueue: unknown[] }).offlineQueue.length;
    const heapEnd = liveHeapMB();
    proxy.thaw();
    const thawedAt = performance.now();
    await callers;
    let recoveredMs = NaN;
    while (performance.now() - thawedAt < 30_000) {
      if ((await closed.take('after-heal')).reason === undefined) {
        recoveredMs = performance.now() - thawedAt;
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    while (redis.commandQueue.length > 0 && performance.now() - thawedAt < 60_000) await new Promise((resolve) => setTimeout(resolve, 50));
    let ranAfterHeal = 0;
    // the fixed window's count: a string since key format 2 (`fw2`), a hash's field `n` before it
    // (BENCH_RUNTIME of an older build)
    for (let id = 0; id < IDENTITIES; id += 1) {
      const key = closed.keyFor(`user-${id}`);
      ranAfterHeal += Number(((await admin.type(key)) === 'hash' ? await admin.hget(key, 'n') : await admin.get(key)) ?? 0);
    }
    ranAfterHeal -= 1; // the warm-up call of user-0

    console.log(`blackhole ${BLACKHOLE_MS / 1000} s, ${CALLERS} callers, timeoutMs ${TIMEOUT_MS}, runtime ${process.env.BENCH_RUNTIME ?? 'this checkout'}\n`);
    console.log('| calls of | answers | slowest (ms) | later than timeoutMs + 50 ms | of which after the first call of each caller | slowest after the first (ms) | answers |');
    console.log('| --- | ---: | ---: | ---: | ---: | ---: | --- |');
    for (const kind of kinds) {
      const s = stats[kind]!;
      const reasons = [...s.reasons].map(([r, c]) => `${r} ${c.toLocaleString('en-US')}`).join(', ');
      console.log(
        `| ${kind} | ${s.answers.toLocaleString('en-US')} | ${s.maxMs.toFixed(0)} | ${s.late.toLocaleString('en-US')} | ${s.lateAfterFirst.toLocaleString('en-US')} | ${s.maxAfterFirstMs.toFixed(0)} | ${reasons} |`,
      );
    }
    console.log(`\nlive heap after GC: ${heapBefore.toFixed(1)} MB before, ${heapEnd.toFixed(1)} MB at the end of the blackhole (growth ${(heapEnd - heapBefore).toFixed(1)} MB); largest heap seen ${heapPeak.toFixed(1)} MB`);
    console.log(`event loop delay during the blackhole: p99 ${(loopDelay.percentile(99) / 1e6).toFixed(1)} ms, max ${(loopDelay.max / 1e6).toFixed(1)} ms (the time this process ran late); GC pauses: longest ${gcMaxMs.toFixed(1)} ms, ${gcTotalMs.toFixed(0)} ms in all`);
    console.log(`commands waiting in the client at the end of the blackhole: ${queued}`);
    console.log(`fail-closed admissions that ran on Redis after the heal: ${ranAfterHeal} (of ${stats['fail-closed']!.answers.toLocaleString('en-US')} calls during the blackhole)`);
    console.log(`back on Redis ${recoveredMs.toFixed(0)} ms after the heal`);
  } finally {
    redis.disconnect();
    admin.disconnect();
    await proxy.close();
    await server.stop();
  }
}

await main();
