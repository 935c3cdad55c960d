/**
 * README.md's client table (### Clients): one row per client of tests/consumer/clients.ts, and
 * every cell a link to the test that backs it, `[mark](<repository>/blob/main/<test file> "<describe
 * name> › <test title>")`, where the file exists, holds that test title and that describe name as
 * string literals (a describe.each row's `name`), and the mark says what the test asserts: ✓ where
 * it expects findings, a fix or a run of the runtime, ✗ where it expects none.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/build.js';
import { REPOSITORY } from '../helpers/markdown.js';
import { CLIENTS, type ClientCase } from '../consumer/clients.js';

interface Cell {
  mark: string;
  path: string;
  title: string;
}

const COLUMNS = ['rules untyped', 'rules typed', 'embedded Lua', 'fixes', 'runtime'] as const;

/** The rows of the table under `### Clients`: the client's name and its cells. */
function table(): { name: string; cells: Cell[] }[] {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const at = readme.indexOf('### Clients\n');
  expect(at).toBeGreaterThan(-1);
  const lines = readme.slice(at).split('\n');
  const start = lines.findIndex((line) => line.startsWith('| client |'));
  expect(lines[start]).toBe(`| client | ${COLUMNS.join(' | ')} |`);
  const rows: { name: string; cells: Cell[] }[] = [];
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith('|')) break;
    const [name, ...cells] = line.slice(2, -2).split(' | ');
    rows.push({
      name: name!,
      cells: cells.map((cell) => {
        const link = /^\[([^\]]+)\]\(([^ )]+) "([^"]+)"\)$/.exec(cell);
        if (link === null) throw new Error(`README.md, ${name}: a cell that is not one link with a test's name: ${cell}`);
        const [, mark, url, title] = link;
        const path = url!.startsWith(`${REPOSITORY}/blob/main/`) ? url!.slice(`${REPOSITORY}/blob/main/`.length) : url!;
        return { mark: mark!, path, title: title! };
      }),
    });
  }
  return rows;
}

/** What the consumer test asserts for `client` in each column: a finding, fix or run (true) or none (false). */
function asserted(client: ClientCase): boolean[] {
  const line6 = client.code[5];
  return [client.untyped.length > 0, client.typed.length > 0, client.lua.length > 0, client.fixed !== line6, true];
}

/** Whether `text` holds `value` as a string literal. */
const literal = (text: string, value: string) => [`'${value}'`, `"${value}"`, `\`${value}\``].some((quoted) => text.includes(quoted) || text.includes(quoted.replace(/'/g, "\\'")));

describe("README.md's client table", () => {
  const rows = table();

  it('has one row per client of the consumer test, in its order, and five cells each', () => {
    expect(rows.map((r) => r.name)).toEqual(CLIENTS.map((c) => c.name));
    for (const row of rows) expect(row.cells, row.name).toHaveLength(COLUMNS.length);
  });

  it.each(rows)('$name: every cell names a test that exists', ({ name, cells }) => {
    for (const [i, cell] of cells.entries()) {
      const where = `${name}, ${COLUMNS[i]}: ${cell.path} "${cell.title}"`;
      expect(existsSync(join(ROOT, cell.path)), where).toBe(true);
      const [describeName, testTitle, ...rest] = cell.title.split(' › ');
      expect(rest, where).toEqual([]);
      const text = readFileSync(join(ROOT, cell.path), 'utf8');
      expect(literal(text, testTitle!), `${where}: no test titled so`).toBe(true);
      // the describe name: a describe.each row of the test file, or a client of tests/consumer/clients.ts
      const rowsText = cell.path === 'tests/consumer/clients.test.ts' ? readFileSync(join(ROOT, 'tests/consumer/clients.ts'), 'utf8') : text;
      expect(literal(rowsText, describeName!), `${where}: no describe row named so`).toBe(true);
    }
  });

  it.each(rows)("$name: each mark says what its test asserts (✓ a finding, a fix or a run; ✗ none)", ({ name, cells }) => {
    const client = CLIENTS.find((c) => c.name === name)!;
    const expected = asserted(client).map((yes, i) => (i === 4 && client.run === undefined ? '✓ stand-in' : yes ? '✓' : '✗'));
    expect(cells.map((c) => c.mark)).toEqual(expected);
    // the runtime cell names the consumer test's run where the client runs under Node, else the stand-in's test
    expect(cells[4]!.path).toBe(client.run === undefined ? 'tests/runtime/adapters.test.ts' : 'tests/consumer/clients.test.ts');
  });

  it('the check itself: a cell naming a test that does not exist is refused', () => {
    const text = readFileSync(join(ROOT, 'tests/consumer/clients.test.ts'), 'utf8');
    expect(literal(text, 'rules untyped: the findings of app.js')).toBe(true);
    expect(literal(text, 'rules untyped: the findings of app.jsx')).toBe(false);
  });
});
