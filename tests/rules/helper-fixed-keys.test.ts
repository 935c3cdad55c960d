/**
 * A fixed-name key built by a helper of a package the application installs from a path of its
 * repository (round 38, `redis-calls/local-dependencies.ts`). The kind: a serverless repository's
 * functions share `common/` through `"common": "file:../common"` (no workspace declared), and a
 * ZADD goes to `redisHelper.getHeartbeatKey()`, a method of the exported helper object that
 * returns a constant (`HeartbeatKeyPrefix`), or a configured prefix plus constants: one key,
 * bounded like a literal key, not reported. Near-misses that stay reported: a helper that appends
 * its parameter (`getTaskHeartbeatKey(taskID)`), and the fixed key plus a request value. The
 * helper module's own functions are still read as before (the package is read for its values,
 * not followed as code by the client detector: `redisHelper` stays a client by its name).
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import tsParser from '@typescript-eslint/parser';
import { Linter } from 'eslint';
import { describe, expect, it } from 'vitest';
import incrRule from '../../rules/incr-needs-expire-on-create.js';
import { localDependencyDir } from '../../redis-calls/local-dependencies.js';

const fixtures = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'helper-fixed-keys');

function lint(path: string, parser?: typeof tsParser): Array<[number, number, string, string]> {
  const filename = join(fixtures, path);
  const linter = new Linter({ configType: 'flat', cwd: fixtures });
  const messages = linter.verify(
    readFileSync(filename, 'utf8'),
    [{ files: ['**/*.js'], languageOptions: { sourceType: 'commonjs', ...(parser ? { parser } : {}) }, plugins: { t: { rules: { incr: incrRule as never } } }, rules: { 't/incr': 'error' } }],
    { filename },
  );
  return messages.map((m) => [m.line, m.column, m.messageId ?? '', m.message.split(' ').slice(0, 3).join(' ')]);
}

const perTask: Array<[number, number, string, string]> = [
  [8, 21, 'noExpiry', 'ZADD creates `heartbeats:*`'],
  [9, 21, 'noExpiry', 'ZADD creates `heartbeats:*`'],
];

describe('fixed-name keys built by a helper of a local path dependency', () => {
  it('leaves the fixed heartbeats registry and the configured queue alone, reports per-task keys (espree)', () => {
    expect(lint('callback/handlers/callback.js')).toEqual(perTask);
  });
  it('reads the same with @typescript-eslint/parser', () => {
    expect(lint('callback/handlers/callback.js', tsParser)).toEqual(perTask);
  });
  it('resolves a file: dependency into the project, nothing else', () => {
    expect(localDependencyDir(join(fixtures, 'callback', 'handlers'), 'common')).toBe(join(fixtures, 'common'));
    // not a dependency of the manifest, or a registry range
    expect(localDependencyDir(join(fixtures, 'callback', 'handlers'), 'redis')).toBeUndefined();
    expect(localDependencyDir(join(fixtures, 'common'), 'redis')).toBeUndefined();
  });
});
