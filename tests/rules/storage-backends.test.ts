/**
 * Redis used as a store of record (redis-calls/storage-backends.ts): a class implementing a
 * storage interface of the code that another class implements over a database (`pg`, Prisma,
 * D1 ...) keeps the records the database would keep; a write in a method of the interface, of a
 * key the class deletes in another, is not reported by `recommended`. Each case writes a small
 * package to a temporary folder and lints the Redis backend's module.
 */
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { lintApplication } from '../helpers/lint.js';

const roots: string[] = [];
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

const SET = 'set-requires-ttl-or-keepttl';
const INCR = 'incr-needs-expire-on-create';
/**
 * `allowDeletedKeys` off: a key another function of the file deletes is otherwise left alone by
 * that reading when the deletion is a command it reads (here it is: `client.del`); through an
 * adapter whose `del` reshapes its argument it is not, and only this reading decides.
 */
const RULES = { [SET]: { allowDeletedKeys: false }, [INCR]: { allowDeletedKeys: false } };
const OFF = { [SET]: { allowDeletedKeys: false, allowStorageBackends: false }, [INCR]: { allowDeletedKeys: false, allowStorageBackends: false } };
/** A published package: none of its methods is taken for code that never runs. */
const MANIFEST = '{ "name": "store" }';

const TYPES = `export interface Storage {
  createPlaylist(id: string, name: string): Promise<void>;
  deletePlaylist(id: string): Promise<void>;
  saveBindCode(code: string, user: string): Promise<void>;
  addSong(id: string, song: string): Promise<void>;
}
`;

/** The Redis backend (each command in a retry callback, as a storage class does): lines 10, 16, 19, 24, 28 and 31 write. */
const REDIS = `import { createClient } from 'redis';
import type { Storage } from './types';
const client = createClient();
export class RedisStorage implements Storage {
  compat: any;
  constructor(private withRetry: <T>(op: () => Promise<T>) => Promise<T>) {
    this.compat = {
      hSet: (key: string, ...args: string[]) => {
        if (args.length === 1) return client.hSet(key, 'v', args[0]!);
        return client.hSet(key, args[0]!, args[1]!);
      },
    };
  }
  private playlistKey(id: string) { return \`playlist:\${id}\`; }
  async createPlaylist(id: string, name: string) {
    await this.withRetry(() => client.set(this.playlistKey(id), name));
  }
  async deletePlaylist(id: string) {
    await this.withRetry(() => client.del(this.playlistKey(id)));
    await this.withRetry(() => client.del(\`songs:\${id}\`));
  }
  async saveBindCode(code: string, user: string) {
    await this.withRetry(() => client.set(\`bind:\${code}\`, user));
  }
  async addSong(id: string, song: string) {
    await this.writeSong(id, song);
  }
  private async writeSong(id: string, song: string) {
    await this.withRetry(() => client.hSet(\`songs:\${id}\`, song, '1'));
  }
  async importPlaylist(id: string, name: string) {
    await this.withRetry(() => client.set(this.playlistKey(id), name));
  }
}
`;

const SHIM_IF = [INCR, 'noExpiry', 9, 46];
const SHIM = [INCR, 'noExpiry', 10, 23];
const CREATE = [SET, 'deletedElsewhere', 16, 39];
const BIND_CODE = [SET, 'setWithoutTtl', 23, 39];
const SONG = [INCR, 'deletedElsewhere', 29, 39];
const IMPORT = [SET, 'deletedElsewhere', 32, 39];

/** The other implementation over Postgres. */
const POSTGRES = `import { Pool } from 'pg';
import type { Storage } from './types';
const pool = new Pool();
export class PostgresStorage implements Storage {
  async createPlaylist(id: string, name: string) { await pool.query('INSERT INTO playlist VALUES ($1, $2)', [id, name]); }
  async deletePlaylist(id: string) { await pool.query('DELETE FROM playlist WHERE id = $1', [id]); }
  async saveBindCode(code: string, user: string) { await pool.query('INSERT INTO bind VALUES ($1, $2)', [code, user]); }
  async addSong(id: string, song: string) { await pool.query('INSERT INTO song VALUES ($1, $2)', [id, song]); }
}
`;

