/**
 * A second creation path of a record family (redis-calls/minted-ids.ts): a function that writes
 * one field of a per-run hash for a run id its callers have just minted (`randomUUID()`) creates
 * that record, even when another function of the file creates the family whole. It is no field
 * update of the family's record (redis-calls/record-creation.ts), so `incr-needs-expire-on-create`
 * reports it beside the whole-record creation. Near misses that stay dropped as updates: the id is
 * handed to the creation first, it comes from a job's data, the function is called nowhere, one
 * caller of two mints it; and a test's call does not count.
 */
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { lintApplication } from '../helpers/lint.js';
import { ioredis } from './tester.js';

const INCR = 'incr-needs-expire-on-create';

const roots: string[] = [];
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

// line 5 the whole-record creation, line 9 the one-field seed of another kind of run
const seeds = (callers: string) =>
  ioredis(`import { randomUUID } from 'node:crypto';
export async function seedRun(runId: string, fields: Record<string, string>) {
  await redis.hset(\`workflow:state:\${runId}\`, fields);
}
export async function seedFlush(runId: string, version: string) {
  const key = \`workflow:state:\${runId}\`;
  await redis.hset(key, 'version', version);
}
${callers}
`);

const BOTH = [
  [INCR, 'noExpiry', 5, 15],
  [INCR, 'noExpiry', 9, 15],
];
const CREATION_ONLY = [BOTH[0]];

// the module on disk in an application (its callers are known only there: facades.ts callSitesOf)
const lintSeeds = (code: string) => lintApplication(roots, { 'src/seed.ts': code }, 'src/seed.ts', { [INCR]: {} }, []);

describe('a record written for an identifier its callers have just minted', () => {
  it('is a creation of its own, reported beside the family creation', () => {
    expect(lintSeeds(seeds(`export async function flush(version: string) {
  const runId = randomUUID();
  await seedFlush(runId, version);
}`))).toEqual(BOTH);
    // minted in the argument itself, by another minter
    expect(lintSeeds(seeds(`export async function flush(version: string) {
  await seedFlush(nanoid(), version);
}
declare function nanoid(): string;`))).toEqual(BOTH);
    // the minted value reshaped, and an ObjectId made without an argument
    expect(lintSeeds(seeds(`export async function flush(version: string) {
  await seedFlush(randomUUID().slice(0, 8), version);
  await seedFlush(new ObjectId().toString(), version);
}
declare class ObjectId { constructor(id?: string); toString(): string }`))).toEqual(BOTH);
  });

  it('stays an update when a "minter" parses an id it is given, or the function is handed on as a value', () => {
    for (const callers of [
      // new ObjectId(hex) and generateId(seed) read an existing id
      `export async function finish(hex: string, version: string) {
  const runId = new ObjectId(hex).toString();
  await seedFlush(runId, version);
  await seedFlush(generateId(hex), version);
}
declare class ObjectId { constructor(id?: string); toString(): string }
declare function generateId(seed?: string): string;`,
      // handed to a queue: it runs with the job's id, which no call site shows
      `export async function flush(version: string) {
  await seedFlush(randomUUID(), version);
}
export const handlers = { flush: seedFlush };`,
    ]) {
      expect(lintSeeds(seeds(callers))).toEqual(CREATION_ONLY);
    }
  });

  it('stays an update when the id is not freshly minted for it', () => {
    for (const callers of [
      // handed to the creation first: the record exists when the seed runs
      `export async function start(version: string) {
  const runId = randomUUID();
  await seedRun(runId, {});
  await seedFlush(runId, version);
}`,
      // an id read from a job
      `export async function onJob(job: { data: { runId: string } }) {
  await seedFlush(job.data.runId, 'v1');
}`,
      // one caller of two mints it
      `export async function flush(version: string) {
  await seedFlush(randomUUID(), version);
}
export async function again(runId: string) {
  await seedFlush(runId, 'v2');
}`,
      // called nowhere: its callers are unknown
      '',
    ]) {
      expect(lintSeeds(seeds(callers))).toEqual(CREATION_ONLY);
    }
  });
});

