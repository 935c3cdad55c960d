/**
 * Client method names read as the Redis command they send (`getSet` -> GETSET, `hincrbyBuffer` ->
 * HINCRBY, node-redis's `lPopCount` -> LPOP): the one mapping the call readers
 * (`normalize.ts`, `global-clients.ts`, `client-syntax.ts`, `facades.ts`, `promisified.ts`) share.
 */
import { isKnownCommand } from '../semantics/commands.js';

/** node-redis camelCase methods whose command has a subcommand. */
const SUBCOMMAND_METHODS: ReadonlyMap<string, [string, string]> = new Map([
  ['xGroupCreate', ['XGROUP', 'CREATE']],
  ['XGROUP_CREATE', ['XGROUP', 'CREATE']],
]);

/**
 * node-redis methods of a pop with a COUNT (`lPopCount(key, count)` sends LPOP key count;
 * https://github.com/redis/node-redis, `LPOP_COUNT`, `RPOP_COUNT`, `ZPOPMIN_COUNT`,
 * `ZPOPMAX_COUNT`, `SPOP_COUNT`): the command without a prefix.
 */
const COUNT_METHODS: ReadonlyMap<string, string> = new Map([
  ['lPopCount', 'LPOP'],
  ['LPOP_COUNT', 'LPOP'],
  ['rPopCount', 'RPOP'],
  ['RPOP_COUNT', 'RPOP'],
  ['zPopMinCount', 'ZPOPMIN'],
  ['ZPOPMIN_COUNT', 'ZPOPMIN'],
  ['zPopMaxCount', 'ZPOPMAX'],
  ['ZPOPMAX_COUNT', 'ZPOPMAX'],
  ['sPopCount', 'SPOP'],
  ['SPOP_COUNT', 'SPOP'],
]);

/**
 * The Redis command a client method name stands for (`getSet` -> `GETSET`, `hincrbyBuffer` ->
 * `HINCRBY`), or `undefined` when it is not a command of the table.
 */
export function commandOfMethod(method: string): { command: string; prefix: string[] } | undefined {
  const cached = methodCache.get(method);
  if (cached !== undefined) return cached ?? undefined;
  let result: { command: string; prefix: string[] } | null = null;
  const sub = SUBCOMMAND_METHODS.get(method);
  const counted = COUNT_METHODS.get(method);
  if (sub) {
    result = { command: sub[0], prefix: [sub[1]] };
  } else if (counted) {
    result = { command: counted, prefix: [] };
  } else {
    let name = method;
    if (name.length > 6 && name.endsWith('Buffer')) name = name.slice(0, -6);
    const upper = name.toUpperCase();
    if (isKnownCommand(upper)) result = { command: upper, prefix: [] };
  }
  if (methodCache.size < 10_000) methodCache.set(method, result);
  return result ?? undefined;
}

/** Method name -> command, memoised (method names repeat endlessly across a code base). */
const methodCache = new Map<string, { command: string; prefix: string[] } | null>();
