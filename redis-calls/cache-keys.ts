/**
 * Key families the code gives a TTL beyond the linted file: a **cache**. A write with an expiry
 * (SET ... EX, SETEX, the EXPIRE family: `EXPIRY_EFFECTS`, as `file-index.ts` reads them) in a
 * module the linted file imports from the code (relative, tsconfig path alias, workspace
 * package), or a call, anywhere in the application, of a helper that writes its key parameter
 * with an expiry (`wrapRedis(key, fn, seconds = 60) { ... set(key, v, 'EX', seconds) }`) defined in
 * the linted file or in such a module, with its TTL argument given (passed, or the parameter's
 * default):
 *
 * ```ts
 * // redis.ts                        export async function wrapRedis(key, fn, seconds = 60) { ... redis.set(key, v, 'EX', seconds) }
 * // contacts.ts                     return wrapRedis(Keys.contact(id), () => db.contact(id));
 * // controller.ts (linted)          redis.set(Keys.contact(id), v);  ...  redis.del(Keys.contact(id));
 * ```
 *
 * The controller's DEL of `contact:*` is an invalidation of a cache whose entries expire, not the
 * end of a life the code manages: the SET without TTL beside it leaves a copy that never expires
 * (`lifecycle.ts` `deletedElsewhere` does not take that DEL for the key's end). The key families
 * are the shapes of `key-shape.ts` (a shape with no static text, `*`, names no family).
 */
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { EXPIRY_EFFECTS } from '../semantics/commands.js';
import { callSitesOf } from './facades.js';
import { fileIndexOf, optionalExpiry } from './file-index.js';
import { keyParameter } from './helper-keys.js';
import { hasStaticPart } from './key-id.js';
import { keyShapeOf } from './key-shape.js';
import { codeImports, loadModule, moduleContext } from './modules.js';
import type { RedisCall } from './normalize.js';
import { onlyWhenTtlGiven } from './optional-ttl.js';
import { findVariable, unwrap, type AnyContext } from './static.js';

/** An expiring helper: the function and the position of its key parameter. */
type Helper = NonNullable<ReturnType<typeof keyParameter>>;

const cache = new WeakMap<TSESTree.Program, ReadonlySet<string>>();

/** Whether the key family `shape` gets a TTL in the code beyond the linted file (see the module comment). */
export function expiredInTheCode(context: AnyContext, shape: string): boolean {
  if (!hasStaticPart(shape)) return false;
  return expiredFamilies(context).has(shape);
}

function expiredFamilies(context: AnyContext): ReadonlySet<string> {
  const program = context.sourceCode.ast;
  const cached = cache.get(program);
  if (cached) return cached;
  const found = new Set<string>();
  cache.set(program, found);
  const contexts: AnyContext[] = [context];
  for (const specifier of codeImports(context)) {
    const module = loadModule(context, specifier, { packages: true });
    if (module) contexts.push(moduleContext(context, module));
  }
  for (const at of contexts) {
    const index = fileIndexOf(at);
    if (at !== context) for (const shape of index.expiredShapes) found.add(shape);
    for (const call of [...index.calls, ...index.facadeCalls]) {
      for (const action of call.description.keys) {
        const keyNode = call.argNodes[action.arg];
        if (!EXPIRY_EFFECTS.has(action.effect) || !keyNode || keyNode.type === 'SpreadElement') continue;
        const parameter = keyParameter(at, keyNode);
        if (!parameter || optionalTtl(at, call, action.arg)) continue;
        addCallerKeys(at, call, parameter, found);
      }
    }
  }
  return found;
}

/**
 * Whether an expiry is given only when a TTL is (`if (ttl) set(k, v, 'EX', ttl) else set(k, v)`,
 * optional-ttl.ts): judged by the TTL argument alone when the command has one, so that a test of
 * the value written (`if (fresh) set(key, fresh, 'EX', seconds)`) is no TTL test.
 */
function optionalTtl(context: AnyContext, expiry: RedisCall, keyArg: number): boolean {
  const ttlNode = expiry.description.ttl ? expiry.argNodes[expiry.description.ttl.arg] : undefined;
  if (ttlNode && ttlNode.type !== AST_NODE_TYPES.SpreadElement) return onlyWhenTtlGiven(context, expiry.node, [ttlNode]);
  return optionalExpiry(context, expiry, keyArg);
}

/**
 * The key shapes the callers of an expiring helper pass (`parameter`: the helper and the position
 * of its key), from the calls that give its TTL argument: a TTL read from another parameter counts
 * when the caller passes it or the parameter has a default.
 */
function addCallerKeys(context: AnyContext, expiry: RedisCall, parameter: Helper, found: Set<string>): void {
  const ttlNode = expiry.description.ttl ? expiry.argNodes[expiry.description.ttl.arg] : undefined;
  const ttlIndex = ttlNode ? ttlParameterIndex(context, ttlNode, parameter.fn) : undefined;
  const sites = callSitesOf(context, parameter.fn)?.sites ?? [];
  for (const { call, context: at } of sites) {
    const arg = call.arguments[parameter.index];
    if (!arg || arg.type === AST_NODE_TYPES.SpreadElement) continue;
    if (ttlIndex !== undefined && call.arguments[ttlIndex] === undefined) continue;
    found.add(keyShapeOf(at, arg).shape);
  }
}

/** The position of the parameter of `fn` a TTL value names, when it has no default (`undefined` otherwise). */
function ttlParameterIndex(context: AnyContext, node: TSESTree.Node, fn: Helper['fn']): number | undefined {
  const bare = unwrap(node);
  if (bare.type !== AST_NODE_TYPES.Identifier) return undefined;
  const def = findVariable(context, bare)?.defs[0];
  if (def?.type !== 'Parameter' || def.node !== fn) return undefined;
  const index = fn.params.findIndex((param) => param === def.name);
  return index < 0 ? undefined : index;
}
