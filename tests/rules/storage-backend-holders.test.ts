/**
 * Storage backends (`redis-calls/storage-backends.ts`): a Redis class that holds the database's
 * implementation of its interface is a cache in front of it, not a backend run in its place,
 * whether it holds it under the interface's type or under the implementing class's own type.
 */
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { lintApplication } from '../helpers/lint.js';

const roots: string[] = [];
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

const SET = 'set-requires-ttl-or-keepttl';
const MANIFEST = '{ "name": "store" }';
const TYPES = `export interface UserRepository {
  findById(id: string): Promise<string | null>;
  save(id: string, user: string): Promise<void>;
  delete(id: string): Promise<void>;
}
`;
const PG = `import { Pool } from 'pg';
import type { UserRepository } from './types';
const pool = new Pool();
export class PgUserRepository implements UserRepository {
  async findById(id: string) { return (await pool.query('SELECT u FROM users WHERE id = $1', [id])).rows[0]?.u ?? null; }
  async save(id: string, user: string) { await pool.query('INSERT INTO users VALUES ($1, $2)', [id, user]); }
  async delete(id: string) { await pool.query('DELETE FROM users WHERE id = $1', [id]); }
}
`;
/** A Redis implementation of the interface holding `held` (a constructor parameter's type, or none): lines 7 and 9 write. */
const redisRepository = (held: string | undefined, importLine = "import { PgUserRepository } from './pg';", remove = 'await client.del(`user:${id}`);') => `import { createClient } from 'redis';
import type { UserRepository } from './types';
${importLine}
const client = createClient();
export class RedisUserRepository implements UserRepository {
  constructor(${held ? `private readonly inner: ${held}` : ''}) {}
  async findById(id: string) { const hit = await client.get(\`user:\${id}\`); if (hit) return hit; const user = ${held ? 'await this.inner.findById(id)' : 'null'}; if (user) await client.set(\`user:\${id}\`, user); return user; }
  async save(id: string, user: string) {
    await client.set(\`user:\${id}\`, user);
  }
  async delete(id: string) { ${remove} }
}
`;
const lint = (redis: string) => lintApplication(roots, { 'src/types.ts': TYPES, 'src/pg.ts': PG, 'src/redis.ts': redis }, 'src/redis.ts', { [SET]: { allowDeletedKeys: false } }, [], MANIFEST);
const COPIES = [[SET, 'deletedElsewhere', 7, 164], [SET, 'deletedElsewhere', 9, 18]];

describe('storage backends: a Redis class holding the database implementation', () => {
  it('under the interface type: a cache in front of it, reported', () => {
    expect(lint(redisRepository('UserRepository'))).toEqual(COPIES);
  });
  it('under the implementing class type: a cache in front of it too, reported', () => {
    expect(lint(redisRepository('PgUserRepository'))).toEqual(COPIES);
    expect(lint(redisRepository('PgUserRepository | undefined'))).toEqual(COPIES);
  });
  it('under an alias of the implementing class: reported', () => {
    expect(lint(redisRepository('Db', "import { PgUserRepository as Db } from './pg';"))).toEqual(COPIES);
  });
  it('holding nothing of the kind: the backend the application runs on, not reported', () => {
    expect(lint(redisRepository(undefined))).toEqual([]);
    expect(lint(redisRepository('Map<string, string>'))).toEqual([]);
  });
});

describe('storage backends: the store deletes its records only in a closure nothing runs', () => {
  const remove = (body: string) => lint(redisRepository(undefined, '', body));
  it('a named closure the delete method never calls: the records are never deleted, reported', () => {
    expect(remove('const purge = async () => { await client.del(`user:${id}`); };')).toEqual([[SET, 'deletedElsewhere', 7, 139], [SET, 'deletedElsewhere', 9, 18]]);
    expect(remove('async function purge() { await client.del(`user:${id}`); }')).toEqual([[SET, 'deletedElsewhere', 7, 139], [SET, 'deletedElsewhere', 9, 18]]);
  });
  it('the closure called, or a callback handed to a call: deleted, not reported', () => {
    expect(remove('const purge = async () => { await client.del(`user:${id}`); }; await purge();')).toEqual([]);
    expect(remove('await Promise.all([id].map((one) => client.del(`user:${one}`)));')).toEqual([]);
  });
});
