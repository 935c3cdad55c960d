/**
 * Autofixes that rewrite a leaking call into a verified helper of the runtime
 * (`redis-ttl-runtime`), with the helper's import added or merged, and the settings
 * that turn fixes on.
 *
 * Fixes are off by default: a rule returns a `fix` only with its option `fix: true` or with
 * `settings['redis-ttl'].autofix = true`; otherwise the same edit is offered as a suggestion.
 *
 * Several fixes in one file: each fix that needs an import edits the import line and the call, so
 * ESLint merges them into one range from the import to the call
 * (https://eslint.org/docs/latest/extend/custom-rules#applying-fixes): two such fixes overlap, ESLint
 * applies the first, skips the second, and lints again (up to 10 passes), where the second fix finds
 * the import and only merges its name into it, or needs no import edit at all. Every pass leaves
 * code that parses.
 */
import { ASTUtils, AST_NODE_TYPES, type TSESLint, type TSESTree } from '@typescript-eslint/utils';
import type { RedisCall } from './normalize.js';
import { redisCallsOf } from './index.js';
import { pluginSettings } from './settings.js';
import { constantNumber } from './constant.js';
import { guessUnit } from './ttl-value.js';
import { unitMismatch } from '../semantics/ttl-units.js';
import { findVariable, staticValue, unwrap, type AnyContext } from './static.js';

type Fix = TSESLint.RuleFix;
type Fixer = TSESLint.RuleFixer;
/** A fix function as rules pass it to `context.report`. */
export type FixFunction = (fixer: Fixer) => Fix[];

/** Where fixes import helpers from unless `settings['redis-ttl'].runtimeModule` says otherwise. */
export const DEFAULT_RUNTIME_MODULE = 'redis-ttl-runtime';

/** The helpers a fix may call. */
export type RuntimeHelper = 'collect' | 'incrementWithTtl';

/** The fix-related part of `settings['redis-ttl']`. */
export interface AutofixSettings {
  /** `autofix: true` turns the fixes of every rule on. */
  autofix: boolean;
  /** Module specifier the helpers are imported from. */
  runtimeModule: string;
  /** `defaultTtlSeconds`: the expiry `set-requires-ttl-or-keepttl` adds (an integer >= 1). */
  defaultTtlSeconds: number | undefined;
}

/**
 * Reads `settings['redis-ttl']`: `autofix`, `runtimeModule`, `defaultTtlSeconds` (validated by
 * {@link pluginSettings}, which throws on a bad value).
 */
export function readAutofixSettings(context: AnyContext): AutofixSettings {
  const settings = pluginSettings(context);
  return {
    autofix: settings.autofix,
    runtimeModule: settings.runtimeModule ?? DEFAULT_RUNTIME_MODULE,
    defaultTtlSeconds: settings.defaultTtlSeconds,
  };
}

/** Whether a rule returns fixes: its own `fix` option when given, else `settings['redis-ttl'].autofix`. */
export function fixesEnabled(context: AnyContext, option: boolean | undefined): boolean {
  return option ?? readAutofixSettings(context).autofix;
}

/** JSON schema of the `fix` rule option. */
export const FIX_OPTION_SCHEMA = {
  type: 'boolean',
  description:
    "Return fixes (applied by eslint --fix) instead of suggestions only. Default: settings['redis-ttl'].autofix, else false.",
} as const;

// ---- imports ------------------------------------------------------------------------------

/** The receiver of a helper call: how the code reaches the helper, and the import edit it needs. */
interface HelperReference {
  /** `collect`, an alias, or `runtime.collect`. */
  text: string;
  /** Adds or extends the import (none when the helper is already in scope). */
  importFix?: FixFunction;
}

function isRequireOf(node: TSESTree.Node | null | undefined, module: string): boolean {
  const init = node ? unwrap(node) : undefined;
  return (
    init?.type === AST_NODE_TYPES.CallExpression &&
    init.callee.type === AST_NODE_TYPES.Identifier &&
    init.callee.name === 'require' &&
    init.arguments.length === 1 &&
    init.arguments[0]?.type === AST_NODE_TYPES.Literal &&
    init.arguments[0].value === module
  );
}

