/**
 * node-redis 4 command options passed as a command's first argument:
 * `client.get(commandOptions({ returnBuffers: true }), key)`, `client.hDel(commandOptions({
 * isolated: true }), key, fields)`. node-redis 4 tells them from a key by a symbol that
 * `commandOptions()` (the package export, or the client's `commandOptions` method) sets on the
 * object (`isCommandOptions(args[0])` in @redis/client's `transformCommandArguments`), drops them
 * from the argv and sends the rest: the key is the next argument. A plain object literal without
 * that symbol is not read as options (it is sent as an argument). node-redis 5 has no such
 * argument: options live on a proxy client (`withCommandOptions`, `withTypeMapping`,
 * `withAbortSignal`, `asap`), which is a client receiver (`redis-calls/client-facts.ts`).
 */
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { flavorOfModule } from './client-packages.js';
import { findVariable, propertyName, returnedExpressions, unwrap, type AnyContext, type FunctionLike } from './static.js';

/**
 * Whether `node`, the first argument of a command method, carries node-redis 4 command options:
 *
 * - a call of `commandOptions(...)` imported (or required) from `redis` / `@redis/client`, or of
 *   a `commandOptions` method (`client.commandOptions(...)`, `RedisClient.commandOptions(...)`);
 * - a `const` bound to one, or a call of a function of this module whose every `return` gives
 *   one (`getTimeoutOptions(ms)` returning `commandOptions({ signal })`);
 * - an object literal spreading one (`{ isolated: true, ...commandOptions(o) }`: a spread copies
 *   the symbol).
 *
 * A command needs an argument after the options (the key): a call with one argument is never read
 * this way.
 */
export function isCommandOptionsArgument(context: AnyContext, node: TSESTree.Node | undefined, depth = 0): boolean {
  if (!node || node.type === AST_NODE_TYPES.SpreadElement || depth > 4) return false;
  const bare = unwrap(node);
  switch (bare.type) {
    case AST_NODE_TYPES.CallExpression:
      return isCommandOptionsCall(context, bare, depth);
    case AST_NODE_TYPES.ObjectExpression:
      return bare.properties.some((p) => p.type === AST_NODE_TYPES.SpreadElement && isCommandOptionsArgument(context, p.argument, depth + 1));
    case AST_NODE_TYPES.Identifier: {
      const variable = findVariable(context, bare);
      const def = variable?.defs[0];
      const init = def?.type === 'Variable' && variable!.defs.length === 1 && def.node.id === def.name ? def.node.init : undefined;
      const assigned = variable?.references.some((r) => r.isWrite() && r.writeExpr !== init) ?? true;
      return init !== null && init !== undefined && !assigned && isCommandOptionsArgument(context, init, depth + 1);
    }
    default:
      return false;
  }
}

function isCommandOptionsCall(context: AnyContext, call: TSESTree.CallExpression, depth: number): boolean {
  let callee = unwrap(call.callee);
  // (0, import_redis.commandOptions)(...) as bundlers write it
  if (callee.type === AST_NODE_TYPES.SequenceExpression) callee = unwrap(callee.expressions[callee.expressions.length - 1]!);
  if (callee.type === AST_NODE_TYPES.MemberExpression) return propertyName(callee.property, callee.computed) === 'commandOptions';
  if (callee.type !== AST_NODE_TYPES.Identifier) return false;
  const imported = importedFrom(context, callee);
  if (imported) return flavorOfModule(imported.source) === 'node-redis' && imported.name === 'commandOptions';
  const fn = localFunction(context, callee);
  if (!fn) return false;
  const returned = returnedExpressions(fn);
  return returned.length > 0 && returned.every((value) => isCommandOptionsArgument(context, value, depth + 1));
}

/**
 * The module and exported name an identifier is bound to: `import { commandOptions as o } from
 * 'redis'`, `const { commandOptions } = require('redis')`; `undefined` for anything else.
 */
function importedFrom(context: AnyContext, id: TSESTree.Identifier): { source: string; name: string } | undefined {
  const def = findVariable(context, id)?.defs[0];
  if (def?.type === 'ImportBinding' && def.node.type === AST_NODE_TYPES.ImportSpecifier && def.parent.type === AST_NODE_TYPES.ImportDeclaration) {
    const imported = def.node.imported;
    return { source: def.parent.source.value, name: imported.type === AST_NODE_TYPES.Identifier ? imported.name : String(imported.value) };
  }
  if (def?.type !== 'Variable' || def.node.id.type !== AST_NODE_TYPES.ObjectPattern) return undefined;
  const init = def.node.init ? unwrap(def.node.init) : undefined;
  const source = init?.type === AST_NODE_TYPES.CallExpression && init.callee.type === AST_NODE_TYPES.Identifier && init.callee.name === 'require' ? init.arguments[0] : undefined;
  if (source?.type !== AST_NODE_TYPES.Literal || typeof source.value !== 'string') return undefined;
  for (const property of def.node.id.properties) {
    if (property.type === AST_NODE_TYPES.Property && property.value === def.name) {
      const name = propertyName(property.key, property.computed);
      return name === undefined ? undefined : { source: source.value, name };
    }
  }
  return undefined;
}

/** The function a local identifier names: `function f() {}`, `const f = () => ...`. */
function localFunction(context: AnyContext, callee: TSESTree.Identifier): FunctionLike | undefined {
  const def = findVariable(context, callee)?.defs[0];
  if (def?.type === 'FunctionName' && def.node.type === AST_NODE_TYPES.FunctionDeclaration && def.node.body) return def.node;
  const init = def?.type === 'Variable' && def.parent?.kind === 'const' ? def.node.init : undefined;
  return init?.type === AST_NODE_TYPES.ArrowFunctionExpression || init?.type === AST_NODE_TYPES.FunctionExpression ? init : undefined;
}
