/**
 * The calls that run a script loaded with `SCRIPT LOAD`: node-redis / @upstash/redis
 * `scriptLoad(script)` (`SCRIPT_LOAD`) returns the script's SHA1 digest, and `EVALSHA` runs the
 * script with the `KEYS` given at that call (`semantics/scripting.ts` SCRIPT_BY_DIGEST_COMMANDS). What the script does to `KEYS[i]` is then what
 * the file does to the keys its `evalSha(sha, { keys })` calls pass there, as for an `eval`.
 *
 * Read only when every use of the SHA is in sight: the digest is held by one variable of the file
 * (`const sha = await redis.scriptLoad(S)`, or `let sha = null` assigned `sha = await
 * redis.scriptLoad(S)`), not exported, assigned nothing else, and read only as the first argument
 * of an EVALSHA method (`evalSha(sha, { keys, arguments })`, `evalsha(sha, 2, k1, k2, ...)`,
 * `evalsha(sha, [k1, k2], args)`) whose keys can be read, or tested (`if (!sha)`, `sha === null`,
 * `typeof sha`); and the script is loaded by this call alone (written at it, or held by a `const`
 * of the file that nothing else reads). A SHA passed on, returned, stored in an object, or run
 * through a generic command (`sendCommand(['EVALSHA', sha, ...])`) may run with other keys.
 */
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { SCRIPT_BY_DIGEST_COMMANDS } from '../semantics/scripting.js';
import { findVariable, propertyName, unwrap, type AnyContext } from './static.js';

/**
 * The command a client method that runs a loaded script sends (`evalSha`, `evalsha`, `EVALSHA`,
 * `evalshaBuffer` -> EVALSHA; `evalShaRo`, `evalsha_ro` -> EVALSHA_RO), when it is one of
 * {@link SCRIPT_BY_DIGEST_COMMANDS}: the digest first, the keys read as `eval`'s.
 */
function digestCommand(method: string): string | undefined {
  const command = method.toUpperCase().replace(/BUFFER$/, '').replace(/_?RO$/, '_RO');
  return SCRIPT_BY_DIGEST_COMMANDS.has(command) ? command : undefined;
}

/**
 * The `KEYS` of every `EVALSHA` of the digest `load` (a `scriptLoad(script)` call) returns, in this
 * file, one list per call in `KEYS` order; `undefined` when the uses of the digest or of the
 * script cannot all be known (see the module comment). An empty list when nothing runs it.
 * @param context the rule context
 * @param load the `scriptLoad(script)` call
 * @param scriptNode its script argument
 * @param keysOf reads the `KEYS` of an `EVALSHA` call from its second argument on, as `eval`'s
 *   (`lua.ts` evalKeys); `undefined` when they cannot be read
 */
export function loadedScriptCallerKeys(
  context: AnyContext,
  load: TSESTree.CallExpression,
  scriptNode: TSESTree.Node,
  keysOf: (call: TSESTree.CallExpression) => TSESTree.Node[] | undefined,
): TSESTree.Node[][] | undefined {
  if (!loadedHereAlone(context, load, scriptNode)) return undefined;
  const holder = digestHolder(load);
  if (!holder) return undefined;
  const variable = findVariable(context, holder);
  if (!variable || variable.defs.length !== 1) return undefined;
  const declarator = variable.defs[0]!.node;
  if (declarator.type !== AST_NODE_TYPES.VariableDeclarator) return undefined;
  const declaration = declarator.parent;
  if (declaration?.type !== AST_NODE_TYPES.VariableDeclaration || declaration.parent?.type === AST_NODE_TYPES.ExportNamedDeclaration) return undefined;
  // the initializer: the load itself, or nothing yet (`let sha: string | null = null`)
  if (declarator.init && !isLoad(declarator.init, load) && !isNothing(declarator.init)) return undefined;
  const calls: TSESTree.Node[][] = [];
  for (const reference of variable.references) {
    const identifier = reference.identifier as TSESTree.Node;
    if (reference.init) continue;
    if (reference.isWrite()) {
      const assignment = identifier.parent;
      if (assignment?.type !== AST_NODE_TYPES.AssignmentExpression || assignment.operator !== '=' || assignment.left !== identifier) return undefined;
      if (!isLoad(assignment.right, load) && !isNothing(assignment.right)) return undefined;
      continue;
    }
    // `sha!`, `sha as string`: the digest itself
    let use = identifier;
    while (use.parent && use.parent.type !== AST_NODE_TYPES.CallExpression && unwrap(use.parent) === identifier) use = use.parent;
    const parent = use.parent;
    if (parent?.type === AST_NODE_TYPES.CallExpression && parent.arguments[0] === use) {
      const callee = unwrap(parent.callee);
      const name = callee.type === AST_NODE_TYPES.MemberExpression ? propertyName(callee.property, callee.computed) : undefined;
      if (name === undefined || digestCommand(name) === undefined) return undefined;
      const keys = keysOf(parent);
      if (!keys) return undefined;
      calls.push(keys);
      continue;
    }
    if (!onlyTested(identifier)) return undefined;
  }
  return calls;
}