function isAnyRequire(node: TSESTree.Node | null | undefined): node is TSESTree.CallExpression {
  const init = node ? unwrap(node) : undefined;
  return (
    init?.type === AST_NODE_TYPES.CallExpression &&
    init.callee.type === AST_NODE_TYPES.Identifier &&
    init.callee.name === 'require' &&
    init.arguments[0]?.type === AST_NODE_TYPES.Literal
  );
}

/** Top-level `const x = require('m')` declarations (CommonJS style). */
function topLevelRequires(program: TSESTree.Program): TSESTree.VariableDeclaration[] {
  return program.body.filter(
    (s): s is TSESTree.VariableDeclaration =>
      s.type === AST_NODE_TYPES.VariableDeclaration && s.declarations.some((d) => isAnyRequire(d.init)),
  );
}

function isEsModule(context: AnyContext, program: TSESTree.Program): boolean {
  const esSyntax = program.body.some(
    (s) =>
      s.type === AST_NODE_TYPES.ImportDeclaration ||
      s.type === AST_NODE_TYPES.ExportNamedDeclaration ||
      s.type === AST_NODE_TYPES.ExportDefaultDeclaration ||
      s.type === AST_NODE_TYPES.ExportAllDeclaration,
  );
  if (esSyntax) return true;
  if (topLevelRequires(program).length > 0) return false;
  const sourceType = (context as { languageOptions?: { sourceType?: string } }).languageOptions?.sourceType ?? program.sourceType;
  return sourceType === 'module';
}

/**
 * The quote and statement terminator the file uses: the quote of `literal` (default `'`), and `;`
 * unless the first top-level statement that ends with one in semicolon style (an import, a
 * declaration, an expression) does not.
 */
function styleOf(context: AnyContext, literal: TSESTree.Node | undefined) {
  const raw = literal ? context.sourceCode.getText(literal) : '';
  const quote = raw.startsWith('"') ? '"' : "'";
  const sample = context.sourceCode.ast.body.find(
    (s) =>
      s.type === AST_NODE_TYPES.ImportDeclaration ||
      s.type === AST_NODE_TYPES.VariableDeclaration ||
      s.type === AST_NODE_TYPES.ExpressionStatement ||
      (s.type === AST_NODE_TYPES.ExportNamedDeclaration && s.declaration?.type !== AST_NODE_TYPES.FunctionDeclaration && s.declaration?.type !== AST_NODE_TYPES.ClassDeclaration),
  );
  const semi = sample && !context.sourceCode.getText(sample).trimEnd().endsWith(';') ? '' : ';';
  return { quote, semi };
}

/** Whether `name` is free at `at`: no binding in scope there and none at the top of the file. */
function nameIsFree(context: AnyContext, at: TSESTree.Node, name: string): boolean {
  if (ASTUtils.findVariable(context.sourceCode.getScope(at), name)) return false;
  const globalScope = context.sourceCode.getScope(context.sourceCode.ast);
  const top = [globalScope, ...globalScope.childScopes.filter((s) => s.type === 'module')];
  return !top.some((scope) => scope.set.has(name));
}

/**
 * How to call `helper` at `at`: through an existing import of the runtime module (named, aliased,
 * namespace, or `require` destructuring / object), by merging the name into such an import, or
 * through a new import / require added after the file's last one. `undefined` when the name is
 * taken by something else in scope (a fix must not change what an identifier means).
 */
export function helperReference(context: AnyContext, at: TSESTree.Node, helper: RuntimeHelper): HelperReference | undefined {
  return moduleReference(context, at, readAutofixSettings(context).runtimeModule, helper);
}

/**
 * How to refer to the export `helper` of the module `runtimeModule` at `at` (see
 * {@link helperReference}, which asks it for the runtime; GLIDE's `TimeUnit` is asked the same way).
 */
