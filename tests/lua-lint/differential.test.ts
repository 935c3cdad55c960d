// lua-lint checked against a real redis-server: random scripts, each run over many pre-states and
// arguments, compared with the analyzer's verdict (bench/differential; `npm run bench:differential`
// runs thousands). CI runs one fixed seed; the rates on a fresh seed are in docs/accuracy.md.
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compareScript, minimize, plansFor } from '../../bench/differential/compare.js';
import { generateScript, normalize, render, type GeneratedScript, type KeyType, type Stmt } from '../../bench/differential/generate.js';
import { instrument, planRuns } from '../../bench/differential/oracle.js';
import { describeComparison, runDifferential } from '../../bench/differential/run.js';
import { startRedisServer, type RedisHandle } from '../helpers/redis-server.js';

/** The CI seed: fixed, and never the seed the rates of docs/accuracy.md come from. */
const CI_SEED = 12;

/** A hand-written script over KEYS[1..n], named k1..kn, of the given types. */
function scriptOf(types: KeyType[], body: Stmt[]): GeneratedScript {
  return { id: 0, seed: 0, keyCount: types.length, keys: types.map((type, i) => ({ expr: `KEYS[${i + 1}]`, name: `k${i + 1}`, type })), body };
}

let server: RedisHandle;
let redis: Redis;

beforeAll(async () => {
  server = await startRedisServer();
  redis = new Redis(server.url, { maxRetriesPerRequest: 2 });
});

afterAll(async () => {
  redis?.disconnect();
  await server?.stop();
});

describe('the generator', () => {
  it('is deterministic per (seed, id) and writes 3 to 25 statements over KEYS and ARGV', () => {
    const a = generateScript(7, 3);
    expect(generateScript(7, 3)).toEqual(a);
    expect(render(generateScript(7, 4).body)).not.toBe(render(a.body));
    const sizes = Array.from({ length: 200 }, (_, id) => generateScript(7, id)).map((s) => render(s.body).split('\n').length);
    expect(Math.min(...sizes)).toBeGreaterThanOrEqual(3);
    const all = Array.from({ length: 200 }, (_, id) => render(generateScript(7, id).body)).join('\n');
    for (const needle of ["ipairs(KEYS)", '#KEYS', 'local function h1(k)', 'redis.pcall(', "'EXPIREAT'", "'NX', 'GT'", "'COPY'", "'RENAME'", 'return redis.error_reply']) {
      expect(all).toContain(needle);
    }
  });

  it('drops statements after a return or break in the same block (Lua 5.1 wants them last)', () => {
    expect(render(normalize([{ kind: 'line', text: 'return 1' }, { kind: 'line', text: "redis.call('INCR', KEYS[1])" }]))).toBe('return 1');
  });
});

