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
import { flavorOfModule } from './client-packages.js';
import { lineIndex, type LineIndex } from '../text/lines.js';
import { exportedValue, importedBinding, moduleConst, namespaceModule, type ImportedModule } from './modules.js';
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

/**
 * The scripts a call passes to Redis, when it is one of the script-taking calls, or the script a
 * Valkey GLIDE `new Script(code)` holds (its KEYS from the `keys` option of the `invokeScript`
 * call it is passed to).
 */
export function embeddedScriptsOf(context: AnyContext, node: TSESTree.CallExpression | TSESTree.NewExpression): EmbeddedScript[] {
  if (node.type === AST_NODE_TYPES.NewExpression) return glideScriptsOf(context, node);
  const callee = unwrap(node.callee);
  const name =
    callee.type === AST_NODE_TYPES.MemberExpression
      ? propertyName(callee.property, callee.computed)
      : callee.type === AST_NODE_TYPES.Identifier
        ? callee.name
        : undefined;
  if (name !== undefined && GENERIC_EVAL_METHODS.has(name) && callee.type === AST_NODE_TYPES.MemberExpression) return genericEvalScripts(context, node, callee, name);
  if (name === undefined || !(EVAL_METHODS.has(name) || name === 'defineCommand' || name === 'defineScript')) return [];
  if (!clientDetectorOf(context).mayUseRedis()) return [];
  let scriptNode: TSESTree.Node | undefined;
  let keyArgs: TSESTree.Node[] | undefined;
  if (callee.type === AST_NODE_TYPES.MemberExpression) {
    const method = propertyName(callee.property, callee.computed);
    if (method === undefined) return [];
    if (EVAL_METHODS.has(method)) {
      if (!clientDetectorOf(context).classify(callee.object).redis) return [];
      scriptNode = node.arguments[0];
      keyArgs = evalKeys(context, node);
    } else if (method === 'defineCommand') {
      if (!clientDetectorOf(context).classify(callee.object).redis) return [];
      scriptNode = optionValue(context, node.arguments[1], 'lua');
    } else if (method === 'defineScript') {
      scriptNode = optionValue(context, node.arguments[0], 'SCRIPT');
    }
  } else if (callee.type === AST_NODE_TYPES.Identifier && callee.name === 'defineScript') {
    scriptNode = optionValue(context, node.arguments[0], 'SCRIPT');
  }
  if (!scriptNode || scriptNode.type === AST_NODE_TYPES.SpreadElement) return [];
  const script = scriptFromNode(context, scriptNode);
  if (!script) return scriptsThroughWrapper(context, scriptNode);
  return [keyArgs ? { ...script, keyArgs } : script];
}

/**
 * Methods that send a command by name (`call('EVAL', ...)`, Bun's `send('EVAL', [...])`) or as an
 * argv array (`sendCommand(['EVAL', ...])`, GLIDE's `customCommand(['EVAL', ...])`).
 */
const GENERIC_EVAL_METHODS: ReadonlySet<string> = new Set(['call', 'send', 'send_command', 'sendCommand', 'customCommand']);

/**
 * An EVAL sent through a generic call on a client: ioredis `call('EVAL', script, numKeys, ...)`,
 * Bun's `send('EVAL', [script, '1', key, ...])`, GLIDE's `customCommand(['EVAL', script, '1',
 * key])`, node-redis `sendCommand(['EVAL', ...])`: the script, with its KEYS when `numKeys` is a
 * literal.
 */
function genericEvalScripts(context: AnyContext, node: TSESTree.CallExpression, callee: TSESTree.MemberExpression, method: string): EmbeddedScript[] {
  const [first, second] = node.arguments;
  const list = first ? resolveConstExpression(context, first) : undefined;
  const byArray = method === 'sendCommand' || method === 'customCommand';
  const array = byArray ? list : second ? resolveConstExpression(context, second) : undefined;
  const argv =
    byArray && array?.type === AST_NODE_TYPES.ArrayExpression
      ? array.elements
      : !byArray && array?.type === AST_NODE_TYPES.ArrayExpression && node.arguments.length === 2
        ? [first, ...array.elements]
        : node.arguments;
  const [nameNode, scriptNode, numKeysNode, ...rest] = argv;
  const command = nameNode && nameNode.type !== AST_NODE_TYPES.SpreadElement ? staticValue(context, nameNode) : undefined;
  if (typeof command !== 'string' || !/^eval(?:_ro)?$/i.test(command)) return [];
  if (!scriptNode || scriptNode.type === AST_NODE_TYPES.SpreadElement || !clientDetectorOf(context).mayUseRedis()) return [];
  if (!clientDetectorOf(context).classify(callee.object).redis) return [];
  const script = scriptFromNode(context, scriptNode);
  if (!script) return [];
  const numKeys = numKeysNode && numKeysNode.type !== AST_NODE_TYPES.SpreadElement ? Number(staticValue(context, numKeysNode)) : NaN;
  const keys = Number.isInteger(numKeys) ? rest.slice(0, numKeys) : undefined;
  const keyArgs = keys && keys.length === numKeys && keys.every((k) => k && k.type !== AST_NODE_TYPES.SpreadElement) ? (keys as TSESTree.Node[]) : undefined;
  return [keyArgs ? { ...script, keyArgs } : script];
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
    let index = pieces.length - 1;
    while (index > 0 && (starts[index]! > clamped || (starts[index] === clamped && (end || pieces[index]!.text.length === 0)))) index--;
    return pieces[index]!.at(clamped - starts[index]!);
  };
  return { source, literal: bare, toFileOffset: (offset) => locate(offset, false), toFileEndOffset: (offset) => locate(offset, true) };
}

/** The constant pieces of a string expression of this file, else `undefined` (see {@link compositeScript}). */
function constantPieces(context: AnyContext, input: TSESTree.Node, depth: number): Piece[] | undefined {
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
      if (node.operator !== '+') return undefined;
      const left = constantPieces(context, node.left, depth + 1);
      const right = left && constantPieces(context, node.right, depth + 1);
      if (!left || !right) return undefined;
      if (left.every((piece) => piece.number) && right.every((piece) => piece.number)) return undefined; // arithmetic
      return [...left, ...right];
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
      // [a, b, c].join(sep)
      const callee = unwrap(node.callee);
      if (callee.type !== AST_NODE_TYPES.MemberExpression || propertyName(callee.property, callee.computed) !== 'join') return undefined;
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
