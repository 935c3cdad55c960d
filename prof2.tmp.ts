import { performance } from 'node:perf_hooks';
import { generateCorpus } from './bench/lua-lint/corpus.ts';
import { parseLua as p1 } from './lua-lint/parse.ts';
import { walkScript as w1 } from './lua-lint/analyze.ts';
import { parseLua as p0 } from '/tmp/base/lua-lint/parse.ts';
import { walkScript as w0 } from '/tmp/base/lua-lint/analyze.ts';
const sources = generateCorpus(400, 42).map((s) => s.source);
function bench(parse: typeof p1, walk: typeof w1) {
  let tp = 0, tw = 0;
  for (const s of sources) {
    let t = performance.now();
    const r = parse(s, { positions: false }) as any;
    tp += performance.now() - t;
    t = performance.now();
    walk({ ast: r.ast, source: s, isPersistent: () => false, lineOf: () => 0 } as any);
    tw += performance.now() - t;
  }
  return [tp, tw];
}
for (let i = 0; i < 3; i++) { bench(p0 as any, w0 as any); bench(p1, w1); }
const a = bench(p0 as any, w0 as any), b = bench(p1, w1), a2 = bench(p0 as any, w0 as any), b2 = bench(p1, w1);
console.log('base parse/walk', a.map((x) => x.toFixed(0)), a2.map((x) => x.toFixed(0)), 'now', b.map((x) => x.toFixed(0)), b2.map((x) => x.toFixed(0)));
