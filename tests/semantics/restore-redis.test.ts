/**
 * RESTORE's TTL argument checked on a real redis-server (https://redis.io/docs/latest/commands/restore/):
 * 0 restores the key without TTL, a positive TTL in milliseconds sets it, and a negative one is
 * rejected ("Invalid TTL value, must be >= 0"). The command table says the same, and both front
 * ends follow it: `expire-needs-positive-ttl` does not call RESTORE 0 a delete, and lua-lint calls
 * a negative RESTORE rejected.
 */
import { describe, expect, it } from 'vitest';
import { analyzeLua } from '../../lua-lint/index.js';
import { describeCommand } from '../../semantics/commands.js';
import { lintSnippet } from '../helpers/lint.js';
import { uniquePrefix, useRedis } from '../helpers/redis.js';

const redis = useRedis();
const prefix = uniquePrefix('restore');

describe('RESTORE on a real server', () => {
  it('restores without TTL for 0, with the TTL for a positive value, and rejects a negative one', async () => {
    const client = redis.client();
    await client.set(`${prefix}:src`, 'v');
    const payload = await client.dumpBuffer(`${prefix}:src`);
    expect(describeCommand('RESTORE', [`${prefix}:a`, 0, 'payload'])).toMatchObject({ keys: [{ effect: 'overwrite' }] });
    expect(describeCommand('RESTORE', [`${prefix}:a`, 0, 'payload']).rejected).toBeUndefined();
    await client.restore(`${prefix}:a`, 0, payload);
    expect(await client.pttl(`${prefix}:a`)).toBe(-1);
    expect(describeCommand('RESTORE', [`${prefix}:b`, 5000, 'payload']).keys[0]!.effect).toBe('create-with-ttl');
    await client.restore(`${prefix}:b`, 5000, payload);
    const pttl = await client.pttl(`${prefix}:b`);
    expect(pttl).toBeGreaterThan(4000);
    expect(pttl).toBeLessThanOrEqual(5000);
    expect(describeCommand('RESTORE', [`${prefix}:c`, -5, 'payload'])).toMatchObject({ rejected: true, nonPositiveTtlArg: 1, keys: [{ effect: 'read' }] });
    await expect(client.restore(`${prefix}:c`, -5, payload)).rejects.toThrow('Invalid TTL value');
    expect(await client.exists(`${prefix}:c`)).toBe(0);
  });

  it('is judged by both front ends as the table says', () => {
    const code = `import Redis from 'ioredis';
const redis = new Redis();
export async function copy(k: string, payload: Buffer) {
  await redis.restore(k, 0, payload, 'REPLACE');
  await redis.restore(k, -5, payload);
}
`;
    const found = lintSnippet(code, { 'redis-ttl/expire-needs-positive-ttl': ['error', {}] }).map((m) => [m.line, m.column, m.messageId]);
    expect(found).toEqual([[5, 26, 'literalRejected']]);
    // each rejection aborts its script, so each is a script of its own
    const lua = (source: string) => analyzeLua(source).filter((f) => f.ruleId === 'expire-needs-positive-ttl').map((f) => [f.line, f.message]);
    expect(lua("redis.call('RESTORE', KEYS[1], -5, ARGV[1])")).toEqual([
      [1, 'RESTORE with the timeout -5 is rejected by Redis, which aborts the script and keeps every write made before it. Use a positive integer TTL.'],
    ]);
    expect(lua("redis.call('HEXPIRE', KEYS[1], -1, 'FIELDS', 1, 'f')")).toEqual([
      [1, 'HEXPIRE with the timeout -1 is rejected by Redis, which aborts the script and keeps every write made before it. Use a positive integer TTL.'],
    ]);
  });
});
