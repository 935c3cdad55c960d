/**
 * Finding Lua source embedded in application code, and mapping positions inside the script back to
 * the JS/TS file. Scripts are the first argument of ioredis / iovalkey / node-redis / upstash
 * `eval` (`evalRo`), upstash `createScript`, the `lua` option of ioredis `defineCommand(name, {
 * lua })`, the `SCRIPT` option of node-redis `defineScript({ SCRIPT })` and the code of a Valkey
 * GLIDE `new Script(code)` (KEYS from `invokeScript(script, { keys })`): a string literal, a template
 * literal without substitutions, or one reached through `const`s, object and array literals of the
 * same file (`SCRIPTS.hit.script`, `SCRIPTS[0]`), or through a `const` of a module imported with a
 * relative specifier (`import { SCRIPTS } from './scripts'`, `require('./scripts').SCRIPTS`), which
 * is read and parsed with the file's own parser.
 */
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { clientDetectorOf } from './index.js';
import { definedCommandCallerKeys } from './defined-command-callers.js';
import { flavorOfModule } from './client-packages.js';
import { lineIndex, type LineIndex } from '../text/lines.js';
import { exportedValue, importedBinding, moduleConst, namespaceModule, type ImportedModule } from './modules.js';
import { foldedNumberPiece } from './constant-number-piece.js';
import { loadedScriptCallerKeys } from './loaded-script-calls.js';
import { findVariable, pick, propertyName, resolveConstExpression, staticValue, unwrap, type AnyContext } from './static.js';

/** A Lua script found in the file. */
export interface EmbeddedScript {
  /** The script as Redis receives it (the cooked string value). */
  source: string;
  /**
   * The literal holding it (possibly far from the call, through a `const`); for a script of an
   * imported module, the script argument of the call in this file.
   */
  literal: TSESTree.Node;
  /**
   * For a script of an imported module: where it is (`./scripts.ts:12:3`, relative to this file);
   * {@link toFileOffset} then maps every offset to the start of {@link literal}.
   */
  importedFrom?: string;
  /**
   * For a script of an imported module: the 1-based line and column in that module of a 0-based
   * offset into {@link source}, with the module as `file` (what messages name).
   */
  modulePosition?(offset: number): { line: number; column: number; file: string };
  /**
   * The `KEYS` of an eval call, in order (`redis.eval(script, 2, a, b)` -> `[a, b]`), when they
   * can be read; `undefined` for `defineCommand` / `defineScript` / `createScript`.
   */
  keyArgs?: TSESTree.Node[];
  /**
   * For ioredis `defineCommand(name, { numberOfKeys, lua })`: the `KEYS` each call of the defined
   * command in this file passes, one list per call (`defined-command-callers.ts`).
   */
  callerKeys?: TSESTree.Node[][];
  /**
   * For node-redis / upstash `scriptLoad(script)`: the `KEYS` each `EVALSHA` of the digest it
   * returns passes, one list per call, when every use of the digest is in this file
   * (`loaded-script-calls.ts`); an empty list when nothing runs it.
   */
  loadedCallerKeys?: TSESTree.Node[][];
  /**
   * Maps a 0-based UTF-16 offset into {@link source} (0..source.length) to a 0-based offset into
   * the file's text, through escapes and template-literal line endings.
   */
  toFileOffset(offset: number): number;
  /**
   * For a script built from several pieces (`"..." + "..."`): like {@link toFileOffset}, but an
   * offset where one piece ends and the next begins maps to the end of the earlier piece (the end
   * of a finding stays in the piece it starts in).
   */
  toFileEndOffset?(offset: number): number;
}

/** Methods whose first argument is a script's source (never a SHA: `evalsha` is left out). */
const EVAL_METHODS = new Set(['eval', 'evalRo', 'eval_ro', 'evalBuffer', 'EVAL', 'EVAL_RO', 'createScript']);
/** Methods whose first argument is a script (node-redis / @upstash/redis `scriptLoad`) or a function library (node-redis `functionLoad`). */
const LOAD_METHODS = new Set(['scriptLoad', 'SCRIPT_LOAD', 'functionLoad', 'FUNCTION_LOAD']);
/** Methods that send a command by name, its arguments after it: ioredis `call('EVAL', ...)`, `send_command`, `send`, `command`. */
const GENERIC_BY_NAME = new Set(['call', 'callBuffer', 'send_command', 'send', 'command']);
/** Methods that send an argv array: node-redis `sendCommand([...])` / `addCommand([...])`, upstash `exec([...])`, GLIDE `customCommand([...])`. */
const GENERIC_BY_ARRAY = new Set(['sendCommand', 'addCommand', 'exec', 'customCommand']);

/**
 * A script argument that cannot be read: built at run time (`"..." + ttl`, a template with
 * `${ttl}`, `SCRIPT.replace(x, ttl)`), so nothing in it can be checked. Reported once, as
 * lua-lint's `unanalyzable-command`, never dropped.
 */
export interface UnreadableScript {
  unreadable: true;
  /** The expression that builds the script, where the finding goes. */
  node: TSESTree.Node;
  /** What builds it, for the message: `` a concatenation with `ttl` ``. */
  how: string;
  /** The call it is passed to, for the message: `redis.eval(...)`. */
  via: string;
}

/**
 * The scripts a call passes to Redis, when it is one of the script-taking calls: `eval` /
 * `evalRo` / `createScript`, `defineCommand(name, { lua })`, `defineScript({ SCRIPT })`,
 * `scriptLoad(script)`, `functionLoad(library)`, and the generic forms whose command words are
 * `EVAL` / `EVAL_RO`, `SCRIPT LOAD` or `FUNCTION LOAD [REPLACE]` (`call('EVAL', script, 1, key)`,
 * `sendCommand(['SCRIPT', 'LOAD', script])`; `EVALSHA` and `FCALL` carry no script). A script
 * argument that holds a string of the file but cannot be read is an {@link UnreadableScript}.
 * Valkey GLIDE's `new Script(code)`: the script it holds, its KEYS from the `keys` option of the
 * `invokeScript` call it is passed to.
 */
