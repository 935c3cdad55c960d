/**
 * Is this receiver a Redis client? First from the code itself: how the value was made (`new
 * Redis()`, `createClient()`, `Redis.fromEnv()`, `.multi()`, ... imported from a client package),
 * the type annotations on the way to it (a parameter, a member, a member of an annotated object
 * such as `params.redis` with `params: { redis: Redis }`, a destructured binding, the declared
 * return type of a function or method), and, for a value, class or type imported with a relative
 * specifier, what its own module says of it (read through `redis-calls/modules.ts`). A receiver
 * that is provably something else (a `Map`, `Headers`, an object literal, a class or interface of
 * the code that extends no client, a type imported from a package that is not a client) is never
 * a client.
 *
 * With type information, what the code settles that way is not asked of the type checker (whose
 * first question about a node-redis client type can cost seconds); the rest is: where the
 * receiver's declared type is declared (the `ioredis`, `@redis/client` / `redis` or
 * `@upstash/redis` packages). Last comes the receiver's name (`settings['redis-ttl'].clientNames`),
 * and a verdict resting on a name says so (`byName`), so that messages explain only those.
 */
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import type * as ts from 'typescript';
import { isAbsolute } from 'node:path';
import { exportedValue, loadModule, moduleContext, readModule, type ImportedModule } from './modules.js';
import { commandOfMethod } from './normalize.js';
import { pluginSettings, type PluginSettings } from './settings.js';
import { forEachThisWrite } from './bounded.js';
import { findVariable, moduleNamespaceOf, unwrap, walkOwnNodes, type AnyContext } from './static.js';

/** Which client library's syntax a call follows. */
export type ClientFlavor = 'ioredis' | 'node-redis' | 'upstash' | 'unknown';

/**
 * The verdict on one receiver. A client verdict says `why` the receiver was taken for a client, as
 * the end of a sentence ("its type comes from ioredis", "it is made by `new Redis()`", "its name
 * matches clientNames 'redis'"), and `byName` when that rests on a name alone (a `clientNames`
 * match, a constructor, factory or type named like a client's with no import of a client package
 * behind it): then a message on a false alarm tells the user what to change.
 */
export type ReceiverKind =
  /** a client (or cluster) object: commands run one by one */
  | { redis: true; flavor: ClientFlavor; batch?: undefined; why: string; byName?: true }
  /** a `multi()` / `pipeline()` object: commands are queued until `exec()` */
  | { redis: true; flavor: ClientFlavor; batch: 'multi' | 'pipeline'; why: string; byName?: true }
  /**
   * not a client (`proven`), or not known to be one; `foreign` when the proof is an import from a
   * package that is not a client package (with type information the checker has the last word:
   * such a package may re-export a client type)
   */
  | { redis: false; proven: boolean; foreign?: true };

const NOT_REDIS: ReceiverKind = { redis: false, proven: true };
const FOREIGN: ReceiverKind = { redis: false, proven: true, foreign: true };
const UNKNOWN: ReceiverKind = { redis: false, proven: false };

/** A client verdict. */
function clientVerdict(flavor: ClientFlavor, why: string, batch?: 'multi' | 'pipeline', byName?: boolean): ReceiverKind {
  const base = batch ? { redis: true as const, flavor, batch, why } : { redis: true as const, flavor, why };
  return byName ? { ...base, byName: true as const } : base;
}

/** The same verdict with another explanation (a client stays a client of the same flavor and batch). */
function relabel(verdict: ReceiverKind, why: (inner: string) => string): ReceiverKind {
  return verdict.redis ? { ...verdict, why: why(verdict.why) } : verdict;
}

/** Whether a verdict is settled without the checker: a client or a non-client proven by the code itself. */
function settled(verdict: ReceiverKind): boolean {
  return verdict.redis ? verdict.byName !== true : verdict.proven && verdict.foreign !== true;
}

