// docs/redis-ttl-audit.md stays in step with the CLI: every option of --help has a row in the
// options table and every row is a real option; the formats, csv header and exit codes are documented.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CSV_COLUMNS, FORMAT_NAMES } from '../../audit/format.js';
import { TTL_STATUSES } from '../../inventory/format.js';
import { runCli } from './run-cli.js';

const page = readFileSync(path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../docs/redis-ttl-audit.md'), 'utf8');

describe('docs/redis-ttl-audit.md', () => {
  it('documents exactly the options of --help', async () => {
    const help = (await runCli(['--help'])).stdout;
    const fromHelp = [...help.matchAll(/^ {2}((?:-\w, )?--[\w-]+(?: <\w+>)?)/gm)].map((m) => m[1]);
    const table = page.slice(page.indexOf('## Options'), page.indexOf('## Exit codes'));
    const fromDocs = [...table.matchAll(/^\| `([^`]+)` \|/gm)].map((m) => m[1]);
    expect(fromDocs).toEqual(fromHelp);
    expect(fromHelp.length).toBeGreaterThan(15);
  });

  it('names the formats, the csv header and the four exit codes', () => {
    for (const format of FORMAT_NAMES) expect(page).toContain(`\`${format}\``);
    expect(page).toContain(CSV_COLUMNS.join(','));
    expect(page).toMatch(/\| 0 \| the audit ran/);
    expect(page).toMatch(/\| 1 \| a `--fail-on-persistent` pattern matched keys without TTL/);
    expect(page).toMatch(/\| 2 \| usage error/);
    expect(page).toMatch(/\| 3 \| the `--fix-ttl` confirmation on a terminal was answered no/);
  });

  it('documents every field of the inventory format and every ttl status', () => {
    const section = page.slice(page.indexOf('## The inventory format'), page.indexOf('## How shapes match live keys'));
    for (const field of ['version', 'tool', 'root', 'shapes[]', 'shapes[].shape', 'shapes[].keyPrefix', 'shapes[].persistent', 'shapes[].writes[]', 'shapes[].reads[]', 'unresolved[]']) {
      expect(section).toContain(`| \`${field}\` |`);
    }
    for (const status of TTL_STATUSES) expect(section).toContain(`| \`${status}\` |`);
    for (const field of ['`file`', '`line`', '`column`', '`command`', '`client`', '`via`']) expect(section).toContain(field);
  });
});