export function embeddedScriptsOf(context: AnyContext, node: TSESTree.CallExpression | TSESTree.NewExpression): Array<EmbeddedScript | UnreadableScript> {
  if (node.type === AST_NODE_TYPES.NewExpression) return glideScriptsOf(context, node);
  const callee = unwrap(node.callee);
  const name =
    callee.type === AST_NODE_TYPES.MemberExpression
      ? propertyName(callee.property, callee.computed)
      : callee.type === AST_NODE_TYPES.Identifier
        ? callee.name
        : undefined;
  if (name === undefined) return [];
  const generic = callee.type === AST_NODE_TYPES.MemberExpression && (GENERIC_BY_NAME.has(name) || GENERIC_BY_ARRAY.has(name) || name === 'script');
  if (!generic && !(EVAL_METHODS.has(name) || LOAD_METHODS.has(name) || name === 'defineCommand' || name === 'defineScript')) return [];
  if (!clientDetectorOf(context).mayUseRedis()) return [];
  let scriptNode: TSESTree.Node | undefined;
  let keyArgs: TSESTree.Node[] | undefined;
  let callerKeys: TSESTree.Node[][] | undefined;
  let loadedCallerKeys: TSESTree.Node[][] | undefined;
  if (callee.type === AST_NODE_TYPES.MemberExpression) {
    if (generic) {
      // the command words are read before the receiver is judged: `fn.call(this, x)` is common
      // ioredis `script('LOAD', script)` is SCRIPT LOAD with its first word in the method name
      const argv = name === 'script' ? node.arguments : GENERIC_BY_NAME.has(name) ? genericArguments(node.arguments) : argvArray(context, node.arguments);
      const found = argv ? commandScript(context, argv, name === 'script' ? 'SCRIPT' : undefined) : undefined;
      if (!found) return [];
      ({ scriptNode, keyArgs } = found);
    } else if (EVAL_METHODS.has(name)) {
      scriptNode = node.arguments[0];
      keyArgs = evalKeys(context, node);
    } else if (LOAD_METHODS.has(name)) {
      scriptNode = node.arguments[0];
      // SCRIPT LOAD: the script runs at the EVALSHAs of the digest it returns
      if (scriptNode && scriptNode.type !== AST_NODE_TYPES.SpreadElement && (name === 'scriptLoad' || name === 'SCRIPT_LOAD')) {
        loadedCallerKeys = loadedScriptCallerKeys(context, node, scriptNode, (call) => evalKeys(context, call));
      }
    } else if (name === 'defineCommand') {
      scriptNode = optionValue(context, node.arguments[1], 'lua');
      callerKeys = definedCommandCallerKeys(context, node);
    } else {
      scriptNode = optionValue(context, node.arguments[0], 'SCRIPT');
    }
    if (name !== 'defineScript' && !clientDetectorOf(context).classify(callee.object).redis) return [];
  } else if (name === 'defineScript') {
    scriptNode = optionValue(context, node.arguments[0], 'SCRIPT');
  }
  if (!scriptNode || scriptNode.type === AST_NODE_TYPES.SpreadElement) return [];
  const script = scriptFromNode(context, scriptNode);
  if (script) return [keyArgs ? { ...script, keyArgs } : callerKeys ? { ...script, callerKeys } : loadedCallerKeys ? { ...script, loadedCallerKeys } : script];
  const throughWrapper = scriptsThroughWrapper(context, scriptNode);
  if (throughWrapper.length > 0) return throughWrapper;
  const how = unreadableReason(context, scriptNode, 0);
  // reported where it is built (a `const` used by several calls: once, at its value)
  return how ? [{ unreadable: true, node: resolveConstExpression(context, scriptNode), how, via: callText(context, node) }] : [];
}

/** `call('EVAL', script, ...)` / `send('EVAL', [script, ...])`: the command words and arguments, one list. */
function genericArguments(args: readonly TSESTree.Node[]): TSESTree.Node[] {
  const [first, second, ...rest] = args;
  if (first && second?.type === AST_NODE_TYPES.ArrayExpression && rest.length === 0) return [first, ...second.elements.filter((e): e is TSESTree.Expression | TSESTree.SpreadElement => e !== null)];
  return [...args];
}

/** The argv array of `sendCommand([...])` (the array may be a `const`). */
function argvArray(context: AnyContext, args: readonly TSESTree.Node[]): TSESTree.Node[] | undefined {
  for (const arg of args) {
    const array = arg.type === AST_NODE_TYPES.SpreadElement ? undefined : resolveConstExpression(context, arg);
    if (array?.type === AST_NODE_TYPES.ArrayExpression) return array.elements.filter((e): e is TSESTree.Expression | TSESTree.SpreadElement => e !== null);
  }
  return undefined;
}

/**
 * The script argument of an argv (`['EVAL', script, '1', key]`, `['SCRIPT', 'LOAD', script]`,
 * `['FUNCTION', 'LOAD', 'REPLACE', library]`; command words in any case, as Redis reads them), and
 * for EVAL / EVAL_RO the KEYS when `numkeys` is a literal.
 */