/** Packages whose declarations make a type a Redis client, by flavor. */
const PACKAGE_PATTERNS: ReadonlyArray<[RegExp, ClientFlavor]> = [
  [/\/node_modules\/(?:@types\/)?ioredis\//, 'ioredis'],
  [/\/node_modules\/(?:@redis\/client|redis|@types\/redis)\//, 'node-redis'],
  [/\/node_modules\/@upstash\/redis\//, 'upstash'],
];

/** The flavor of a module specifier that names a Redis client package, else `undefined`. */
export function flavorOfModule(source: string): ClientFlavor | undefined {
  if (source === 'ioredis' || source.startsWith('ioredis/')) return 'ioredis';
  if (source === 'redis' || source.startsWith('@redis/')) return 'node-redis';
  if (source.startsWith('@upstash/redis')) return 'upstash';
  return undefined;
}

/** Constructors / factories of clients, recognised by name when nothing better is known. */
const CLIENT_CONSTRUCTORS = new Set(['Redis', 'IORedis', 'Cluster', 'Valkey']);
const CLIENT_FACTORIES = new Set(['createClient', 'createCluster', 'createSentinel']);
/** Methods of a client that return the client itself (or a copy of it). */
const SELF_RETURNING = new Set(['on', 'once', 'off', 'connect', 'duplicate', 'withTypeMapping', 'withCommandOptions', 'legacy']);
/** Type names that denote a client when the annotation does not say where they come from. */
const CLIENT_TYPE_NAMES = new Set([
  'Redis',
  'IORedis',
  'Cluster',
  'RedisClientType',
  'RedisClusterType',
  'RedisClient',
  'RedisCluster',
]);
const BATCH_TYPE_NAMES: ReadonlyMap<string, 'multi' | 'pipeline'> = new Map([
  ['ChainableCommander', 'multi'],
  ['Pipeline', 'pipeline'],
  ['RedisClientMultiCommandType', 'multi'],
  ['RedisClusterMultiCommandType', 'multi'],
]);
/** Well-known non-Redis classes with `set` / `get` / `append` methods. */
const KNOWN_NOT_REDIS = new Set([
  'Map',
  'WeakMap',
  'Set',
  'WeakSet',
  'Headers',
  'URLSearchParams',
  'FormData',
  'URL',
  'Request',
  'Response',
  'Array',
  'Object',
  'Date',
  'Promise',
  'Record',
  'ReadonlyMap',
]);

/**
 * The text of a module that may make a client or pass one on: it names a client package, or it
 * re-exports another module (`export * from './client'`, `export { redis } from './client'`).
 */
const CLIENT_MODULE_TEXT = /['"](?:ioredis|redis|@redis\/[^'"]*|@upstash\/redis[^'"]*)['"]|\bexport\s*\*|\bexport\s*\{[^}]*\}\s*from\b/;

/** Expressions whose value is never a client: literals, objects, arrays, functions and classes. */
const VALUE_EXPRESSIONS: ReadonlySet<AST_NODE_TYPES> = new Set([
  AST_NODE_TYPES.ObjectExpression,
  AST_NODE_TYPES.ArrayExpression,
  AST_NODE_TYPES.Literal,
  AST_NODE_TYPES.TemplateLiteral,
  AST_NODE_TYPES.ArrowFunctionExpression,
  AST_NODE_TYPES.FunctionExpression,
  AST_NODE_TYPES.ClassExpression,
]);

/** Identifiers whose presence means a file may create or receive a Redis client. */
const EVIDENCE_NAMES: ReadonlySet<string> = new Set([
  ...CLIENT_CONSTRUCTORS,
  ...CLIENT_FACTORIES,
  ...CLIENT_TYPE_NAMES,
  ...BATCH_TYPE_NAMES.keys(),
  'fromEnv',
  'defineScript',
]);

/** Decides whether receivers are Redis clients, for one file; verdicts are cached per node. */
export class ClientDetector {
  private readonly cache = new Map<TSESTree.Node, ReceiverKind>();
  private readonly settings: PluginSettings;
  private readonly program: ts.Program | undefined;
  private checkerOfProgram: ts.TypeChecker | undefined;
  private readonly esTreeToTs: { get(node: TSESTree.Node): ts.Node } | undefined;
  private importedCache: ReadonlySet<ClientFlavor> | undefined;
  private evidence: boolean | undefined;

  /**
   * @param context the rule context of the linted file, or {@link moduleContext}'s for a module it imports
   * @param module the imported module `context` stands for (absent for the linted file)
   */
  constructor(
    private readonly context: AnyContext,
    private readonly module?: ImportedModule,
  ) {
    this.settings = pluginSettings(context);
    const services = context.sourceCode.parserServices;
    if (services?.program && services.esTreeNodeToTSNodeMap) {
      this.program = services.program;
      this.esTreeToTs = services.esTreeNodeToTSNodeMap as unknown as { get(node: TSESTree.Node): ts.Node };
    }
  }

  /** The context this detector judges in (the linted file's, or a module's). */
  get contextOf(): AnyContext {
    return this.context;
  }

  /** Whether type information is available for this file. */
  get typed(): boolean {
    return this.program !== undefined;
  }

  /**
   * The program's type checker, made on first use: a lint run in which no file has a receiver
   * that syntax cannot settle never makes one (making it binds every file of the program).
   */
  private get checker(): ts.TypeChecker | undefined {
    if (!this.checkerOfProgram && this.program) this.checkerOfProgram = this.program.getTypeChecker();
    return this.checkerOfProgram;
  }

  /** The verdict on the receiver expression of a member call. */
  classify(node: TSESTree.Node): ReceiverKind {
    const cached = this.cache.get(node);
    if (cached) return cached;
    this.cache.set(node, UNKNOWN); // cycles (a = b; b = a) end as unknown
    // The code first: a receiver whose value or annotation says what it is (a literal, `new Map()`,
    // a client made from or typed by a client package, a class of the code) needs no type checker,
    // whose first question about a node-redis client type costs seconds; only the rest (a name, a
    // package that is not a client package, nothing known) is asked of it.
    let verdict = this.classifySyntactic(node, 0);
    if (this.typed && !settled(verdict)) verdict = this.classifyTyped(node) ?? verdict;
    if (!verdict.redis && !verdict.proven) verdict = this.classifyByName(node);
    this.cache.set(node, verdict);
    return verdict;
  }

  /** The client package imported by this file, when exactly one is. */
  fileFlavor(): ClientFlavor {
    const found = this.importedFlavors();
    return found.size === 1 ? [...found][0]! : 'unknown';
  }

  /**
   * Whether anything in this file can be a Redis client. With type information, always (a type
   * can come from anywhere). Without it, a receiver is a client only through names or imports: an
   * import of a client package, a constructor / factory / type name of a client, a name matching
   * `clientNames`, or a relative import of a module whose text imports a client package or
   * re-exports another module; one pass over the file's tokens and a look at the text of the
   * modules it imports decide (it never changes a verdict, since every positive verdict needs one
   * of those), so files without any cost nothing more.
   */
  mayUseRedis(): boolean {
    if (this.evidence !== undefined) return this.evidence;
    this.evidence = this.typed || this.importsRedis() || this.hasEvidenceName() || this.importsClientModule();
    return this.evidence;
  }

  /** A relative import (or top-level `require`) of a module whose text may make or pass on a client. */
  private importsClientModule(): boolean {
    const from = this.context.physicalFilename ?? this.context.filename;
    if (!from || !isAbsolute(from)) return false;
    for (const statement of this.context.sourceCode.ast.body) {
      let specifier: string | undefined;
      if (statement.type === AST_NODE_TYPES.ImportDeclaration) specifier = statement.source.value;
      else if (statement.type === AST_NODE_TYPES.VariableDeclaration) {
        const init = statement.declarations[0]?.init ? unwrap(statement.declarations[0].init) : undefined;
        if (init?.type === AST_NODE_TYPES.CallExpression && init.callee.type === AST_NODE_TYPES.Identifier && init.callee.name === 'require') {
          const argument = init.arguments[0];
          if (argument?.type === AST_NODE_TYPES.Literal && typeof argument.value === 'string') specifier = argument.value;
        }
      }
      if (specifier === undefined || !specifier.startsWith('.')) continue;
      const text = readModule(from, specifier)?.entry.text;
      if (text !== undefined && CLIENT_MODULE_TEXT.test(text)) return true;
    }
    return false;
  }

  private hasEvidenceName(): boolean {
    const seen = new Set<string>();
    for (const token of this.context.sourceCode.ast.tokens) {
      // require('ioredis') / import('redis') anywhere in the file
      if (token.type === 'String' && flavorOfModule(token.value.slice(1, -1))) return true;
      if (token.type !== 'Identifier' || seen.has(token.value)) continue;
      seen.add(token.value);
      const name = token.value;
      if (EVIDENCE_NAMES.has(name)) return true;
      if (this.settings.clientNames.some((pattern) => pattern.regex.test(name))) return true;
    }
    return false;
  }

  /** Whether this file imports (or requires at its top level) any Redis client package. */
  importsRedis(): boolean {
    return this.importedFlavors().size > 0;
  }

  private importedFlavors(): ReadonlySet<ClientFlavor> {
    if (this.importedCache) return this.importedCache;
    const found = new Set<ClientFlavor>();
    for (const statement of this.context.sourceCode.ast.body) {
      if (statement.type === AST_NODE_TYPES.ImportDeclaration) {
        const flavor = flavorOfModule(statement.source.value);
        if (flavor) found.add(flavor);
      } else if (statement.type === AST_NODE_TYPES.VariableDeclaration) {
        // const Redis = require('ioredis'); const { createClient } = require('redis')
        for (const declarator of statement.declarations) {
          const init = declarator.init ? unwrap(declarator.init) : undefined;
          if (
            init?.type === AST_NODE_TYPES.CallExpression &&
            init.callee.type === AST_NODE_TYPES.Identifier &&
            init.callee.name === 'require' &&
            init.arguments[0]?.type === AST_NODE_TYPES.Literal &&
            typeof init.arguments[0].value === 'string'
          ) {
            const flavor = flavorOfModule(init.arguments[0].value);
            if (flavor) found.add(flavor);
          }
        }
      }
    }
    this.importedCache = found;
    return found;
  }

  // ---- with type information -------------------------------------------------------------

  private classifyTyped(node: TSESTree.Node): ReceiverKind | undefined {
    const tsNode = this.esTreeToTs?.get(node);
    if (!tsNode || !this.checker) return undefined;
    const type = this.checker.getTypeAtLocation(tsNode);
    const verdict = this.typeVerdict(type, 0);
    return verdict === 'unknown' ? undefined : verdict;
  }

  private typeVerdict(type: ts.Type, depth: number): ReceiverKind | 'unknown' {
    // ts.TypeFlags.Any = 1, Unknown = 2: nothing is known, fall back to syntax.
    if (type.flags & (1 | 2)) return 'unknown';
    if (depth > 3) return NOT_REDIS;
    if (type.isTypeParameter() && this.checker) {
      // <C extends Redis>(client: C): judge by the constraint
      const constraint = this.checker.getBaseConstraintOfType(type);
      return constraint && constraint !== type ? this.typeVerdict(constraint, depth + 1) : 'unknown';
    }
    const parts = type.isUnionOrIntersection() ? type.types : [];
    if (parts.length > 0) {
      let sawUnknown = false;
      for (const part of parts) {
        // null / undefined / void members of a union say nothing (TypeFlags Null | Undefined | Void).
        if (part.flags & (65536 | 32768 | 16384)) continue;
        const verdict = this.typeVerdict(part, depth + 1);
        if (verdict === 'unknown') sawUnknown = true;
        else if (verdict.redis) return verdict;
      }
      const own = this.symbolVerdict(type.aliasSymbol);
      if (own) return own;
      return sawUnknown ? 'unknown' : NOT_REDIS;
    }
    const own = this.symbolVerdict(type.aliasSymbol) ?? this.symbolVerdict(type.getSymbol());
    if (own) return own;
    // class Cache extends Redis {}: a subclass of a client is a client
    if (type.isClassOrInterface() && this.checker) {
      for (const base of this.checker.getBaseTypes(type)) {
        const verdict = this.typeVerdict(base, depth + 1);
        if (verdict !== 'unknown' && verdict.redis) return verdict;
      }
    }
    // an interface or object type (no class) declaring a client's commands: the code's own
    // description of the client it takes, which the declared type cannot tell from a client
    // (ts.TypeFlags.Object = 524288; ts.ObjectFlags Class = 1, Interface = 2, Anonymous = 16)
    const objectFlags = (type as ts.ObjectType).objectFlags ?? 0;
    if (type.flags & 524288 && !(objectFlags & 1) && objectFlags & (2 | 16) && type.getProperties().some((p) => isClientCommandName(p.getName()))) {
      return 'unknown';
    }
    return NOT_REDIS;
  }

  private symbolVerdict(symbol: ts.Symbol | undefined): ReceiverKind | undefined {
    for (const declaration of symbol?.getDeclarations() ?? []) {
      const fileName = declaration.getSourceFile().fileName.replace(/\\/g, '/');
      for (const [pattern, flavor] of PACKAGE_PATTERNS) {
        if (pattern.test(fileName)) {
          const batch = batchOfTypeName(symbol?.getName() ?? '');
          const why = `its type ${symbol?.getName() ?? ''} comes from ${packageOfFlavor(flavor)}`;
          return batch ? { redis: true, flavor, batch, why } : { redis: true, flavor, why };
        }
      }
    }
    return undefined;
  }

  // ---- without type information ----------------------------------------------------------

  private classifySyntactic(input: TSESTree.Node, depth: number): ReceiverKind {
    if (depth > 8) return UNKNOWN;
    const node = unwrap(input);
    switch (node.type) {
      case AST_NODE_TYPES.AwaitExpression:
        return this.classifySyntactic(node.argument, depth + 1);
      case AST_NODE_TYPES.NewExpression:
        return this.classifyConstruction(node.callee, node);
      case AST_NODE_TYPES.CallExpression:
        return this.classifyCallResult(node, depth);
      case AST_NODE_TYPES.Identifier:
        return this.classifyIdentifier(node, depth);
      case AST_NODE_TYPES.MemberExpression:
        return this.classifyMember(node, depth);
      case AST_NODE_TYPES.LogicalExpression:
        // options.client ?? new Redis(): a client when either side is one
        return this.either(this.classifySyntactic(node.left, depth + 1), this.classifySyntactic(node.right, depth + 1));
      case AST_NODE_TYPES.ConditionalExpression:
        return this.either(this.classifySyntactic(node.consequent, depth + 1), this.classifySyntactic(node.alternate, depth + 1));
      default:
        return VALUE_EXPRESSIONS.has(node.type) ? NOT_REDIS : UNKNOWN;
    }
  }

  /** Two possible values: a client if one is, provably not one if neither is, else unknown. */
  private either(a: ReceiverKind, b: ReceiverKind): ReceiverKind {
    if (a.redis) return a;
    if (b.redis) return b;
    return a.proven && b.proven ? NOT_REDIS : UNKNOWN;
  }

  /** `new X(...)`: a client constructor, a known non-Redis class, or unknown. */
  private classifyConstruction(callee: TSESTree.Node, made?: TSESTree.Node, depth = 0): ReceiverKind {
    const bare = unwrap(callee);
    const how = made ? this.madeBy(made) : `it is made from \`${this.text(bare)}\``;
    if (depth > 6) return UNKNOWN;
    if (bare.type === AST_NODE_TYPES.Identifier) {
      const origin = this.identifierOrigin(bare);
      if (origin.kind === 'import') {
        const flavor = flavorOfModule(origin.source);
        if (flavor) return clientVerdict(flavor, how);
        if (!origin.relative) return FOREIGN;
        // new RedisCache(): the class its module exports (a client only if it extends one)
        const exported = this.exported(origin);
        if (exported) {
          const verdict = exported.detector.classifyConstruction(exported.node, undefined, depth + 1);
          if (verdict.redis || verdict.proven) return relabel(verdict, (inner) => `${how}, a class of ${exported.module.display} where ${inner}`);
        }
        return this.nameGuess(bare.name, how);
      }
      if (origin.kind === 'local') {
        // class Cache extends Redis {}: judged by what it extends
        const superClass = origin.classNode?.superClass;
        if (origin.classNode) return superClass ? this.classifyConstruction(superClass, made, depth + 1) : NOT_REDIS;
        // const Client = Redis; export const Store = require('./store').Store
        return origin.init ? this.classifyConstruction(origin.init, made, depth + 1) : UNKNOWN;
      }
      if (KNOWN_NOT_REDIS.has(bare.name)) return NOT_REDIS;
      return this.nameGuess(bare.name, how);
    }
    if (bare.type === AST_NODE_TYPES.MemberExpression && bare.property.type === AST_NODE_TYPES.Identifier) {
      // new Redis.Cluster(...), new IORedis.Cluster(...)
      const objectVerdict = bare.object.type === AST_NODE_TYPES.Identifier ? this.identifierOrigin(bare.object) : undefined;
      if (objectVerdict?.kind === 'import') {
        const flavor = flavorOfModule(objectVerdict.source);
        return flavor ? clientVerdict(flavor, how) : objectVerdict.relative ? UNKNOWN : FOREIGN;
      }
      return CLIENT_CONSTRUCTORS.has(bare.property.name) ? clientVerdict('unknown', how, undefined, true) : UNKNOWN;
    }
    return UNKNOWN;
  }

  /** `new Redis()` with no import of a client package behind the name: a client by its name only. */
  private nameGuess(name: string, why: string): ReceiverKind {
    return CLIENT_CONSTRUCTORS.has(name) ? clientVerdict(this.fileFlavor(), why, undefined, true) : UNKNOWN;
  }

  /** "it is made by `new Redis(...)`", with long argument lists shortened. */
  private madeBy(node: TSESTree.Node): string {
    return `it is made by \`${this.text(node)}\``;
  }

  /** Source text of a node on one line, shortened to about 40 characters (`f(...)` past that). */
  private text(node: TSESTree.Node): string {
    const text = this.context.sourceCode.getText(node).replace(/\s+/g, ' ');
    if (text.length <= 40) return text;
    const open = text.indexOf('(');
    return open > 0 && open < 36 ? `${text.slice(0, open)}(...)` : `${text.slice(0, 37)}...`;
  }

  /** `f(...)` or `x.m(...)` used as a receiver: factories, `multi()` / `pipeline()` and chains. */
  private classifyCallResult(node: TSESTree.CallExpression, depth: number): ReceiverKind {
    const callee = unwrap(node.callee);
    if (callee.type === AST_NODE_TYPES.Identifier) {
      const origin = this.identifierOrigin(callee);
      if (CLIENT_FACTORIES.has(importedName(origin) ?? callee.name)) {
        if (origin.kind === 'import') {
          const flavor = flavorOfModule(origin.source);
          if (flavor) return clientVerdict(flavor, this.madeBy(node));
          if (!origin.relative) return FOREIGN;
        } else if (origin.kind !== 'local') {
          return clientVerdict(this.fileFlavor(), this.madeBy(node), undefined, true);
        }
      }
      // getRedis() of another module of the code: what its declaration says it returns
      if (origin.kind === 'import' && origin.relative) {
        const exported = this.exported(origin);
        const fn = exported ? exported.detector.functionOf(exported.node) : undefined;
        if (exported && fn) {
          const label = this.text(node);
          return relabel(exported.detector.classifyReturnOf(fn, label, depth), (inner) => `${inner} (${exported.module.display})`);
        }
        return UNKNOWN;
      }
      // getRedis(): a function of this module that returns a client
      return this.classifyReturnOf(this.functionOf(callee), this.text(node), depth);
    }
    if (callee.type !== AST_NODE_TYPES.MemberExpression || callee.property.type !== AST_NODE_TYPES.Identifier) {
      return UNKNOWN;
    }
    const method = callee.property.name;
    const object = unwrap(callee.object);
    if (method === 'fromEnv' && object.type === AST_NODE_TYPES.Identifier) {
      // Redis.fromEnv() (@upstash/redis)
      const origin = this.identifierOrigin(object);
      if (origin.kind === 'import') {
        const flavor = flavorOfModule(origin.source);
        return flavor ? clientVerdict(flavor, this.madeBy(node)) : origin.relative ? UNKNOWN : FOREIGN;
      }
      return object.name === 'Redis' ? clientVerdict('upstash', this.madeBy(node), undefined, true) : UNKNOWN;
    }
    if (CLIENT_FACTORIES.has(method) && object.type === AST_NODE_TYPES.Identifier) {
      // import * as redis from 'redis'; redis.createClient()
      const origin = this.identifierOrigin(object);
      if (origin.kind === 'import') {
        const flavor = flavorOfModule(origin.source);
        if (flavor) return clientVerdict(flavor, this.madeBy(node));
        if (!origin.relative) return FOREIGN;
      }
    }
    // this.redis(), Store.client(): a method of a class of this module that returns a client
    const method_ = this.localMethod(callee);
    if (method_) return this.classifyReturnOf(method_, this.text(node), depth);
    // pool.getClient(config) with `pool: { getClient(c): RedisClientType }`: the declared return type
    const signature = this.memberOf(this.typeOfExpression(callee.object, depth + 1), method, depth + 1);
    const declared = signature?.returns ? this.declaredResult(signature.returns, signature.detector, this.text(node)) : undefined;
    if (declared) return declared;
    // multi().json.set(...): a module command queued on a batch returns the batch
    const namespace = moduleNamespaceOf(callee);
    if (namespace) {
      const owner = this.classify(namespace.object);
      return owner.redis && owner.batch ? owner : UNKNOWN;
    }
    const receiver = this.classify(callee.object);
    if (!receiver.redis) return receiver.proven ? NOT_REDIS : UNKNOWN;
    if (method === 'multi' || method === 'pipeline') return clientVerdict(receiver.flavor, receiver.why, method, receiver.byName);
    if (SELF_RETURNING.has(method)) return receiver;
    // A queued command on a multi / pipeline returns the same batch (ioredis, node-redis, upstash).
    if (receiver.batch && method !== 'exec' && method !== 'execAsPipeline') return receiver;
    return UNKNOWN;
  }

  /**
   * What a function of this module returns: its declared return type when it says (`():
   * RedisClientType`, `(): Promise<Redis>`, `(): AppCache` of an interface that is no client; a
   * `declare function` too), else its `return` statements (or an arrow's expression body): a client
   * when one of them is, provably not one when all are provably not.
   * @param label the call as written, for the explanation (`getStore()`)
   */
  classifyReturnOf(fn: FunctionWithReturn | undefined, label: string, depth: number): ReceiverKind {
    if (!fn || depth > 6) return UNKNOWN;
    const declared = fn.returnType ? this.declaredResult(fn.returnType.typeAnnotation, this, label) : undefined;
    if (declared) return declared;
    if (!fn.body) return UNKNOWN;
    const returned = returnedExpressions(fn as FunctionLike);
    if (returned.length === 0) return UNKNOWN;
    let allNot = true;
    for (const expression of returned) {
      const verdict = this.classifySyntactic(expression, depth + 2);
      if (verdict.redis) return relabel(verdict, (inner) => `it is returned by \`${label}\`, where ${inner}`);
      if (!verdict.proven) allNot = false;
    }
    return allNot ? NOT_REDIS : UNKNOWN;
  }

  /**
   * The verdict a declared return type gives a call's result (`Promise<T>` is `T`: the result is
   * awaited before use), when it decides one way or the other.
   */
  private declaredResult(type: TSESTree.TypeNode, detector: ClientDetector, label: string): ReceiverKind | undefined {
    const verdict = detector.classifyType(promisedType(type));
    if (!verdict.redis && !verdict.proven) return undefined;
    return relabel(verdict, (inner) => `it is returned by \`${label}\`, declared with ${inner.replace(/^its annotation /, '')}`);
  }

  /**
   * The function a plain identifier names in this module: `function f() {}`, `declare function
   * f(): T`, `const f = () => ...`, `const f: () => T = ...` (its annotation's return type).
   */
  functionOf(node: TSESTree.Node): FunctionWithReturn | undefined {
    if (node.type !== AST_NODE_TYPES.Identifier) return undefined;
    const variable = findVariable(this.context, node);
    const def = variable?.defs.length === 1 ? variable.defs[0] : undefined;
    if (!def) return undefined;
    if (def.type === 'FunctionName' && (def.node.type === AST_NODE_TYPES.FunctionDeclaration || def.node.type === AST_NODE_TYPES.TSDeclareFunction)) {
      return def.node;
    }
    if (def.type === 'Variable' && def.node.id.type === AST_NODE_TYPES.Identifier) {
      const annotation = def.node.id.typeAnnotation?.typeAnnotation;
      if (annotation?.type === AST_NODE_TYPES.TSFunctionType && annotation.returnType) return { returnType: annotation.returnType };
      if (def.parent?.kind === 'const' && def.node.init) {
        const init = unwrap(def.node.init);
        if (init.type === AST_NODE_TYPES.ArrowFunctionExpression || init.type === AST_NODE_TYPES.FunctionExpression) return init;
      }
    }
    return undefined;
  }

  /**
   * The method (or getter) a member names on a class of this module: `this.m` inside the class,
   * `Cls.m` for a static member of a class declared in the file (a method declared without a body,
   * `abstract client(): Redis`, by its return type).
   */
  private localMethod(member: TSESTree.MemberExpression, kind: 'method' | 'get' = 'method'): FunctionWithReturn | undefined {
    const name = memberKeyName(member.property, member.computed);
    if (name === undefined) return undefined;
    const object = unwrap(member.object);
    let cls: TSESTree.ClassDeclaration | TSESTree.ClassExpression | undefined;
    let isStatic = false;
    if (object.type === AST_NODE_TYPES.ThisExpression) {
      cls = enclosingClass(member);
      isStatic = cls !== undefined && inStaticMember(member, cls);
    } else if (object.type === AST_NODE_TYPES.Identifier) {
      const origin = this.identifierOrigin(object);
      if (origin.kind === 'local' && origin.classNode) {
        cls = origin.classNode;
        isStatic = true;
      }
    }
    if (!cls) return undefined;
    for (const element of cls.body.body) {
      if (
        (element.type === AST_NODE_TYPES.MethodDefinition || element.type === AST_NODE_TYPES.TSAbstractMethodDefinition) &&
        element.kind === kind &&
        element.static === isStatic &&
        memberKeyName(element.key, element.computed) === name &&
        (element.value.body || element.value.returnType)
      ) {
        return element.value;
      }
    }
    return undefined;
  }

  private classifyIdentifier(node: TSESTree.Identifier, depth: number): ReceiverKind {
    const variable = findVariable(this.context, node);
    if (!variable) return UNKNOWN; // a global
    if (variable.defs.length !== 1) return UNKNOWN;
    const def = variable.defs[0]!;
    switch (def.type) {
      case 'Variable': {
        const declarator = def.node;
        if (declarator.init && isRequire(declarator.init)) return this.classifyImported(node, depth);
        // const { redis: store } = params; const { redis } = this
        if (declarator.id.type !== AST_NODE_TYPES.Identifier) return this.classifyDestructured(def.name, declarator.id, declarator.init, depth);
        if (declarator.id.typeAnnotation) {
          const fromType = this.classifyType(declarator.id.typeAnnotation.typeAnnotation);
          if (fromType.redis || fromType.proven) return fromType;
        }
        if (def.parent?.kind === 'const' || declarator.parent.declare) return declarator.init ? this.classifySyntactic(declarator.init, depth + 1) : UNKNOWN;
        // a `let` / `var`: every value written to it (`var _x; ... _x = new WeakMap()` as
        // TypeScript emits for private fields): a client if one is, provably not if none can be
        const values = variable.references.filter((r) => r.isWrite() && r.writeExpr).map((r) => r.writeExpr!);
        if (values.length === 0 || values.some((v) => v.parent?.type === AST_NODE_TYPES.AssignmentExpression && v.parent.operator !== '=')) {
          return UNKNOWN;
        }
        let allNot = true;
        for (const value of values) {
          const verdict = this.classifySyntactic(value, depth + 1);
          if (verdict.redis) return values.length === 1 ? verdict : UNKNOWN;
          if (!verdict.proven) allNot = false;
        }
        return allNot ? NOT_REDIS : UNKNOWN;
      }
      case 'Parameter': {
        const id = def.name;
        if (id.type !== AST_NODE_TYPES.Identifier) return UNKNOWN;
        // function handler({ redis: store }: { redis: Redis })
        const pattern = outermostPattern(id);
        if (pattern !== id) return this.classifyDestructured(id, pattern, undefined, depth);
        if (id.typeAnnotation) return this.classifyType(id.typeAnnotation.typeAnnotation);
        const param = id.parent;
        if (param?.type === AST_NODE_TYPES.AssignmentPattern && param.left === id) {
          return this.classifySyntactic(param.right, depth + 1);
        }
        return UNKNOWN;
      }
      case 'ImportBinding':
        return this.classifyImported(node, depth);
      case 'ClassName':
      case 'FunctionName':
        return NOT_REDIS;
      default:
        return UNKNOWN;
    }
  }

  /**
   * A value imported from another module of the code (`import { redis } from './redis'`, `const {
   * queue } = require('./queues')`): what that module makes it. Unknown for a package.
   */
  private classifyImported(node: TSESTree.Identifier, depth: number): ReceiverKind {
    const origin = this.identifierOrigin(node);
    const exported = origin.kind === 'import' && origin.relative ? this.exported(origin) : undefined;
    if (!exported || depth > 6) return UNKNOWN;
    const verdict = exported.detector.classifySyntactic(exported.node, depth + 2);
    return relabel(verdict, (inner) => `it is imported from ${exported.module.display}, where ${inner}`);
  }

  /**
   * A binding destructured from an object (`const { redis: store } = params`, `const { redis } =
   * this`, a parameter `{ redis }: { redis: Redis }`): the declared type of the property it reads
   * (the pattern's own annotation, or the type of what it is destructured from), or the value at
   * that property of `this` or of a `const` object literal.
   */
  private classifyDestructured(binding: TSESTree.Identifier, pattern: TSESTree.Node, init: TSESTree.Node | null | undefined, depth: number): ReceiverKind {
    const path = propertyPath(pattern, binding);
    if (!path || path.length === 0 || depth > 6) return UNKNOWN;
    const annotation = 'typeAnnotation' in pattern && pattern.typeAnnotation ? (pattern.typeAnnotation as TSESTree.TSTypeAnnotation).typeAnnotation : undefined;
    const typed = this.memberPath(annotation ? { type: annotation, detector: this } : init ? this.typeOfExpression(init, depth + 1) : undefined, path, depth + 1);
    if (typed) {
      const verdict = typed.detector.classifyType(typed.type);
      if (verdict.redis || verdict.proven) return verdict;
    }
    const source = init ? unwrap(init) : undefined;
    if (source?.type === AST_NODE_TYPES.ThisExpression && path.length === 1) {
      const cls = enclosingClass(source);
      if (cls) return this.classifyClassMember(cls, path[0]!, depth + 1, inStaticMember(source, cls));
    }
    if (source?.type === AST_NODE_TYPES.Identifier && path.length === 1) {
      const value = this.constObjectProperty(source, path[0]!);
      if (value) return this.classifySyntactic(value, depth + 1);
    }
    return UNKNOWN;
  }

  /**
   * `this.redis` (a class member: its annotation, its initializer, a getter, or what the class
   * assigns to it), `Cls.client` (a static member), `obj.prop` of a `const` object literal, and a
   * member of an object whose type is declared (`params.redis` with `params: { redis: Redis }`,
   * `ctx.services.cache` through interfaces and type aliases of the code).
   */
  private classifyMember(node: TSESTree.MemberExpression, depth: number): ReceiverKind {
    const name = memberKeyName(node.property, node.computed);
    if (name === undefined) return UNKNOWN;
    const object = unwrap(node.object);
    const getter = this.localMethod(node, 'get');
    if (getter) return this.classifyReturnOf(getter, this.text(node), depth);
    if (object.type === AST_NODE_TYPES.ThisExpression) {
      const cls = enclosingClass(node);
      if (cls) return this.classifyClassMember(cls, name, depth, inStaticMember(node, cls));
    } else if (object.type === AST_NODE_TYPES.Identifier) {
      const origin = this.identifierOrigin(object);
      if (origin.kind === 'local' && origin.classNode) return this.classifyClassMember(origin.classNode, name, depth, true);
      // const state = { redisTimers: new Map() }; state.redisTimers
      const value = this.constObjectProperty(object, name);
      if (value) return this.classifySyntactic(value, depth + 1);
    }
    const signature = this.memberOf(this.typeOfExpression(node.object, depth + 1), name, depth + 1);
    if (signature?.property) {
      const verdict = signature.detector.classifyType(signature.property);
      if (verdict.redis || verdict.proven) return verdict;
    }
    // client.json, client.ft (node-redis module commands), client.options: a property of a client
    // is not the client (node-redis v4's legacy-mode `client.v4` excepted)
    if (depth < 6) {
      const owner = this.classifySyntactic(node.object, depth + 1);
      if (owner.redis && name === 'v4') return owner;
      if (owner.redis && !owner.batch && !owner.byName) return NOT_REDIS;
    }
    // url.searchParams, req.headers: well-known non-Redis members
    if (name === 'searchParams' || name === 'headers') return NOT_REDIS;
    return UNKNOWN;
  }

  // ---- declared types of expressions --------------------------------------------------------

  /**
   * The declared type of an expression, as the code writes it (no checker): the annotation of a
   * parameter, variable or class member, a property of such a type (`params.redis`), a
   * destructured binding's, a function's or method's declared return type (`await` unwraps a
   * `Promise<T>`), an `x as T` assertion, or what a relatively imported value is declared as.
   * `undefined` when the code does not say.
   */
  typeOfExpression(input: TSESTree.Node, depth: number): TypeRef | undefined {
    if (depth > 8) return undefined;
    const node = input.type === AST_NODE_TYPES.ChainExpression ? input.expression : input;
    switch (node.type) {
      case AST_NODE_TYPES.TSAsExpression:
      case AST_NODE_TYPES.TSTypeAssertion:
      case AST_NODE_TYPES.TSSatisfiesExpression:
        return { type: node.typeAnnotation, detector: this };
      case AST_NODE_TYPES.TSNonNullExpression:
        return this.typeOfExpression(node.expression, depth + 1);
      case AST_NODE_TYPES.AwaitExpression: {
        const inner = this.typeOfExpression(node.argument, depth + 1);
        return inner ? { type: promisedType(inner.type), detector: inner.detector } : undefined;
      }
      case AST_NODE_TYPES.Identifier: {
        const variable = findVariable(this.context, node);
        const def = variable?.defs.length === 1 ? variable.defs[0] : undefined;
        if (!def) return undefined;
        if (def.type === 'Parameter') {
          const id = def.name;
          if (id.type !== AST_NODE_TYPES.Identifier) return undefined;
          const pattern = outermostPattern(id);
          if (pattern === id) return id.typeAnnotation ? { type: id.typeAnnotation.typeAnnotation, detector: this } : undefined;
          const annotation = 'typeAnnotation' in pattern ? (pattern.typeAnnotation as TSESTree.TSTypeAnnotation | undefined) : undefined;
          const path = propertyPath(pattern, id);
          return annotation && path ? this.memberPath({ type: annotation.typeAnnotation, detector: this }, path, depth + 1) : undefined;
        }
        if (def.type === 'Variable') {
          const id = def.node.id;
          if (id.type === AST_NODE_TYPES.Identifier) {
            if (id.typeAnnotation) return { type: id.typeAnnotation.typeAnnotation, detector: this };
            return def.parent?.kind === 'const' && def.node.init ? this.typeOfExpression(def.node.init, depth + 1) : undefined;
          }
          const path = propertyPath(id, def.name);
          if (!path) return undefined;
          const base = id.typeAnnotation ? { type: id.typeAnnotation.typeAnnotation, detector: this } : def.node.init ? this.typeOfExpression(def.node.init, depth + 1) : undefined;
          return this.memberPath(base, path, depth + 1);
        }
        if (def.type === 'ImportBinding') {
          const origin = this.identifierOrigin(node);
          const exported = origin.kind === 'import' && origin.relative ? this.exported(origin) : undefined;
          return exported ? exported.detector.typeOfExpression(exported.node, depth + 1) : undefined;
        }
        return undefined;
      }
      case AST_NODE_TYPES.MemberExpression: {
        const name = memberKeyName(node.property, node.computed);
        if (name === undefined) return undefined;
        const object = unwrap(node.object);
        if (object.type === AST_NODE_TYPES.ThisExpression) {
          const cls = enclosingClass(node);
          const declared = cls ? classMemberType(cls, name, inStaticMember(node, cls)) : undefined;
          return declared ? { type: declared, detector: this } : undefined;
        }
        return this.memberOf(this.typeOfExpression(node.object, depth + 1), name, depth + 1)?.propertyRef;
      }
      case AST_NODE_TYPES.CallExpression: {
        const callee = unwrap(node.callee);
        if (callee.type === AST_NODE_TYPES.Identifier) {
          const fn = this.functionOf(callee);
          return fn?.returnType ? { type: fn.returnType.typeAnnotation, detector: this } : undefined;
        }
        if (callee.type !== AST_NODE_TYPES.MemberExpression) return undefined;
        const method = this.localMethod(callee);
        if (method?.returnType) return { type: method.returnType.typeAnnotation, detector: this };
        const name = memberKeyName(callee.property, callee.computed);
        const signature = name === undefined ? undefined : this.memberOf(this.typeOfExpression(callee.object, depth + 1), name, depth + 1);
        return signature?.returns ? { type: signature.returns, detector: signature.detector } : undefined;
      }
      default:
        return undefined;
    }
  }

  /** The type at a property path (`['services', 'redis']`) of a declared type. */
  private memberPath(base: TypeRef | undefined, path: readonly string[], depth: number): TypeRef | undefined {
    let current = base;
    for (const name of path) {
      current = this.memberOf(current, name, depth + 1)?.propertyRef;
      if (!current) return undefined;
    }
    return current;
  }

  /**
   * What a declared type says of its member `name`: the property's type, or what the method (or a
   * property of a function type) returns. Reads type literals, interfaces and the interfaces they
   * extend, type aliases, classes (their annotated members and methods), intersections, unions
   * (without `null` / `undefined`), `Readonly<T>` / `Partial<T>` / `Required<T>` /
   * `NonNullable<T>`, and the declarations of relatively imported types in their own modules.
   */
  memberOf(ref: TypeRef | undefined, name: string, depth: number): MemberSignature | undefined {
    if (!ref || depth > 8) return undefined;
    const { type, detector } = ref;
    if (detector !== this) return detector.memberOf(ref, name, depth + 1);
    switch (type.type) {
      case AST_NODE_TYPES.TSTypeLiteral:
        return this.signatureIn(type.members, name);
      case AST_NODE_TYPES.TSIntersectionType:
      case AST_NODE_TYPES.TSUnionType:
        for (const part of type.types) {
          const found = this.memberOf({ type: part, detector: this }, name, depth + 1);
          if (found) return found;
        }
        return undefined;
      case AST_NODE_TYPES.TSTypeReference: {
        if (type.typeName.type !== AST_NODE_TYPES.Identifier) return undefined;
        const wrapped = type.typeArguments?.params[0];
        if (wrapped && TRANSPARENT_TYPES.has(type.typeName.name)) return this.memberOf({ type: wrapped, detector: this }, name, depth + 1);
        return this.memberOfDeclaration(type.typeName, name, depth + 1);
      }
      default:
        return undefined;
    }
  }

  /** The member `name` of the type, interface or class an identifier names (in this module or, imported, in its own). */
  private memberOfDeclaration(ident: TSESTree.Identifier, name: string, depth: number): MemberSignature | undefined {
    const origin = this.identifierOrigin(ident);
    if (origin.kind === 'import') {
      const exported = origin.relative ? this.exported(origin) : undefined;
      return exported && exported.node.type === AST_NODE_TYPES.Identifier ? exported.detector.memberOfDeclaration(exported.node, name, depth + 1) : undefined;
    }
    if (origin.kind !== 'local') return undefined;
    if (origin.typeNode?.type === AST_NODE_TYPES.TSTypeAliasDeclaration) return this.memberOf({ type: origin.typeNode.typeAnnotation, detector: this }, name, depth + 1);
    if (origin.typeNode?.type === AST_NODE_TYPES.TSInterfaceDeclaration) {
      const own = this.signatureIn(origin.typeNode.body.body, name);
      if (own) return own;
      for (const heritage of origin.typeNode.extends) {
        if (heritage.expression.type !== AST_NODE_TYPES.Identifier) continue;
        const inherited = this.memberOfDeclaration(heritage.expression, name, depth + 1);
        if (inherited) return inherited;
      }
      return undefined;
    }
    if (origin.classNode) {
      const declared = classMemberType(origin.classNode, name, false);
      if (declared) return { property: declared, propertyRef: { type: declared, detector: this }, detector: this };
      for (const element of origin.classNode.body.body) {
        if (
          (element.type === AST_NODE_TYPES.MethodDefinition || element.type === AST_NODE_TYPES.TSAbstractMethodDefinition) &&
          !element.static &&
          memberKeyName(element.key, element.computed) === name &&
          element.value.returnType
        ) {
          return { returns: element.value.returnType.typeAnnotation, detector: this };
        }
      }
    }
    return undefined;
  }

  /** The member `name` among the members of a type literal or interface body. */
  private signatureIn(members: readonly TSESTree.TypeElement[], name: string): MemberSignature | undefined {
    for (const member of members) {
      if (member.type === AST_NODE_TYPES.TSPropertySignature && memberKeyName(member.key, member.computed) === name) {
        const type = member.typeAnnotation?.typeAnnotation;
        if (!type) return undefined;
        // getClient: () => RedisClientType
        if (type.type === AST_NODE_TYPES.TSFunctionType) return type.returnType ? { returns: type.returnType.typeAnnotation, detector: this } : undefined;
        return { property: type, propertyRef: { type, detector: this }, detector: this };
      }
      if (member.type === AST_NODE_TYPES.TSMethodSignature && memberKeyName(member.key, member.computed) === name) {
        return member.returnType ? { returns: member.returnType.typeAnnotation, detector: this } : undefined;
      }
    }
    return undefined;
  }

  // ---- other modules of the code --------------------------------------------------------------

  /**
   * The declaration a relative import names, in its own module (read through
   * `redis-calls/modules.ts`), with that module's detector: the identifier a declaration binds
   * (`export const redis = ...`, `export class RedisCache`, `export interface Store`, `export
   * function getRedis(): Redis`), or the exported expression (`export default new Redis()`,
   * `module.exports = { redis }`). `undefined` for a namespace import, a module that cannot be read,
   * or a name it does not export.
   */
  exported(origin: ImportOrigin, depth = 0): Exported | undefined {
    if (origin.namespace || depth > 4) return undefined;
    const module = loadModule(this.context, origin.source);
    if (!module) return undefined;
    return detectorOfModule(this.context, module).exportedNode(origin.imported ?? 'default', depth + 1);
  }

  /** See {@link exported}: the binding this module exports under `name`. */
  private exportedNode(name: string, depth: number): Exported | undefined {
    const module = this.module;
    if (!module || depth > 4) return undefined;
    const local = (localName: string): Exported | undefined => {
      const id = this.moduleBinding(localName);
      return id ? { node: id, detector: this, module } : undefined;
    };
    const from = (source: string, imported: string): Exported | undefined => this.exported({ source, relative: true, imported }, depth + 1);
    for (const statement of module.program.body) {
      if (statement.type === AST_NODE_TYPES.ExportNamedDeclaration) {
        const declaration = statement.declaration;
        if (declaration?.type === AST_NODE_TYPES.VariableDeclaration) {
          for (const declarator of declaration.declarations) {
            if (declarator.id.type === AST_NODE_TYPES.Identifier && declarator.id.name === name) return { node: declarator.id, detector: this, module };
          }
        } else if (declaration && 'id' in declaration && declaration.id?.type === AST_NODE_TYPES.Identifier && declaration.id.name === name) {
          return { node: declaration.id, detector: this, module };
        }
        for (const specifier of statement.specifiers) {
          const exportedName = specifier.exported.type === AST_NODE_TYPES.Identifier ? specifier.exported.name : specifier.exported.value;
          if (exportedName !== name) continue;
          const localName = specifier.local.type === AST_NODE_TYPES.Identifier ? specifier.local.name : specifier.local.value;
          return statement.source ? from(statement.source.value, localName) : local(localName);
        }
      } else if (statement.type === AST_NODE_TYPES.ExportDefaultDeclaration && name === 'default') {
        const declaration = statement.declaration;
        if (declaration.type === AST_NODE_TYPES.Identifier) return local(declaration.name);
        if ('id' in declaration && declaration.id) return { node: declaration.id, detector: this, module };
        return { node: declaration, detector: this, module };
      }
    }
    for (const statement of module.program.body) {
      // export * from './clients'
      if (statement.type === AST_NODE_TYPES.ExportAllDeclaration && !statement.exported && name !== 'default') {
        const found = from(statement.source.value, name);
        if (found) return found;
      }
    }
    // CommonJS: exports.redis = ...; module.exports = { redis }; module.exports = new Redis()
    const value = name === 'default' ? commonJsDefault(module.program) : exportedValue(module.program, name);
    if (!value) return undefined;
    const bare = unwrap(value);
    return bare.type === AST_NODE_TYPES.Identifier ? (local(bare.name) ?? { node: bare, detector: this, module }) : { node: value, detector: this, module };
  }

  /** The identifier a top-level declaration of this module binds `name` with. */
  private moduleBinding(name: string): TSESTree.Identifier | undefined {
    const program = this.context.sourceCode.ast;
    const global = this.context.sourceCode.getScope(program);
    const scope = global.childScopes.find((child) => child.type === 'module') ?? global;
    const def = scope.set.get(name)?.defs[0];
    return def?.name.type === AST_NODE_TYPES.Identifier ? def.name : undefined;
  }

  /** The value of `name` in a `const x = { name: value }` object literal (no spread), else `undefined`. */
  private constObjectProperty(object: TSESTree.Identifier, name: string): TSESTree.Node | undefined {
    const variable = findVariable(this.context, object);
    const def = variable?.defs.length === 1 ? variable.defs[0] : undefined;
    if (def?.type !== 'Variable' || def.parent?.kind !== 'const' || !def.node.init) return undefined;
    const init = unwrap(def.node.init);
    if (init.type !== AST_NODE_TYPES.ObjectExpression) return undefined;
    for (const property of init.properties) {
      if (property.type !== AST_NODE_TYPES.Property) return undefined;
      if (!property.computed && property.key.type === AST_NODE_TYPES.Identifier && property.key.name === name) return property.value;
    }
    return undefined;
  }

  /**
   * A class member: its type annotation, its initializer, a constructor parameter property (its
   * annotation or default value), else every value the class assigns to `this.<name>` (a client
   * if one is, provably not one if all are provably not, e.g. `this.redisListeners = new Map()`).
   */
  private classifyClassMember(
    cls: TSESTree.ClassDeclaration | TSESTree.ClassExpression,
    name: string,
    depth: number,
    isStatic: boolean,
  ): ReceiverKind {
    let declared: ReceiverKind | undefined;
    for (const member of cls.body.body) {
      if (
        member.type === AST_NODE_TYPES.PropertyDefinition &&
        member.static === isStatic &&
        memberKeyName(member.key, member.computed) === name
      ) {
        if (member.typeAnnotation) {
          const fromType = this.classifyType(member.typeAnnotation.typeAnnotation);
          if (fromType.redis || fromType.proven) return fromType;
        }
        if (member.value) return this.classifySyntactic(member.value, depth + 1);
      }
      if (
        !isStatic &&
        member.type === AST_NODE_TYPES.MethodDefinition &&
        member.kind === 'constructor' &&
        member.value.type === AST_NODE_TYPES.FunctionExpression
      ) {
        for (const param of member.value.params) {
          if (param.type !== AST_NODE_TYPES.TSParameterProperty) continue;
          const inner = param.parameter;
          const id = inner.type === AST_NODE_TYPES.AssignmentPattern ? inner.left : inner;
          if (id.type !== AST_NODE_TYPES.Identifier || id.name !== name) continue;
          if (id.typeAnnotation) {
            declared = this.classifyType(id.typeAnnotation.typeAnnotation);
            if (declared.redis || declared.proven) return declared;
          }
          if (inner.type === AST_NODE_TYPES.AssignmentPattern) {
            // constructor(private readonly redisRequests = new Map()): provably not a client unless
            // callers may pass something else, which only an annotation would tell
            const fromDefault = this.classifySyntactic(inner.right, depth + 1);
            if (fromDefault.redis || fromDefault.proven) return fromDefault;
          }
        }
      }
    }
    if (declared) return declared;
    return this.classifyAssignments(cls, name, depth, isStatic);
  }

  /** Every `this.<name> = value` in the class's own methods (not in nested classes). */
  private classifyAssignments(
    cls: TSESTree.ClassDeclaration | TSESTree.ClassExpression,
    name: string,
    depth: number,
    isStatic: boolean,
  ): ReceiverKind {
    const values: TSESTree.Node[] = [];
    for (const member of cls.body.body) {
      if (member.type !== AST_NODE_TYPES.MethodDefinition || member.static !== isStatic || !member.value.body) continue;
      forEachThisWrite(member.value.body, name, (value) => value && values.push(value));
    }
    if (values.length === 0) return UNKNOWN;
    let allNot = true;
    for (const value of values) {
      const verdict = this.classifySyntactic(value, depth + 1);
      if (verdict.redis) return verdict;
      if (!verdict.proven) allNot = false;
    }
    return allNot ? NOT_REDIS : UNKNOWN;
  }

  /** A type annotation: client / batch types, known non-Redis types, or unknown. */
  classifyType(type: TSESTree.TypeNode, depth = 0): ReceiverKind {
    if (depth > 4) return UNKNOWN;
    switch (type.type) {
      case AST_NODE_TYPES.TSTypeReference: {
        let ident: TSESTree.Identifier | undefined;
        let last: string;
        if (type.typeName.type === AST_NODE_TYPES.Identifier) {
          ident = type.typeName;
          last = type.typeName.name;
        } else if (type.typeName.type === AST_NODE_TYPES.TSQualifiedName) {
          // IORedis.Redis, Redis.Cluster
          let left: TSESTree.EntityName = type.typeName;
          while (left.type === AST_NODE_TYPES.TSQualifiedName) left = left.left;
          if (left.type === AST_NODE_TYPES.Identifier) ident = left;
          last = type.typeName.right.name;
        } else {
          return UNKNOWN;
        }
        const annotated = this.context.sourceCode.getText(type);
        if (last === 'ReturnType' && type.typeArguments?.params[0]?.type === AST_NODE_TYPES.TSTypeQuery) {
          // ReturnType<typeof createClient>, ReturnType<typeof getRedis>
          const query = type.typeArguments.params[0].exprName;
          if (query.type !== AST_NODE_TYPES.Identifier) return UNKNOWN;
          const origin = this.identifierOrigin(query);
          const why = `its annotation is \`${annotated}\``;
          if (origin.kind === 'import' && flavorOfModule(origin.source)) {
            return CLIENT_FACTORIES.has(importedName(origin) ?? query.name) ? clientVerdict(flavorOfModule(origin.source)!, why) : UNKNOWN;
          }
          const fn = origin.kind === 'local' ? this.functionOf(query) : undefined;
          if (fn) return this.classifyReturnOf(fn, `${query.name}()`, depth + 1);
          return CLIENT_FACTORIES.has(query.name) ? clientVerdict(this.fileFlavor(), why, undefined, true) : UNKNOWN;
        }
        const batch = batchOfTypeName(last);
        if (ident) {
          const origin = this.identifierOrigin(ident);
          if (origin.kind === 'import') {
            const flavor = flavorOfModule(origin.source);
            if (flavor) return clientVerdict(flavor, `its annotation \`${annotated}\` comes from ${origin.source}`, batch);
            if (!origin.relative) return FOREIGN;
            // import type { Store } from './store': what its module declares it as
            const exported = this.exported(origin.namespace && ident !== type.typeName ? { ...origin, namespace: undefined, imported: last } : origin);
            if (!exported || exported.node.type !== AST_NODE_TYPES.Identifier) return UNKNOWN;
            return relabel(exported.detector.classifyTypeName(exported.node, annotated, depth + 1), (inner) => `${inner} (${exported.module.display})`);
          }
          if (origin.kind === 'local') return this.classifyTypeName(ident, annotated, depth);
        }
        if (KNOWN_NOT_REDIS.has(last)) return NOT_REDIS;
        const why = `its annotation is \`${annotated}\``;
        if (batch) return clientVerdict(this.fileFlavor(), why, batch, true);
        if (CLIENT_TYPE_NAMES.has(last)) return clientVerdict(this.fileFlavor(), why, undefined, true);
        return UNKNOWN;
      }
      case AST_NODE_TYPES.TSUnionType:
      case AST_NODE_TYPES.TSIntersectionType: {
        let allNot = true;
        let foreign = false;
        for (const member of type.types) {
          if (member.type === AST_NODE_TYPES.TSUndefinedKeyword || member.type === AST_NODE_TYPES.TSNullKeyword) continue;
          const verdict = this.classifyType(member, depth + 1);
          if (verdict.redis) return verdict;
          if (!verdict.proven) allNot = false;
          if (verdict.foreign) foreign = true;
        }
        return allNot && type.type === AST_NODE_TYPES.TSUnionType ? (foreign ? FOREIGN : NOT_REDIS) : UNKNOWN;
      }
      case AST_NODE_TYPES.TSTypeQuery:
        // typeof client: what the value is
        return type.exprName.type === AST_NODE_TYPES.Identifier && !type.typeArguments
          ? relabel(this.classifySyntactic(type.exprName, depth + 1), (inner) => `its annotation is \`${this.context.sourceCode.getText(type)}\`, where ${inner}`)
          : UNKNOWN;
      case AST_NODE_TYPES.TSTypeLiteral:
        // { get(k): ...; set(k, v): ... } is no client; { pipeline(): ...; expire(k, s): ... } may be one
        return describesClient(type.members) ? UNKNOWN : NOT_REDIS;
      case AST_NODE_TYPES.TSStringKeyword:
      case AST_NODE_TYPES.TSNumberKeyword:
      case AST_NODE_TYPES.TSBooleanKeyword:
      case AST_NODE_TYPES.TSArrayType:
      case AST_NODE_TYPES.TSTupleType:
      case AST_NODE_TYPES.TSFunctionType:
        return NOT_REDIS;
      default:
        return UNKNOWN;
    }
  }

  /**
   * A type named by a declaration of this module (a class, an interface, a type alias), or by an
   * import seen from it: a class is a client when it extends one, an interface when it extends one,
   * an alias when what it aliases is one.
   */
  private classifyTypeName(ident: TSESTree.Identifier, annotated: string, depth: number): ReceiverKind {
    if (depth > 6) return UNKNOWN;
    const origin = this.identifierOrigin(ident);
    if (origin.kind === 'import') {
      const flavor = flavorOfModule(origin.source);
      if (flavor) return clientVerdict(flavor, `its annotation \`${annotated}\` comes from ${origin.source}`, batchOfTypeName(origin.imported ?? ident.name));
      if (!origin.relative) return FOREIGN;
      const exported = this.exported(origin);
      return exported?.node.type === AST_NODE_TYPES.Identifier ? exported.detector.classifyTypeName(exported.node, annotated, depth + 1) : UNKNOWN;
    }
    if (origin.kind !== 'local') return UNKNOWN;
    const superClass = origin.classNode?.superClass;
    if (origin.classNode) return superClass ? this.classifyConstruction(superClass, undefined, depth + 1) : NOT_REDIS;
    // type Client = Redis | Cluster; interface Store extends Redis {}
    if (origin.typeNode) return this.classifyLocalType(origin.typeNode, annotated, depth);
    // class Repo<C extends Redis>: what the parameter is constrained to
    if (origin.typeParameter) return origin.typeParameter.constraint ? this.classifyType(origin.typeParameter.constraint, depth + 1) : UNKNOWN;
    return origin.enumNode ? NOT_REDIS : UNKNOWN;
  }

  /** A type alias or interface of this module: a client when it aliases or extends a client type. */
  private classifyLocalType(
    declaration: TSESTree.TSTypeAliasDeclaration | TSESTree.TSInterfaceDeclaration,
    annotated: string,
    depth: number,
  ): ReceiverKind {
    const via = (verdict: ReceiverKind): ReceiverKind =>
      relabel(verdict, (inner) => `its annotation \`${annotated}\` is declared ${this.module ? `in ${this.module.display}` : 'in this file'} as ${inner.replace(/^its annotation /, '')}`);
    if (declaration.type === AST_NODE_TYPES.TSTypeAliasDeclaration) return via(this.classifyType(declaration.typeAnnotation, depth + 1));
    let allNot = true;
    let foreign = false;
    for (const heritage of declaration.extends) {
      if (heritage.expression.type !== AST_NODE_TYPES.Identifier && heritage.expression.type !== AST_NODE_TYPES.MemberExpression) continue;
      const verdict = this.classifyHeritage(heritage, depth);
      if (verdict.redis) return via(verdict);
      if (!verdict.proven) allNot = false;
      if (verdict.foreign) foreign = true;
    }
    // interface RedisLike { incr(k): Promise<number>; expire(k, s): Promise<unknown> }: the code's
    // own description of the client it takes, which names cannot tell from a client
    if (allNot && describesClient(declaration.body.body)) return UNKNOWN;
    return allNot ? (foreign ? FOREIGN : NOT_REDIS) : UNKNOWN;
  }

  /** `interface X extends Redis` / `extends IORedis.Cluster`: judged as a type reference. */
  private classifyHeritage(heritage: TSESTree.TSInterfaceHeritage, depth: number): ReceiverKind {
    const expression = heritage.expression;
    let ident: TSESTree.Identifier | undefined;
    let last: string | undefined;
    if (expression.type === AST_NODE_TYPES.Identifier) {
      ident = expression;
      last = expression.name;
    } else if (expression.type === AST_NODE_TYPES.MemberExpression && expression.property.type === AST_NODE_TYPES.Identifier) {
      let left: TSESTree.Node = expression;
      while (left.type === AST_NODE_TYPES.MemberExpression) left = left.object;
      if (left.type === AST_NODE_TYPES.Identifier) ident = left;
      last = expression.property.name;
    }
    if (!ident || !last) return UNKNOWN;
    const written = this.context.sourceCode.getText(expression);
    const origin = this.identifierOrigin(ident);
    if (origin.kind === 'import' || origin.kind === 'local') {
      if (ident === expression) return this.classifyTypeName(ident, written, depth + 1);
      if (origin.kind === 'import') {
        const flavor = flavorOfModule(origin.source);
        if (flavor) return clientVerdict(flavor, `its annotation \`${written}\` comes from ${origin.source}`, batchOfTypeName(last));
        return origin.relative ? UNKNOWN : FOREIGN;
      }
    }
    if (CLIENT_TYPE_NAMES.has(last)) return clientVerdict(this.fileFlavor(), `its annotation is \`${written}\``, undefined, true);
    return UNKNOWN;
  }

  /** Where a name comes from: an import (with its module), a declaration in this file, or nowhere. */
  identifierOrigin(
    node: TSESTree.Identifier,
  ):
    | ({ kind: 'import' } & ImportOrigin)
    | {
        kind: 'local';
        classNode?: TSESTree.ClassDeclaration | TSESTree.ClassExpression;
        typeNode?: TSESTree.TSTypeAliasDeclaration | TSESTree.TSInterfaceDeclaration;
        /** The initializer of a `const` (`const Client = Redis`). */
        init?: TSESTree.Expression;
        typeParameter?: TSESTree.TSTypeParameter;
        enumNode?: TSESTree.TSEnumDeclaration;
      }
    | { kind: 'global' } {
    const variable = findVariable(this.context, node);
    if (!variable || variable.defs.length === 0) return { kind: 'global' };
    const def = variable.defs[0]!;
    if (def.type === 'ImportBinding') {
      const declaration = def.parent;
      const source = declaration.type === AST_NODE_TYPES.ImportDeclaration ? declaration.source.value : '';
      const relative = source.startsWith('.') || source.startsWith('/');
      if (def.node.type === AST_NODE_TYPES.ImportNamespaceSpecifier) return { kind: 'import', source, relative, namespace: true };
      if (def.node.type === AST_NODE_TYPES.ImportDefaultSpecifier) return { kind: 'import', source, relative, imported: 'default' };
      return { kind: 'import', source, relative, ...bindingImportedName(def.node) };
    }
    if (def.type === 'Variable') {
      // const Redis = require('ioredis'); const { createClient } = require('redis')
      const init = def.node.init ? unwrap(def.node.init) : undefined;
      if (
        init?.type === AST_NODE_TYPES.CallExpression &&
        init.callee.type === AST_NODE_TYPES.Identifier &&
        init.callee.name === 'require' &&
        init.arguments[0]?.type === AST_NODE_TYPES.Literal &&
        typeof init.arguments[0].value === 'string'
      ) {
        const source = init.arguments[0].value;
        return { kind: 'import', source, relative: source.startsWith('.'), ...destructuredName(def.node.id, def.name) };
      }
      // const { createClient: mk } = await import('redis')
      const dynamic = init?.type === AST_NODE_TYPES.AwaitExpression ? unwrap(init.argument) : undefined;
      if (
        dynamic?.type === AST_NODE_TYPES.ImportExpression &&
        dynamic.source.type === AST_NODE_TYPES.Literal &&
        typeof dynamic.source.value === 'string' &&
        def.node.id.type === AST_NODE_TYPES.ObjectPattern
      ) {
        const source = dynamic.source.value;
        return { kind: 'import', source, relative: source.startsWith('.'), ...destructuredName(def.node.id, def.name) };
      }
    }
    if (def.type === 'ClassName') return { kind: 'local', classNode: def.node };
    if (def.type === 'Variable' && def.node.init?.type === AST_NODE_TYPES.ClassExpression) {
      return { kind: 'local', classNode: def.node.init };
    }
    if (def.type === 'Type' && (def.node.type === AST_NODE_TYPES.TSTypeAliasDeclaration || def.node.type === AST_NODE_TYPES.TSInterfaceDeclaration)) {
      return { kind: 'local', typeNode: def.node };
    }
    if (def.type === 'Variable' && def.parent?.kind === 'const' && def.node.id.type === AST_NODE_TYPES.Identifier && def.node.init) {
      return { kind: 'local', init: def.node.init };
    }
    if (def.type === 'Type' && def.node.type === AST_NODE_TYPES.TSTypeParameter) return { kind: 'local', typeParameter: def.node };
    if (def.type === 'TSEnumName') return { kind: 'local', enumNode: def.node };
    return { kind: 'local' };
  }

  /** Last resort: the receiver's name matches `clientNames`. */
  private classifyByName(node: TSESTree.Node): ReceiverKind {
    const bare = unwrap(node);
    let name: string | undefined;
    if (bare.type === AST_NODE_TYPES.Identifier) name = bare.name;
    else if (bare.type === AST_NODE_TYPES.MemberExpression && !bare.computed && bare.property.type === AST_NODE_TYPES.Identifier) {
      name = bare.property.name;
    } else if (bare.type === AST_NODE_TYPES.MemberExpression && bare.property.type === AST_NODE_TYPES.PrivateIdentifier) {
      name = bare.property.name; // this.#redis is judged by its name like this.redis
    }
    if (!name) return UNKNOWN;
    const strong = this.settings.clientNames.find((pattern) => pattern.regex.test(name));
    if (strong) return clientVerdict(this.fileFlavor(), `its name matches clientNames '${strong.source}'`, undefined, true);
    const weak = this.settings.weakClientNames.find((pattern) => pattern.regex.test(name));
    if (weak && this.importsRedis()) {
      return clientVerdict(this.fileFlavor(), `its name matches clientNames '${weak.source}' in a file that imports a Redis client`, undefined, true);
    }
    return UNKNOWN;
  }
}

/** A function whose return values can be judged. */
type FunctionLike = TSESTree.FunctionDeclaration | TSESTree.FunctionExpression | TSESTree.ArrowFunctionExpression;

/** A function, or a declaration of one, whose declared return type or return values can be judged. */
type FunctionWithReturn =
  | FunctionLike
  | TSESTree.TSDeclareFunction
  | TSESTree.TSEmptyBodyFunctionExpression
  | { returnType: TSESTree.TSTypeAnnotation; body?: undefined };

/** A type as the code declares it, with the detector of the module it is written in. */
interface TypeRef {
  type: TSESTree.TypeNode;
  detector: ClientDetector;
}

/** What a declared type says of one of its members. */
interface MemberSignature {
  /** The property's type (`redis: Redis`). */
  property?: TSESTree.TypeNode;
  propertyRef?: TypeRef;
  /** What the method, or a property of a function type, returns (`getClient(): Redis`). */
  returns?: TSESTree.TypeNode;
  detector: ClientDetector;
}

/** An import of another module, as {@link ClientDetector} follows it. */
interface ImportOrigin {
  source: string;
  relative: boolean;
  /** The name imported (`'default'` for a default import); absent for a whole module. */
  imported?: string;
  /** `import * as m from './m'`. */
  namespace?: true;
}

/** A binding or value another module exports, with that module's detector. */
interface Exported {
  node: TSESTree.Node;
  detector: ClientDetector;
  module: ImportedModule;
}

const moduleDetectors = new WeakMap<TSESTree.Program, ClientDetector>();

/** The (cached) detector of a module the code imports, for the linted file's settings. */
function detectorOfModule(context: AnyContext, module: ImportedModule): ClientDetector {
  const own = moduleContext(context, module);
  let detector = moduleDetectors.get(module.program);
  if (!detector || detector.contextOf !== own) {
    detector = new ClientDetector(own, module);
    moduleDetectors.set(module.program, detector);
  }
  return detector;
}

/** Wrappers whose members are their argument's: `Readonly<Deps>`, `Partial<Options>`. */
const TRANSPARENT_TYPES: ReadonlySet<string> = new Set(['Readonly', 'Partial', 'Required', 'NonNullable']);

/**
 * Method names a cache, a map or a store of the application has as often as a Redis client: an
 * interface declaring only those describes no client.
 */
const GENERIC_STORE_METHODS: ReadonlySet<string> = new Set(['get', 'set', 'del', 'delete', 'has', 'clear', 'keys', 'exists', 'values', 'entries', 'size', 'on', 'off', 'once', 'connect', 'disconnect', 'quit', 'close', 'ping']);

/**
 * Whether the members of an interface or type literal of the code describe a Redis client
 * structurally: a method named after a Redis command that is not a generic store method
 * (`expire`, `incr`, `hset`, `pipeline`, ...), as a code base declares the part of a client it
 * takes (`interface RateLimitRedis { pipeline(): ...; expire(k, s): ... }`).
 */
function describesClient(members: readonly TSESTree.TypeElement[]): boolean {
  return members.some((member) => {
    if (member.type !== AST_NODE_TYPES.TSMethodSignature && member.type !== AST_NODE_TYPES.TSPropertySignature) return false;
    const name = memberKeyName(member.key, member.computed);
    if (member.type === AST_NODE_TYPES.TSPropertySignature && member.typeAnnotation?.typeAnnotation.type !== AST_NODE_TYPES.TSFunctionType) return false;
    return name !== undefined && isClientCommandName(name);
  });
}

/** A method name that says Redis: a command of the table that is no generic store method, or `pipeline` / `multi`. */
function isClientCommandName(name: string): boolean {
  if (GENERIC_STORE_METHODS.has(name.toLowerCase())) return false;
  return name === 'pipeline' || name === 'multi' || commandOfMethod(name) !== undefined;
}

/** `Promise<T>` / `PromiseLike<T>` -> `T` (what an awaited call gives); any other type as it is. */
function promisedType(type: TSESTree.TypeNode): TSESTree.TypeNode {
  if (
    type.type === AST_NODE_TYPES.TSTypeReference &&
    type.typeName.type === AST_NODE_TYPES.Identifier &&
    (type.typeName.name === 'Promise' || type.typeName.name === 'PromiseLike') &&
    type.typeArguments?.params.length === 1
  ) {
    return type.typeArguments.params[0]!;
  }
  return type;
}

/**
 * The outermost destructuring pattern a binding belongs to (`{ redis }` of `({ redis }: Deps) =>`
 * or of `const { redis } = ctx`), or the binding itself when it is not destructured.
 */
function outermostPattern(id: TSESTree.Identifier): TSESTree.Node {
  let current: TSESTree.Node = id;
  for (;;) {
    const parent: TSESTree.Node | undefined = current.parent;
    if (!parent) return current;
    const inPattern =
      parent.type === AST_NODE_TYPES.ObjectPattern ||
      parent.type === AST_NODE_TYPES.ArrayPattern ||
      (parent.type === AST_NODE_TYPES.Property && parent.parent?.type === AST_NODE_TYPES.ObjectPattern) ||
      // `{ redis = fallback }` (a default inside the pattern, not the parameter's own default)
      (parent.type === AST_NODE_TYPES.AssignmentPattern &&
        parent.left === current &&
        parent.parent !== undefined &&
        !isFunctionNode(parent.parent) &&
        parent.parent.type !== AST_NODE_TYPES.TSParameterProperty);
    if (!inPattern) return current;
    current = parent;
  }
}

function isFunctionNode(node: TSESTree.Node): boolean {
  return (
    node.type === AST_NODE_TYPES.FunctionDeclaration ||
    node.type === AST_NODE_TYPES.FunctionExpression ||
    node.type === AST_NODE_TYPES.ArrowFunctionExpression ||
    node.type === AST_NODE_TYPES.TSDeclareFunction ||
    node.type === AST_NODE_TYPES.TSEmptyBodyFunctionExpression
  );
}

/**
 * The property names from an object pattern down to one of its bindings: `['services', 'redis']`
 * for `store` in `{ services: { redis: store } }`; `undefined` through an array, a rest element or
 * a computed key.
 */
function propertyPath(pattern: TSESTree.Node, binding: TSESTree.Identifier): string[] | undefined {
  const path: string[] = [];
  let current: TSESTree.Node = binding;
  while (current !== pattern) {
    const parent: TSESTree.Node | undefined = current.parent;
    if (!parent) return undefined;
    if (parent.type === AST_NODE_TYPES.Property) {
      const key = parent.computed ? undefined : memberKeyName(parent.key, false) ?? (parent.key.type === AST_NODE_TYPES.Literal && typeof parent.key.value === 'string' ? parent.key.value : undefined);
      if (key === undefined) return undefined;
      path.unshift(key);
    } else if (parent.type !== AST_NODE_TYPES.ObjectPattern && parent.type !== AST_NODE_TYPES.AssignmentPattern) {
      return undefined;
    }
    current = parent;
  }
  return path;
}

/**
 * The declared type of a class member: a property's annotation (`private redis: Redis`), or a
 * constructor parameter property's (`constructor(private readonly redis: Redis)`).
 */
function classMemberType(cls: TSESTree.ClassDeclaration | TSESTree.ClassExpression, name: string, isStatic: boolean): TSESTree.TypeNode | undefined {
  for (const member of cls.body.body) {
    if (
      (member.type === AST_NODE_TYPES.PropertyDefinition || member.type === AST_NODE_TYPES.TSAbstractPropertyDefinition) &&
      member.static === isStatic &&
      memberKeyName(member.key, member.computed) === name &&
      member.typeAnnotation
    ) {
      return member.typeAnnotation.typeAnnotation;
    }
    if (!isStatic && member.type === AST_NODE_TYPES.MethodDefinition && member.kind === 'constructor') {
      for (const param of member.value.params) {
        if (param.type !== AST_NODE_TYPES.TSParameterProperty) continue;
        const inner = param.parameter.type === AST_NODE_TYPES.AssignmentPattern ? param.parameter.left : param.parameter;
        if (inner.type === AST_NODE_TYPES.Identifier && inner.name === name && inner.typeAnnotation) return inner.typeAnnotation.typeAnnotation;
      }
    }
  }
  return undefined;
}

/** `require('...')`. */
function isRequire(node: TSESTree.Node): boolean {
  const call = unwrap(node);
  return call.type === AST_NODE_TYPES.CallExpression && call.callee.type === AST_NODE_TYPES.Identifier && call.callee.name === 'require';
}

/** `module.exports = <expression>` of a CommonJS module. */
function commonJsDefault(program: TSESTree.Program): TSESTree.Node | undefined {
  for (const statement of program.body) {
    if (statement.type !== AST_NODE_TYPES.ExpressionStatement || statement.expression.type !== AST_NODE_TYPES.AssignmentExpression) continue;
    const { left, right } = statement.expression;
    if (
      left.type === AST_NODE_TYPES.MemberExpression &&
      left.object.type === AST_NODE_TYPES.Identifier &&
      left.object.name === 'module' &&
      memberKeyName(left.property, left.computed) === 'exports' &&
      right.type !== AST_NODE_TYPES.ObjectExpression
    ) {
      return right;
    }
  }
  return undefined;
}

/** The package name of a flavor, for messages. */
function packageOfFlavor(flavor: ClientFlavor): string {
  if (flavor === 'node-redis') return 'redis (node-redis)';
  if (flavor === 'upstash') return '@upstash/redis';
  return flavor;
}

/** The expressions a function returns (its own `return` statements, not those of nested functions). */
function returnedExpressions(fn: FunctionLike): TSESTree.Node[] {
  if (fn.body.type !== AST_NODE_TYPES.BlockStatement) return [fn.body];
  const out: TSESTree.Node[] = [];
  walkOwnNodes(fn.body, (node) => {
    if (node.type === AST_NODE_TYPES.ReturnStatement && node.argument) out.push(node.argument);
  });
  return out;
}


/** Whether a node sits in a static member (method, property, block) of `cls`. */
function inStaticMember(node: TSESTree.Node, cls: TSESTree.ClassDeclaration | TSESTree.ClassExpression): boolean {
  for (let current: TSESTree.Node | undefined = node; current && current !== cls; current = current.parent) {
    if (current.parent === cls.body) {
      return (
        ((current.type === AST_NODE_TYPES.MethodDefinition || current.type === AST_NODE_TYPES.PropertyDefinition) && current.static) ||
        current.type === AST_NODE_TYPES.StaticBlock
      );
    }
  }
  return false;
}

function batchOfTypeName(name: string): 'multi' | 'pipeline' | undefined {
  return BATCH_TYPE_NAMES.get(name);
}

function enclosingClass(node: TSESTree.Node): TSESTree.ClassDeclaration | TSESTree.ClassExpression | undefined {
  let current: TSESTree.Node | undefined = node.parent;
  while (current) {
    if (current.type === AST_NODE_TYPES.ClassDeclaration || current.type === AST_NODE_TYPES.ClassExpression) {
      return current;
    }
    current = current.parent;
  }
  return undefined;
}

/**
 * The name of a class member as written: `redis` for `redis` / `this.redis`, `#redis` for a
 * private field (`#redis` and `redis` are different members of one class); `undefined` when
 * computed.
 */
function memberKeyName(key: TSESTree.Node, computed: boolean): string | undefined {
  if (key.type === AST_NODE_TYPES.PrivateIdentifier) return `#${key.name}`;
  return !computed && key.type === AST_NODE_TYPES.Identifier ? key.name : undefined;
}

/** The name an import binding takes from its module: `{ createClient as mk }` -> `createClient`. */
function bindingImportedName(node: TSESTree.Node): { imported?: string } {
  if (node.type !== AST_NODE_TYPES.ImportSpecifier) return {};
  const imported = node.imported.type === AST_NODE_TYPES.Identifier ? node.imported.name : String(node.imported.value);
  return { imported };
}

/** The property a destructured binding reads: `const { createClient: mk } = ...` -> `createClient` for `mk`. */
function destructuredName(pattern: TSESTree.Node, binding: TSESTree.Identifier): { imported?: string } {
  if (pattern.type !== AST_NODE_TYPES.ObjectPattern) return {};
  for (const property of pattern.properties) {
    if (property.type !== AST_NODE_TYPES.Property) continue;
    const value = property.value.type === AST_NODE_TYPES.AssignmentPattern ? property.value.left : property.value;
    if (value !== binding) continue;
    if (property.computed) return {};
    if (property.key.type === AST_NODE_TYPES.Identifier) return { imported: property.key.name };
    if (property.key.type === AST_NODE_TYPES.Literal && typeof property.key.value === 'string') return { imported: property.key.value };
  }
  return {};
}

/**
 * The name a binding was imported under in its module, when it is a named import (`createClient`
 * for `import { createClient as mk }` or `const { createClient: mk } = require(...)`); default and
 * namespace imports, and local names, answer `undefined`.
 */
function importedName(origin: { kind: string; imported?: string }): string | undefined {
  return origin.kind === 'import' ? origin.imported : undefined;
}
