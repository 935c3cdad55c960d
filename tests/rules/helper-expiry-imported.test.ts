/**
 * An EXPIRE queued in the write's own MULTI by a helper imported from another module of the code
 * (`redis-calls/helper-expiry.ts`): `queuePrune(tx, key, { expireSeconds })` of `./capped-log`
 * queues the key's EXPIRE on the chain it is given whenever its TTL is positive. Near misses stay
 * reported: the imported helper expiring another key than the one it is given, and one whose
 * EXPIRE hangs on a flag unrelated to its TTL.
 */
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import tsParser from '@typescript-eslint/parser';
import { Linter } from 'eslint';
import { afterAll, describe, expect, it } from 'vitest';
import plugin from '../../rules/index.js';
import { writeProject } from '../helpers/lint.js';

const roots: string[] = [];
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

const APPLICATION = JSON.stringify({ name: 'app', private: true });
/** The helper module: a trim, then `expire` written by `expireLine` (of `key`, behind its test). */
const cappedLog = (expireLine: string): string =>
  `import type { ChainableCommander } from 'ioredis';\nexport function queuePrune(chain: ChainableCommander, key: string, { maxEntries, expireSeconds, verbose }: { maxEntries: number; expireSeconds: number; verbose?: boolean }) {\n  chain.zremrangebyrank(key, 0, -maxEntries - 1);\n${expireLine}\n  return chain;\n}\n`;
const STORE =
  "import Redis from 'ioredis';\nimport { queuePrune } from './capped-log';\nconst redis = new Redis();\nexport async function log(tenant: string, entry: string) {\n  const key = `job-log:${tenant}`;\n  const tx = redis.multi().zadd(key, String(Date.now()), entry);\n  queuePrune(tx, key, { maxEntries: 1000, expireSeconds: 86400 });\n  await tx.exec();\n}\n";

/** [rule id, messageId, line, column] of each incr-needs-expire-on-create finding on store.ts. */
function lint(expireLine: string): Array<[string | null, string | undefined, number, number]> {
  const root = writeProject(roots, { 'package.json': APPLICATION, 'capped-log.ts': cappedLog(expireLine), 'store.ts': STORE });
  const linter = new Linter({ configType: 'flat', cwd: root });
  const rules = { 'redis-ttl/incr-needs-expire-on-create': 'error' } as Linter.RulesRecord;
  writeFileSync(join(root, 'store.ts'), STORE);
  return linter
    .verify(STORE, [{ files: ['**/*.ts'], languageOptions: { parser: tsParser }, plugins: { 'redis-ttl': plugin }, rules }], { filename: join(root, 'store.ts') })
    .map((m) => [m.ruleId, m.messageId, m.line, m.column]);
}

describe('an EXPIRE an imported helper queues in the same MULTI', () => {
  it('queued whenever its TTL is positive: not reported', () => {
    expect(lint('  if (expireSeconds > 0) chain.expire(key, expireSeconds);')).toEqual([]);
  });

  it('of another key than the one it is given: reported', () => {
    expect(lint('  if (expireSeconds > 0) chain.expire(`${key}:meta`, expireSeconds);')).toEqual([['redis-ttl/incr-needs-expire-on-create', 'noExpiry', 6, 28]]);
  });

  it('behind a flag unrelated to its TTL: reported', () => {
    expect(lint('  if (verbose) chain.expire(key, expireSeconds);')).toEqual([['redis-ttl/incr-needs-expire-on-create', 'noExpiry', 6, 28]]);
  });
});