function commandScript(
  context: AnyContext,
  written: readonly TSESTree.Node[],
  implied?: string,
): { scriptNode: TSESTree.Node; keyArgs?: TSESTree.Node[] } | undefined {
  // the first command word may be the method's name (`script('LOAD', ...)`): a hole in the argv
  const argv: ReadonlyArray<TSESTree.Node | undefined> = implied ? [undefined, ...written] : written;
  const word = (index: number): string | undefined => {
    if (index === 0 && implied) return implied;
    const node = argv[index];
    const value = node && node.type !== AST_NODE_TYPES.SpreadElement ? staticValue(context, node) : undefined;
    return typeof value === 'string' ? value.toUpperCase() : undefined;
  };
  const first = word(0);
  if (first === 'EVAL' || first === 'EVAL_RO') {
    const scriptNode = argv[1];
    if (!scriptNode) return undefined;
    const count = argv[2] && argv[2].type !== AST_NODE_TYPES.SpreadElement ? staticValue(context, argv[2]) : undefined;
    const numKeys = typeof count === 'number' || typeof count === 'string' ? Number(count) : Number.NaN;
    const keys = Number.isInteger(numKeys) && numKeys >= 0 ? argv.slice(3, 3 + numKeys) : [];
    const keyArgs = keys.length === numKeys ? keys.filter((k): k is TSESTree.Node => k !== undefined && k.type !== AST_NODE_TYPES.SpreadElement) : [];
    return { scriptNode, ...(keyArgs.length === numKeys ? { keyArgs } : {}) };
  }
  if ((first === 'SCRIPT' || first === 'FUNCTION') && word(1) === 'LOAD') {
    const scriptNode = argv[first === 'FUNCTION' && word(2) === 'REPLACE' ? 3 : 2];
    return scriptNode ? { scriptNode } : undefined;
  }
  return undefined;
}

/** The call as written, on one line and shortened: `redis.eval(...)`, `client.sendCommand(...)`. */
function callText(context: AnyContext, node: TSESTree.CallExpression): string {
  const callee = context.sourceCode.getText(node.callee).replace(/\s+/g, '');
  return `${callee.length > 40 ? `${callee.slice(0, 37)}...` : callee}(...)`;
}

/** An expression's text on one line, at most 40 characters. */
function snippet(context: AnyContext, node: TSESTree.Node): string {
  const line = context.sourceCode.getText(node).split('\n')[0]!.trim();
  return line.length > 40 ? `${line.slice(0, 37)}...` : line;
}

/**
 * Why a script argument cannot be read, when it holds a string of this file (a literal, a
 * template, a `const` holding one): the first part built at run time (`` a concatenation with
 * `ttl` ``, `` a template literal with `${ttl}` ``, `` `SCRIPT.replace(x, ttl)`, which lua-lint
 * cannot evaluate ``). `undefined` for an expression holding no string of the file (a parameter,
 * `fs.readFileSync('x.lua')`): that script is the business of the code that builds it.
 */
function unreadableReason(context: AnyContext, input: TSESTree.Node, depth: number): string | undefined {
  if (depth > 12) return undefined;
  const node = unwrap(input);
  if (!holdsString(context, node, depth)) return undefined;
  const operands = plusOperands(node);
  if (operands) {
    for (const operand of operands) {
      if (constantPieces(context, operand, depth + 1)) continue;
      return unreadableReason(context, operand, depth + 1) ?? `a concatenation with \`${snippet(context, operand)}\``;
    }
  }
  if (node.type === AST_NODE_TYPES.TemplateLiteral) {
    for (const expression of node.expressions) {
      if (constantPieces(context, expression, depth + 1)) continue;
      return unreadableReason(context, expression, depth + 1) ?? `a template literal with \`\${${snippet(context, expression)}}\``;
    }
  }
  if (node.type === AST_NODE_TYPES.Identifier) {
    const resolved = resolveConstExpression(context, node);
    if (resolved !== node) return unreadableReason(context, resolved, depth + 1);
  }
  return `\`${snippet(context, node)}\`, which lua-lint cannot evaluate`;
}

/**
 * Whether an expression is made from a string of this file: a string literal or template, a
 * `const` holding one, an operand of a `+`, or the receiver of a method (`SCRIPT.replace(...)`,
 * `[A, B].join('')`). Arguments of other calls are what they read (a file name, a key), not a script.
 */
function holdsString(context: AnyContext, input: TSESTree.Node, depth: number): boolean {
  if (depth > 12) return false;
  const node = unwrap(input);
  switch (node.type) {
    case AST_NODE_TYPES.Literal:
      return typeof node.value === 'string';
    case AST_NODE_TYPES.TemplateLiteral:
      return true;
    case AST_NODE_TYPES.TaggedTemplateExpression:
      return true;
    case AST_NODE_TYPES.Identifier: {
      const resolved = resolveConstExpression(context, node);
      return resolved !== node && holdsString(context, resolved, depth + 1);
    }
    case AST_NODE_TYPES.BinaryExpression:
      return node.operator === '+' && (plusOperands(node) ?? []).some((operand) => holdsString(context, operand, depth + 1));
    case AST_NODE_TYPES.ArrayExpression:
      return node.elements.some((element) => element !== null && element.type !== AST_NODE_TYPES.SpreadElement && holdsString(context, element, depth + 1));
    case AST_NODE_TYPES.CallExpression: {
      const callee = unwrap(node.callee);
      return callee.type === AST_NODE_TYPES.MemberExpression && holdsString(context, callee.object, depth + 1);
    }
    default:
      return false;
  }
}

/**
 * Valkey GLIDE's `new Script(code)` (`Script` imported from `@valkey/valkey-glide`, or a
 * namespace of it): the script `code`, with the KEYS of the `invokeScript(script, { keys })` call
 * it goes to (written there, or the first such call of the `const` holding it).
 */
function glideScriptsOf(context: AnyContext, node: TSESTree.NewExpression): EmbeddedScript[] {
  const callee = unwrap(node.callee);
  // new Script(code), new LuaScript(code) (an alias), new glide.Script(code)
  const root = callee.type === AST_NODE_TYPES.MemberExpression ? unwrap(callee.object) : callee;
  if (root.type !== AST_NODE_TYPES.Identifier) return [];
  const origin = clientDetectorOf(context).identifierOrigin(root);
  if (origin.kind !== 'import' || flavorOfModule(origin.source) !== 'glide') return [];
  const imported = callee === root ? origin.imported : origin.namespace || origin.imported === 'default' ? propertyName((callee as TSESTree.MemberExpression).property) : undefined;
  if (imported !== 'Script') return [];
  const scriptNode = node.arguments[0];
  if (!scriptNode || scriptNode.type === AST_NODE_TYPES.SpreadElement) return [];
  const script = scriptFromNode(context, scriptNode);
  if (!script) return [];
  const keyArgs = invokeScriptKeys(context, node);
  return [keyArgs ? { ...script, keyArgs } : script];
}