/** The other implementation over a Map: a cache, no store of record. */
const MEMORY = `import type { Storage } from './types';
export class MemoryStorage implements Storage {
  private data = new Map<string, string>();
  async createPlaylist(id: string, name: string) { this.data.set(id, name); }
  async deletePlaylist(id: string) { this.data.delete(id); }
  async saveBindCode(code: string, user: string) { this.data.set(code, user); }
  async addSong(id: string, song: string) { this.data.set(id, song); }
}
`;

function lint(files: Record<string, string>, rules: Record<string, unknown> = RULES) {
  return lintApplication(roots, { 'src/types.ts': TYPES, 'src/redis.ts': REDIS, ...files }, 'src/redis.ts', rules, [], MANIFEST);
}

/** The other implementation over Prisma, through the module that makes its client. */
const PRISMA_CLIENT = `import { PrismaClient } from '@prisma/client';
export const prisma = new PrismaClient();
`;
const PRISMA = `import { prisma } from './db';
import type { Storage } from './types';
export class PrismaStorage implements Storage {
  async createPlaylist(id: string, name: string) { await prisma.playlist.create({ data: { id, name } }); }
  async deletePlaylist(id: string) { await prisma.playlist.delete({ where: { id } }); }
  async saveBindCode(code: string, user: string) { await prisma.bind.create({ data: { code, user } }); }
  async addSong(id: string, song: string) { await prisma.song.create({ data: { id, song } }); }
  async importPlaylist(id: string, name: string) { await prisma.playlist.create({ data: { id, name } }); }
}
`;

/** The Redis backend's session record, given a TTL by another method of the file (lines 10, 13, 16). */
const SESSIONS_TYPES = `export interface Storage {
  createSession(id: string, user: string): Promise<void>;
  renameSession(id: string, user: string): Promise<void>;
  deleteSession(id: string): Promise<void>;
}
`;
const SESSIONS = `import { createClient } from 'redis';
import type { Storage } from './types';
const client = createClient();
export class RedisStorage implements Storage {
  async createSession(id: string, user: string) {
    await client.set(\`session:\${id}\`, user, { EX: 3600 });
  }
  async renameSession(id: string, user: string) {
    await client.set(\`session:\${id}\`, user);
  }
  async deleteSession(id: string) {
    await client.del(\`session:\${id}\`);
  }
}
`;
const SESSIONS_POSTGRES = `import { Pool } from 'pg';
import type { Storage } from './types';
const pool = new Pool();
export class PostgresStorage implements Storage {
  async createSession(id: string, user: string) { await pool.query('INSERT INTO session VALUES ($1, $2)', [id, user]); }
  async renameSession(id: string, user: string) { await pool.query('UPDATE session SET u = $2 WHERE id = $1', [id, user]); }
  async deleteSession(id: string) { await pool.query('DELETE FROM session WHERE id = $1', [id]); }
}
`;

describe('storage backends (allowStorageBackends)', () => {
  it('reports every write when no other class implements the interface', () => {
    expect(lint({})).toEqual([SHIM_IF, SHIM, CREATE, BIND_CODE, SONG, IMPORT]);
  });

  it('a record of the Redis backend beside a Postgres one, deleted by a method of the interface, is not reported; a record it never deletes is', () => {
    expect(lint({ 'src/postgres.ts': POSTGRES })).toEqual([BIND_CODE, IMPORT]);
  });

  it('the database client may be imported by a module the other backend imports (Prisma), and its undeclared methods count', () => {
    // importPlaylist is no member of Storage, but the Prisma backend has it too: a method of the store
    expect(lint({ 'src/db.ts': PRISMA_CLIENT, 'src/prisma.ts': PRISMA })).toEqual([BIND_CODE]);
  });

  it('a cache interface whose other implementation is a Map is no store of record', () => {
    expect(lint({ 'src/memory.ts': MEMORY })).toEqual([SHIM_IF, SHIM, CREATE, BIND_CODE, SONG, IMPORT]);
  });

  it('a mock database class under a test path does not count', () => {
    expect(lint({ 'src/__tests__/postgres.ts': POSTGRES })).toEqual([SHIM_IF, SHIM, CREATE, BIND_CODE, SONG, IMPORT]);
  });

  it('strict (allowStorageBackends: false) reports them all', () => {
    expect(lint({ 'src/postgres.ts': POSTGRES }, OFF)).toEqual([SHIM_IF, SHIM, CREATE, BIND_CODE, SONG, IMPORT]);
  });

  it('a key the file gives a TTL elsewhere stays reported (the code meant it to expire)', () => {
    const found = lintApplication(roots, { 'src/types.ts': SESSIONS_TYPES, 'src/redis.ts': SESSIONS, 'src/postgres.ts': SESSIONS_POSTGRES }, 'src/redis.ts', { [SET]: { allowDeletedKeys: false } }, [], MANIFEST);
    expect(found).toEqual([[SET, 'setWithoutTtl', 9, 18]]);
  });
});

