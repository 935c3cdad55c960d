// Growth between runs (audit/baseline.ts) without a server: reading a baseline report, the
// comparison of counts (exact and sampled), --fail-on-growth's threshold and what it refuses.
import { describe, expect, it } from 'vitest';
import { DEFAULT_AUDIT_OPTIONS, type PatternReport, runAudit, type SampleEstimate } from '../../audit/audit.js';
import { compareWithBaseline, parseBaseline } from '../../audit/baseline.js';

const pattern = (name: string, keys: number, noTtl: number, extra: Partial<PatternReport> = {}): PatternReport => ({
  pattern: name,
  shape: null,
  writtenBy: null,
  keys,
  noTtl,
  noTtlShare: keys === 0 ? 0 : noTtl / keys,
  memoryBytes: null,
  ttl: { '<1m': 0, '<1h': 0, '<1d': 0, '<7d': 0, '>=7d': 0 },
  largest: [],
  idlest: [],
  examples: [],
  noTtlExamples: [],
  ...extra,
});

const report = (patterns: object[], extra: object = {}) => JSON.stringify({ tool: 'redis-ttl-audit', target: 'redis://h:6379', totals: { memoryBytes: null }, sample: null, patterns, ...extra });

describe('parseBaseline', () => {
  it('reads the counts per pattern, adding up a name given twice', () => {
    const baseline = parseBaseline(report([{ pattern: 'a:*', keys: 10, noTtl: 2, memoryBytes: null }, { pattern: 'a:*', keys: 5, noTtl: 1 }, { pattern: 'b', keys: 1, noTtl: 0 }]), 'before.json');
    expect(baseline).toEqual({
      source: 'before.json',
      target: 'redis://h:6379',
      sampled: false,
      memory: false,
      patterns: new Map([
        ['a:*', { keys: 15, noTtl: 3, memoryBytes: null }],
        ['b', { keys: 1, noTtl: 0, memoryBytes: null }],
      ]),
    });
  });

  it('scales a sample that stopped early to its estimates', () => {
    const baseline = parseBaseline(
      report([{ pattern: 'a:*', keys: 100, noTtl: 10, memoryBytes: 1000, estimatedKeys: 1000 }], { sample: { stoppedEarly: true }, totals: { memoryBytes: 1000 } }),
      'b.json',
    );
    expect([baseline.sampled, baseline.memory, baseline.patterns.get('a:*')]).toEqual([true, true, { keys: 1000, noTtl: 100, memoryBytes: 10_000 }]);
  });

  it('names the file and the JSON path of what is wrong', () => {
    expect(() => parseBaseline('[]', 'b.json')).toThrow('b.json: $.tool: not a report of redis-ttl-audit --format json (no "tool": "redis-ttl-audit")');
    expect(() => parseBaseline(JSON.stringify({ tool: 'redis-ttl-audit' }), 'b.json')).toThrow('b.json: $.patterns: expected an array');
    expect(() => parseBaseline(report([{ pattern: 3, keys: 1, noTtl: 0 }]), 'b.json')).toThrow('b.json: $.patterns[0].pattern: expected a string');
    expect(() => parseBaseline(report([{ pattern: 'a', keys: 1, noTtl: 0.5 }]), 'b.json')).toThrow('b.json: $.patterns[0].noTtl: expected a whole number >= 0, got 0.5');
  });
});

describe('compareWithBaseline', () => {
  const baseline = parseBaseline(report([{ pattern: 'a:*', keys: 10, noTtl: 4 }, { pattern: 'gone:*', keys: 3, noTtl: 3 }, { pattern: 'kept:*', keys: 2, noTtl: 2 }]), 'before.json');

  it('compares every pattern of either run, the largest growth first, and marks those over the threshold', () => {
    const notes = new Set<string>();
    const now = [pattern('a:*', 20, 10), pattern('new:*', 4, 4), pattern('kept:*', 50, 50)];
    const growth = compareWithBaseline(now, null, false, baseline, 5, (p) => p.pattern === 'kept:*', notes);
    expect(growth.baseline).toEqual({ file: 'before.json', target: 'redis://h:6379' });
    expect([growth.estimated, growth.failOnGrowth]).toEqual([false, 5]);
    expect(growth.patterns.map((g) => [g.pattern, g.keysBefore, g.keys, g.noTtlBefore, g.noTtl, g.noTtlGrowth, g.persistent, g.grew, g.exceeded])).toEqual([
      ['kept:*', 2, 50, 2, 50, 48, true, true, false],
      ['a:*', 10, 20, 4, 10, 6, false, true, true],
      ['new:*', 0, 4, 0, 4, 4, false, true, false],
      ['gone:*', 3, 0, 3, 0, -3, false, false, false],
    ]);
    expect(notes.size).toBe(0);
    // exactly n more keys is not more than n
    expect(compareWithBaseline(now, null, false, baseline, 6, () => false, notes).patterns.filter((g) => g.exceeded).map((g) => g.pattern)).toEqual(['kept:*']);
  });

  it('compares estimates when this run is a sample that stopped early, and says so', () => {
    const notes = new Set<string>();
    const sample = { stoppedEarly: true } as SampleEstimate;
    const growth = compareWithBaseline([pattern('a:*', 10, 2, { estimatedKeys: 100 })], sample, false, baseline, undefined, () => false, notes);
    expect(growth.estimated).toBe(true);
    expect(growth.patterns[0]).toMatchObject({ pattern: 'a:*', keys: 100, noTtl: 20, noTtlGrowth: 16, exceeded: false });
    expect([...notes]).toEqual(['Growth compares estimates: this run was a --sample that stopped early.']);
  });
});

describe('runAudit refuses', () => {
  const options = { ...DEFAULT_AUDIT_OPTIONS, baseline: parseBaseline(report([]), 'b.json') };
  it('--fail-on-growth without a baseline, with a sample, or against a sampled baseline', async () => {
    await expect(runAudit([], { ...DEFAULT_AUDIT_OPTIONS, failOnGrowth: 1 })).rejects.toThrow('fail-on-growth needs a baseline to compare with');
    await expect(runAudit([], { ...options, failOnGrowth: 1, sample: 10 })).rejects.toThrow('fail-on-growth cannot be combined with sample');
    await expect(runAudit([], { ...options, failOnGrowth: -1 })).rejects.toThrow('failOnGrowth must be a whole number');
    const sampled = parseBaseline(report([], { sample: { stoppedEarly: true } }), 's.json');
    await expect(runAudit([], { ...DEFAULT_AUDIT_OPTIONS, baseline: sampled, failOnGrowth: 1 })).rejects.toThrow(
      'fail-on-growth needs exact counts, but the baseline s.json is a --sample report (its counts are estimates)',
    );
  });
});