describe('an ObjectId', () => {
  it('mints an identifier when made from nothing, and wraps an existing one when handed a value', () => {
    // `new ObjectId()`: a new document's id
    expect(lintSeeds(seeds(`export async function flush(version: string) {
  await seedFlush(new ObjectId() as unknown as string, version);
}
declare class ObjectId { constructor(id?: string); }`))).toEqual(BOTH);
    // `new ObjectId(req.params.id)`, `ObjectId(hex)`: the id of a stored document, parsed
    for (const callers of [
      `export async function onRequest(req: { params: { id: string } }) {
  await seedFlush(new ObjectId(req.params.id) as unknown as string, 'v1');
}
declare class ObjectId { constructor(id?: string); }`,
      `export async function onRequest(req: { params: { id: string } }) {
  await seedFlush(ObjectId(req.params.id), 'v1');
}
declare function ObjectId(id?: string): string;`,
    ]) {
      expect(lintSeeds(seeds(callers))).toEqual(CREATION_ONLY);
    }
  });
});

describe('a record written for an identifier minted in another module', () => {
  const files = (caller: string, extra: Record<string, string> = {}) => ({
    'src/redis.ts': `import Redis from 'ioredis';\nexport const redis = new Redis();\n`,
    'src/seed.ts': `import { redis } from './redis';
export async function seedRun(runId: string, fields: Record<string, string>) {
  await redis.hset(\`workflow:state:\${runId}\`, fields);
}
export async function seedFlush(runId: string, version: string) {
  await redis.hset(\`workflow:state:\${runId}\`, 'version', version);
}
`,
    // seedRun is called (an exported function nothing calls is uncalled code, not reported)
    'src/enqueue.ts': `import { seedRun } from './seed';\nexport const enqueueRun = (runId: string) => seedRun(runId, {});\n${caller}`,
    ...extra,
  });
  const lint = (caller: string, extra?: Record<string, string>) => lintApplication(roots, files(caller, extra), 'src/seed.ts', { [INCR]: {} }, []);

  it('reports the seed the enqueuing module calls with a fresh crypto.randomUUID()', () => {
    expect(lint(`import { seedFlush } from './seed';
export async function enqueueFlush(version: string) {
  const runId = crypto.randomUUID();
  await seedFlush(runId, version);
}
`)).toEqual([
      [INCR, 'noExpiry', 3, 15],
      [INCR, 'noExpiry', 6, 15],
    ]);
  });

  it('keeps it an update when a module calls the seed with an id it was given under another name, or through an index', () => {
    const minted = `import { seedFlush } from './seed';
export async function enqueueFlush(version: string) {
  await seedFlush(crypto.randomUUID(), version);
}
`;
    expect(lint(`${minted}import { seedFlush as flushSeed } from './seed';
export async function resume(runId: string) {
  await flushSeed(runId, 'v1');
}
`)).toEqual([[INCR, 'noExpiry', 3, 15]]);
    expect(
      lint(minted, {
        'src/index.ts': `export * from './seed';\n`,
        'src/resume.ts': `import { seedFlush } from './index';\nexport const resume = (runId: string) => seedFlush(runId, 'v1');\n`,
      }),
    ).toEqual([[INCR, 'noExpiry', 3, 15]]);
    // the same modules, every call minting: a creation of its own
    expect(
      lint(minted, {
        'src/index.ts': `export * from './seed';\n`,
        'src/resume.ts': `import { seedFlush as flushSeed } from './index';\nexport const restart = () => flushSeed(crypto.randomUUID(), 'v1');\n`,
      }),
    ).toEqual([
      [INCR, 'noExpiry', 3, 15],
      [INCR, 'noExpiry', 6, 15],
    ]);
  });

  it('keeps it an update when the enqueuing module passes an id it was given, whatever a test does', () => {
    expect(
      lint(`import { seedFlush } from './seed';
export async function resume(runId: string) {
  await seedFlush(runId, 'v1');
}
`, { 'src/seed.test.ts': `import { seedFlush } from './seed';\nit('seeds', async () => { await seedFlush(crypto.randomUUID(), 'v0'); });\n` }),
    ).toEqual([[INCR, 'noExpiry', 3, 15]]);
  });

  it('keeps it an update when a caller behind a re-export passes an id it was given', () => {
    expect(
      lint(`import { seedFlush } from './seed';
export async function enqueueFlush(version: string) {
  await seedFlush(crypto.randomUUID(), version);
}
`, {
        'src/index.ts': `export { seedFlush } from './seed';\n`,
        'src/worker.ts': `import { seedFlush } from './index';\nexport async function onJob(job: { data: { runId: string } }) {\n  await seedFlush(job.data.runId, 'v1');\n}\n`,
      }),
    ).toEqual([[INCR, 'noExpiry', 3, 15]]);
  });
});