/** The `keys` of the `invokeScript` call a GLIDE Script goes to (see {@link glideScriptsOf}). */
function invokeScriptKeys(context: AnyContext, made: TSESTree.NewExpression): TSESTree.Node[] | undefined {
  const uses: TSESTree.Node[] = [made];
  const parent = made.parent;
  if (parent?.type === AST_NODE_TYPES.VariableDeclarator && parent.init === made && parent.id.type === AST_NODE_TYPES.Identifier) {
    for (const reference of findVariable(context, parent.id)?.references ?? []) uses.push(reference.identifier);
  }
  for (const use of uses) {
    const call = use.parent;
    if (call?.type !== AST_NODE_TYPES.CallExpression || call.arguments[0] !== use) continue;
    const callee = unwrap(call.callee);
    if (callee.type !== AST_NODE_TYPES.MemberExpression || propertyName(callee.property, callee.computed) !== 'invokeScript') continue;
    const keys = optionValue(context, call.arguments[1], 'keys');
    const list = keys ? resolveConstExpression(context, keys) : undefined;
    return list?.type === AST_NODE_TYPES.ArrayExpression ? arrayElements(list) : undefined;
  }
  return undefined;
}

/**
 * A script that reaches `eval` through a parameter of a wrapper function of this module
 * (`const safeEval = (ctx, script, keys, args) => ctx.redis.eval(script.script, keys, args)`):
 * the scripts passed at every call of the wrapper in this file (`safeEval(ctx, SCRIPTS.hit, ...)`),
 * followed through the same property path.
 */
function scriptsThroughWrapper(context: AnyContext, scriptNode: TSESTree.Node): EmbeddedScript[] {
  const path: string[] = [];
  let root = unwrap(scriptNode);
  while (root.type === AST_NODE_TYPES.MemberExpression) {
    const key = memberKey(context, root);
    if (key === undefined) return [];
    path.unshift(key);
    root = unwrap(root.object);
  }
  if (root.type !== AST_NODE_TYPES.Identifier) return [];
  const def = findVariable(context, root)?.defs[0];
  if (def?.type !== 'Parameter') return [];
  const fn = def.node;
  if (fn.type !== AST_NODE_TYPES.FunctionDeclaration && fn.type !== AST_NODE_TYPES.FunctionExpression && fn.type !== AST_NODE_TYPES.ArrowFunctionExpression) {
    return [];
  }
  const index = fn.params.findIndex((p) => p === def.name || (p.type === AST_NODE_TYPES.AssignmentPattern && p.left === def.name));
  const nameNode =
    fn.type === AST_NODE_TYPES.FunctionDeclaration
      ? fn.id
      : fn.parent?.type === AST_NODE_TYPES.VariableDeclarator && fn.parent.id.type === AST_NODE_TYPES.Identifier
        ? fn.parent.id
        : undefined;
  if (index < 0 || !nameNode) return [];
  const variable = findVariable(context, nameNode);
  const out: EmbeddedScript[] = [];
  for (const reference of variable?.references ?? []) {
    const call = reference.identifier.parent;
    if (call?.type !== AST_NODE_TYPES.CallExpression || call.callee !== reference.identifier) continue;
    const argument = call.arguments[index];
    if (!argument || argument.type === AST_NODE_TYPES.SpreadElement) continue;
    const resolved = resolveValue(context, argument, 0);
    if (!resolved) continue;
    let value: TSESTree.Node | undefined = resolved.node;
    for (const key of path) {
      value = value ? pick(value, key) : undefined;
      if (value) value = resolved.imported ? moduleConst(resolved.imported, value) : resolveValue(context, value, 0)?.node;
    }
    if (!value) continue;
    const script = resolved.imported ? undefined : literalScript(value, context.sourceCode.text);
    if (script) out.push(script);
  }
  return out;
}

/**
 * The key arguments of an eval call: ioredis `eval(script, numKeys, ...keys, ...args)` with a
 * literal `numKeys`, node-redis `eval(script, { keys: [...] })`, upstash `eval(script, [...keys], args)`.
 */
function evalKeys(context: AnyContext, node: TSESTree.CallExpression): TSESTree.Node[] | undefined {
  const second = node.arguments[1] ? resolveConstExpression(context, node.arguments[1]) : undefined;
  if (!second) return undefined;
  if (second.type === AST_NODE_TYPES.Literal && typeof second.value === 'number') {
    const keys = node.arguments.slice(2, 2 + second.value);
    return keys.length === second.value && keys.every((k) => k.type !== AST_NODE_TYPES.SpreadElement) ? keys : undefined;
  }
  if (second.type === AST_NODE_TYPES.ArrayExpression) return arrayElements(second);
  if (second.type === AST_NODE_TYPES.ObjectExpression) {
    const keys = second.properties.find((p) => p.type === AST_NODE_TYPES.Property && propertyName(p.key, p.computed) === 'keys');
    const list = keys?.type === AST_NODE_TYPES.Property ? resolveConstExpression(context, keys.value) : undefined;
    return list?.type === AST_NODE_TYPES.ArrayExpression ? arrayElements(list) : undefined;
  }
  return undefined;
}

function arrayElements(array: TSESTree.ArrayExpression): TSESTree.Node[] | undefined {
  const out: TSESTree.Node[] = [];
  for (const element of array.elements) {
    if (!element || element.type === AST_NODE_TYPES.SpreadElement) return undefined;
    out.push(element);
  }
  return out;
}

