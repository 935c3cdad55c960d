/**
 * Handlers a socket's message dispatcher calls one module per event: p3x-redis-ui's
 * `socket.on('p3xr-request', (options) => require(`./request/${options.action}`)(options))`, where
 * `request/key-set.js` is `module.exports = async (options) => { const { socket, payload } = options; ... }`.
 *
 * `redis-calls/message-key.ts` reads the `payload` beside the `socket` such a handler is handed as
 * the client's message; a function that merely takes `{ socket, data }` is not one: it must be
 * **reached from a socket's handler** (round 18's breaker: any function of that shape was
 * exempt). So a function counts when:
 *
 * - it is its module's default export (`module.exports = fn`, `export default fn`), and
 * - a module of its directory's parent, or of its own directory, requires (or imports) a module of
 *   its directory by a specifier built at run time (`` require(`./request/${action}`) ``,
 *   `` import(`./${name}`) ``), calls what it loads, and does so inside a handler registered with
 *   `.on(event, fn)` / `.once` / `addListener` for a string event.
 *
 * The walk is bounded: at most {@link MAX_FILES} files listed per directory, only those whose text
 * holds such a specifier are parsed (`redis-calls/modules.ts` loadModule, cached by path and
 * modification time), and the verdict is kept per directory for `RESOLVE_TTL_MS`.
 */
import { readdirSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { loadModule, readModule } from './modules.js';
import { RESOLVE_TTL_MS } from './resolve.js';
import { propertyName, unwrap, walk, type AnyContext, type FunctionLike } from './static.js';

/** How many entries of a directory are looked at for a dispatcher. */
const MAX_FILES = 60;
/** The source files a dispatcher can be. */
const SOURCE = /\.(?:[cm]?js|[cm]?ts)$/;
/** The methods that register an event handler. */
const REGISTER: ReadonlySet<string> = new Set(['on', 'once', 'addListener', 'prependListener', 'prependOnceListener']);

/** Verdicts per handler directory: whether a socket handler dispatches into it. */
const dispatchedDirs = new Map<string, { at: number; value: boolean }>();

/**
 * Whether `fn` is a handler a socket's dispatcher loads by event name and calls (see the module
 * comment): its module's default export, in a directory a socket handler requires from at run time.
 */
export function dispatchedHandler(context: AnyContext, fn: FunctionLike): boolean {
  if (!defaultExport(fn)) return false;
  const file = context.physicalFilename ?? context.filename;
  const dir = dirname(file);
  const now = Date.now();
  const hit = dispatchedDirs.get(dir);
  if (hit && now - hit.at < RESOLVE_TTL_MS) return hit.value;
  const value = dispatchesInto(context, dir);
  dispatchedDirs.set(dir, { at: now, value });
  return value;
}

/** `module.exports = fn` or `export default fn`, at the top level. */
function defaultExport(fn: FunctionLike): boolean {
  const parent = fn.parent;
  if (parent?.type === AST_NODE_TYPES.ExportDefaultDeclaration) return true;
  if (parent?.type !== AST_NODE_TYPES.AssignmentExpression || parent.right !== fn || parent.parent?.type !== AST_NODE_TYPES.ExpressionStatement || parent.parent.parent?.type !== AST_NODE_TYPES.Program) return false;
  const left = parent.left;
  return left.type === AST_NODE_TYPES.MemberExpression && left.object.type === AST_NODE_TYPES.Identifier && left.object.name === 'module' && propertyName(left.property, left.computed) === 'exports';
}

/** Whether a module of `dir`'s parent (`./<dir>/${...}`) or of `dir` itself (`./${...}`) loads a module of `dir` by name inside a socket handler. */
function dispatchesInto(context: AnyContext, dir: string): boolean {
  const name = basename(dir);
  const places: Array<{ where: string; prefix: string; from: string }> = [
    { where: dirname(dir), prefix: `./${name}/`, from: '../' },
    { where: dir, prefix: './', from: './' },
  ];
  const file = context.physicalFilename ?? context.filename;
  for (const { where, prefix, from } of places) {
    let entries: string[];
    try {
      entries = readdirSync(where).filter((entry) => SOURCE.test(entry)).slice(0, MAX_FILES);
    } catch {
      continue;
    }
    for (const entry of entries) {
      if (join(where, entry) === file) continue;
      // the text first: only a module that spells such a specifier is parsed
      const read = readModule(file, from + entry);
      if (!read?.entry.text.includes('`' + prefix + '${')) continue;
      const module = loadModule(context, from + entry);
      if (module && dispatcherIn(context, module.program, prefix)) return true;
    }
  }
  return false;
}

/** Whether `program` calls what it loads by a specifier `` `${prefix}${...}` `` inside a handler registered for a string event. */
function dispatcherIn(context: AnyContext, program: TSESTree.Program, prefix: string): boolean {
  return walk(context, program, (node) => {
    const source = node.type === AST_NODE_TYPES.ImportExpression ? node.source : node.type === AST_NODE_TYPES.CallExpression && node.callee.type === AST_NODE_TYPES.Identifier && node.callee.name === 'require' ? node.arguments[0] : undefined;
    if (source?.type !== AST_NODE_TYPES.TemplateLiteral || source.expressions.length === 0 || source.quasis[0]?.value.cooked !== prefix) return undefined;
    return calledLoad(node) && inRegisteredHandler(node) ? 'stop' : undefined;
  });
}

/** `require(...)(options)`, `(await import(...)).default(options)`. */
function calledLoad(load: TSESTree.Node): boolean {
  let value: TSESTree.Node = load;
  if (value.parent?.type === AST_NODE_TYPES.AwaitExpression) value = value.parent;
  const parent = value.parent;
  if (parent?.type === AST_NODE_TYPES.CallExpression && parent.callee === value) return true;
  return parent?.type === AST_NODE_TYPES.MemberExpression && parent.object === value && parent.parent?.type === AST_NODE_TYPES.CallExpression && parent.parent.callee === parent;
}

/** Whether `node` sits in a function registered with `x.on('<event>', fn)`. */
function inRegisteredHandler(node: TSESTree.Node): boolean {
  for (let current = node.parent; current; current = current.parent) {
    if (current.type !== AST_NODE_TYPES.FunctionExpression && current.type !== AST_NODE_TYPES.ArrowFunctionExpression) continue;
    const call = current.parent;
    if (call?.type !== AST_NODE_TYPES.CallExpression || call.arguments[1] !== current) continue;
    const callee = unwrap(call.callee);
    const event = call.arguments[0];
    if (callee.type === AST_NODE_TYPES.MemberExpression && REGISTER.has(propertyName(callee.property, callee.computed) ?? '') && event?.type === AST_NODE_TYPES.Literal && typeof event.value === 'string') return true;
  }
  return false;
}