/** A backend whose `put` gives the record an optional TTL and writes its index beside it (line 9): the index outlives the record. */
const INDEXED_TYPES = `export interface Driver {
  put(ns: string, key: string, value: string, ttl?: number): Promise<void>;
  delete(ns: string, key: string): Promise<void>;
}
`;
const INDEXED = `import { createClient } from 'redis';
import type { Driver } from './types';
const client = createClient();
export class RedisDriver implements Driver {
  async put(ns: string, key: string, value: string, ttl = 0) {
    const tx = client.multi();
    tx.set(\`\${ns}:\${key}\`, value);
    if (ttl) tx.expire(\`\${ns}:\${key}\`, ttl);
    tx.sAdd(\`_index:\${ns}:\${key}\`, 'idx');
    await tx.exec();
  }
  async delete(ns: string, key: string) {
    await client.multi().del(\`\${ns}:\${key}\`).sRem(\`_index:\${ns}\`, key).del(\`_index:\${ns}:\${key}\`).exec();
  }
}
`;
const INDEXED_SQL = `import knex from 'knex';
import type { Driver } from './types';
const db = knex({ client: 'pg' });
export class SqlDriver implements Driver {
  async put(ns: string, key: string, value: string) { await db('store').insert({ ns, key, value }); }
  async delete(ns: string, key: string) { await db('store').where({ ns, key }).delete(); }
}
`;

describe('storage backends: what stays reported', () => {
  it('an index written by a method that gives its record a TTL', () => {
    const found = lintApplication(roots, { 'src/types.ts': INDEXED_TYPES, 'src/redis.ts': INDEXED, 'src/sql.ts': INDEXED_SQL }, 'src/redis.ts', RULES, [], MANIFEST);
    expect(found.filter(([, , line]) => line === 9)).toEqual([[INCR, 'noExpiry', 9, 8]]);
  });
});

describe('storage backends: a key parameter', () => {
  it("of a method of the class itself stays reported (any caller may fill it); of a shim object's method it is not", () => {
    const types = `export interface Limits { increment(key: string): Promise<number>; reset(key: string): Promise<void> }\n`;
    const redis = `import { createClient } from 'redis';
import type { Limits } from './types';
const client = createClient();
export class RedisLimits implements Limits {
  compat = { incr: (key: string) => client.incr(key) };
  async increment(key: string) { return client.incr(key); }
  async reset(key: string) { await client.del(key); }
}
`;
    const sql = `import { Pool } from 'pg';
import type { Limits } from './types';
const pool = new Pool();
export class SqlLimits implements Limits {
  async increment(key: string) { return (await pool.query('UPDATE l SET n = n + 1 WHERE k = $1 RETURNING n', [key])).rows[0].n; }
  async reset(key: string) { await pool.query('DELETE FROM l WHERE k = $1', [key]); }
}
`;
    const found = lintApplication(roots, { 'src/types.ts': types, 'src/redis.ts': redis, 'src/sql.ts': sql }, 'src/redis.ts', { [INCR]: { allowDeletedKeys: false, allowPassThrough: false } }, [], MANIFEST);
    expect(found).toEqual([[INCR, 'noExpiry', 6, 48]]);
  });
});

describe('storage backends: a cache over the database', () => {
  it('the other class imports a Redis client beside the database: a cache of it, no backend', () => {
    const cacheOverPostgres = POSTGRES.replace("import { Pool } from 'pg';", "import { Pool } from 'pg';\nimport { createClient } from 'redis';");
    expect(lint({ 'src/postgres.ts': cacheOverPostgres })).toEqual([SHIM_IF, SHIM, CREATE, BIND_CODE, SONG, IMPORT]);
  });
});