export function moduleReference(context: AnyContext, at: TSESTree.Node, runtimeModule: string, helper: string): HelperReference | undefined {
  const program = context.sourceCode.ast;

  // 1. already reachable
  for (const statement of program.body) {
    if (statement.type === AST_NODE_TYPES.ImportDeclaration && statement.source.value === runtimeModule && statement.importKind !== 'type') {
      for (const specifier of statement.specifiers) {
        if (specifier.type === AST_NODE_TYPES.ImportNamespaceSpecifier) return { text: `${specifier.local.name}.${helper}` };
        if (
          specifier.type === AST_NODE_TYPES.ImportSpecifier &&
          specifier.importKind !== 'type' &&
          (specifier.imported.type === AST_NODE_TYPES.Identifier ? specifier.imported.name : specifier.imported.value) === helper
        ) {
          return sameBinding(context, at, specifier.local) ? { text: specifier.local.name } : undefined;
        }
      }
    }
    if (statement.type === AST_NODE_TYPES.VariableDeclaration) {
      for (const declarator of statement.declarations) {
        if (!isRequireOf(declarator.init, runtimeModule)) continue;
        if (declarator.id.type === AST_NODE_TYPES.Identifier) return { text: `${declarator.id.name}.${helper}` };
        if (declarator.id.type !== AST_NODE_TYPES.ObjectPattern) continue;
        for (const property of declarator.id.properties) {
          if (
            property.type === AST_NODE_TYPES.Property &&
            !property.computed &&
            property.key.type === AST_NODE_TYPES.Identifier &&
            property.key.name === helper &&
            property.value.type === AST_NODE_TYPES.Identifier
          ) {
            return sameBinding(context, at, property.value) ? { text: property.value.name } : undefined;
          }
        }
      }
    }
  }

  if (!nameIsFree(context, at, helper)) return undefined;

  // 2. merge into an import / require of the runtime module
  for (const statement of program.body) {
    if (statement.type === AST_NODE_TYPES.ImportDeclaration && statement.source.value === runtimeModule && statement.importKind !== 'type') {
      const named = statement.specifiers.filter((s): s is TSESTree.ImportSpecifier => s.type === AST_NODE_TYPES.ImportSpecifier);
      const last = named[named.length - 1];
      if (last) return { text: helper, importFix: (fixer) => [fixer.insertTextAfter(last, `, ${helper}`)] };
      const defaultSpecifier = statement.specifiers.find((s) => s.type === AST_NODE_TYPES.ImportDefaultSpecifier);
      if (defaultSpecifier && statement.specifiers.length === 1) {
        return { text: helper, importFix: (fixer) => [fixer.insertTextAfter(defaultSpecifier, `, { ${helper} }`)] };
      }
    }
    if (statement.type === AST_NODE_TYPES.VariableDeclaration) {
      for (const declarator of statement.declarations) {
        if (!isRequireOf(declarator.init, runtimeModule) || declarator.id.type !== AST_NODE_TYPES.ObjectPattern) continue;
        const properties = declarator.id.properties;
        const last = properties[properties.length - 1];
        if (last && last.type !== AST_NODE_TYPES.RestElement) {
          return { text: helper, importFix: (fixer) => [fixer.insertTextAfter(last, `, ${helper}`)] };
        }
      }
    }
  }

  // 3. a new import / require: after the file's last one, else after the directive prologue
  // ('use strict', 'use client' must stay first), else before the first statement
  const esm = isEsModule(context, program);
  const imports = esm
    ? program.body.filter((s): s is TSESTree.ImportDeclaration => s.type === AST_NODE_TYPES.ImportDeclaration)
    : topLevelRequires(program);
  const last = imports[imports.length - 1];
  const sampleLiteral =
    last?.type === AST_NODE_TYPES.ImportDeclaration
      ? last.source
      : last?.declarations.map((d) => d.init).find(isAnyRequire)?.arguments[0];
  const firstCode = program.body.find((s) => !isDirective(s));
  const { quote, semi } = styleOf(context, sampleLiteral);
  const text = esm
    ? `import { ${helper} } from ${quote}${runtimeModule}${quote}${semi}`
    : `const { ${helper} } = require(${quote}${runtimeModule}${quote})${semi}`;
  let prologueEnd: TSESTree.ProgramStatement | undefined;
  for (const statement of program.body) {
    if (!isDirective(statement)) break;
    prologueEnd = statement;
  }
  const after = last ?? prologueEnd;
  if (after) return { text: helper, importFix: (fixer) => [fixer.insertTextAfter(after, `\n${text}`)] };
  if (!firstCode) return undefined;
  return { text: helper, importFix: (fixer) => [fixer.insertTextBefore(firstCode, `${text}\n`)] };
}

