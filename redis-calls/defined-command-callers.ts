/**
 * The keys a command defined from a script is called with in the same file: ioredis
 * `defineCommand('meterDrain', { numberOfKeys: 2, lua })` adds a method of that name to the client,
 * whose first `numberOfKeys` arguments are the script's `KEYS` (https://github.com/redis/ioredis#lua-scripting).
 * What the script does to `KEYS[i]` is then what the file does to the keys its calls pass there.
 */
import { isAbsolute, relative } from 'node:path';
import type { TSESTree } from '@typescript-eslint/utils';
import { specifierOf } from './facade-targets.js';
import { MAX_MODULES_READ } from './importers.js';
import { loadModule, moduleContext, readModule } from './modules.js';
import { packageFiles, packageOf } from './project.js';
import { propertyName, resolveConstExpression, staticValue, walk, type AnyContext } from './static.js';
import { TEST_PATH } from './test-paths.js';

/**
 * The key arguments of every call of the command `defineCommand(name, { numberOfKeys, lua })`
 * defines, in this file (`x.name(k1, k2, ...args)`, any receiver: the method exists on the client
 * it was defined on, reached under any name), one list per call, in `KEYS` order. `undefined` when
 * the name or `numberOfKeys` is not a literal, or a call passes fewer keys or spreads one: nothing
 * then says which key each `KEYS[i]` is. An empty list when the file never calls it.
 */
export function definedCommandCallerKeys(context: AnyContext, define: TSESTree.CallExpression): TSESTree.Node[][] | undefined {
  const command = definedCommand(context, define);
  if (!command) return undefined;
  const calls = callerKeysIn(context, command.name, command.numberOfKeys);
  return calls && calls.map((call) => call.keys);
}

/** The name and `numberOfKeys` of `defineCommand(name, { numberOfKeys, lua })`, when both are literals. */
function definedCommand(context: AnyContext, define: TSESTree.CallExpression): { name: string; numberOfKeys: number } | undefined {
  const [nameArg, optionsArg] = define.arguments;
  const name = nameArg ? staticValue(context, nameArg) : undefined;
  if (typeof name !== 'string' || !optionsArg || optionsArg.type === 'SpreadElement') return undefined;
  const options = resolveConstExpression(context, optionsArg);
  if (options.type !== 'ObjectExpression') return undefined;
  const count = options.properties.find((p) => p.type === 'Property' && propertyName(p.key, p.computed) === 'numberOfKeys');
  const numberOfKeys = count?.type === 'Property' ? staticValue(context, count.value) : undefined;
  if (typeof numberOfKeys !== 'number' || !Number.isInteger(numberOfKeys) || numberOfKeys < 1) return undefined;
  return { name, numberOfKeys };
}

/**
 * The calls `x.name(k1, ..., kn, ...args)` in the module of `context`; `undefined` when one passes
 * fewer keys or spreads one, when the member is read without being called (`x.name.bind(x)`,
 * `const { name } = x`: the calls go under another name), or when the name is written as a string
 * anywhere but as `defineCommand`'s first argument (`const ENQUEUE = 'name'`, then `x[ENQUEUE](...)`
 * in a module that never spells it).
 */
function callerKeysIn(context: AnyContext, name: string, numberOfKeys: number): Array<{ keys: TSESTree.Node[]; context: AnyContext }> | undefined {
  const calls: Array<{ keys: TSESTree.Node[]; context: AnyContext }> = [];
  let unreadable = false;
  walk(context, context.sourceCode.ast, (node) => {
    if (unreadable) return 'stop';
    if ((node.type === 'Literal' && node.value === name) || (node.type === 'TemplateLiteral' && node.expressions.length === 0 && node.quasis[0]?.value.cooked === name)) {
      if (node.parent?.type === 'MemberExpression' && node.parent.property === node && node.parent.computed) return;
      if (!namesDefinition(context, node)) unreadable = true;
      return;
    }
    if (node.type === 'Property' && !node.computed && propertyName(node.key, false) === name && node.parent?.type === 'ObjectPattern') {
      unreadable = true;
      return;
    }
    if (node.type !== 'MemberExpression' || propertyName(node.property, node.computed) !== name) return;
    let callee: TSESTree.Node = node;
    while (callee.parent && (callee.parent.type === 'TSAsExpression' || callee.parent.type === 'TSNonNullExpression' || callee.parent.type === 'ChainExpression')) callee = callee.parent;
    const call = callee.parent;
    if (call?.type !== 'CallExpression' || call.callee !== callee) {
      unreadable = true;
      return;
    }
    const keys = call.arguments.slice(0, numberOfKeys);
    if (keys.length < numberOfKeys || keys.some((k) => k.type === 'SpreadElement')) unreadable = true;
    else calls.push({ keys, context });
  });
  return unreadable ? undefined : calls;
}