describe('the oracle', () => {
  it('counts a key created without TTL, a TTL removed, and a key deleted then created again; not a key renamed', async () => {
    const script = (lines: string[]): GeneratedScript => scriptOf(['string', 'string'], lines.map((text) => ({ kind: 'line', text })));
    const run = async (lines: string[], pre: Array<'absent' | 'ttl' | 'no-ttl'>) =>
      (await compareScript(redis, script(lines), [{ pre, variants: [0, 0], argv: ['1', '2', '1', '4102444800'], validArgs: true }])).oracle.runs[0]!;
    expect((await run(["redis.call('INCR', KEYS[1])"], ['absent', 'absent'])).leaked).toEqual(['k1']);
    expect((await run(["redis.call('INCR', KEYS[1])"], ['no-ttl', 'absent'])).leaked).toEqual([]);
    expect((await run(["redis.call('SET', KEYS[1], '1')"], ['ttl', 'absent'])).leaked).toEqual(['k1']);
    expect((await run(["redis.call('DEL', KEYS[1])", "redis.call('INCR', KEYS[1])"], ['no-ttl', 'absent'])).leaked).toEqual(['k1']);
    expect((await run(["redis.call('RENAME', KEYS[1], KEYS[2])"], ['no-ttl', 'absent'])).leaked).toEqual([]);
    // Writes before a command that raises stay.
    const raised = await run(["redis.call('INCR', KEYS[1])", "redis.call('RENAME', KEYS[2], KEYS[1])", "redis.call('EXPIRE', KEYS[1], 60)"], ['absent', 'absent']);
    expect(raised.leaked).toEqual(['k1']);
    expect(raised.error).toMatch(/no such key/);
  });

  it('tries the inputs lua-lint assumes away and the ones that were missing (issue 28)', () => {
    const script = generateScript(5, 1);
    const plans = planRuns(script, 150, 5);
    // every invalid value (<= 0, a negative increment, fractional, not a number, empty) at each of the first four ARGV positions
    for (let position = 0; position < 4; position++) {
      for (const bad of ['0', '-1', '-5', '1.5', 'x', '']) {
        expect(plans.some((p) => !p.validArgs && p.argv[position] === bad), `ARGV[${position + 1}] = '${bad}'`).toBe(true);
      }
    }
    expect(plans.filter((p) => p.validArgs).length).toBeGreaterThan(90);
    // a member name in ARGV[5], often one the script spells; a long value; more than ten members
    expect(new Set(plans.map((p) => p.argv[4]))).toEqual(new Set(['a', 'f', 'g', 'b', 'x', 'm']));
    expect(plans.some((p) => p.argv[2] === '123456789012345678')).toBe(true);
    expect(plans.some((p) => p.variants.includes(2))).toBe(true);
    // some scripts get more keys than they name, which only a loop over KEYS reaches
    const scripts = Array.from({ length: 200 }, (_, id) => generateScript(5, id));
    const more = scripts.filter((s) => s.extraKeys === 2);
    expect(more.length).toBeGreaterThan(20);
    for (const s of more) {
      expect(s.keys.slice(0, s.keyCount).map((k) => k.name)).toEqual(['k1', 'k2', 'k3', 'k4', 'k5']);
      expect(render(s.body)).not.toMatch(/KEYS\[[45]\]/);
    }
  });

  it('seeds more than ten members and long strings', async () => {
    const script = scriptOf(['set', 'string'], [{ kind: 'line', text: "redis.call('SREM', KEYS[1], 'a')" }]);
    const { oracle } = await compareScript(redis, script, [{ pre: ['no-ttl', 'no-ttl'], variants: [2, 2], argv: ['1', '2', '1', '4102444800', 'a'], validArgs: true }]);
    expect(oracle.runs[0]!.leaked).toEqual([]);
    expect(await redis.scard('k1')).toBe(11);
    expect(await redis.get('k2')).toBe('123456789012345678');
  });

  it('instruments the script with one line before it, so its line numbers stay readable', () => {
    const text = instrument("return 1", ['k1']);
    expect(text.split('\n')).toHaveLength(2);
    expect(text.endsWith('\nreturn 1')).toBe(true);
  });
});

describe(`lua-lint against redis-server (seed ${CI_SEED}, 400 scripts)`, () => {
  it('misses no leak on scripts it calls clean, and reports at most 2% of scripts that never leak', async () => {
    const report = await runDifferential(redis, { seed: CI_SEED, scripts: 400, runs: 60, minimize: 5 });
    const shown = report.minimized.map(describeComparison).join('\n');
    // The run means something: both verdicts occur often.
    expect(report.clean).toBeGreaterThan(60);
    expect(report.reported).toBeGreaterThan(150);
    expect(report.counts.unusable).toBe(0);
    expect(report.counts['missed-leak'], shown).toBe(0);
    expect(report.falseAlarmRate, shown).toBeLessThanOrEqual(0.02);
  }, 120_000);
});

describe('the minimizer', () => {
  it('shrinks a disagreement to the statements that show it', async () => {
    // lua-lint does not track which members a set holds: SADD of a member already there answers 0.
    const script = scriptOf(['string', 'set', 'hash'], [
        { kind: 'line', text: "redis.call('SET', KEYS[1], '1', 'PX', 60000)" },
        { kind: 'line', text: "redis.call('SADD', KEYS[2], 'a', 'b')" },
        { kind: 'line', text: "redis.call('HSET', KEYS[3], 'f', '1')" },
        { kind: 'line', text: "redis.call('PEXPIRE', KEYS[3], 60000)" },
        { kind: 'block', head: "if redis.call('SADD', KEYS[2], 'a') == 1 then", body: [{ kind: 'line', text: 'return 0' }], tail: 'end' },
        { kind: 'line', text: "redis.call('GET', KEYS[1])" },
        { kind: 'line', text: "redis.call('DEL', KEYS[2])" },
      ]);
    const comparison = await compareScript(redis, script, plansFor(script, 40));
    expect(comparison.agreement).toBe('false-alarm');
    const small = await minimize(redis, comparison, 40);
    expect(small.agreement).toBe('false-alarm');
    expect(small.source).toBe("redis.call('SADD', KEYS[2], 'a', 'b')\nif redis.call('SADD', KEYS[2], 'a') == 1 then\n  return 0\nend\nredis.call('DEL', KEYS[2])");
  }, 60_000);
});
