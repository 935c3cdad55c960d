/**
 * Is this receiver a Redis client? With type information the answer comes from where the
 * receiver's declared type is declared (the `ioredis`, `@redis/client` / `redis` or
 * `@upstash/redis` packages). Without it, from how the value was made (`new Redis()`,
 * `createClient()`, `Redis.fromEnv()`, `.multi()`, ...), from type annotations, and last from the
 * receiver's name (`settings['redis-ttl'].clientNames`). A receiver that is provably something
 * else (a `Map`, `Headers`, an object literal, a class declared in the file) is never a client.
 */
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import type * as ts from 'typescript';
import { pluginSettings, type PluginSettings } from './settings.js';
import { findVariable, unwrap, type AnyContext } from './static.js';

/** Which client library's syntax a call follows. */
export type ClientFlavor = 'ioredis' | 'node-redis' | 'upstash' | 'unknown';

/**
 * The verdict on one receiver. A client verdict says `why` the receiver was taken for a client, as
 * the end of a sentence ("its type comes from ioredis", "it is made by `new Redis()`", "its name
 * matches clientNames 'redis'"), so that a message on a false alarm tells the user what to change.
 */
export type ReceiverKind =
  /** a client (or cluster) object: commands run one by one */
  | { redis: true; flavor: ClientFlavor; batch?: undefined; why: string }
  /** a `multi()` / `pipeline()` object: commands are queued until `exec()` */
  | { redis: true; flavor: ClientFlavor; batch: 'multi' | 'pipeline'; why: string }
  | { redis: false; proven: boolean };

