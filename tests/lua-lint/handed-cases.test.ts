import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyzeLua } from '../../lua-lint/index.js';
import { expectedFindings } from '../helpers/expectations.js';

const FIXTURES = join(import.meta.dirname, '..', 'fixtures');

/** Every `.lua` fixture of a folder: its findings must be exactly its `-- expect:` annotations. */
function goldenSuite(folder: string): void {
  const dir = join(FIXTURES, folder);
  const files = readdirSync(dir).filter((f) => f.endsWith('.lua')).sort();
  it('has fixtures', () => expect(files.length).toBeGreaterThan(20));
  for (const file of files) {
    it(file, () => {
      const source = readFileSync(join(dir, file), 'utf8');
      const actual = analyzeLua(source)
        .map((f) => `${f.ruleId ?? 'parse-error'}@${f.line}`)
        .sort();
      expect(actual).toEqual(expectedFindings(source, '--'));
    });
  }
}

describe('handed cases (../shared/cases/lua, copied into tests/fixtures/cases/lua)', () => {
  goldenSuite('cases/lua');
});

describe('project cases (tests/fixtures/lua)', () => {
  goldenSuite('lua');
});
