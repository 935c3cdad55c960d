/**
 * Parity: the same random operation sequences, with the same KEYS, ARGV and injected `now`, run
 * through the Lua scripts on Redis and through the MemoryStore must give identical replies
 * (values and error codes) and identical TTLs.
 *
 * TTLs: the memory store's clock is set, before each step, to the real time at which the step
 * starts, so a TTL it sets ends at `stepStart + ttl`, and Redis' ends at `exec + ttl` with
 * `stepStart <= exec <= stepEnd`. The test compares absolute expiry times (PEXPIRETIME):
 * `0 <= redis - memory <= longest step so far` (a few ms: the clock's resolution plus one round
 * trip). Redis expires keys in real time while the memory store's clock stands at the step's
 * start, so a key whose TTL ends within a step is gone on one side and there on the other, and
 * the scripts then decide differently. So no key may reach its expiry inside a step: before each
 * step, every key whose TTL (on either side) ends within SHORT_TTL is deleted on both sides (a
 * check after each step alone left the time between two steps: a process starved for seconds on a
 * loaded machine let a key cross its expiry before the next step, and the run failed with
 * "PEXPIRETIME ... expected <time> to be -2"); after a step, a key with a TTL of a few ms that is
 * gone on one side must be due on the other within the step's span (either way round).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { runnerFor } from '../../runtime/client.js';
import { MemoryStore } from '../../runtime/memory.js';
import { getScript, type ScriptName } from '../../runtime/scripts.js';
import { uniquePrefix, useRedis } from '../helpers/redis.js';

const redis = useRedis();
const T0 = 1_700_000_000_000;
const SHORT_TTL = 10_000;

/**
 * The error message Redis (through `runner`) and the memory store each answer `script` on `key`
 * with, `'no error'` for a side that succeeds.
 */
async function errorsOf(runner: ReturnType<typeof runnerFor>, store: MemoryStore, script: ScriptName, key: string, args: string[]): Promise<[string, string]> {
  const fromRedis = await runner.run(getScript(script), [key], args).then(
    () => 'no error',
    (error: Error) => error.message,
  );
  let fromMemory = 'no error';
  try {
    store.runScript(script, [key], args);
  } catch (error) {
    fromMemory = (error as Error).message;
  }
  return [fromRedis, fromMemory];
}

type Reply = { ok: unknown } | { error: string };

interface Call {
  script: ScriptName;
  key: string;
  args: string[];
}

/** Time steps: none, a few ms, seconds, minutes to hours (window and refill boundaries at every scale). */
const dt = fc.oneof(
  fc.constant(0),
  fc.integer({ min: 1, max: 100 }),
  fc.integer({ min: 900, max: 60_000 }),
  fc.integer({ min: 60_000, max: 5_000_000 }),
);

/**
 * A fixed_window reply as [allowed 0|1, count, time left]: the packed integer
 * ±(count * (windowMs + 1) + time left) or the table (see runtime/scripts/fixed_window.lua).
 */
function unpackFixedWindow(reply: unknown, windowMs: number): [number, number, number] {
  if (Array.isArray(reply)) return reply as [number, number, number];
  const x = reply as number;
  const magnitude = x >= 0 ? x : -x - 1;
  return [x >= 0 ? 1 : 0, Math.floor(magnitude / (windowMs + 1)), magnitude % (windowMs + 1)];
}