function isDirective(statement: TSESTree.ProgramStatement): boolean {
  return statement.type === AST_NODE_TYPES.ExpressionStatement && typeof statement.directive === 'string';
}

/** Whether `name` at `at` refers to the binding declared by `declared`. */
function sameBinding(context: AnyContext, at: TSESTree.Node, declared: TSESTree.Identifier): boolean {
  const variable = ASTUtils.findVariable(context.sourceCode.getScope(at), declared.name);
  return variable !== null && variable.defs.some((def) => def.name === declared);
}

/** Combines a helper's import edit with the call edits into one fix. */
function withImport(reference: HelperReference, edits: FixFunction): FixFunction {
  return (fixer) => [...(reference.importFix ? reference.importFix(fixer) : []), ...edits(fixer)];
}

// ---- shared checks -----------------------------------------------------------------------

/** A receiver the fix may write once instead of twice: `redis`, `this.redis`, `app.clients.redis`. */
function simpleReceiver(node: TSESTree.Node): boolean {
  const bare = unwrap(node);
  if (bare.type === AST_NODE_TYPES.Identifier || bare.type === AST_NODE_TYPES.ThisExpression) return true;
  return bare.type === AST_NODE_TYPES.MemberExpression && !bare.computed && !bare.optional && simpleReceiver(bare.object);
}

/** The `receiver.method(...)` callee of a lone method-form command, or `undefined`. */
function plainMethodCallee(call: RedisCall): TSESTree.MemberExpression | undefined {
  if (call.form !== 'method' || call.unit.kind !== 'single' || call.node.type !== AST_NODE_TYPES.CallExpression) return undefined;
  if (call.node.optional || call.node.typeArguments) return undefined;
  const callee = call.node.callee;
  if (callee.type !== AST_NODE_TYPES.MemberExpression || callee.computed || callee.optional) return undefined;
  if (!simpleReceiver(callee.object)) return undefined;
  if (call.argumentNodes.some((n) => n.type === AST_NODE_TYPES.SpreadElement)) return undefined;
  // an argv read from a local array built before the call (`set(args, cb)`): not the call's own
  if (call.argNodes.some((n) => n !== undefined && (n.range[0] < call.node.range[0] || n.range[1] > call.node.range[1]))) return undefined;
  return callee;
}

/**
 * Whether an expression is known to be a number: a numeric literal or a `const` of one, an
 * identifier or parameter annotated `number`, arithmetic on those, or (with type information) a
 * number type. A fix that multiplies a TTL or passes `by` must not turn a string into `NaN`.
 */
export function isNumeric(context: AnyContext, node: TSESTree.Node, depth = 0): boolean {
  if (depth > 4) return false;
  if (constantNumber(context, node) !== undefined) return true;
  const bare = unwrap(node);
  const services = context.sourceCode.parserServices;
  if (services?.program && services.esTreeNodeToTSNodeMap) {
    const tsNode = services.esTreeNodeToTSNodeMap.get(bare as never);
    if (tsNode) {
      const type = services.program.getTypeChecker().getTypeAtLocation(tsNode);
      // ts.TypeFlags.NumberLike = Number | NumberLiteral | Enum (296)
      if (type.flags & 296) return true;
      if (type.isUnion() && type.types.every((t) => (t.flags & 296) !== 0)) return true;
    }
  }
  switch (bare.type) {
    case AST_NODE_TYPES.BinaryExpression:
      return ['-', '*', '/', '%', '**', '+'].includes(bare.operator) && isNumeric(context, bare.left, depth + 1) && isNumeric(context, bare.right, depth + 1);
    case AST_NODE_TYPES.UnaryExpression:
      return (bare.operator === '-' || bare.operator === '+') && isNumeric(context, bare.argument, depth + 1);
    case AST_NODE_TYPES.Identifier: {
      const variable = findVariable(context, bare);
      if (!variable || variable.defs.length !== 1) return false;
      const def = variable.defs[0]!;
      const id = def.name;
      if (id.type === AST_NODE_TYPES.Identifier && id.typeAnnotation?.typeAnnotation.type === AST_NODE_TYPES.TSNumberKeyword) {
        return def.type === 'Parameter' || def.type === 'Variable';
      }
      if (def.type === 'Variable' && def.parent?.kind === 'const' && def.node.init) return isNumeric(context, def.node.init, depth + 1);
      return false;
    }
    default:
      return false;
  }
}

