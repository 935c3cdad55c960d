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

const runs: [string, () => number][] = [
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

const times = new Map<string, number[]>(runs.map(([name]) => [name, []]));
const outputs = new Map<string, number>();
for (let round = 0; round < 6; round += 1) {
  for (let k = 0; k < runs.length; k += 1) {
    const [name, run] = runs[(k + round) % runs.length]!;
    const started = process.cpuUsage();
    outputs.set(name, run());
    const used = process.cpuUsage(started);
    if (round > 0) times.get(name)!.push(((used.user + used.system) * 1000) / keys.length);
  }
}
const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)]!;
const base = median(times.get(runs[1]![0])!);
console.log(`keys matched: ${keys.filter((key) => index.match(key) !== undefined).length.toLocaleString('en-US')} of ${keys.length.toLocaleString('en-US')}`);
console.log('| run | ns per key (median of 5) | / PatternCache.fold |');
console.log('| --- | ---: | ---: |');
for (const [name] of runs) {
  const ns = median(times.get(name)!);
  console.log(`| ${name} | ${Math.round(ns)} | ${(ns / base).toFixed(2)} |`);
}