async function runParity(calls: Array<(now: number) => Call>, dts: number[]): Promise<void> {
  const r = redis.client();
  const runner = runnerFor(r);
  let clock = 0;
  const store = new MemoryStore({ clock: () => clock, janitorIntervalMs: 3_600_000 });
  let maxSpan = 0;
  let now = T0;
  const touched = new Set<string>();
  try {
    for (let i = 0; i < calls.length; i += 1) {
      now += dts[i] ?? 0;
      // no key may reach its expiry during the step: delete, on both sides, those about to
      clock = Date.now();
      for (const key of touched) {
        const expiries = [await r.pexpiretime(key), store.pexpiretime(key)].filter((x) => x >= 0);
        if (expiries.some((x) => x - Date.now() < SHORT_TTL)) {
          await r.del(key);
          store.delete(key);
        }
      }
      const start = Date.now();
      clock = start;
      const call = calls[i]!(now);
      const viaRedis: Reply = await runner.run(getScript(call.script), [call.key], call.args).then(
        (ok) => ({ ok }),
        (error: Error) => ({ error: error.message.split(' ')[0]! }),
      );
      const redisExpiry = await r.pexpiretime(call.key);
      let viaMemory: Reply;
      try {
        viaMemory = { ok: store.runScript(call.script, [call.key], call.args) };
      } catch (error) {
        viaMemory = { error: (error as Error).message.split(' ')[0]! };
      }
      maxSpan = Math.max(maxSpan, Date.now() - start);
      const memoryExpiry = store.pexpiretime(call.key);
      const step = `step ${i}: ${call.script} ${call.key} [${call.args.join(', ')}]`;
      if (call.script === 'increment' && 'ok' in viaRedis && 'ok' in viaMemory) {
        // its reply carries a PTTL, read on each side's own clock: equal within the step's span
        const [rv, rp] = viaRedis.ok as [number | string, number];
        const [mv, mp] = viaMemory.ok as [number | string, number];
        // exact on both sides: an integer within +-(2^53 - 1), the key's string beyond
        expect(mv, step).toBe(rv);
        expect(Math.abs(mp - rp), `${step}: PTTL ${mp} vs ${rp}`).toBeLessThanOrEqual(maxSpan);
      } else if (call.script === 'fixed_window' && 'ok' in viaRedis && 'ok' in viaMemory) {
        // its reply carries the window's PTTL too (packed with the count), read on each side's clock
        const [ra, ru, rp] = unpackFixedWindow(viaRedis.ok, Number(call.args[1]));
        const [ma, mu, mp] = unpackFixedWindow(viaMemory.ok, Number(call.args[1]));
        expect([ma, mu], step).toEqual([ra, ru]);
        expect(Math.abs(mp - rp), `${step}: time left ${mp} vs ${rp}`).toBeLessThanOrEqual(maxSpan);
      } else {
        expect(viaMemory, step).toEqual(viaRedis);
      }
      touched.add(call.key);
      for (const key of touched) {
        const [rx, mx] = key === call.key ? [redisExpiry, memoryExpiry] : [await r.pexpiretime(key), store.pexpiretime(key)];
        if ((rx === -2 && mx >= 0 && mx <= Date.now() + maxSpan) || (mx === -2 && rx >= 0 && rx <= Date.now() + maxSpan)) {
          // a TTL of a few ms set by this step: due on both sides within the step's span, each
          // side read at its own instant (Redis in real time, the memory store at the step's start)
          await r.del(key);
          store.delete(key);
        } else if (rx < 0 || mx < 0) {
          expect(mx, `${step}: PEXPIRETIME of ${key}`).toBe(rx);
        } else {
          expect(rx - mx, `${step}: redis expiry - memory expiry of ${key}`).toBeGreaterThanOrEqual(0);
          expect(rx - mx, `${step}: redis expiry - memory expiry of ${key}`).toBeLessThanOrEqual(maxSpan);
          if (mx - clock < SHORT_TTL) {
            await r.del(key);
            store.delete(key);
          }
        }
      }
    }
  } finally {
    store.close();
  }
}