/** Whether a string spelling the command's name is `defineCommand`'s first argument, directly or through a `const` used only there. */
export function namesDefinition(context: AnyContext, literal: TSESTree.Node): boolean {
  const isDefinition = (node: TSESTree.Node): boolean => {
    const parent = node.parent;
    return (
      parent?.type === 'CallExpression' &&
      parent.arguments[0] === node &&
      parent.callee.type === 'MemberExpression' &&
      propertyName(parent.callee.property, parent.callee.computed) === 'defineCommand'
    );
  };
  if (isDefinition(literal)) return true;
  const declarator = literal.parent;
  if (declarator?.type !== 'VariableDeclarator' || declarator.init !== literal || declarator.id.type !== 'Identifier') return false;
  const variable = context.sourceCode.scopeManager?.getDeclaredVariables(declarator)[0];
  if (!variable || declarator.parent?.parent?.type === 'ExportNamedDeclaration') return false;
  return variable.references.every((reference) => reference.init || isDefinition(reference.identifier as TSESTree.Node));
}

const elsewhere = new WeakMap<TSESTree.Node, ReadonlyArray<{ keys: TSESTree.Node[]; context: AnyContext }> | null>();

/**
 * The key arguments of the calls of the command `defineCommand(name, { numberOfKeys, lua })`
 * defines, in the OTHER modules of the linted file's application (the client it was defined on is
 * exported, and its callers are elsewhere: `await redis.idempotentEnqueue(idemKey, waitList, id)`
 * in queue.ts), each with the context of its module. Any module writing the name as a member
 * (`.name`, `['name']`) counts, whether it imports the defining module or not (the client may
 * travel as a value); tests do not. `undefined` when the callers cannot all be known: a library
 * (its callers are other people's code), a package that cannot be listed, more than
 * `MAX_MODULES_READ` modules to read, one that does not load, a call spreading its keys or passing
 * fewer than `numberOfKeys`, or the name reached by a computed member. Cached per definition.
 */
export function definedCommandCallersElsewhere(context: AnyContext, define: TSESTree.CallExpression): ReadonlyArray<{ keys: TSESTree.Node[]; context: AnyContext }> | undefined {
  let found = elsewhere.get(define);
  if (found === undefined) {
    found = collectElsewhere(context, define) ?? null;
    elsewhere.set(define, found);
  }
  return found ?? undefined;
}

/** Whether the linted file is in an application whose modules can be listed (its defined commands' callers elsewhere can be read). */
export function inListedApplication(context: AnyContext): boolean {
  const file = context.physicalFilename ?? context.filename;
  if (!file || !isAbsolute(file)) return false;
  const info = packageOf(file);
  return info !== undefined && info.application && packageFiles(info.root) !== undefined;
}

function collectElsewhere(context: AnyContext, define: TSESTree.CallExpression): Array<{ keys: TSESTree.Node[]; context: AnyContext }> | undefined {
  const command = definedCommand(context, define);
  const file = context.physicalFilename ?? context.filename;
  if (!command || !file || !isAbsolute(file)) return undefined;
  const info = packageOf(file);
  if (!info || !info.application) return undefined;
  const files = packageFiles(info.root);
  if (!files) return undefined;
  const word = new RegExp(`\\b${command.name.replace(/[^\w$]/g, '\\$&')}\\b`);
  const computed = new RegExp(`\\[\\s*['"\`]${command.name.replace(/[^\w$]/g, '\\$&')}['"\`]\\s*\\]`);
  const calls: Array<{ keys: TSESTree.Node[]; context: AnyContext }> = [];
  let read = 0;
  for (const path of files) {
    if (path === file || TEST_PATH.test(relative(info.root, path))) continue;
    const text = readModule(file, specifierOf(file, path))?.entry.text;
    if (text === undefined || !word.test(text)) continue;
    if (computed.test(text) || ++read > MAX_MODULES_READ) return undefined;
    const module = loadModule(context, specifierOf(file, path), { packages: true });
    if (!module) return undefined;
    const found = callerKeysIn(moduleContext(context, module), command.name, command.numberOfKeys);
    if (!found) return undefined;
    calls.push(...found);
  }
  return calls;
}