const NOT_REDIS: ReceiverKind = { redis: false, proven: true };
const UNKNOWN: ReceiverKind = { redis: false, proven: false };

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

  constructor(private readonly context: AnyContext) {
    this.settings = pluginSettings(context);
    const services = context.sourceCode.parserServices;
    if (services?.program && services.esTreeNodeToTSNodeMap) {
      this.program = services.program;
      this.esTreeToTs = services.esTreeNodeToTSNodeMap as unknown as { get(node: TSESTree.Node): ts.Node };
    }
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
    // Syntax first: a receiver whose value is written in this file (a literal, `new Map()`, a
    // client made from a client package) needs no type checker, whose first question in a run
    // costs more than the rest of the analysis; only the others are asked of it.
    const settled = this.typed ? this.settledBySyntax(node, 0) : undefined;
    let verdict = settled ?? (this.typed ? this.classifyTyped(node) : undefined);
    if (!verdict) {
      verdict = this.classifySyntactic(node, 0);
      if (!verdict.redis && !verdict.proven) verdict = this.classifyByName(node);
    }
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
   * can come from anywhere). Without it, a receiver is a client only through names: an import of
   * a client package, a constructor / factory / type name of a client, or a name matching
   * `clientNames`; one pass over the file's tokens decides (it never changes a verdict, since
   * every positive verdict needs one of those names), so files without any cost nothing more.
   */
  mayUseRedis(): boolean {
    if (this.evidence !== undefined) return this.evidence;
    this.evidence = this.typed || this.importsRedis() || this.hasEvidenceName();
    return this.evidence;
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

  /**
   * The verdict on a receiver whose value syntax alone shows, the one its type would give: a
   * literal, an object, array, function or class expression, `new` of a well-known class (`Map`,
   * `Headers`, ...) or of a class of this file that extends nothing, a client made by `new` or a
   * factory imported straight from a client package (and `multi()` / `pipeline()` on one), or a
   * `const` initialised with one of those. `undefined` for everything else (parameters,
   * properties, imports, calls): their type can come from anywhere, the checker decides.
   */
  private settledBySyntax(input: TSESTree.Node, depth: number): ReceiverKind | undefined {
    if (depth > 4) return undefined;
    const node = unwrap(input);
    if (VALUE_EXPRESSIONS.has(node.type)) return NOT_REDIS;
    switch (node.type) {
      case AST_NODE_TYPES.NewExpression: {
        const callee = unwrap(node.callee);
        if (callee.type !== AST_NODE_TYPES.Identifier) return undefined;
        const origin = this.identifierOrigin(callee);
        if (origin.kind === 'global') return KNOWN_NOT_REDIS.has(callee.name) ? NOT_REDIS : undefined;
        if (origin.kind === 'local') return origin.classNode && !origin.classNode.superClass ? NOT_REDIS : undefined;
        return flavorOfModule(origin.source) ? this.classifySyntactic(node, 0) : undefined;
      }
      case AST_NODE_TYPES.CallExpression: {
        const callee = unwrap(node.callee);
        if (callee.type === AST_NODE_TYPES.Identifier && CLIENT_FACTORIES.has(callee.name)) {
          const origin = this.identifierOrigin(callee);
          return origin.kind === 'import' && flavorOfModule(origin.source) ? this.classifySyntactic(node, 0) : undefined;
        }
        if (
          callee.type === AST_NODE_TYPES.MemberExpression &&
          callee.property.type === AST_NODE_TYPES.Identifier &&
          (callee.property.name === 'multi' || callee.property.name === 'pipeline')
        ) {
          const receiver = this.settledBySyntax(callee.object, depth + 1);
          return receiver?.redis && !receiver.batch ? this.classifySyntactic(node, 0) : undefined;
        }
        return undefined;
      }
      case AST_NODE_TYPES.Identifier: {
        const variable = findVariable(this.context, node);
        const def = variable?.defs.length === 1 ? variable.defs[0] : undefined;
        if (def?.type !== 'Variable' || def.parent?.kind !== 'const' || def.node.id.type !== AST_NODE_TYPES.Identifier) return undefined;
        if (def.node.id.typeAnnotation || !def.node.init) return undefined;
        return this.settledBySyntax(def.node.init, depth + 1);
      }
      default:
        return undefined;
    }
  }

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
  private classifyConstruction(callee: TSESTree.Node, made?: TSESTree.Node): ReceiverKind {
    const bare = unwrap(callee);
    const how = made ? this.madeBy(made) : `it is made from \`${this.text(bare)}\``;
    if (bare.type === AST_NODE_TYPES.Identifier) {
      const origin = this.identifierOrigin(bare);
      if (origin.kind === 'import') {
        const flavor = flavorOfModule(origin.source);
        if (flavor) return { redis: true, flavor, why: how };
        return origin.relative ? this.nameGuess(bare.name, how) : NOT_REDIS;
      }
      if (origin.kind === 'local') {
        // class Cache extends Redis {}: judged by what it extends
        const superClass = origin.classNode?.superClass;
        return superClass ? this.classifyConstruction(superClass, made) : NOT_REDIS;
      }
      if (KNOWN_NOT_REDIS.has(bare.name)) return NOT_REDIS;
      return this.nameGuess(bare.name, how);
    }
    if (bare.type === AST_NODE_TYPES.MemberExpression && bare.property.type === AST_NODE_TYPES.Identifier) {
      // new Redis.Cluster(...), new IORedis.Cluster(...)
      const objectVerdict = bare.object.type === AST_NODE_TYPES.Identifier ? this.identifierOrigin(bare.object) : undefined;
      if (objectVerdict?.kind === 'import') {
        const flavor = flavorOfModule(objectVerdict.source);
        return flavor ? { redis: true, flavor, why: how } : NOT_REDIS;
      }
      return CLIENT_CONSTRUCTORS.has(bare.property.name) ? { redis: true, flavor: 'unknown', why: how } : UNKNOWN;
    }
    return UNKNOWN;
  }

  private nameGuess(name: string, why: string): ReceiverKind {
    return CLIENT_CONSTRUCTORS.has(name) ? { redis: true, flavor: this.fileFlavor(), why } : UNKNOWN;
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
          return flavor ? { redis: true, flavor, why: this.madeBy(node) } : origin.relative ? UNKNOWN : NOT_REDIS;
        }
        if (origin.kind !== 'local') return { redis: true, flavor: this.fileFlavor(), why: this.madeBy(node) };
      }
      // getRedis(): a function of this module that returns a client
      return this.classifyReturnOf(this.localFunction(callee), node, depth);
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
        return flavor ? { redis: true, flavor, why: this.madeBy(node) } : NOT_REDIS;
      }
      return object.name === 'Redis' ? { redis: true, flavor: 'upstash', why: this.madeBy(node) } : UNKNOWN;
    }
    if (CLIENT_FACTORIES.has(method) && object.type === AST_NODE_TYPES.Identifier) {
      // import * as redis from 'redis'; redis.createClient()
      const origin = this.identifierOrigin(object);
      if (origin.kind === 'import') {
        const flavor = flavorOfModule(origin.source);
        return flavor ? { redis: true, flavor, why: this.madeBy(node) } : NOT_REDIS;
      }
    }
    // this.redis(), Store.client(): a method of a class of this module that returns a client
    const method_ = this.localMethod(callee);
    if (method_) return this.classifyReturnOf(method_, node, depth);
    const receiver = this.classify(callee.object);
    if (!receiver.redis) return receiver.proven ? NOT_REDIS : UNKNOWN;
    if (method === 'multi' || method === 'pipeline') {
      return { redis: true, flavor: receiver.flavor, batch: method === 'multi' ? 'multi' : 'pipeline', why: receiver.why };
    }
    if (SELF_RETURNING.has(method)) return receiver;
    // A queued command on a multi / pipeline returns the same batch (ioredis, node-redis, upstash).
    if (receiver.batch && method !== 'exec' && method !== 'execAsPipeline') return receiver;
    return UNKNOWN;
  }

  /**
   * What a function of this module returns, judged from its `return` statements (or an arrow's
   * expression body): a client when one of them is, provably not one when all are provably not.
   */
  private classifyReturnOf(fn: FunctionLike | undefined, call: TSESTree.Node, depth: number): ReceiverKind {
    if (!fn || depth > 6) return UNKNOWN;
    const returned = returnedExpressions(fn);
    if (returned.length === 0) return UNKNOWN;
    let allNot = true;
    for (const expression of returned) {
      const verdict = this.classifySyntactic(expression, depth + 2);
      if (verdict.redis) {
        const batch = verdict.batch;
        const why = `it is returned by \`${this.text(call)}\`, where ${verdict.why}`;
        return batch ? { redis: true, flavor: verdict.flavor, batch, why } : { redis: true, flavor: verdict.flavor, why };
      }
      if (!verdict.proven) allNot = false;
    }
    return allNot ? NOT_REDIS : UNKNOWN;
  }

  /** The function a plain identifier names in this module (`function f() {}`, `const f = () => ...`). */
  private localFunction(node: TSESTree.Identifier): FunctionLike | undefined {
    const variable = findVariable(this.context, node);
    const def = variable?.defs.length === 1 ? variable.defs[0] : undefined;
    if (!def) return undefined;
    if (def.type === 'FunctionName' && def.node.type === AST_NODE_TYPES.FunctionDeclaration) return def.node;
    if (def.type === 'Variable' && def.parent?.kind === 'const' && def.node.init) {
      const init = unwrap(def.node.init);
      if (init.type === AST_NODE_TYPES.ArrowFunctionExpression || init.type === AST_NODE_TYPES.FunctionExpression) return init;
    }
    return undefined;
  }

  /**
   * The method (or getter) a member names on a class of this module: `this.m` inside the class,
   * `Cls.m` for a static member of a class declared in the file.
   */
  private localMethod(member: TSESTree.MemberExpression, kind: 'method' | 'get' = 'method'): FunctionLike | undefined {
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
        element.type === AST_NODE_TYPES.MethodDefinition &&
        element.kind === kind &&
        element.static === isStatic &&
        memberKeyName(element.key, element.computed) === name &&
        element.value.body
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
        if (declarator.id.type !== AST_NODE_TYPES.Identifier) return UNKNOWN;
        if (declarator.id.typeAnnotation) {
          const fromType = this.classifyType(declarator.id.typeAnnotation.typeAnnotation);
          if (fromType.redis || fromType.proven) return fromType;
        }
        if (def.parent?.kind === 'const') return declarator.init ? this.classifySyntactic(declarator.init, depth + 1) : UNKNOWN;
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
        if (id.typeAnnotation) return this.classifyType(id.typeAnnotation.typeAnnotation);
        const param = id.parent;
        if (param?.type === AST_NODE_TYPES.AssignmentPattern && param.left === id) {
          return this.classifySyntactic(param.right, depth + 1);
        }
        return UNKNOWN;
      }
      case 'ClassName':
      case 'FunctionName':
        return NOT_REDIS;
      default:
        return UNKNOWN;
    }
  }

  /**
   * `this.redis` (a class member: its annotation, its initializer, a getter, or what the class
   * assigns to it), `Cls.client` (a static member), `obj.prop` of a `const` object literal.
   */
  private classifyMember(node: TSESTree.MemberExpression, depth: number): ReceiverKind {
    const name = memberKeyName(node.property, node.computed);
    if (name === undefined) return UNKNOWN;
    const object = unwrap(node.object);
    const getter = this.localMethod(node, 'get');
    if (getter) return this.classifyReturnOf(getter, node, depth);
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
    // url.searchParams, req.headers: well-known non-Redis members
    if (name === 'searchParams' || name === 'headers') return NOT_REDIS;
    return UNKNOWN;
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
      collectThisAssignments(member.value.body, name, values);
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
          const query = type.typeArguments.params[0].exprName;
          const name = query.type === AST_NODE_TYPES.Identifier ? query.name : undefined;
          return name && CLIENT_FACTORIES.has(name) ? { redis: true, flavor: this.fileFlavor(), why: `its annotation is \`${annotated}\`` } : UNKNOWN;
        }
        const batch = batchOfTypeName(last);
        if (ident) {
          const origin = this.identifierOrigin(ident);
          if (origin.kind === 'import') {
            const flavor = flavorOfModule(origin.source);
            const why = `its annotation \`${annotated}\` comes from ${origin.source}`;
            if (flavor) return batch ? { redis: true, flavor, batch, why } : { redis: true, flavor, why };
            return origin.relative ? UNKNOWN : NOT_REDIS;
          }
          if (origin.kind === 'local') {
            const superClass = origin.classNode?.superClass;
            if (origin.classNode) return superClass ? this.classifyConstruction(superClass) : NOT_REDIS;
            // type Client = Redis | Cluster; interface Store extends Redis {}
            if (origin.typeNode) return this.classifyLocalType(origin.typeNode, annotated, depth);
            return NOT_REDIS;
          }
        }
        if (KNOWN_NOT_REDIS.has(last)) return NOT_REDIS;
        const why = `its annotation is \`${annotated}\``;
        if (batch) return { redis: true, flavor: this.fileFlavor(), batch, why };
        if (CLIENT_TYPE_NAMES.has(last)) return { redis: true, flavor: this.fileFlavor(), why };
        return UNKNOWN;
      }
      case AST_NODE_TYPES.TSUnionType:
      case AST_NODE_TYPES.TSIntersectionType: {
        let allNot = true;
        for (const member of type.types) {
          if (member.type === AST_NODE_TYPES.TSUndefinedKeyword || member.type === AST_NODE_TYPES.TSNullKeyword) continue;
          const verdict = this.classifyType(member, depth + 1);
          if (verdict.redis) return verdict;
          if (!verdict.proven) allNot = false;
        }
        return allNot && type.type === AST_NODE_TYPES.TSUnionType ? NOT_REDIS : UNKNOWN;
      }
      case AST_NODE_TYPES.TSTypeLiteral:
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

  /** A type alias or interface of this module: a client when it aliases or extends a client type. */
  private classifyLocalType(
    declaration: TSESTree.TSTypeAliasDeclaration | TSESTree.TSInterfaceDeclaration,
    annotated: string,
    depth: number,
  ): ReceiverKind {
    const via = (verdict: ReceiverKind): ReceiverKind => {
      if (!verdict.redis) return verdict;
      const why = `its annotation \`${annotated}\` is declared in this file as ${verdict.why.replace(/^its annotation /, '')}`;
      return verdict.batch ? { ...verdict, why } : { redis: true, flavor: verdict.flavor, why };
    };
    if (declaration.type === AST_NODE_TYPES.TSTypeAliasDeclaration) return via(this.classifyType(declaration.typeAnnotation, depth + 1));
    let allNot = true;
    for (const heritage of declaration.extends) {
      if (heritage.expression.type !== AST_NODE_TYPES.Identifier && heritage.expression.type !== AST_NODE_TYPES.MemberExpression) continue;
      const verdict = this.classifyHeritage(heritage, depth);
      if (verdict.redis) return via(verdict);
      if (!verdict.proven) allNot = false;
    }
    return allNot ? NOT_REDIS : UNKNOWN;
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
    if (origin.kind === 'import') {
      const flavor = flavorOfModule(origin.source);
      if (flavor) {
        const batch = batchOfTypeName(last);
        const why = `its annotation \`${written}\` comes from ${origin.source}`;
        return batch ? { redis: true, flavor, batch, why } : { redis: true, flavor, why };
      }
      return origin.relative ? UNKNOWN : NOT_REDIS;
    }
    if (origin.kind === 'local' && origin.typeNode) return this.classifyLocalType(origin.typeNode, written, depth + 1);
    if (origin.kind === 'local' && origin.classNode) {
      return origin.classNode.superClass ? this.classifyConstruction(origin.classNode.superClass) : NOT_REDIS;
    }
    if (CLIENT_TYPE_NAMES.has(last)) return { redis: true, flavor: this.fileFlavor(), why: `its annotation is \`${written}\`` };
    return UNKNOWN;
  }

  /** Where a name comes from: an import (with its module), a declaration in this file, or nowhere. */
  private identifierOrigin(
    node: TSESTree.Identifier,
  ):
    | { kind: 'import'; source: string; relative: boolean; imported?: string }
    | {
        kind: 'local';
        classNode?: TSESTree.ClassDeclaration | TSESTree.ClassExpression;
        typeNode?: TSESTree.TSTypeAliasDeclaration | TSESTree.TSInterfaceDeclaration;
      }
    | { kind: 'global' } {
    const variable = findVariable(this.context, node);
    if (!variable || variable.defs.length === 0) return { kind: 'global' };
    const def = variable.defs[0]!;
    if (def.type === 'ImportBinding') {
      const declaration = def.parent;
      const source = declaration.type === AST_NODE_TYPES.ImportDeclaration ? declaration.source.value : '';
      return { kind: 'import', source, relative: source.startsWith('.') || source.startsWith('/'), ...bindingImportedName(def.node) };
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
    if (strong) return { redis: true, flavor: this.fileFlavor(), why: `its name matches clientNames '${strong.source}'` };
    const weak = this.settings.weakClientNames.find((pattern) => pattern.regex.test(name));
    if (weak && this.importsRedis()) {
      return { redis: true, flavor: this.fileFlavor(), why: `its name matches clientNames '${weak.source}' in a file that imports a Redis client` };
    }
    return UNKNOWN;
  }
}

