/**
 * Writes whose key names an entity its callers have just minted: the function's key is built from
 * one of its parameters, and every call of the function (in its module and in the modules
 * importing it) hands that parameter an identifier minted on the spot (`randomUUID()`, `uuid()`,
 * `nanoid()`, `ulid()`, `createId()` ...), directly or through a `const` of the calling function,
 * before that function hands the identifier to anything else. No record of that key can exist
 * before the write: it creates the record, whatever other function of the file also writes the
 * family (read by `record-creation.ts`, which would otherwise take the write for an update of the
 * family's record).
 *
 * ```ts
 * // seed.ts
 * export async function seedRun(redis, runId, fields) { await redis.hset(`workflow:state:${runId}`, fields); }
 * export async function seedFlush(redis, runId, v) { await redis.hset(`workflow:state:${runId}`, 'version', v); } // its own creation
 * // enqueue.ts
 * const runId = crypto.randomUUID();
 * await seedFlush(redis, runId, version);
 * ```
 *
 * Not minted: an identifier read from a request, a job or a parameter (`setStatus(job.data.runId)`,
 * an update of a record created elsewhere), one handed to another call first (`create(id);
 * setStatus(id)`: the record exists when the second runs), one parsed from a value (`new
 * ObjectId(hex)`, `generateId(seed)`). The callers are `facades.ts` callSitesOf's (through
 * re-exports; tests left out); a function called nowhere, a library's export or one handed on as a
 * value (`queue.process('status', setStatus)`) has callers nobody can read, so its write stays an
 * update.
 */
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { callSitesOf, handedOnAsValue } from './facades.js';
import { constInitializer, findVariable, referenceName, walk, type AnyContext, type FunctionLike } from './static.js';

/** Functions whose reply is a fresh, unique identifier (`crypto.randomUUID()`, uuid's `v4()`, `nanoid()`, `ulid()`, cuid2's `createId()`). */
const MINTERS = /^(?:randomUUID|uuid(?:v[147])?|v[147]|nanoid|ulid|cuid2?|createId|generateId|objectId|ObjectId)$/;

/**
 * Minters that read an existing identifier when given an argument (`new ObjectId(req.params.id)`,
 * `generateId(seed)`): fresh only when called with none.
 */
const PARSES_WITH_ARGUMENT = /^(?:generateId|objectId|ObjectId)$/;

/**
 * The index of the parameter of `fn` the key `keyNode` is built from (through `const` bindings of
 * `fn`), or `undefined`; unlike `helper-keys.ts` keyParameter (the key *is* the parameter), the key
 * may only contain it (`` `workflow:state:${runId}` ``).
 */
function keyBuiltFromParameter(context: AnyContext, fn: FunctionLike, keyNode: TSESTree.Node): number | undefined {
  let found: number | undefined;
  const seen = new Set<TSESTree.Node>();
  const visit = (root: TSESTree.Node, depth: number): void => {
    walk(context, root, (node) => {
      if (node.type !== AST_NODE_TYPES.Identifier || found !== undefined) return found !== undefined ? 'stop' : undefined;
      const index = fn.params.findIndex((param) => param.type === AST_NODE_TYPES.Identifier && param.name === node.name);
      if (index >= 0 && findVariable(context, node)?.defs.some((def) => def.type === 'Parameter' && def.node === fn)) {
        found = index;
        return 'stop';
      }
      const init = depth < 3 ? constInitializer(context, node) : undefined;
      if (init && !seen.has(init)) {
        seen.add(init);
        visit(init, depth + 1);
      }
      return undefined;
    });
  };
  visit(keyNode, 0);
  return found;
}

/** Whether `node` is a call of an identifier minter ({@link MINTERS}), awaited or not. */
function mints(node: TSESTree.Node): boolean {
  while (node.type === AST_NODE_TYPES.AwaitExpression || node.type === AST_NODE_TYPES.TSAsExpression || node.type === AST_NODE_TYPES.TSNonNullExpression) {
    node = node.type === AST_NODE_TYPES.AwaitExpression ? node.argument : node.expression;
  }
  // `randomUUID().slice(0, 8)`, `new ObjectId().toString()`: the minted value, reshaped
  if (node.type === AST_NODE_TYPES.CallExpression && node.callee.type === AST_NODE_TYPES.MemberExpression && /^(?:toString|toHexString|slice|substring|replace(?:All)?|toLowerCase|toUpperCase)$/.test(referenceName(node.callee) ?? '')) {
    const inner = node.callee.object;
    if (inner.type === AST_NODE_TYPES.CallExpression || inner.type === AST_NODE_TYPES.NewExpression) return mints(inner);
  }
  if (node.type === AST_NODE_TYPES.CallExpression || node.type === AST_NODE_TYPES.NewExpression) {
    const name = node.type === AST_NODE_TYPES.NewExpression ? (node.callee.type === AST_NODE_TYPES.Identifier ? node.callee.name : undefined) : referenceName(node.callee);
    if (name === undefined || !MINTERS.test(name)) return false;
    // `new ObjectId(req.params.id)`, `generateId(seed)`: an existing identifier, parsed
    return !(PARSES_WITH_ARGUMENT.test(name) && node.arguments.length > 0);
  }
  return false;
}

/**
 * Whether the argument `arg` of the call `call` is a freshly minted identifier: a minter's call
 * itself, or a `const` of the calling code initialized by one and named by no code before this call.
 */
function mintedArgument(context: AnyContext, call: TSESTree.CallExpression, arg: TSESTree.Node | undefined): boolean {
  if (!arg || arg.type === AST_NODE_TYPES.SpreadElement) return false;
  if (mints(arg)) return true;
  if (arg.type !== AST_NODE_TYPES.Identifier) return false;
  const init = constInitializer(context, arg);
  if (!init || !mints(init)) return false;
  const variable = findVariable(context, arg);
  // handed to nothing else first: `create(id); seed(id)` seeds a record `create` made
  return !variable?.references.some((ref) => !ref.init && ref.identifier !== arg && ref.identifier.range[0] < call.range[0]);
}

/**
 * Whether the write whose key is `keyNode`, in the function `fn` of the module of `context`, names
 * an entity every caller has just minted (see the module comment): the callers are those
 * `facades.ts` {@link callSitesOf} reads (its module, the modules of its application that import
 * it, through re-exports; tests left out), all known (not a library's export, not handed on as a
 * value: `queue.process('status', setStatus)`), at least one, and each hands the key's parameter
 * a minted identifier.
 */
export function keyOfMintedEntity(context: AnyContext, fn: FunctionLike, keyNode: TSESTree.Node): boolean {
  const index = keyBuiltFromParameter(context, fn, keyNode);
  if (index === undefined) return false;
  const found = callSitesOf(context, fn);
  if (!found || found.sites.length === 0 || handedOnAsValue(context, fn)) return false;
  return found.sites.every(({ context: at, call }) => mintedArgument(at, call, call.arguments[index]));
}
