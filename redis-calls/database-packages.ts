/**
 * Packages that are the client of a database other than Redis: SQL drivers, document-store
 * drivers and ORMs / query builders over them. A module importing one of them reads and writes a
 * database of record (`redis-calls/storage-backends.ts`: the other implementation of a storage
 * interface the Redis class implements). Matched on the package name of an import specifier
 * (`drizzle-orm/pg-core` is `drizzle-orm`). Caches, queues and key-value stores in memory are not
 * databases of record and are not listed. Cloudflare D1 has no client package (its binding is a
 * type, `D1Database`): {@link DATABASE_TYPE_NAMES}.
 */
const DATABASE_PACKAGES: ReadonlySet<string> = new Set([
  // SQL drivers
  'pg',
  'postgres',
  '@vercel/postgres',
  '@neondatabase/serverless',
  'mysql',
  'mysql2',
  '@planetscale/database',
  'sqlite3',
  'better-sqlite3',
  '@libsql/client',
  'mssql',
  'tedious',
  'oracledb',
  // document stores
  'mongodb',
  'mongoose',
  '@aws-sdk/client-dynamodb',
  '@aws-sdk/lib-dynamodb',
  'firebase-admin',
  '@google-cloud/firestore',
  // ORMs and query builders
  '@prisma/client',
  'drizzle-orm',
  'kysely',
  'knex',
  'typeorm',
  'sequelize',
  '@mikro-orm/core',
  'objection',
]);

/** Type names of a database binding that has no client package: Cloudflare D1's `D1Database`. */
export const DATABASE_TYPE_NAMES: readonly string[] = ['D1Database'];

/** The package an import specifier names (`@scope/name` or `name`, without a subpath), or `undefined` for a relative / absolute path. */
function packageNameOf(specifier: string): string | undefined {
  if (specifier.startsWith('.') || specifier.startsWith('/')) return undefined;
  const bare = specifier.startsWith('node:') ? specifier.slice(5) : specifier;
  const parts = bare.split('/');
  return bare.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

/** Whether an import specifier names a database client package ({@link DATABASE_PACKAGES}). */
export function isDatabasePackage(specifier: string): boolean {
  const name = packageNameOf(specifier);
  return name !== undefined && DATABASE_PACKAGES.has(name);
}

/**
 * Dependencies (a `package.json`'s names) that give a package a database other than Redis, for
 * `database-of-record.ts`: every package of {@link DATABASE_PACKAGES}, the clients below, and any
 * package of a scope below. Each is, by its own npm page (npmjs.com/package/<name>), a driver,
 * ORM or SDK of a database that holds records (PostgreSQL, MySQL / MariaDB, SQLite, MongoDB,
 * DynamoDB, Firestore, Cassandra, Neo4j, CouchDB / Couchbase, RethinkDB, ArangoDB, Supabase,
 * FaunaDB, Elasticsearch, embedded stores kept on disk). A dependency of the package, its dev
 * dependencies included (a dev-only SQLite still says the code knows another database: the
 * reading keeps reporting then), or of the workspace root above it.
 */
const OTHER_DATABASE_DEPENDENCIES: ReadonlySet<string> = new Set([
  ...DATABASE_PACKAGES,
  'prisma',
  'sqlite',
  'mariadb',
  'pg-promise',
  'slonik',
  '@electric-sql/pglite',
  'cassandra-driver',
  'neo4j-driver',
  'nano',
  'couchbase',
  'pouchdb',
  'rethinkdb',
  'rethinkdbdash',
  'arangojs',
  'dynamoose',
  'aws-sdk', // v2 bundles DynamoDB's client
  'firebase',
  'faunadb',
  'fauna',
  '@elastic/elasticsearch',
  'elasticsearch',
  'lowdb',
  'nedb',
  '@seald-io/nedb',
  'level',
  'lmdb',
  'bookshelf',
  'waterline',
  'mongodb-memory-server',
]);

/** Scopes whose every package is a database's client or ORM: `@supabase/supabase-js`, `@mikro-orm/postgresql`, `@prisma/adapter-pg`. */
const OTHER_DATABASE_SCOPES: readonly string[] = ['@supabase/', '@mikro-orm/', '@prisma/', '@google-cloud/firestore', '@google-cloud/datastore', '@google-cloud/spanner', '@aws-sdk/client-dynamodb', '@typegoose/', '@xata.io/', '@libsql/', '@neondatabase/', '@planetscale/'];

/** Whether a dependency name of a `package.json` is a client of a database other than Redis ({@link OTHER_DATABASE_DEPENDENCIES}). */
export function isDatabaseDependency(name: string): boolean {
  return OTHER_DATABASE_DEPENDENCIES.has(name) || OTHER_DATABASE_SCOPES.some((scope) => name.startsWith(scope));
}
