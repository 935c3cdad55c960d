/**
 * The one reading of locks (`redis-calls/locks.ts`) that the SET rule's lock suggestions and the
 * lifecycle reading of deletes share: a write names a lock by its key's shape or by the owner
 * value written with its key (SET, SETNX, GETSET, MSETNX: each MSETNX key's own value); MSET's
 * values are no owner; a lock write (`isLockWrite`) is also create-if-missing (SET NX, SETNX,
 * MSETNX).
 */
import { describe, expect, it } from 'vitest';
import { isLockWrite, namesLock } from '../../redis-calls/locks.js';
import { readingsOfCalls } from '../helpers/redis-calls.js';

/** `[command, key argument, namesLock, isLockWrite]` for every key of every Redis call of `body` (an ioredis client `redis`). */
function lockReadings(body: string): Array<[string, number, boolean, boolean]> {
  const code = `import Redis from 'ioredis';\nimport { randomUUID } from 'node:crypto';\nconst redis = new Redis();\n${body}`;
  return readingsOfCalls(code, (context, call) => call.description.keys.map((key): [string, number, boolean, boolean] => [call.command, key.arg, namesLock(context, call, key.arg), isLockWrite(context, call, key.arg)]), { filename: 'locks.ts' });
}

describe('namesLock / isLockWrite', () => {
  it('reads a lock from the key shape, on any write; a lock write is also create-if-missing', () => {
    expect(lockReadings(`export const f = (id: string) => redis.set(\`lock:\${id}\`, '1', 'NX');`)).toEqual([['SET', 0, true, true]]);
    expect(lockReadings(`export const f = (id: string) => redis.setnx(\`mutex:\${id}\`, '1');`)).toEqual([['SETNX', 0, true, true]]);
    // a plain SET of a lock-shaped key names a lock (the lifecycle reading) but takes none
    expect(lockReadings(`export const f = (id: string) => redis.set(\`lock:\${id}\`, '1');`)).toEqual([['SET', 0, true, false]]);
    expect(lockReadings(`export const f = (id: string) => redis.incr(\`lease:\${id}\`);`)).toEqual([['INCR', 0, true, false]]);
  });

  it('reads a lock from the owner value written with the key: SET, SETNX, GETSET and each MSETNX pair', () => {
    expect(lockReadings(`export const f = (id: string, token: string) => redis.set(\`job:\${id}\`, token, 'NX');`)).toEqual([['SET', 0, true, true]]);
    expect(lockReadings(`export const f = (id: string) => redis.setnx(\`job:\${id}\`, randomUUID());`)).toEqual([['SETNX', 0, true, true]]);
    expect(lockReadings(`export const f = (id: string, owner: string) => redis.getset(\`job:\${id}\`, owner);`)).toEqual([['GETSET', 0, true, false]]);
    // MSETNX: each key's own value decides (the first pair's owner, not the second's plain value)
    expect(lockReadings(`export const f = (a: string, b: string, owner: string) => redis.msetnx(\`job:\${a}\`, owner, \`job:\${b}\`, '1');`)).toEqual([
      ['MSETNX', 0, true, true],
      ['MSETNX', 2, false, false],
    ]);
  });

  it('reads no lock from the values of MSET, of other commands, or of plain keys and values', () => {
    // MSET cannot fail on a held key: its values name no owner
    expect(lockReadings(`export const f = (a: string, token: string) => redis.mset(\`job:\${a}\`, token);`)).toEqual([['MSET', 0, false, false]]);
    // the argument after a hash's key is a field, not a value
    expect(lockReadings(`export const f = (a: string) => redis.hset(\`job:\${a}\`, 'owner', '1');`)).toEqual([['HSET', 0, false, false]]);
    expect(lockReadings(`export const f = (id: string) => redis.set(\`job:\${id}\`, 'done', 'NX');`)).toEqual([['SET', 0, false, false]]);
  });
});