/** Source text of an expression safe to put before `* 1000` or after a unary minus. */
function operandText(context: AnyContext, node: TSESTree.Node): string {
  const text = context.sourceCode.getText(node);
  const bare = unwrap(node);
  const atomic =
    node.type === AST_NODE_TYPES.Identifier ||
    node.type === AST_NODE_TYPES.Literal ||
    node.type === AST_NODE_TYPES.MemberExpression ||
    node.type === AST_NODE_TYPES.CallExpression ||
    (bare === node && bare.type === AST_NODE_TYPES.TemplateLiteral);
  return atomic ? text : `(${text})`;
}

/**
 * Removes a statement; when it stands alone on its lines, its indentation and line break go too,
 * so the code around it keeps its layout.
 */
export function removeStatement(context: AnyContext, fixer: Fixer, statement: TSESTree.Node): Fix {
  const text = context.sourceCode.text;
  let [start, end] = statement.range;
  let lineStart = start;
  while (lineStart > 0 && (text[lineStart - 1] === ' ' || text[lineStart - 1] === '\t')) lineStart--;
  let lineEnd = end;
  while (lineEnd < text.length && (text[lineEnd] === ' ' || text[lineEnd] === '\t')) lineEnd++;
  const atLineStart = lineStart === 0 || text[lineStart - 1] === '\n';
  if (atLineStart && lineStart > 0 && (lineEnd === text.length || text[lineEnd] === '\n' || text[lineEnd] === '\r')) {
    // drop the line break before the statement, keep the one after it
    start = text[lineStart - 2] === '\r' ? lineStart - 2 : lineStart - 1;
    end = lineEnd;
  }
  return fixer.removeRange([start, end]);
}

// ---- no-getset: GETSET key 0 -> collect ----------------------------------------------------

/**
 * `getset(key, '0')` (or `0`) issued alone becomes `collect(client, key)`: read and reset in one
 * script that keeps the TTL and never creates a missing key. Same reply type for ioredis and
 * node-redis (`string | null`); for upstash only the string `'0'` (its `getset(k, 0)` replies a
 * number); never `getsetBuffer` (a Buffer reply). `undefined` when the call is anything else.
 */
/**
 * Whether the runtime's helpers take the call's client: ioredis (and iovalkey), node-redis 4+ and
 * @upstash/redis clients; Bun's client, Valkey GLIDE and node-redis 3 get no fix that hands their
 * client to one.
 */
function runtimeTakes(call: RedisCall): boolean {
  // node-redis 3's commands take callbacks and return no promise
  return call.flavor !== 'bun' && call.flavor !== 'glide' && call.flavor !== 'node-redis-3';
}

export function collectFix(context: AnyContext, call: RedisCall): FixFunction | undefined {
  if (call.command !== 'GETSET' || !runtimeTakes(call)) return undefined;
  const callee = plainMethodCallee(call);
  if (!callee || call.argumentNodes.length !== 2) return undefined;
  // getsetBuffer replies a Buffer, collect a string: not the same value for the caller
  if (/Buffer$/.test(context.sourceCode.getText(call.nameNode))) return undefined;
  const [keyNode, valueNode] = call.argumentNodes as [TSESTree.Node, TSESTree.Node];
  const value = staticValue(context, valueNode);
  if (!(value === '0' || (value === 0 && call.flavor !== 'upstash'))) return undefined;
  const reference = helperReference(context, call.node, 'collect');
  if (!reference) return undefined;
  const sourceCode = context.sourceCode;
  const text = `${reference.text}(${sourceCode.getText(callee.object)}, ${sourceCode.getText(keyNode)})`;
  const node = call.node;
  return withImport(reference, (fixer) => [fixer.replaceText(node, text)]);
}

// ---- incr-needs-expire-on-create: INCR + EXPIRE -> incrementWithTtl -------------------------

