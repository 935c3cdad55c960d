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
 * setStatus(id)`: the record exists when the second runs), an ObjectId made from a value
 * (`new ObjectId(req.params.id)`: a stored document's id, parsed), or a function no call names (its
 * callers are unknown). Calls in tests (`test-paths.ts`) do not count; a caller importing the
 * function under another name or through an index that re-exports it is one of its calls; a caller
 * through a default import is not looked for.
 */
import { realpathSync } from 'node:fs';
import { isAbsolute, relative } from 'node:path';
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { calledName } from './builder-lookup.js';
import { importersOf } from './importers.js';
import { importedBinding, loadModule, moduleContext, readModule, specifierOf } from './modules.js';
import { packageOf } from './project.js';
import { constInitializer, findVariable, referenceName, walk, type AnyContext, type FunctionLike } from './static.js';
import { TEST_PATH } from './test-paths.js';

/** Functions whose reply is a fresh, unique identifier (`crypto.randomUUID()`, uuid's `v4()`, `nanoid()`, `ulid()`, cuid2's `createId()`). */
const MINTERS = /^(?:randomUUID|uuid(?:v[147])?|v[147]|nanoid|ulid|cuid2?|createId|generateId|objectId|ObjectId)$/;

/**
 * Minters that, handed a value, wrap an identifier that exists already instead of minting one:
 * `new ObjectId(req.params.id)`, `ObjectId(hex)` parse the id of a stored document.
 */
const WRAPPERS = /^(?:objectId|ObjectId)$/;

/** The index of the parameter of `fn` the key `keyNode` is built from (through `const` bindings of `fn`), or `undefined`. */
function keyParameter(context: AnyContext, fn: FunctionLike, keyNode: TSESTree.Node): number | undefined {
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
  if (node.type === AST_NODE_TYPES.CallExpression) {
    const name = referenceName(node.callee);
    return name !== undefined && MINTERS.test(name) && !(WRAPPERS.test(name) && node.arguments.length > 0);
  }
  // `new ObjectId().toString()`, `randomUUID().slice(0, 8)`: the minted value, reshaped
  if (node.type === AST_NODE_TYPES.NewExpression) {
    return node.callee.type === AST_NODE_TYPES.Identifier && MINTERS.test(node.callee.name) && !(WRAPPERS.test(node.callee.name) && node.arguments.length > 0);
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
 * The calls of the function named `name` in the program of `context` ({@link walk}); in a module
 * other than the function's own (`file` given), also the calls of an identifier whose import
 * resolves to that export of `file`, under any local name and through re-exports (`import {
 * seedFlush as flush } from './seed'`, `import { seedFlush } from './index'`).
 */
function callsNamed(context: AnyContext, name: string, file?: string): TSESTree.CallExpression[] {
  const calls: TSESTree.CallExpression[] = [];
  walk(context, context.sourceCode.ast, (node) => {
    if (node.type !== AST_NODE_TYPES.CallExpression) return;
    if (referenceName(node.callee) === name || (file !== undefined && node.callee.type === AST_NODE_TYPES.Identifier && importsFunction(context, node.callee, name, file))) calls.push(node);
  });
  return calls;
}

/** Whether the identifier `node` is bound to an import of the export `name` of the module `file` ({@link callsNamed}). */
function importsFunction(context: AnyContext, node: TSESTree.Identifier, name: string, file: string): boolean {
  const imported = importedBinding(context, node);
  if (imported === undefined || imported.name !== name) return false;
  if (imported.module.path === file) return true;
  try {
    return realpathSync(imported.module.path) === realpathSync(file);
  } catch {
    return false;
  }
}

/** How many modules importing the function's, directly or through re-exports, are looked at before its callers count as unknown. */
const MAX_IMPORTERS = 200;

/**
 * The modules that may call the export `name` of `file`: its importers, and the importers of an
 * importer whose text re-exports (`export { seedFlush } from './seed'`, `export * from './seed'`),
 * tests left out; `undefined` when there are more than {@link MAX_IMPORTERS} (the callers are
 * unknown).
 */
function callerModules(file: string, name: string, root: string | undefined): string[] | undefined {
  const seen = new Set<string>([file]);
  const out: string[] = [];
  let level = [file];
  while (level.length > 0) {
    const next: string[] = [];
    for (const path of level) {
      for (const importer of importersOf(path, root)) {
        if (seen.has(importer)) continue;
        seen.add(importer);
        if (seen.size > MAX_IMPORTERS) return undefined;
        const text = readModule(file, specifierOf(file, importer))?.entry.text;
        if (text !== undefined && /\bexport\s*(?:\*|\{[^}]*\}\s*from)/.test(text)) next.push(importer);
        if (!TEST_PATH.test(root !== undefined ? relative(root, importer) : importer)) out.push(importer);
      }
    }
    level = next;
  }
  return out;
}

/**
 * Whether the write whose key is `keyNode`, in the function `fn` of the module of `context`, names
 * an entity every caller has just minted (see the module comment): at least one call of `fn` by its
 * name is found, in its module or a module importing it, and each hands the key's parameter a
 * minted identifier.
 */
export function keyOfMintedEntity(context: AnyContext, fn: FunctionLike, keyNode: TSESTree.Node): boolean {
  const name = calledName(fn);
  if (name === undefined) return false;
  const index = keyParameter(context, fn, keyNode);
  if (index === undefined) return false;
  const calls: Array<{ at: AnyContext; call: TSESTree.CallExpression }> = callsNamed(context, name).map((call) => ({ at: context, call }));
  const file = context.physicalFilename ?? context.filename;
  if (file && isAbsolute(file)) {
    const importers = callerModules(file, name, packageOf(file)?.root);
    if (importers === undefined) return false;
    for (const importer of importers) {
      const specifier = specifierOf(file, importer);
      const text = readModule(file, specifier)?.entry.text;
      if (text === undefined || !text.includes(name)) continue;
      const module = loadModule(context, specifier);
      if (!module) return false;
      const at = moduleContext(context, module);
      calls.push(...callsNamed(at, name, file).map((call) => ({ at, call })));
    }
  }
  return calls.length > 0 && calls.every(({ at, call }) => mintedArgument(at, call, call.arguments[index]));
}
