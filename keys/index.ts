/**
 * The key inventory: which Redis key shapes a codebase writes, where, and whether each write
 * leaves a TTL (`redis-ttl-keys`'s library API). Its JSON is the inventory format
 * `redis-ttl-audit --inventory` reads; `redis-ttl-audit --source <dir>` builds it in-process.
 *
 * @example
 * ```ts
 * import { buildInventory, formatInventory } from 'eslint-plugin-redis-ttl/keys';
 * const { document, problems } = await buildInventory(['src'], { cwd: process.cwd() });
 * console.log(formatInventory('table', document));
 * ```
 */
export { buildInventory, type InventoryOptions, type InventoryResult, type SourceProblem } from './inventory.js';
export { formatInventory, persistentCandidates, persistentConfig, KEYS_FORMATS, type KeysFormat } from './format.js';
// the inventory format: the document buildInventory returns and redis-ttl-audit --inventory reads
export * from '../inventory/format.js';