/** The statement list a statement belongs to, and its index there. */
function statementSlot(statement: TSESTree.Node): { list: readonly TSESTree.Node[]; index: number } | undefined {
  const parent = statement.parent;
  let list: readonly TSESTree.Node[] | undefined;
  if (parent?.type === AST_NODE_TYPES.BlockStatement || parent?.type === AST_NODE_TYPES.Program) list = parent.body;
  else if (parent?.type === AST_NODE_TYPES.SwitchCase) list = parent.consequent;
  if (!list) return undefined;
  const index = list.indexOf(statement);
  return index < 0 ? undefined : { list, index };
}

/** `await receiver.expire(key, ttl);` as a statement: the EXPIRE / PEXPIRE command it issues. */
function awaitedExpiry(context: AnyContext, statement: TSESTree.Node | undefined): RedisCall | undefined {
  if (statement?.type !== AST_NODE_TYPES.ExpressionStatement) return undefined;
  const expression = statement.expression;
  if (expression.type !== AST_NODE_TYPES.AwaitExpression || expression.argument.type !== AST_NODE_TYPES.CallExpression) return undefined;
  const [call] = redisCallsOf(context, expression.argument);
  if (!call || (call.command !== 'EXPIRE' && call.command !== 'PEXPIRE')) return undefined;
  if (!plainMethodCallee(call) || call.argumentNodes.length !== 2) return undefined;
  return call;
}

/** `n === 1`, `1 === n`, `n == 1` (or the increment `by` instead of 1): the key was just created. */
function isCreationGuard(context: AnyContext, test: TSESTree.Node, name: string, byText: string): boolean {
  if (test.type !== AST_NODE_TYPES.BinaryExpression || (test.operator !== '===' && test.operator !== '==')) return false;
  const sides = [test.left, test.right];
  const variable = sides.find((s) => s.type === AST_NODE_TYPES.Identifier && s.name === name);
  const other = sides.find((s) => s !== variable);
  if (!variable || !other) return false;
  return staticValue(context, other) === 1 ? byText === '1' : context.sourceCode.getText(other) === byText;
}

const squeeze = (text: string): string => text.replace(/\s+/g, '');

/**
 * An increment followed, in the next statement, by the expiry of the same key on the same client
 * (`await redis.expire(key, ttl)`, or that inside `if (n === 1)`) becomes one
 * `incrementWithTtl(redis, key, { by, ttlMs })` call: `'fixed'` mode behind a creation guard (the
 * TTL is set once), `'sliding'` when the expiry ran on every call. The TTL is converted to
 * milliseconds; the expiry statement (and the guard when it held nothing else) is removed; the
 * result keeps its name (`const { value: n } = await incrementWithTtl(...)`, or
 * `(await incrementWithTtl(...)).value` elsewhere). `undefined` unless all of that is visible.
 */