/** A function whose return values can be judged. */
type FunctionLike = TSESTree.FunctionDeclaration | TSESTree.FunctionExpression | TSESTree.ArrowFunctionExpression;

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
  walkOwnStatements(fn.body, (node) => {
    if (node.type === AST_NODE_TYPES.ReturnStatement && node.argument) out.push(node.argument);
  });
  return out;
}

/** `this.<name> = value` assignments in a body (not inside nested functions or classes, whose `this` differs). */
function collectThisAssignments(body: TSESTree.Node, name: string, out: TSESTree.Node[]): void {
  walkOwnStatements(body, (node) => {
    if (
      node.type === AST_NODE_TYPES.AssignmentExpression &&
      node.operator === '=' &&
      node.left.type === AST_NODE_TYPES.MemberExpression &&
      node.left.object.type === AST_NODE_TYPES.ThisExpression &&
      memberKeyName(node.left.property, node.left.computed) === name
    ) {
      out.push(node.right);
    }
  }, true);
}

/**
 * Visits the nodes of a function body without entering nested non-arrow functions and classes
 * (arrows are entered when `arrows` is set: they share `this`).
 */
function walkOwnStatements(root: TSESTree.Node, visit: (node: TSESTree.Node) => void, arrows = false): void {
  const stack: TSESTree.Node[] = [root];
  let budget = 20_000;
  while (stack.length > 0 && budget-- > 0) {
    const node = stack.pop()!;
    visit(node);
    for (const key of Object.keys(node) as Array<keyof typeof node>) {
      if (key === 'parent') continue;
      const value = node[key] as unknown;
      const children = Array.isArray(value) ? value : [value];
      for (const child of children) {
        if (!child || typeof child !== 'object' || typeof (child as { type?: unknown }).type !== 'string') continue;
        const type = (child as TSESTree.Node).type;
        if (
          type === AST_NODE_TYPES.FunctionDeclaration ||
          type === AST_NODE_TYPES.FunctionExpression ||
          type === AST_NODE_TYPES.ClassDeclaration ||
          type === AST_NODE_TYPES.ClassExpression ||
          (type === AST_NODE_TYPES.ArrowFunctionExpression && !arrows)
        ) {
          continue;
        }
        stack.push(child as TSESTree.Node);
      }
    }
  }
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
