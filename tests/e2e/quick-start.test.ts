/**
 * The README's quick start: exactly two commands on a fresh clone, the first of which CI runs as
 * written (`.ci/run`) and which works (`npm run demo`); and docs/development.md's test back ends,
 * listed in the order tests/helpers/redis-server.ts picks them.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { commands, readmeBlock } from '../consumer/readme.js';
import { ensureBuilt, ROOT } from '../helpers/build.js';

const run = promisify(execFile);
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
const DEVELOPMENT = readFileSync(join(ROOT, 'docs/development.md'), 'utf8');

describe('the quick start', () => {
  beforeAll(() => ensureBuilt(), 120_000);

  it('is two commands: set up and run the demo, run the tests; CI runs both', () => {
    expect(commands(readmeBlock('## Quick start on a fresh clone', 'sh'))).toEqual(['npm ci && npm run demo', 'npm test']);
    const ci = commands(readFileSync(join(ROOT, '.ci/run'), 'utf8')).filter((line) => line.startsWith('npm '));
    expect(ci.map((line) => line.replace(/ --no-audit --no-fund$/, ''))).toEqual(['npm ci', 'npm run demo', 'npm run lint', 'npm run typecheck', 'npm test', 'npm run test:ci']);
    expect(README).not.toMatch(/^npx lua-lint/m);
  });

  it('npm run demo shows both analyzers on the examples and exits 0', async () => {
    const { stdout } = await run('npm', ['run', '--silent', 'demo'], { cwd: ROOT, timeout: 60_000 });
    expect(stdout).toContain('$ lua-lint examples/scripts');
    expect(stdout).toContain('✖ 3 problems (3 errors, 0 warnings)');
    expect(stdout).toContain('redis-ttl/no-getset');
    expect(stdout).toContain('As expected: the examples leak on purpose');
  });

  it('names the test back ends in the order the helpers pick them', () => {
    const start = DEVELOPMENT.indexOf('## Running the tests');
    expect(start).toBeGreaterThanOrEqual(0);
    const section = DEVELOPMENT.slice(start, DEVELOPMENT.indexOf('\n## ', start + 1));
    const said = ['`REDIS_TEST_URL`', 'testcontainers', '`redis-server` from PATH'].map((name) => section.indexOf(name));
    expect(said.every((at) => at >= 0)).toBe(true);
    expect([...said].sort((a, b) => a - b)).toEqual(said);
    const source = readFileSync(join(ROOT, 'tests/helpers/redis-server.ts'), 'utf8');
    const body = source.slice(source.indexOf('export async function startRedis()'));
    const picked = ['namedTestServer()', 'dockerAnswers()', 'startRedisServer()'].map((call) => body.indexOf(call));
    expect(picked.every((at) => at >= 0)).toBe(true);
    expect([...picked].sort((a, b) => a - b)).toEqual(picked);
  });
});