function optionValue(context: AnyContext, arg: TSESTree.Node | undefined, name: string): TSESTree.Node | undefined {
  if (!arg || arg.type === AST_NODE_TYPES.SpreadElement) return undefined;
  const object = resolveConstExpression(context, arg);
  if (object.type !== AST_NODE_TYPES.ObjectExpression) return undefined;
  for (const property of object.properties) {
    if (property.type === AST_NODE_TYPES.Property && propertyName(property.key, property.computed) === name) {
      return property.value;
    }
  }
  return undefined;
}

/**
 * A script literal (through `const`s, object and array literals, and `const`s of relatively
 * imported modules) with its cooked text and offset map, else `undefined`.
 */
export function scriptFromNode(context: AnyContext, node: TSESTree.Node): EmbeddedScript | undefined {
  const resolved = resolveValue(context, node, 0);
  if (resolved?.imported) {
    const script = literalScript(resolved.node, resolved.imported.text);
    if (!script) return undefined;
    const position = resolved.node.loc.start;
    const where = `${resolved.imported.display}:${position.line}:${position.column + 1}`;
    const anchor = node.range[0];
    const imported = resolved.imported;
    let lines: LineIndex | undefined;
    const modulePosition = (offset: number): { line: number; column: number; file: string } => {
      lines ??= lineIndex(imported.text);
      return { ...lines.position(script.toFileOffset(offset)), file: imported.display };
    };
    return { source: script.source, literal: node, importedFrom: where, modulePosition, toFileOffset: () => anchor };
  }
  return resolved ? (literalScript(resolved.node, context.sourceCode.text) ?? compositeScript(context, resolved.node)) : undefined;
}

/** A run of a script's text and where each of its UTF-16 offsets (0..text.length) is in the file. */
interface Piece {
  text: string;
  at(offset: number): number;
  /** A number substituted or added (`${TTL}`): `1 + 2` adds, it does not concatenate. */
  number?: true;
  /**
   * Where the text up to an offset ends in the file, when that differs from {@link at} (the
   * result of a string method: a replacement ends where the text it replaced ends).
   */
  end?(offset: number): number;
}

/** String methods evaluated on a constant string when their arguments are constants. */
const STRING_METHODS: ReadonlySet<string> = new Set(['replace', 'replaceAll', 'trim', 'trimStart', 'trimEnd', 'trimLeft', 'trimRight']);

/** The operands of a `+` chain, left to right (`a + b + c` -> `[a, b, c]`), else `undefined`. */
function plusOperands(node: TSESTree.Node): TSESTree.Node[] | undefined {
  if (node.type !== AST_NODE_TYPES.BinaryExpression || node.operator !== '+') return undefined;
  const operands: TSESTree.Node[] = [];
  let current: TSESTree.Node = node;
  while (current.type === AST_NODE_TYPES.BinaryExpression && current.operator === '+') {
    operands.push(current.right);
    current = unwrap(current.left);
  }
  operands.push(current);
  return operands.reverse();
}

/**
 * A string with, for each UTF-16 offset, where it starts and ends in the file: the pieces of a
 * constant flattened, so that a string method can cut and replace inside them.
 */
interface Mapped {
  text: string;
  /** `starts[i]`: the file offset of character `i` (`starts[text.length]`: where the text ends). */
  starts: number[];
  /** `ends[i]`: the file offset just after character `i`. */
  ends: number[];
}

function flatten(pieces: readonly Piece[]): Mapped {
  const starts: number[] = [];
  const ends: number[] = [];
  let text = '';
  for (const piece of pieces) {
    for (let i = 0; i < piece.text.length; i++) {
      starts.push(piece.at(i));
      ends.push(piece.end ? piece.end(i + 1) : piece.at(i + 1));
    }
    text += piece.text;
  }
  const last = pieces[pieces.length - 1];
  starts.push(last ? (last.end ?? last.at)(last.text.length) : 0);
  return { text, starts, ends };
}

function asPiece(mapped: Mapped): Piece {
  const { text, starts, ends } = mapped;
  return {
    text,
    at: (offset) => starts[Math.max(0, Math.min(offset, text.length))]!,
    end: (offset) => (offset <= 0 ? starts[0]! : ends[Math.min(offset, text.length) - 1]!),
  };
}

/** A constant string argument of a string method (a literal, a `const`, a template without run-time parts). */
function constantText(context: AnyContext, node: TSESTree.Node | undefined, depth: number): string | undefined {
  if (!node || node.type === AST_NODE_TYPES.SpreadElement) return undefined;
  const pieces = constantPieces(context, node, depth + 1);
  return pieces ? pieces.map((piece) => piece.text).join('') : undefined;
}

/**
 * `s.replace(a, b)`, `s.replaceAll(a, b)`, `s.trim()` (and `trimStart` / `trimEnd`) on a constant
 * `s`, evaluated as JavaScript does when the pattern is a constant string or a regular expression
 * literal and the replacement a constant string (`$&` and `$$` read as JavaScript reads them; other
 * `$` patterns and replacer functions are not evaluated). A replacement maps to the text it
 * replaced, a trimmed string to what is left of its pieces.
 */
