/**
 * The cost of attributing keys to inventory shapes (inventory/match.ts), next to folding them
 * (what the audit does for every key without an inventory), in CPU nanoseconds per key: 200,000
 * keys of the four shapes `bench/audit/run.ts` seeds plus a fifth family no shape matches, against
 * an inventory of those four shapes and 400 others (200 sharing the `app:` prefix, so the radix
 * tree has a wide node, 100 with a leading `*`, found by their trailing literal, 100 constant
 * keys), and the same with 50 shapes more that have `*` at both ends (an unknown keyPrefix),
 * which every key is tried against. 6 rounds
 * interleaved, the first a warm-up; medians.
 *
 *   node --import tsx bench/audit/match.ts
 */
import { randomUUID } from 'node:crypto';
import { foldKey, PatternCache } from '../../audit/fold.js';
import { ShapeIndex } from '../../inventory/match.js';
import { hashIdentity } from '../../runtime/keys.js';
import { type BenchRun, medianNsPerKey } from './rounds.js';

const keys: string[] = [];
for (let i = 0; i < 200_000; i += 1) {
  const family = [
    `session:{${((i * 2654435761) >>> 0).toString(16)}}:pending`,
    `user:${i}:profile`,
    `rl:fw:v2:{${hashIdentity(`id-${i}`)}}:search:60`,
    `cache:${randomUUID()}`,
    `legacy:report:${i}:pdf`,
  ];
  keys.push(family[i % 5]!);
}
const shapes = ['session:{*}:pending', 'user:*:profile', 'rl:fw:v2:{*}:search:*', 'cache:*'];
for (let i = 0; i < 200; i += 1) shapes.push(`app:svc${i}:*:state`);
for (let i = 0; i < 100; i += 1) shapes.push(`*:tenant${i}:jobs`);
for (let i = 0; i < 100; i += 1) shapes.push(`config:flag${i}`);
const index = new ShapeIndex(shapes.map((shape, id) => ({ shape, value: id })));
// 50 more written through a client whose keyPrefix the analysis cannot read: `*` at both ends,
// tried on every key
const unknownPrefix = new ShapeIndex([...shapes, ...Array.from({ length: 50 }, (_, i) => `*worker${i}:*`)].map((shape, id) => ({ shape, value: id })));

const runs: BenchRun[] = [
  ['foldKey (no inventory: every key folded)', () => keys.reduce((n, key) => n + foldKey(key).length, 0)],
  [
    'PatternCache.fold (what the scan does)',
    () => {
      const cache = new PatternCache();
      return keys.reduce((n, key) => n + cache.fold(key).length, 0);
    },
  ],
  ['ShapeIndex.match (404 shapes)', () => keys.reduce((n, key) => n + (index.match(key) ?? -1), 0)],
  ['ShapeIndex.match (454 shapes, 50 with `*` at both ends)', () => keys.reduce((n, key) => n + (unknownPrefix.match(key) ?? -1), 0)],
  [
    'match, then PatternCache.fold for keys no shape matches (what the scan does with an inventory)',
    () => {
      const cache = new PatternCache();
      return keys.reduce((n, key) => {
        const shape = index.match(key);
        return n + (shape === undefined ? cache.fold(key).length : shape);
      }, 0);
    },
  ],
];

const results = medianNsPerKey(runs, keys.length);
const base = results.get(runs[1]![0])!.ns;
console.log(`keys matched: ${keys.filter((key) => index.match(key) !== undefined).length.toLocaleString('en-US')} of ${keys.length.toLocaleString('en-US')}`);
console.log('| run | ns per key (median of 5) | / PatternCache.fold |');
console.log('| --- | ---: | ---: |');
for (const [name, { ns }] of results) console.log(`| ${name} | ${Math.round(ns)} | ${(ns / base).toFixed(2)} |`);