/** The identifier the digest of `load` is stored in: `const sha = await load`, `sha = await load`. */
function digestHolder(load: TSESTree.CallExpression): TSESTree.Identifier | undefined {
  let node: TSESTree.Node = load;
  while (node.parent && (node.parent.type === AST_NODE_TYPES.AwaitExpression || unwrap(node.parent) === load)) node = node.parent;
  const parent = node.parent;
  if (parent?.type === AST_NODE_TYPES.VariableDeclarator && parent.init === node && parent.id.type === AST_NODE_TYPES.Identifier) return parent.id;
  if (parent?.type === AST_NODE_TYPES.AssignmentExpression && parent.operator === '=' && parent.right === node && parent.left.type === AST_NODE_TYPES.Identifier) {
    return parent.left;
  }
  return undefined;
}

/** Whether `value` is `load` (awaited or not). */
function isLoad(value: TSESTree.Node, load: TSESTree.CallExpression): boolean {
  let node = unwrap(value);
  if (node.type === AST_NODE_TYPES.AwaitExpression) node = unwrap(node.argument);
  return node === load;
}

/** `null` or `undefined`: no digest yet. */
function isNothing(value: TSESTree.Node): boolean {
  const node = unwrap(value);
  return (node.type === AST_NODE_TYPES.Literal && node.value === null) || (node.type === AST_NODE_TYPES.Identifier && node.name === 'undefined');
}

/** A read of the digest that only tests it: `!sha`, `typeof sha`, `sha === null`, `if (sha)`, `sha ? a : b`. */
function onlyTested(identifier: TSESTree.Node): boolean {
  const parent = identifier.parent;
  if (!parent) return false;
  switch (parent.type) {
    case AST_NODE_TYPES.UnaryExpression:
      return parent.operator === '!' || parent.operator === 'typeof';
    case AST_NODE_TYPES.BinaryExpression:
      return ['===', '!==', '==', '!='].includes(parent.operator);
    case AST_NODE_TYPES.IfStatement:
    case AST_NODE_TYPES.ConditionalExpression:
    case AST_NODE_TYPES.WhileStatement:
      return parent.test === identifier;
    case AST_NODE_TYPES.LogicalExpression:
      // `sha && x`: a test when the whole is one (`if (sha && other)`); `sha || load()` hands it on
      return parent.left === identifier && parent.operator === '&&' && parent.parent?.type === AST_NODE_TYPES.IfStatement && parent.parent.test === parent;
    default:
      return false;
  }
}

/** Whether the script argument is written at `load`, or held by a non-exported `const` of the file that only `load` reads. */
function loadedHereAlone(context: AnyContext, load: TSESTree.CallExpression, scriptNode: TSESTree.Node): boolean {
  const node = unwrap(scriptNode);
  if (node.type === AST_NODE_TYPES.Literal || node.type === AST_NODE_TYPES.TemplateLiteral) return true;
  if (node.type !== AST_NODE_TYPES.Identifier) return false;
  const variable = findVariable(context, node);
  const def = variable?.defs.length === 1 ? variable.defs[0] : undefined;
  if (!variable || def?.node.type !== AST_NODE_TYPES.VariableDeclarator) return false;
  const declaration = def.node.parent;
  if (declaration?.type !== AST_NODE_TYPES.VariableDeclaration || declaration.kind !== 'const') return false;
  if (declaration.parent?.type === AST_NODE_TYPES.ExportNamedDeclaration) return false;
  const reads = variable.references.filter((reference) => !reference.init);
  return reads.length === 1 && reads[0]!.identifier === node && unwrap(load.arguments[0]!) === node;
}
