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
 * `new Worker(...)` read by the package its class comes from (`import` / `require` of the module,
 * syntax only): worker_threads' (or a global `Worker`) starts its first argument, never its
 * options (`new Worker('./w.js', { workerData })`); BullMQ's starts its second when that is a
 * sandboxed processor's path, not a processor function (`new Worker('emails', processJob)`, the
 * function written there, declared in the module or imported); a `Worker` of any other origin,
 * its first argument or its second after a string (either may be a path). Also a `new Piscina` /
 * `new Tinypool` whose `filename` is a path, a `fork(path)` (child_process), the path being computed. A path is not computed when it is built only of string
 * literals, `__dirname`, `__filename`, `import.meta.url` / `dirname`, `process.cwd()`, through
 * `join` / `resolve` calls or `new URL(...)`: then its file name is written, and found as such.
 */
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { topLevelDeclaration } from './modules.js';
import { parsedModule } from './parsed-modules.js';
import { propertyName, requiredModule, walkParsed } from './static.js';

/** A quick look at the text before parsing: a thread or process start of some kind. */
// `new Worker(`, `new threads.Worker(`, a class renamed where it is imported (`Worker as Queue`,
// `{ Worker: Queue } = require(...)`)
const MAY_SPAWN = /\bnew\s+(?:[\w$]+\s*\.\s*)?(?:Worker|Piscina|Tinypool)\s*\(|\bfork\s*\(|\b(?:Worker|Piscina|Tinypool)\s+as\s|\b(?:Worker|Piscina|Tinypool)\s*:\s*[\w$]/;

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

/** Packages whose `Worker` is BullMQ's: `new Worker(queueName, processor)`, the processor a function or a sandboxed processor's path (https://docs.bullmq.io/guide/workers/sandboxed-processors). */
const BULLMQ = /^(?:bullmq|@taskforcesh\/bullmq-pro)$/;

/** Node's worker_threads, whose `new Worker(filename, options)` starts the file its first argument names (https://nodejs.org/api/worker_threads.html#new-workerfilename-options). */
const WORKER_THREADS = /^(?:node:)?worker_threads$/;

/** What a name is bound to at a module's top level, as far as a start's form needs: an import or require of a package (its source), a function, a `const` (its initializer). */
type Binding = { kind: 'import'; source: string } | { kind: 'function' } | { kind: 'const'; init: TSESTree.Expression };

/**
 * What `name` is bound to in `program` (syntax only: a module read from disk has no ESLint scope,
 * so `client-syntax.ts` originOf cannot be asked): an `import` (named, default or namespace) or a
 * `require` (whole or destructured) of a source, a function declared at the top level
 * (modules.ts topLevelDeclaration), or a top-level `const`; `undefined` when none is found (a global, a parameter).
 */
function bindingOf(program: TSESTree.Program, name: string): Binding | undefined {
  for (const statement of program.body) {
    if (statement.type === AST_NODE_TYPES.ImportDeclaration && statement.specifiers.some((s) => s.local.name === name)) return { kind: 'import', source: statement.source.value };
    const declared = statement.type === AST_NODE_TYPES.ExportNamedDeclaration ? statement.declaration : statement;
    if (declared?.type !== AST_NODE_TYPES.VariableDeclaration) continue;
    for (const declarator of declared.declarations) {
      const bound = declarator.id.type === AST_NODE_TYPES.Identifier ? declarator.id.name === name : declarator.id.type === AST_NODE_TYPES.ObjectPattern && declarator.id.properties.some((p) => p.type === AST_NODE_TYPES.Property && p.value.type === AST_NODE_TYPES.Identifier && p.value.name === name);
      if (!bound || !declarator.init) continue;
      const init = declarator.init.type === AST_NODE_TYPES.MemberExpression ? declarator.init.object : declarator.init;
      const source = requiredModule(init);
      if (source !== undefined) return { kind: 'import', source };
      if (declarator.id.type === AST_NODE_TYPES.Identifier) {
        if (declarator.init.type === AST_NODE_TYPES.ArrowFunctionExpression || declarator.init.type === AST_NODE_TYPES.FunctionExpression) return { kind: 'function' };
        if (declared.kind === 'const') return { kind: 'const', init: declarator.init };
      }
    }
  }
  return topLevelDeclaration(program, name)?.type === AST_NODE_TYPES.FunctionDeclaration ? { kind: 'function' } : undefined;
}

/**
 * Whether `name` is bound anywhere in `program`, in any scope: an import, a declared variable
 * (destructured too: `const { Worker } = await import('bullmq')` inside a function), a parameter, a
 * function or class. A name bound nowhere is a global (Node's, Bun's or Deno's `Worker`).
 */
function boundAnywhere(program: TSESTree.Program, name: string): boolean {
  const binds = (pattern: TSESTree.Node | null | undefined): boolean => {
    if (!pattern) return false;
    switch (pattern.type) {
      case AST_NODE_TYPES.Identifier:
        return pattern.name === name;
      case AST_NODE_TYPES.ObjectPattern:
        return pattern.properties.some((p) => binds(p.type === AST_NODE_TYPES.Property ? p.value : p.argument));
      case AST_NODE_TYPES.ArrayPattern:
        return pattern.elements.some((e) => binds(e));
      case AST_NODE_TYPES.AssignmentPattern:
        return binds(pattern.left);
      case AST_NODE_TYPES.RestElement:
        return binds(pattern.argument);
      default:
        return false;
    }
  };
  const found = walkParsed(program, (node) => {
    if (node.type === AST_NODE_TYPES.ImportDeclaration) return node.specifiers.some((s) => s.local.name === name) ? 'stop' : undefined;
    if (node.type === AST_NODE_TYPES.VariableDeclarator) return binds(node.id) ? 'stop' : undefined;
    if (node.type === AST_NODE_TYPES.FunctionDeclaration || node.type === AST_NODE_TYPES.FunctionExpression || node.type === AST_NODE_TYPES.ArrowFunctionExpression) {
      return (node.type !== AST_NODE_TYPES.ArrowFunctionExpression && node.id?.name === name) || node.params.some((p) => binds(p)) ? 'stop' : undefined;
    }
    return node.type === AST_NODE_TYPES.ClassDeclaration && node.id?.name === name ? 'stop' : undefined;
  });
  return Boolean(found);
}

/**
 * The name a class is exported under when `local` is a renaming import of it (`import { Worker as
 * Queue } from 'bullmq'`, `const { Worker: Queue } = require('bullmq')`), else `undefined`.
 */
function importedName(program: TSESTree.Program, local: string): string | undefined {
  for (const statement of program.body) {
    if (statement.type === AST_NODE_TYPES.ImportDeclaration) {
      for (const specifier of statement.specifiers) {
        if (specifier.type === AST_NODE_TYPES.ImportSpecifier && specifier.local.name === local) return propertyName(specifier.imported, false);
      }
    }
    if (statement.type !== AST_NODE_TYPES.VariableDeclaration) continue;
    for (const declarator of statement.declarations) {
      if (declarator.id.type !== AST_NODE_TYPES.ObjectPattern || !declarator.init || requiredModule(declarator.init) === undefined) continue;
      for (const property of declarator.id.properties) {
        if (property.type === AST_NODE_TYPES.Property && property.value.type === AST_NODE_TYPES.Identifier && property.value.name === local) return propertyName(property.key, property.computed);
      }
    }
  }
  return undefined;
}

/** The package a `Worker` class comes from (`Worker` imported or required, or `threads.Worker` of a namespace), else `undefined`. */
function workerSource(program: TSESTree.Program, callee: TSESTree.Node): string | undefined {
  const local = callee.type === AST_NODE_TYPES.Identifier ? callee.name : callee.type === AST_NODE_TYPES.MemberExpression && callee.object.type === AST_NODE_TYPES.Identifier ? callee.object.name : undefined;
  if (local === undefined) return undefined;
  const binding = bindingOf(program, local);
  return binding?.kind === 'import' ? binding.source : undefined;
}

/**
 * Whether a BullMQ processor argument is certainly no path: a function written there, or a name
 * bound to a function of the module or imported from another module (a processor module exports
 * its function; a sandboxed processor's path is built where it is started, from `__dirname`).
 * A `const` holding a path is judged by its initializer.
 */
function processorPath(program: TSESTree.Program, node: TSESTree.Node): TSESTree.Node | undefined {
  if (node.type === AST_NODE_TYPES.ArrowFunctionExpression || node.type === AST_NODE_TYPES.FunctionExpression || node.type === AST_NODE_TYPES.SpreadElement) return undefined;
  if (node.type !== AST_NODE_TYPES.Identifier) return node;
  const binding = bindingOf(program, node.name);
  if (binding?.kind === 'function' || binding?.kind === 'import') return undefined;
  return binding?.kind === 'const' ? binding.init : node;
}

/**
 * The paths a start names: a pool's `filename`, `fork`'s first argument, and a `Worker`'s by the
 * package its class comes from: worker_threads' (or a global `Worker`, Bun's and Deno's) first
 * argument, never its options; BullMQ's second argument when it is no function ({@link
 * processorPath}), never its queue name; a `Worker` of any other origin, its first argument, or
 * its second when the first is a string literal (conservatively: either may be a path).
 */
function startedPaths(node: TSESTree.Node, program: TSESTree.Program): TSESTree.Node[] {
  if (node.type === AST_NODE_TYPES.NewExpression) {
    const name = (node.callee.type === AST_NODE_TYPES.Identifier ? importedName(program, node.callee.name) : undefined) ?? calleeName(node.callee);
    if (name !== undefined && WORKER_CLASSES.has(name)) {
      const [first, second] = node.arguments;
      const source = workerSource(program, node.callee);
      if (source !== undefined && BULLMQ.test(source)) {
        const path = second && processorPath(program, second);
        return path ? [path] : [];
      }
      if ((source !== undefined && WORKER_THREADS.test(source)) || (source === undefined && node.callee.type === AST_NODE_TYPES.Identifier && !boundAnywhere(program, node.callee.name))) {
        return first && first.type !== AST_NODE_TYPES.SpreadElement ? [first] : [];
      }
      // another origin: `new Worker('emails', processorFile)` may be BullMQ's behind a module of the code
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
  return walkParsed(parsed.program, (node) => (startedPaths(node, parsed.program).some((started) => !writtenPath(started)) ? 'stop' : undefined));
}
