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
export {
  INVENTORY_VERSION,
  TTL_STATUSES,
  InventoryError,
  isPersistentShape,
  parseInventory,
  readInventoryFile,
  serializeInventory,
  validateInventory,
  type InventoryDocument,
  type InventoryShape,
  type ScriptCall,
  type Site,
  type TtlStatus,
  type UnresolvedWrite,
  type WriteSite,
} from '../inventory/format.js';
