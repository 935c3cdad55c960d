/**
 * Which `new Worker(...)` starts a module by a computed path (redis-calls/process-spawns.ts), told
 * by the package the class comes from: worker_threads' `new Worker(filename, options)` names its
 * file first (its options are no path); BullMQ's `new Worker(queueName, processor)` names a
 * sandboxed processor's file second, and a processor function (written there, declared in the
 * module or imported) is no path. A start by a computed path switches the unreached-module
 * reading off for the whole package, so neither form may be taken for one when it is not.
 *
 * Stays a computed start: worker_threads' first argument or BullMQ's processor path built from a
 * name (`join(__dirname, 'workers', file)`), also through a `const`, and a `Worker` of a module of
 * the code (its form unknown) handed a name it cannot resolve.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { spawnsByComputedPath } from '../../redis-calls/process-spawns.js';

const dir = mkdtempSync(join(tmpdir(), 'process-spawns-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let count = 0;

/** Whether the module of text `text` starts a module by a computed path. */
function spawns(text: string): boolean {
  const path = join(dir, `m${count++}.ts`);
  writeFileSync(path, text);
  return spawnsByComputedPath(path, text);
}

describe('a Worker by the package its class comes from', () => {
  it("BullMQ's processor function is no path: written there, declared in the module, or imported", () => {
    expect(spawns("import { Worker } from 'bullmq';\nasync function processJob(job: unknown) { return job; }\nexport const w = new Worker('emails', processJob);\n")).toBe(false);
    expect(spawns("import { Worker } from 'bullmq';\nimport { processJob } from './jobs';\nexport const w = new Worker('emails', processJob, { concurrency: 2 });\n")).toBe(false);
    expect(spawns("const { Worker } = require('bullmq');\nconst processJob = async (job) => job;\nmodule.exports = new Worker(process.env.QUEUE, processJob);\n")).toBe(false);
  });

  it("worker_threads' options are no path: its first argument is", () => {
    expect(spawns("import { Worker } from 'node:worker_threads';\nexport const start = (workerData: unknown) => new Worker('./w.js', { workerData });\n")).toBe(false);
    expect(spawns("import * as threads from 'worker_threads';\nexport const start = (workerData: unknown) => new threads.Worker(new URL('./w.js', import.meta.url), { workerData });\n")).toBe(false);
  });

  it('keeps a path built from a name, of either form, also through a const, and an unknown Worker handed an unknown name', () => {
    expect(spawns("import { Worker } from 'node:worker_threads';\nimport { join } from 'node:path';\nexport const start = (file: string) => new Worker(join(__dirname, 'workers', file), { workerData: 1 });\n")).toBe(true);
    expect(spawns("import { Worker } from 'bullmq';\nimport { join } from 'node:path';\nexport const start = (name: string) => new Worker('emails', join(__dirname, 'processors', name));\n")).toBe(true);
    expect(spawns("import { Worker } from 'bullmq';\nimport { join } from 'node:path';\nconst processorFile = join(__dirname, process.env.PROCESSOR!);\nexport const w = new Worker('emails', processorFile);\n")).toBe(true);
    expect(spawns("import { Worker } from './queue';\nexport const start = (processJob: string) => new Worker('emails', processJob);\n")).toBe(true);
    // a written path of either form is found by its file name, not taken for a computed start
    expect(spawns("import { Worker } from 'bullmq';\nimport { join } from 'node:path';\nexport const w = new Worker('emails', join(__dirname, 'processor.js'));\n")).toBe(false);
  });
});

describe('where the Worker class and the processor are bound (review of round 31)', () => {
  it('a global Worker (Node, Bun, Deno) is read as worker_threads: its options are no path', () => {
    expect(spawns("export const start = (workerData: unknown) => new Worker('./w.js', { workerData });\n")).toBe(false);
    expect(spawns('export const start = (file: string) => new Worker(`./workers/${file}.js`);\n')).toBe(true);
  });

  it('BullMQ required inside a function is no global: its queue name is not taken for the path, its processor path is', () => {
    expect(spawns("export async function start(name: string) {\n  const { Worker } = await import('bullmq');\n  return new Worker('emails', `./processors/${name}.js`);\n}\n")).toBe(true);
    expect(spawns("export function start(name) {\n  const { Worker } = require('bullmq');\n  return new Worker('emails', require('path').join(__dirname, name));\n}\n")).toBe(true);
  });

  it('a function of the same name declared only in another scope does not make a processor parameter a function', () => {
    expect(spawns("import { Worker } from 'bullmq';\nfunction helpers() {\n  function processJob() { return 1; }\n  return processJob;\n}\nexport const start = (processJob: string) => new Worker('emails', processJob);\n")).toBe(true);
  });
});
