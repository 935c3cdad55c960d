/**
 * Lists of the records a database of record holds, for `key-shape.ts`: a key whose variable part
 * is an element of such a list (or a property of one) is one key per stored entity, bounded by the
 * table the code walks, like one key per configured queue.
 *
 * ```ts
 * // a job that mirrors a table into Redis: one set per environment that has listeners
 * for (const row of await this.prisma.socketMap.findMany()) await this.redis.sAdd(`env:${row.environmentId}`, row.socketId);
 * // a job that rewrites each registered application's snapshot
 * const apps = await this.ctx.model.System.distinct('app_id', { type: 'web' }).read('sp').exec();
 * apps.forEach((appId) => this.app.redis.set(`${appId}_pv_realtime`, JSON.stringify(stats)));
 * ```
 *
 * What counts: an `await` of a call chain (`Model.find(q).sort(s).exec()`, `collection.find(q).toArray()`)
 * one of whose calls is a method an ORM or document-store driver lists stored records with
 * ({@link RECORD_LISTING_METHODS}), called on an object (never a bare function: a function of the
 * application named `find` is not a driver's). The list is awaited where the code iterates it,
 * or held by a `const` bound to the awaited list (key-shape.ts reads the `const`).
 *
 * What does not: a list read from the request (`await req.json()`, `req.body.items`), from an
 * HTTP API (`await fetch(...)`, whose items are another system's: events, messages), from Redis
 * itself, or from a raw SQL query (`pool.query(...)` replies `{ rows }`, and its text is anything);
 * a property of the awaited reply rather than the reply (`(await find()).items`) is not read either,
 * nor what a `.then(...)` callback after the listing makes of it (`await Post.find().then((ps) =>
 * ps.map((p) => p.id + Date.now()))`: the callback's reply, not the records).
 */
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { isDatabaseDependency } from './database-packages.js';
import { manifestOf, packageOf } from './project.js';
import { DEPENDENCY_FIELDS } from './resolve.js';
import { propertyName, unwrap } from './static.js';

/**
 * Methods with which a database client lists the records of a table or collection, awaited for an
 * array of them: Prisma `findMany`; Mongoose `find` / `distinct` (the distinct values of a field:
 * the ids of the stored documents) and the native MongoDB driver's `find(...).toArray()`;
 * Sequelize and MikroORM `findAll`; TypeORM `find` / `findBy` and its query builder's `getMany`;
 * Knex `pluck`. (https://www.prisma.io/docs/orm/reference/prisma-client-reference#findmany,
 * https://mongoosejs.com/docs/api/model.html#Model.distinct(),
 * https://sequelize.org/docs/v6/core-concepts/model-querying-finders/#findall,
 * https://typeorm.io/docs/working-with-entity-manager/find-options,
 * https://knexjs.org/guide/query-builder.html#pluck)
 */
const RECORD_LISTING_METHODS: ReadonlySet<string> = new Set(['findMany', 'findAll', 'find', 'findBy', 'distinct', 'getMany', 'pluck']);

/**
 * Listing methods whose name an application's own objects often have too (`await
 * this.userService.find()`, an HTTP SDK's `find`): read as a driver's only when the chain ends in
 * the driver's query execution (`.exec()`, `.toArray()`) or the file's package depends on a
 * database client (`database-packages.ts`).
 */
const AMBIGUOUS_LISTING_METHODS: ReadonlySet<string> = new Set(['find', 'findBy', 'distinct', 'pluck']);

/** The call that runs a driver's query built by a chain: Mongoose `exec`, MongoDB `toArray`. */
const QUERY_EXECUTIONS: ReadonlySet<string> = new Set(['exec', 'toArray']);

/** How many calls of a chain are looked at (`find(q).select(f).sort(s).limit(n).lean().exec()`). */
const MAX_CHAIN = 8;

/**
 * Whether `node` is an `await` of a database client's listing of stored records (see the module
 * comment): its elements are the records, one per stored entity.
 * @param file the linted file's absolute path (its package's dependencies tell an ambiguous `find`)
 */
export function isStoredRecordListing(node: TSESTree.Node, file: string | undefined): boolean {
  const bare = unwrap(node);
  if (bare.type !== AST_NODE_TYPES.AwaitExpression) return false;
  let current = unwrap(bare.argument);
  let executed = false;
  for (let i = 0; i < MAX_CHAIN && current.type === AST_NODE_TYPES.CallExpression; i++) {
    const callee = unwrap(current.callee);
    if (callee.type !== AST_NODE_TYPES.MemberExpression) return false;
    const method = propertyName(callee.property, callee.computed);
    // `.then((posts) => posts.map(...))` after the listing: its callback's reply is awaited, not the records
    if (method === 'then') return false;
    if (i === 0 && method !== undefined && QUERY_EXECUTIONS.has(method)) executed = true;
    if (method !== undefined && RECORD_LISTING_METHODS.has(method)) return !AMBIGUOUS_LISTING_METHODS.has(method) || executed || dependsOnDatabase(file);
    current = unwrap(callee.object);
  }
  return false;
}

/** Whether the package of `file` (absolute) lists a database client among its dependencies of any kind. */
function dependsOnDatabase(file: string | undefined): boolean {
  const root = file ? packageOf(file)?.root : undefined;
  const manifest = root ? manifestOf(root) : undefined;
  if (!manifest) return false;
  return DEPENDENCY_FIELDS.some((field) => {
    const deps = manifest[field];
    return typeof deps === 'object' && deps !== null && Object.keys(deps).some(isDatabaseDependency);
  });
}