export function incrementWithTtlFix(context: AnyContext, call: RedisCall): FixFunction | undefined {
  if ((call.command !== 'INCR' && call.command !== 'INCRBY') || !runtimeTakes(call)) return undefined;
  // node-redis 4 command options (an abort signal, isolation): the helper takes none; a client by
  // the commands its declared type lists may be no client the helper takes
  if (call.commandOptions || call.client.byShape) return undefined;
  const callee = plainMethodCallee(call);
  if (!callee || call.node.type !== AST_NODE_TYPES.CallExpression) return undefined;
  const expected = call.command === 'INCR' ? 1 : 2;
  if (call.argumentNodes.length !== expected) return undefined;
  const keyNode = call.argumentNodes[0]!;
  const byNode = call.argumentNodes[1];
  if (byNode && !isNumeric(context, byNode)) return undefined;
  const byText = byNode ? context.sourceCode.getText(byNode) : '1';

  const awaited = call.node.parent;
  if (awaited?.type !== AST_NODE_TYPES.AwaitExpression) return undefined;
  let statement: TSESTree.Node | undefined;
  let resultName: string | undefined;
  let declarator: TSESTree.VariableDeclarator | undefined;
  if (awaited.parent?.type === AST_NODE_TYPES.ExpressionStatement) {
    statement = awaited.parent;
  } else if (
    awaited.parent?.type === AST_NODE_TYPES.VariableDeclarator &&
    awaited.parent.init === awaited &&
    awaited.parent.id.type === AST_NODE_TYPES.Identifier &&
    awaited.parent.parent.declarations.length === 1
  ) {
    declarator = awaited.parent;
    resultName = awaited.parent.id.type === AST_NODE_TYPES.Identifier ? awaited.parent.id.name : undefined;
    statement = awaited.parent.parent;
  }
  if (!statement) return undefined;
  const slot = statementSlot(statement);
  if (!slot) return undefined;
  const next = slot.list[slot.index + 1];

  // the expiry: right after, or inside a creation guard right after
  let expiry = awaitedExpiry(context, next);
  let mode: 'fixed' | 'sliding' = 'sliding';
  let remove: TSESTree.Node | undefined = expiry ? next : undefined;
  if (!expiry && next?.type === AST_NODE_TYPES.IfStatement && !next.alternate && resultName) {
    if (!isCreationGuard(context, next.test, resultName, byText)) return undefined;
    const body = next.consequent.type === AST_NODE_TYPES.BlockStatement ? next.consequent.body : [next.consequent];
    const inner = body.find((s) => awaitedExpiry(context, s) !== undefined);
    if (!inner) return undefined;
    expiry = awaitedExpiry(context, inner);
    mode = 'fixed';
    const alone = body.length === 1 && context.sourceCode.getCommentsInside(next).length === 0;
    remove = alone ? next : inner;
  }
  if (!expiry || !remove) return undefined;
  const expiryCallee = plainMethodCallee(expiry)!;
  const sourceCode = context.sourceCode;
  if (squeeze(sourceCode.getText(expiryCallee.object)) !== squeeze(sourceCode.getText(callee.object))) return undefined;
  if (squeeze(sourceCode.getText(expiry.argumentNodes[0]!)) !== squeeze(sourceCode.getText(keyNode))) return undefined;
  const ttlNode = expiry.argumentNodes[1]!;
  if (!isNumeric(context, ttlNode)) return undefined;
  // a TTL whose unit is not the command's (`expire(k, 24 * 60 * 60 * 1000)`, milliseconds to
  // EXPIRE: ttl-units reports it) has no sure value to carry into `ttlMs`: its literal reading
  // (`* 1000` more) keeps the bug, the meant one is a guess
  const guess = guessUnit(context, ttlNode);
  if (guess && unitMismatch(guess, expiry.command === 'PEXPIRE' ? 'milliseconds' : 'seconds')) return undefined;
  const ttlValue = constantNumber(context, ttlNode);
  let ttlMs: string;
  if (expiry.command === 'PEXPIRE') ttlMs = sourceCode.getText(ttlNode);
  else if (typeof ttlValue === 'number' && unwrap(ttlNode).type === AST_NODE_TYPES.Literal) ttlMs = String(ttlValue * 1000);
  else ttlMs = `${operandText(context, ttlNode)} * 1000`;
  if (typeof ttlValue === 'number' && (!Number.isSafeInteger(expiry.command === 'PEXPIRE' ? ttlValue : ttlValue * 1000) || ttlValue <= 0)) {
    return undefined; // a non-positive or fractional TTL deletes the key or is rejected: not ours to translate
  }

  const reference = helperReference(context, call.node, 'incrementWithTtl');
  if (!reference) return undefined;
  const options = [byNode ? `by: ${byText}` : undefined, `ttlMs: ${ttlMs}`, mode === 'sliding' ? `mode: 'sliding'` : undefined]
    .filter((part) => part !== undefined)
    .join(', ');
  const helperCall = `${reference.text}(${sourceCode.getText(callee.object)}, ${sourceCode.getText(keyNode)}, { ${options} })`;
  const node = call.node;
  const removed = remove;
  const discarded = statement.type === AST_NODE_TYPES.ExpressionStatement;
  const target = declarator;
  return withImport(reference, (fixer) => {
    const edits: Fix[] = [];
    if (discarded) {
      edits.push(fixer.replaceText(node, helperCall));
    } else if (target && !target.id.typeAnnotation) {
      edits.push(fixer.replaceText(target.id, `{ value: ${resultName} }`), fixer.replaceText(node, helperCall));
    } else {
      edits.push(fixer.replaceText(awaited, `(await ${helperCall}).value`));
    }
    edits.push(removeStatement(context, fixer, removed));
    return edits;
  });
}
