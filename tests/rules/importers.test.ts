/**
 * The bounded walk over the modules importing a module (`redis-calls/importers.ts`), which reads
 * the callers of a wrapper under another name (round 16: the unbounded walk read every module
 * naming the method and cost minutes on a 355-file application). Exact visits: the importers found
 * by their specifiers, the levels, the depth bound, the count bound and the early stop.
 */
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { importersOf, importSpecifiers, MAX_IMPORT_DEPTH, MAX_MODULES_READ, mayBeWrapperName, walkImporters, type Visit } from '../../redis-calls/importers.js';
import type { AnyContext } from '../../redis-calls/static.js';

const src = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'forwarding-callers', 'app', 'src');
const at = (name: string): string => join(src, name);

/** The visits of a walk from `roots`, as `name@level`, each level sorted. */
function visits(roots: string[], answer: (path: string) => Visit = () => 'passed'): string[] {
  const seen: Array<[string, number]> = [];
  walkImporters(roots, (path, depth) => {
    seen.push([path, depth]);
    return answer(path);
  });
  return seen.sort((a, b) => a[1] - b[1] || a[0].localeCompare(b[0])).map(([path, depth]) => `${path.slice(src.length + 1)}@${depth}`);
}

describe('importersOf', () => {
  it('finds the modules whose specifiers resolve to the module, and no other', () => {
    expect(importersOf(at('queue.ts'))).toEqual([at('container.ts')]);
    expect(importersOf(at('container.ts')).sort()).toEqual([at('hop1.ts'), at('jobs.ts')]);
    // `import type { Store } from './store'`: an importer too (callers typed with the interface)
    expect(importersOf(at('store.ts')).sort()).toEqual([at('cache.ts'), at('memory.ts'), at('stats.ts')]);
    // nothing imports far.ts
    expect(importersOf(at('far.ts'))).toEqual([]);
  });
});

describe('mayBeWrapperName', () => {
  const context = { filename: at('jobs.ts'), physicalFilename: at('jobs.ts') } as unknown as AnyContext;
  it('holds for the names of methods declared in a module naming Redis, and no other', () => {
    // cache.ts and queue.ts import ioredis and declare them
    expect(['increase', 'pushBack', 'add', 'enqueue', 'record'].map((name) => mayBeWrapperName(context, name))).toEqual([true, true, true, true, true]);
    // memory.ts declares `increase` but names no Redis client; jobs.ts declares `schedule`, far.ts
    // `audit`, and neither names Redis; `handle` is declared nowhere; queue.ts calls `rpush`
    expect(['schedule', 'audit', 'handle', 'rpush'].map((name) => mayBeWrapperName(context, name))).toEqual([false, false, false, false]);
  });
});

describe('walkImporters', () => {
  it('visits the roots, then their importers level by level, up to MAX_IMPORT_DEPTH', () => {
    expect(MAX_IMPORT_DEPTH).toBe(5);
    // hop5.ts (level 6) and far.ts (level 7) are beyond the bound
    expect(visits([at('queue.ts')])).toEqual(['queue.ts@0', 'container.ts@1', 'hop1.ts@2', 'jobs.ts@2', 'hop2.ts@3', 'hop3.ts@4', 'hop4.ts@5']);
  });

  it('stops at the first verdict', () => {
    expect(visits([at('queue.ts')], (path) => (path.endsWith('container.ts') ? 'found' : 'read'))).toEqual(['queue.ts@0', 'container.ts@1']);
  });

  describe('in a package of many importers', () => {
    const root = mkdtempSync(join(tmpdir(), 'importers-'));
    afterAll(() => rmSync(root, { recursive: true, force: true }));
    writeFileSync(join(root, 'package.json'), JSON.stringify({ name: 'many', private: true }));
    mkdirSync(join(root, 'src'));
    writeFileSync(join(root, 'src', 'store.ts'), 'export class Store { bump(key: string) { return key; } }\n');
    for (let i = 0; i < 60; i++) writeFileSync(join(root, 'src', `user${i}.ts`), `import { Store } from './store';\nexport const s${i} = new Store();\n`);
    // a module naming the store in a comment and a string only: no specifier resolves to it
    writeFileSync(join(root, 'src', 'other.ts'), "// see ./store\nexport const note = './store is elsewhere';\n");

    it('reads at most MAX_MODULES_READ modules, and looks at every importer when it reads none', () => {
      let read = 0;
      walkImporters([join(root, 'src', 'store.ts')], () => (read++, 'read'));
      expect(read).toBe(MAX_MODULES_READ);
      let looked = 0;
      walkImporters([join(root, 'src', 'store.ts')], () => (looked++, 'passed'));
      expect(looked).toBe(61);
      expect(importersOf(join(root, 'src', 'store.ts'))).toHaveLength(60);
    });
  });
});

describe('importSpecifiers', () => {
  it('reads from, side-effect import, dynamic import, require and a plain template, each once in order', () => {
    const text = "import a from './a';\nimport './b';\nconst c = await import(`./c`);\nconst d = require('./d');\nexport { e } from \"./e\";\nimport again from './a';\nconst f = import(`./${name}`);\n";
    expect(importSpecifiers(text)).toEqual(['./a', './b', './c', './d', './e']);
  });
});
