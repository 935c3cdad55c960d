// The benchmark's corpus must stay deterministic and valid Lua, or its figures mean nothing.
import { describe, expect, it } from 'vitest';
import { generateCorpus } from '../../bench/lua-lint/corpus.js';
import { analyzeLua } from '../../lua-lint/index.js';

describe('bench/lua-lint corpus', () => {
  const corpus = generateCorpus(60, 42);

  it('is the same for the same seed and different for another', () => {
    expect(generateCorpus(60, 42)).toEqual(corpus);
    expect(generateCorpus(60, 43)).not.toEqual(corpus);
  });

  it('has scripts of a few KB, libraries among them, all parsing, some with findings', () => {
    const sizes = corpus.map((script) => script.source.length);
    expect(Math.min(...sizes)).toBeGreaterThan(1000);
    expect(Math.max(...sizes)).toBeLessThan(12_000);
    expect(corpus.some((script) => script.name.startsWith('library-') && script.source.startsWith('#!lua name='))).toBe(true);
    const findings = corpus.map((script) => analyzeLua(script.source));
    expect(findings.flat().filter((finding) => finding.fatal)).toEqual([]);
    const withFindings = findings.filter((list) => list.length > 0).length;
    expect(withFindings).toBeGreaterThan(0);
    expect(withFindings).toBeLessThan(corpus.length);
  });
});
