/**
 * Modules a module starts as a thread or a process by a computed path, for `unreached-modules.ts`:
 *
 * ```ts
 * for (const file of readdirSync(join(__dirname, 'workers'))) new Worker(join(__dirname, 'workers', file));
 * fork(path.join(__dirname, 'jobs', kind));
 * new Piscina({ filename: path.resolve(__dirname, 'workers', process.env.WORKER_FILE) });
 * ```
 *
 * The started module is imported by nobody and its name is written nowhere, yet it runs: such a
 * start is a load by a computed path, as `import(\`./jobs/${kind}\`)` is. What counts: a
 * `new Worker(path)` (worker_threads, or BullMQ's `new Worker(queue, path)` with a sandboxed
 * processor's path), a `new Piscina` / `new Tinypool` whose `filename` is a path, a `fork(path)`
 * (child_process), the path being computed. A path is not computed when it is built only of string
 * literals, `__dirname`, `__filename`, `import.meta.url` / `dirname`, `process.cwd()`, through
 * `join` / `resolve` calls or `new URL(...)`: then its file name is written, and found as such.
 */
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { parsedModule } from './parsed-modules.js';
import { propertyName, walkParsed } from './static.js';

/** A quick look at the text before parsing: a thread or process start of some kind. */
const MAY_SPAWN = /\bnew\s+(?:Worker|Piscina|Tinypool)\s*\(|\bfork\s*\(/;

/** Classes that start a module as a thread or a sandboxed processor, and pools whose `filename` option is one. */
const WORKER_CLASSES = new Set(['Worker']);
const POOL_CLASSES = new Set(['Piscina', 'Tinypool']);

/** The name a callee ends with (`Worker` of `new threads.Worker(...)`). */
function calleeName(callee: TSESTree.Node): string | undefined {
  if (callee.type === AST_NODE_TYPES.Identifier) return callee.name;
  if (callee.type === AST_NODE_TYPES.MemberExpression) return propertyName(callee.property, callee.computed);
  return undefined;
}

/** Whether `node` is a path written out: literals, `__dirname`, `import.meta.url`, `process.cwd()`, joined or resolved (see the module comment). */
function writtenPath(node: TSESTree.Node): boolean {
  switch (node.type) {
    case AST_NODE_TYPES.Literal:
      return typeof node.value === 'string';
    case AST_NODE_TYPES.TemplateLiteral:
      return node.expressions.every(writtenPath);
    case AST_NODE_TYPES.Identifier:
      return node.name === '__dirname' || node.name === '__filename';
    case AST_NODE_TYPES.MemberExpression:
      return node.object.type === AST_NODE_TYPES.MetaProperty;
    case AST_NODE_TYPES.BinaryExpression:
      return node.operator === '+' && writtenPath(node.left) && writtenPath(node.right);
    case AST_NODE_TYPES.NewExpression:
      return calleeName(node.callee) === 'URL' && node.arguments.every(writtenPath);
    case AST_NODE_TYPES.CallExpression: {
      const name = calleeName(node.callee);
      if (name === 'cwd') return node.arguments.length === 0;
      return (name === 'join' || name === 'resolve' || name === 'fileURLToPath') && node.arguments.every(writtenPath);
    }
    default:
      return false;
  }
}

/** The paths a start names: a Worker's first argument (or its second, BullMQ's processor file), a pool's `filename`, `fork`'s first. */
function startedPaths(node: TSESTree.Node): TSESTree.Node[] {
  if (node.type === AST_NODE_TYPES.NewExpression) {
    const name = calleeName(node.callee);
    if (name !== undefined && WORKER_CLASSES.has(name)) {
      const [first, second] = node.arguments;
      // BullMQ: `new Worker('emails', processorFile)`; a processor function is no path
      const path = first?.type === AST_NODE_TYPES.Literal && second !== undefined ? second : first;
      return path && path.type !== AST_NODE_TYPES.ArrowFunctionExpression && path.type !== AST_NODE_TYPES.FunctionExpression && path.type !== AST_NODE_TYPES.SpreadElement ? [path] : [];
    }
    if (name !== undefined && POOL_CLASSES.has(name)) {
      const options = node.arguments[0];
      if (options?.type !== AST_NODE_TYPES.ObjectExpression) return [];
      return options.properties.flatMap((p) => (p.type === AST_NODE_TYPES.Property && propertyName(p.key, p.computed) === 'filename' ? [p.value] : []));
    }
  }
  if (node.type === AST_NODE_TYPES.CallExpression && calleeName(node.callee) === 'fork') {
    const first = node.arguments[0];
    return first && first.type !== AST_NODE_TYPES.SpreadElement ? [first] : [];
  }
  return [];
}

/**
 * Whether the module at `path` (source `text`) starts a module as a thread or a process by a
 * computed path (see the module comment). A module that does not parse counts when its text
 * names such a start.
 */
export function spawnsByComputedPath(path: string, text: string): boolean {
  if (!MAY_SPAWN.test(text)) return false;
  const parsed = parsedModule(path);
  if (typeof parsed === 'string') return true;
  return walkParsed(parsed.program, (node) => (startedPaths(node).some((started) => !writtenPath(started)) ? 'stop' : undefined));
}
