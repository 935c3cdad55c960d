/**
 * The audit's per-key work on its own: folding a name into its pattern (`foldKey`), and the whole
 * of it as the scan does it (`showKey`: the name decoded from the key's bytes, folded, then the
 * pattern looked up in a map), in CPU nanoseconds per key over the 200,000 keys of the four
 * shapes `bench/audit/run.ts` seeds, 5 interleaved rounds after one of warm-up, medians.
 *
 *   node --import tsx bench/audit/fold.ts
 *   node --import tsx bench/audit/fold.ts <dir>   (also the audit/ of another version in the same
 *     rounds, e.g. `git archive <commit> audit cli | tar -x -C <dir>` with <dir> in this checkout)
 */
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import * as ours from '../../audit/index.js';
import { hashIdentity } from '../../runtime/keys.js';
import { type BenchRun, medianNsPerKey } from './rounds.js';

type Audit = Pick<typeof ours, 'foldKey' | 'showKey'> & { PatternCache?: typeof ours.PatternCache };
const other = process.argv[2] === undefined ? undefined : ((await import(pathToFileURL(path.resolve(process.argv[2], 'audit/index.ts')).href)) as Audit);

const keys: Buffer[] = [];
for (let i = 0; i < 200_000; i += 1) {
  const id = [`session:{${((i * 2654435761) >>> 0).toString(16)}}:pending`, `user:${i}:profile`, `rl:fw:v2:{${hashIdentity(`id-${i}`)}}:search:60`, `cache:${randomUUID()}`];
  keys.push(Buffer.from(id[i % 4]!));
}
const names = keys.map((key) => key.toString('latin1'));

function runs(label: string, audit: Audit): BenchRun[] {
  return [
    [`${label} foldKey`, () => names.reduce((n, name) => n + audit.foldKey(name).length, 0)],
    [
      `${label} showKey + lookup`,
      () => {
        const patterns = new Map<string, number>();
        const cache = audit.PatternCache === undefined ? undefined : new audit.PatternCache();
        for (const key of keys) {
          const { pattern } = audit.showKey(key, cache);
          patterns.set(pattern, (patterns.get(pattern) ?? 0) + 1);
        }
        return patterns.size;
      },
    ],
  ];
}

const all = [...runs('ours', ours), ...(other === undefined ? [] : runs('other', other))];
const results = medianNsPerKey(all, keys.length);
console.log('| run | ns per key (median of 5) | output |');
console.log('| --- | ---: | ---: |');
for (const [name, { ns, output }] of results) console.log(`| ${name} | ${Math.round(ns)} | ${output} |`);