describe('MemoryStore parity with the Lua scripts on Redis', () => {
  it('collect, increment, set_keep_ttl on shared keys (values, errors such as a non-integer, TTLs)', async () => {
    const op = fc.oneof(
      fc.record({
        s: fc.constant('increment' as const),
        k: fc.integer({ min: 0, max: 2 }),
        by: fc.oneof(
          fc.integer({ min: -3, max: 5 }).map(String),
          fc.constantFrom('9007199254740991', '-9007199254740991', '9223372036854775807', '-9223372036854775808', '4611686018427387904'),
        ),
        ttl: fc.oneof(fc.integer({ min: 1, max: 5000 }), fc.integer({ min: 10_000, max: 100_000_000 })),
        mode: fc.constantFrom('fixed', 'sliding'),
      }),
      fc.record({ s: fc.constant('collect' as const), k: fc.integer({ min: 0, max: 2 }) }),
      fc.record({
        s: fc.constant('set_keep_ttl' as const),
        k: fc.integer({ min: 0, max: 2 }),
        value: fc.oneof(fc.integer({ min: -5, max: 50 }).map(String), fc.constantFrom('abc', '', '007', ' 1')),
      }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(op, dt), { minLength: 1, maxLength: 30, size: 'max' }), async (steps) => {
        const p = uniquePrefix('pstr');
        const calls = steps.map(([o]) => (): Call => {
          const key = `${p}:s${o.k}`;
          if (o.s === 'increment') return { script: 'increment', key, args: [String(o.by), String(o.ttl), o.mode] };
          if (o.s === 'collect') return { script: 'collect', key, args: [] };
          return { script: 'set_keep_ttl', key, args: [o.value] };
        });
        await runParity(calls, steps.map(([, d]) => d));
      }),
      { numRuns: 60 },
    );
  });

  /** Mostly long time scales (their state survives between steps), sometimes short ones. */
  const longOrShort = (long: [number, number], short: [number, number]) =>
    fc.oneof(
      { weight: 4, arbitrary: fc.integer({ min: long[0], max: long[1] }) },
      { weight: 1, arbitrary: fc.integer({ min: short[0], max: short[1] }) },
    );
  /** Steps around `unit` (a window, the time of one unit of refill, an open period) and at random. */
  const stepsAround = (...units: number[]) =>
    fc.oneof(
      { weight: 3, arbitrary: fc.constant(0) },
      { weight: 4, arbitrary: fc.integer({ min: 1, max: 20 }) },
      { weight: 3, arbitrary: fc.constantFrom(...units.flatMap((u) => [Math.max(0, u - 1), u, u + 1, Math.floor(u / 2), 2 * u])) },
      { weight: 1, arbitrary: fc.integer({ min: 0, max: 2 * Math.max(...units) }) },
      { weight: 1, arbitrary: fc.constant(10 * Math.max(...units)) },
    );
  type Alg = 'fixed' | 'swl' | 'swc' | 'tb' | 'lb' | 'gcra';
  const SCRIPT = {
    fixed: 'fixed_window',
    swl: 'sliding_window_log',
    swc: 'sliding_window_counter',
    tb: 'token_bucket',
    lb: 'leaky_bucket',
    gcra: 'gcra',
  } as const;
  /** [script params, the time scale of one unit] */
  const paramsOf = (alg: Alg): fc.Arbitrary<[number[], number]> => {
    if (alg === 'fixed' || alg === 'swl' || alg === 'swc') {
      return fc
        .tuple(fc.integer({ min: 1, max: 5 }), longOrShort([10_000, 120_000], [1, 5000]))
        .map(([limit, windowMs]) => [[limit, windowMs], windowMs]);
    }
    if (alg === 'gcra') {
      // burst, P, L: an emission interval of P/L ms
      return fc
        .tuple(fc.integer({ min: 1, max: 5 }), longOrShort([30_000, 300_000], [1, 1000]), fc.integer({ min: 1, max: 3 }))
        .map(([burst, per, units]) => [[burst, per, units], Math.ceil(per / units)]);
    }
    // capacity, num, den: a rate of num/den units per ms
    return fc
      .tuple(fc.integer({ min: 1, max: 5 }), fc.integer({ min: 1, max: 3 }), longOrShort([30_000, 300_000], [1, 1000]))
      .map(([capacity, num, den]) => [[capacity, num, den], Math.ceil(den / num)]);
  };

  it.each(['fixed', 'swl', 'swc', 'tb', 'lb', 'gcra'] as const)(
    '%s (allow, deny, never, retry and reset times, TTLs; WRONGTYPE across types)',
    async (alg) => {
      const run = paramsOf(alg).chain(([params, unit]) =>
        fc.tuple(
          fc.constant(params),
          fc.array(
            fc.tuple(
              fc.record({
                k: fc.integer({ min: 0, max: 1 }),
                cost: fc.integer({ min: 1, max: 6 }),
                // now and then another script on this key: a limiter of another type, or collect
                cross: fc.oneof(
                  { weight: 15, arbitrary: fc.constant(null) },
                  { weight: 1, arbitrary: fc.constantFrom('fixed' as const, 'gcra' as const, 'collect' as const) },
                ),
              }),
              stepsAround(unit),
            ),
            { minLength: 1, maxLength: 30, size: 'max' },
          ),
        ),
      );
      const other: Record<'fixed' | 'gcra', string[]> = { fixed: ['3', '60000'], gcra: ['3', '60000', '1'] };
      await fc.assert(
        fc.asyncProperty(run, async ([params, steps]) => {
          const p = uniquePrefix(`p${alg}`);
          const calls = steps.map(([o]) => (now: number): Call => {
            const key = `${p}:${o.k}`;
            if (o.cross === 'collect') return { script: 'collect', key, args: [] };
            if (o.cross !== null) return { script: SCRIPT[o.cross], key, args: [...other[o.cross], String(o.cost), String(now)] };
            return { script: SCRIPT[alg], key, args: [...params.map(String), String(o.cost), String(now)] };
          });
          await runParity(calls, steps.map(([, d]) => d));
        }),
        { numRuns: 60 },
      );
    },
  );

  // the fixed window has no clock of its own (its window is its key's TTL): its clock steps are
  // those of the store it runs on (tests/runtime/clock-steps.test.ts, tests/faults/clock-step.test.ts)
  it.each(['swl', 'swc', 'tb', 'lb', 'gcra'] as const)('%s with a clock that steps back and forth (the state keeps the latest time it saw)', async (alg) => {
    const run = paramsOf(alg).chain(([params, unit]) =>
      fc.tuple(
        fc.constant(params),
        fc.array(
          fc.tuple(
            fc.record({ k: fc.integer({ min: 0, max: 1 }), cost: fc.integer({ min: 1, max: 3 }) }),
            fc.oneof(
              { weight: 3, arbitrary: stepsAround(unit) },
              { weight: 2, arbitrary: fc.constantFrom(-1, -unit, -unit - 1, -Math.floor(unit / 2), -2 * unit, -10 * unit) },
            ),
          ),
          { minLength: 1, maxLength: 30, size: 'max' },
        ),
      ),
    );
    await fc.assert(
      fc.asyncProperty(run, async ([params, steps]) => {
        const p = uniquePrefix(`pb${alg}`);
        const calls = steps.map(([o]) => (now: number): Call => ({
          script: SCRIPT[alg],
          key: `${p}:${o.k}`,
          args: [...params.map(String), String(o.cost), String(now)],
        }));
        await runParity(calls, steps.map(([, d]) => d));
      }),
      { numRuns: 40 },
    );
  });

  it('sliding-window log over long runs on one key: retry times by rank, 64-at-a-time pruning, running totals that start over', async () => {
    // limits up to 150 and runs of up to 400 calls: the Lua's rank guess for calls of cost 1, its
    // binary search for larger costs, more than 64 members leaving the window at once, totals
    // that start over while members of the last run are still to prune
    const run = fc
      // windows of 20 s and more: the key outlives the run in real time (see SHORT_TTL)
      .tuple(fc.integer({ min: 20, max: 150 }), fc.integer({ min: 20_000, max: 120_000 }))
      .chain(([limit, windowMs]) =>
        fc.tuple(
          fc.constant([limit, windowMs] as const),
          fc.array(
            fc.tuple(
              fc.oneof(
                { weight: 8, arbitrary: fc.constant(1) },
                { weight: 3, arbitrary: fc.integer({ min: 2, max: 4 }) },
                { weight: 1, arbitrary: fc.integer({ min: 5, max: limit }) },
              ),
              fc.oneof(
                { weight: 12, arbitrary: fc.constant(0) },
                { weight: 6, arbitrary: fc.integer({ min: 1, max: 5 }) },
                { weight: 1, arbitrary: fc.constantFrom(windowMs - 1, windowMs, windowMs + 1, Math.floor(windowMs / 2)) },
              ),
            ),
            { minLength: 100, maxLength: 400 },
          ),
        ),
      );
    await fc.assert(
      fc.asyncProperty(run, async ([[limit, windowMs], steps]) => {
        const key = `${uniquePrefix('pswl')}:k`;
        const calls = steps.map(([cost]) => (now: number): Call => ({
          script: 'sliding_window_log',
          key,
          args: [String(limit), String(windowMs), String(cost), String(now)],
        }));
        await runParity(calls, steps.map(([, d]) => d));
      }),
      { numRuns: 10 },
    );
  });

  it('the three circuit breaker scripts (every transition, retry times, TTLs, deletions)', async () => {
    const op = fc.record({
      s: fc.constantFrom('acquire', 'acquire', 'acquire', 'read', 'success', 'failure', 'failure', 'failure'),
      k: fc.integer({ min: 0, max: 1 }),
    });
    const run = fc
      .tuple(
        fc.integer({ min: 1, max: 3 }),
        longOrShort([10_000, 100_000], [1, 5000]),
        longOrShort([10_000, 100_000], [1, 5000]),
        fc.integer({ min: 1, max: 3 }),
      )
      .chain((params) => fc.tuple(fc.constant(params), fc.array(fc.tuple(op, stepsAround(params[1], params[2])), { minLength: 1, maxLength: 40, size: 'max' })));
    await fc.assert(
      fc.asyncProperty(run, async ([params, steps]) => {
        const p = uniquePrefix('pcb');
        const calls = steps.map(([o]) => (now: number): Call => {
          const key = `${p}:b${o.k}`;
          const args = [...params.map(String), String(now)];
          if (o.s === 'acquire') return { script: 'circuit_acquire', key, args };
          if (o.s === 'read') return { script: 'circuit_read', key, args };
          return { script: 'circuit_record', key, args: [...args, o.s] };
        });
        await runParity(calls, steps.map(([, d]) => d));
      }),
      { numRuns: 150 },
    );
  });

  it('argument errors are the same error replies', async () => {
    const r = redis.client();
    const runner = runnerFor(r);
    const store = new MemoryStore();
    const bad: Array<[ScriptName, string[]]> = [
      ['fixed_window', ['0', '1000', '1', '']],
      ['token_bucket', ['5', '1', '0', '1']],
      ['token_bucket', ['5', '1', '2.5']],
      ['gcra', ['5', '1', '1', '1', '-1']],
      ['sliding_window_log', ['0', '1000']],
      ['sliding_window_counter', ['5', '1000', '0']],
      ['leaky_bucket', ['5', '0', '1']],
      ['increment', ['1.5', '100', 'fixed']],
      ['increment', ['1', '100', 'forever']],
      ['circuit_record', ['1', '1000', '1000', '1', '', 'maybe']],
      ['circuit_acquire', ['1', '1000', '0', '1', '']],
    ];
    for (const [script, args] of bad) {
      const key = `${uniquePrefix('perr')}:k`;
      const [fromRedis, fromMemory] = await errorsOf(runner, store, script, key, args);
      expect(fromRedis.startsWith(fromMemory), `${script}: ${fromRedis} / ${fromMemory}`).toBe(true);
      expect(fromMemory).toMatch(/^ERR redis-ttl /);
    }
    store.close();
  });

  it("a bucket's or GCRA's key that holds no 24 bytes of three integers in range is an error reply on both, and is left as it was", async () => {
    // key format 3: struct.unpack('<ddd') of exactly 24 bytes, each number an integer in
    // [0, 2^53), the third >= 1; the text of format 2 is a value these scripts did not write
    const r = redis.client();
    const runner = runnerFor(r);
    const store = new MemoryStore();
    const values = [
      'a',
      '5:1700000000000:1',
      'a'.repeat(24), // 0x6161... : integers, but past 2^53
      '\u00e9'.repeat(12), // 24 bytes in UTF-8, negative doubles
      '\u0000'.repeat(24), // 0, 0, 0: a denominator of 0
      '\u0000'.repeat(23) + '\u0001', // a subnormal third number: no integer
    ];
    const params: Array<[ScriptName, string[]]> = [
      ['token_bucket', ['5', '1', '100', '1', String(T0)]],
      ['leaky_bucket', ['5', '1', '100', '1', String(T0)]],
      ['gcra', ['5', '100', '1', '1', String(T0)]],
    ];
    for (const [script, args] of params) {
      for (const value of values) {
        const key = `${uniquePrefix('pfmt')}:k`;
        const step = `${script} on ${JSON.stringify(value)}`;
        for (const [name, a] of [['fixed_window', ['5', '100000']], ['set_keep_ttl', [value]]] as Array<[ScriptName, string[]]>) {
          await runner.run(getScript(name), [key], a);
          store.runScript(name, [key], a);
        }
        const [fromRedis, fromMemory] = await errorsOf(runner, store, script, key, args);
        expect(fromRedis, step).toMatch(new RegExp(`^ERR redis-ttl ${script}: the key holds a value this script did not write`));
        expect(fromMemory, step).toBe(`ERR redis-ttl ${script}: the key holds a value this script did not write`);
        expect(await r.get(key), step).toBe(value);
        expect(store.runScript('collect', [key], []), step).toBe(value);
      }
    }
    store.close();
  });

  it("GCRA reads back the TAT it wrote past 2^53 - 1 (now + whole ms up to 2 * (2^53 - 1)), on both; a TAT past that is refused", async () => {
    // key format 3 checked every number against [0, 2^53): a TAT of now + burst * T past it (nowMs
    // near 2^53, or a real clock plus an interval of ~9 * 10^15 ms) was written by one call and
    // refused by the next as "a value this script did not write", on Redis only
    const r = redis.client();
    const runner = runnerFor(r);
    const store = new MemoryStore();
    const MAX = 9007199254740991;
    const cases: Array<[string[], number[]]> = [
      [['5', '100', '1'], [MAX - 5, MAX - 4, MAX - 4, MAX - 4, MAX - 4, MAX - 4, MAX]],
      [['3', '7', '3'], [MAX - 1, MAX - 1, MAX, MAX, MAX]],
      [['1', String(2 ** 52), '1'], [2 ** 52 + 1, 2 ** 52 + 2]],
    ];
    for (const [params, nows] of cases) {
      const key = `${uniquePrefix('pgtat')}:k`;
      for (const now of nows) {
        const args = [...params, '1', String(now)];
        const step = `gcra ${args.join(' ')}`;
        const fromRedis = await runner.run(getScript('gcra'), [key], args).then(
          (reply) => reply,
          (error: Error) => error.message,
        );
        expect(fromRedis, step).toEqual(store.runScript('gcra', [key], args));
        expect(typeof fromRedis === 'number' || Array.isArray(fromRedis), step).toBe(true);
      }
    }
    // near miss: a TAT of 2^54 (past anything the script writes) is still refused
    const key = `${uniquePrefix('pgtat')}:k`;
    const bytes = Buffer.alloc(24);
    bytes.writeDoubleLE(2 ** 54, 0);
    bytes.writeDoubleLE(0, 8);
    bytes.writeDoubleLE(1, 16);
    await r.set(key, bytes);
    await expect(runner.run(getScript('gcra'), [key], ['5', '100', '1', '1', String(MAX)])).rejects.toThrow(/did not write/);
    store.close();
  });

  it('24 bytes of text whose doubles are integers in range are read as a state, on both alike (format 3 has no tag)', async () => {
    // 'abcdef3C' is the little-endian double 0x4333666564636261, an integer in [2^52, 2^53): such a
    // text under a bucket's key is a state whose time lies ~173,000 years ahead (the lag), as the
    // docs say; both sides read it the same way and rewrite it with the same lag
    const r = redis.client();
    const runner = runnerFor(r);
    const store = new MemoryStore();
    const text = 'abcdef3C'.repeat(3);
    for (const [script, args] of [
      ['token_bucket', ['5', '1', '1', '1', String(T0)]],
      ['leaky_bucket', ['5', '1', '1', '1', String(T0)]],
      ['gcra', ['5', '100', '1', '1', String(T0)]],
    ] as Array<[ScriptName, string[]]>) {
      const key = `${uniquePrefix('ptext')}:k`;
      await r.set(key, text);
      store.runScript('fixed_window', [key], ['5', '100000']);
      store.runScript('set_keep_ttl', [key], [text]);
      const fromRedis = await runner.run(getScript(script), [key], args);
      expect(fromRedis, script).toEqual(store.runScript(script, [key], args));
      expect(JSON.stringify(fromRedis), script).not.toMatch(/did not write/);
    }
    store.close();
  });

  it('a limiter argument that is not a number is an error reply on both, and nothing is written', async () => {
    // the limiter scripts coerce their arguments by arithmetic (cheaper than tonumber): Redis
    // answers with its script error, the memory store with the script's message
    const r = redis.client();
    const runner = runnerFor(r);
    const store = new MemoryStore();
    const bad: Array<[ScriptName, string[]]> = [
      ['fixed_window', ['x', '1000']],
      ['fixed_window', ['5', '1000', 'two']],
      ['sliding_window_log', ['5', '']],
      ['sliding_window_counter', ['5', '1000', '1', 'soon']],
      ['token_bucket', ['5', '1', 'x']],
      ['leaky_bucket', ['5', 'x', '1']],
      ['gcra', ['x', '1', '1']],
    ];
    for (const [script, args] of bad) {
      const key = `${uniquePrefix('pnan')}:k`;
      const fromRedis = await runner.run(getScript(script), [key], args).then(
        () => 'no error',
        (error: Error) => error.message,
      );
      expect(fromRedis, script).toMatch(/^ERR /);
      expect(() => store.runScript(script, [key], args), script).toThrow(/^ERR redis-ttl /);
      expect(await r.exists(key), script).toBe(0);
      expect(store.keys(), script).toEqual([]);
    }
    store.close();
  });
});