function stringMethod(context: AnyContext, node: TSESTree.CallExpression, callee: TSESTree.MemberExpression, method: string, depth: number): Piece[] | undefined {
  const base = constantPieces(context, callee.object, depth + 1);
  if (!base || base.every((piece) => piece.number)) return undefined;
  const mapped = flatten(base);
  if (method.startsWith('trim')) {
    if (node.arguments.length > 0) return undefined;
    const { text } = mapped;
    const from = method === 'trimEnd' || method === 'trimRight' ? 0 : text.length - text.trimStart().length;
    const to = method === 'trimStart' || method === 'trimLeft' ? text.length : text.trimEnd().length;
    if (to <= from) return [{ text: '', at: () => mapped.starts[from]! }];
    return [asPiece({ text: text.slice(from, to), starts: [...mapped.starts.slice(from, to), mapped.ends[to - 1]!], ends: mapped.ends.slice(from, to) })];
  }
  if (node.arguments.length !== 2) return undefined;
  const replacement = constantText(context, node.arguments[1], depth);
  if (replacement === undefined || /\$[`'\d<]/.test(replacement)) return undefined;
  const matches = patternMatches(context, node.arguments[0]!, mapped.text, method === 'replaceAll', depth);
  if (!matches) return undefined;
  const out: Mapped = { text: '', starts: [], ends: [] };
  let at = 0;
  const copy = (to: number): void => {
    out.text += mapped.text.slice(at, to);
    for (let i = at; i < to; i++) {
      out.starts.push(mapped.starts[i]!);
      out.ends.push(mapped.ends[i]!);
    }
  };
  for (const [start, end] of matches) {
    copy(start);
    const matched = mapped.text.slice(start, end);
    const value = replacement.replace(/\$[$&]/g, (token) => (token === '$$' ? '$' : matched));
    const from = mapped.starts[start]!;
    const to = end > start ? mapped.ends[end - 1]! : from;
    out.text += value;
    for (let i = 0; i < value.length; i++) {
      out.starts.push(from);
      out.ends.push(to);
    }
    at = end;
  }
  copy(mapped.text.length);
  out.starts.push(mapped.starts[mapped.text.length]!);
  return [asPiece(out)];
}

/**
 * Where a `replace` / `replaceAll` pattern matches: `[start, end)` ranges, the first only for
 * `replace` with a string or a regular expression without `g`. `undefined` when the pattern is not
 * a constant string or a regular expression literal.
 */
function patternMatches(context: AnyContext, pattern: TSESTree.Node, text: string, all: boolean, depth: number): Array<[number, number]> | undefined {
  const bare = unwrap(pattern);
  if (bare.type === AST_NODE_TYPES.Literal && 'regex' in bare && bare.regex) {
    let regex: RegExp;
    try {
      regex = new RegExp(bare.regex.pattern, bare.regex.flags);
    } catch {
      return undefined;
    }
    if (all && !regex.global) return undefined; // replaceAll throws on a non-global regular expression
    if (!regex.global) {
      const match = regex.exec(text);
      return match ? [[match.index, match.index + match[0].length]] : [];
    }
    return [...text.matchAll(regex)].map((match): [number, number] => [match.index, match.index + match[0].length]);
  }
  const search = constantText(context, pattern, depth);
  if (search === undefined) return undefined;
  const out: Array<[number, number]> = [];
  let from = 0;
  for (;;) {
    const index = text.indexOf(search, from);
    if (index < 0 || from > text.length) break;
    out.push([index, index + search.length]);
    if (!all) break;
    from = index + Math.max(1, search.length);
  }
  return out;
}

/**
 * A script built at compile time from constant pieces, all in this file: concatenations of
 * strings (`"..." + "..."`, `"..." + EXPIRE + "..."`), templates whose `${}` are constant strings
 * or numbers (`` `... ${TTL} ...` `` with `const TTL = 60`), `String.raw` templates, and
 * `[...].join(sep)` of constant strings. The source is the cooked value Redis receives; every
 * offset maps back to the piece it comes from (a substituted number maps to its expression).
 */
function compositeScript(context: AnyContext, node: TSESTree.Node): EmbeddedScript | undefined {
  const bare = unwrap(node);
  if (
    bare.type !== AST_NODE_TYPES.BinaryExpression &&
    bare.type !== AST_NODE_TYPES.TemplateLiteral &&
    bare.type !== AST_NODE_TYPES.TaggedTemplateExpression &&
    bare.type !== AST_NODE_TYPES.CallExpression
  ) {
    return undefined;
  }
  const pieces = constantPieces(context, bare, 0);
  if (!pieces || pieces.every((piece) => piece.number)) return undefined;
  const starts: number[] = [];
  let source = '';
  for (const piece of pieces) {
    starts.push(source.length);
    source += piece.text;
  }
  /** The piece an offset falls in: the last that starts at or before it, or (`end`) the first that ends at or after it. */
  const locate = (offset: number, end: boolean): number => {
    const clamped = Math.max(0, Math.min(offset, source.length));
    // the last piece starting at or before the offset (binary search), then back over pieces
    // that start exactly there but hold nothing (or, for an end, that start there at all)
    let low = 0;
    let high = pieces.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (starts[middle]! <= clamped) low = middle;
      else high = middle - 1;
    }
    let index = low;
    while (index > 0 && starts[index] === clamped && (end || pieces[index]!.text.length === 0)) index--;
    const piece = pieces[index]!;
    return (end && piece.end ? piece.end : piece.at)(clamped - starts[index]!);
  };
  return { source, literal: bare, toFileOffset: (offset) => locate(offset, false), toFileEndOffset: (offset) => locate(offset, true) };
}

/**
 * The constant pieces of a string expression of this file, else `undefined` (see {@link compositeScript}):
 * its strings, or the number a constant arithmetic expression of the file folds to
 * (`${DEFAULT_LEASE_SECONDS * 1000}`: `redis-calls/constant-number-piece.ts`).
 */
function constantPieces(context: AnyContext, input: TSESTree.Node, depth: number): Piece[] | undefined {
  return stringPieces(context, input, depth) ?? foldedNumberPiece(context, input);
}

/** The pieces of a string expression of this file built from its literals and `const`s, else `undefined`. */
function stringPieces(context: AnyContext, input: TSESTree.Node, depth: number): Piece[] | undefined {
  if (depth > 12) return undefined;
  const text = context.sourceCode.text;
  const node = unwrap(input);
  switch (node.type) {
    case AST_NODE_TYPES.Literal: {
      if (typeof node.value === 'number') return [{ text: String(node.value), at: () => node.range[0], number: true }];
      const script = literalScript(node, text);
      return script ? [{ text: script.source, at: (offset) => script.toFileOffset(offset) }] : undefined;
    }
    case AST_NODE_TYPES.Identifier: {
      const resolved = resolveConstExpression(context, node);
      if (resolved === node) return undefined;
      const value = constantPieces(context, resolved, depth + 1);
      // a constant number is written elsewhere: its digits map to this use
      return value?.every((piece) => piece.number) ? [{ text: value.map((piece) => piece.text).join(''), at: () => node.range[0], number: true }] : value;
    }
    case AST_NODE_TYPES.BinaryExpression: {
      // `a + b + ... + z` of any length: the left-nested chain is walked in a loop (its depth is
      // the number of operands), each operand read once and its pieces appended: linear time
      const operands = plusOperands(node);
      if (!operands) return undefined;
      const out: Piece[] = [];
      let numeric = true; // so far only numbers: `1 + 2` adds, it does not concatenate
      for (const operand of operands) {
        const pieces = constantPieces(context, operand, depth + 1);
        if (!pieces) return undefined;
        const isNumber = pieces.every((piece) => piece.number);
        if (numeric && isNumber && out.length > 0) return undefined; // arithmetic
        numeric &&= isNumber;
        for (const piece of pieces) out.push(piece);
      }
      return out;
    }
    case AST_NODE_TYPES.TemplateLiteral:
      return templatePieces(context, node, false, depth);
    case AST_NODE_TYPES.TaggedTemplateExpression: {
      const tag = unwrap(node.tag);
      const isStringRaw =
        tag.type === AST_NODE_TYPES.MemberExpression &&
        !tag.computed &&
        tag.object.type === AST_NODE_TYPES.Identifier &&
        tag.object.name === 'String' &&
        (findVariable(context, tag.object)?.defs.length ?? 0) === 0 &&
        propertyName(tag.property) === 'raw';
      return isStringRaw ? templatePieces(context, node.quasi, true, depth) : undefined;
    }
    case AST_NODE_TYPES.CallExpression: {
      const callee = unwrap(node.callee);
      if (callee.type !== AST_NODE_TYPES.MemberExpression) return undefined;
      const method = propertyName(callee.property, callee.computed);
      if (method !== undefined && STRING_METHODS.has(method)) return stringMethod(context, node, callee, method, depth);
      // [a, b, c].join(sep)
      if (method !== 'join') return undefined;
      if (node.arguments.length > 1 || node.arguments[0]?.type === AST_NODE_TYPES.SpreadElement) return undefined;
      const array = resolveConstExpression(context, callee.object);
      if (array.type !== AST_NODE_TYPES.ArrayExpression) return undefined;
      const separator = node.arguments[0] ? constantPieces(context, node.arguments[0], depth + 1) : [{ text: ',', at: () => callee.property.range[0] }];
      if (!separator) return undefined;
      const out: Piece[] = [];
      for (const [index, element] of array.elements.entries()) {
        if (!element || element.type === AST_NODE_TYPES.SpreadElement) return undefined;
        const pieces = constantPieces(context, element, depth + 1);
        if (!pieces) return undefined;
        if (index > 0) out.push(...separator);
        out.push(...pieces);
      }
      return out;
    }
    default:
      return undefined;
  }
}

/**
 * The pieces of a template literal: its quasis (cooked, or raw under `String.raw`) and its `${}`
 * substitutions when they are constant.
 */
function templatePieces(context: AnyContext, template: TSESTree.TemplateLiteral, raw: boolean, depth: number): Piece[] | undefined {
  const text = context.sourceCode.text;
  // typescript-estree's quasis include their delimiters (`` ` ``, `${`, `}`), espree's do not
  const delimited = template.quasis[0]?.range[0] === template.range[0];
  const out: Piece[] = [];
  for (const [index, quasi] of template.quasis.entries()) {
    const start = delimited ? quasi.range[0] + 1 : quasi.range[0];
    const end = delimited ? quasi.range[1] - (quasi.tail ? 1 : 2) : quasi.range[1];
    const value = raw ? quasi.value.raw : quasi.value.cooked;
    if (value === null || value === undefined) return undefined; // an invalid escape
    const map = raw ? rawOffsets(text.slice(start, end)) : cookedToRawOffsets(text.slice(start, end), true);
    const consistent = map.length === value.length + 1;
    out.push({ text: value, at: (offset) => start + (consistent ? map[Math.max(0, Math.min(offset, value.length))]! : 0) });
    const expression = template.expressions[index];
    if (expression) {
      const pieces = constantPieces(context, expression, depth + 1);
      if (!pieces) return undefined;
      out.push(...pieces);
    }
  }
  return out;
}

/** `String.raw` text: one code unit per character, a CRLF / CR line ending read as LF. */
function rawOffsets(raw: string): number[] {
  const map: number[] = [];
  for (let i = 0; i < raw.length; i++) {
    map.push(i);
    if (raw[i] === '\r' && raw[i + 1] === '\n') i++;
  }
  map.push(raw.length);
  return map;
}

interface Resolved {
  node: TSESTree.Node;
  /** Set when the node belongs to another module's program. */
  imported?: ImportedModule;
}

/**
 * Follows a value to the expression that holds it: `const` bindings, members of object literals
 * (`SCRIPTS.hit.script`), elements of array literals with a literal index (`SCRIPTS[0]`), and
 * named / namespace imports or `require` of a relative module.
 */
function resolveValue(context: AnyContext, input: TSESTree.Node, depth: number): Resolved | undefined {
  if (depth > 8) return undefined;
  const node = resolveConstExpression(context, input);
  if (node.type === AST_NODE_TYPES.Identifier) {
    const module = importedBinding(context, node);
    return module ? resolveInModule(module.module, module.name, [], depth + 1) : { node };
  }
  if (node.type === AST_NODE_TYPES.MemberExpression) {
    // collect the path (SCRIPTS.hit.script -> ['hit', 'script']) down to its root
    const path: string[] = [];
    let current: TSESTree.Node = node;
    while (current.type === AST_NODE_TYPES.MemberExpression) {
      const key = memberKey(context, current);
      if (key === undefined) return undefined;
      path.unshift(key);
      current = unwrap(current.object);
    }
    if (current.type === AST_NODE_TYPES.Identifier) {
      // import * as scripts from './scripts'; const scripts_1 = require('./scripts')
      const namespace = namespaceModule(context, current);
      if (namespace) {
        const [name, ...rest] = path;
        return name === undefined ? undefined : resolveInModule(namespace, name, rest, depth + 1);
      }
      const named = importedBinding(context, current);
      if (named) return resolveInModule(named.module, named.name, path, depth + 1);
    }
    const root = resolveValue(context, current, depth + 1);
    if (!root) return undefined;
    if (root.imported) return followPath(root.imported, root.node, path, depth + 1);
    let value: TSESTree.Node | undefined = root.node;
    for (const key of path) {
      value = value ? pick(value, key) : undefined;
      if (value) value = resolveConstExpression(context, value);
    }
    return value ? resolveValue(context, value, depth + 1) : undefined;
  }
  return { node };
}

/** The property / element a member expression reads: `a.b` -> 'b', `a['b']` -> 'b', `a[0]` -> '0'. */
function memberKey(context: AnyContext, member: TSESTree.MemberExpression): string | undefined {
  if (!member.computed) return propertyName(member.property);
  const key = resolveConstExpression(context, member.property);
  return key.type === AST_NODE_TYPES.Literal && (typeof key.value === 'string' || typeof key.value === 'number') ? String(key.value) : undefined;
}

/** Follows an object path inside an imported module, through that module's top-level `const`s. */
function followPath(module: ImportedModule, start: TSESTree.Node, path: readonly string[], depth: number): Resolved | undefined {
  let value: TSESTree.Node | undefined = moduleConst(module, start);
  for (const key of path) {
    value = value ? pick(value, key) : undefined;
    value = value ? moduleConst(module, value) : undefined;
  }
  return value && depth < 12 ? { node: value, imported: module } : undefined;
}

function resolveInModule(module: ImportedModule, name: string, path: readonly string[], depth: number): Resolved | undefined {
  const init = exportedValue(module.program, name);
  return init ? followPath(module, init, path, depth) : undefined;
}

/** A string literal or substitution-free template literal as a script, with its offset map. */
function literalScript(literal: TSESTree.Node, text: string): EmbeddedScript | undefined {
  if (literal.type === AST_NODE_TYPES.Literal && typeof literal.value === 'string') {
    const raw = text.slice(literal.range[0] + 1, literal.range[1] - 1);
    return build(literal.value, literal as TSESTree.StringLiteral, raw, literal.range[0] + 1, false);
  }
  if (literal.type === AST_NODE_TYPES.TemplateLiteral && literal.expressions.length === 0) {
    const quasi = literal.quasis[0];
    if (!quasi || quasi.value.cooked === null) return undefined;
    const raw = text.slice(literal.range[0] + 1, literal.range[1] - 1);
    return build(quasi.value.cooked, literal, raw, literal.range[0] + 1, true);
  }
  return undefined;
}

function build(
  source: string,
  literal: EmbeddedScript['literal'],
  raw: string,
  rawStart: number,
  template: boolean,
): EmbeddedScript {
  const map = cookedToRawOffsets(raw, template);
  const consistent = map.length === source.length + 1;
  return {
    source,
    literal,
    toFileOffset(offset) {
      if (!consistent) return rawStart; // an escape we do not model: point at the literal
      const clamped = Math.max(0, Math.min(offset, source.length));
      return rawStart + map[clamped]!;
    },
  };
}

const OCTAL = /[0-7]/;

/**
 * For each UTF-16 code unit of the cooked string (and one past the end), the offset in the raw
 * literal text where it comes from. Handles every JS escape (`\n`, `\xHH`, `\uHHHH`, `\u{H...}`,
 * legacy octal, line continuations) and, in templates, CRLF / CR normalised to LF.
 */
export function cookedToRawOffsets(raw: string, template: boolean): number[] {
  const map: number[] = [];
  let i = 0;
  while (i < raw.length) {
    const c = raw[i];
    if (c === '\\') {
      const n = raw[i + 1];
      if (n === '\n' || n === '\u2028' || n === '\u2029') {
        i += 2; // line continuation: produces nothing
      } else if (n === '\r') {
        i += raw[i + 2] === '\n' ? 3 : 2;
      } else if (n === 'x') {
        map.push(i);
        i += 4;
      } else if (n === 'u') {
        if (raw[i + 2] === '{') {
          const end = raw.indexOf('}', i);
          const codePoint = parseInt(raw.slice(i + 3, end), 16);
          map.push(i);
          if (codePoint > 0xffff) map.push(i);
          i = end + 1;
        } else {
          map.push(i);
          i += 6;
        }
      } else if (n !== undefined && OCTAL.test(n) && !template) {
        // legacy octal: up to three digits, value <= 0o377
        let j = i + 1;
        let digits = '';
        while (j < raw.length && digits.length < 3 && OCTAL.test(raw[j]!) && parseInt(digits + raw[j], 8) <= 0o377) {
          digits += raw[j];
          j++;
        }
        map.push(i);
        i = j;
      } else {
        map.push(i);
        i += 2;
      }
    } else if (template && c === '\r') {
      map.push(i);
      i += raw[i + 1] === '\n' ? 2 : 1;
    } else {
      map.push(i);
      i += 1;
    }
  }
  map.push(raw.length);
  return map;
}
