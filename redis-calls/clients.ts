/**
 * Is this receiver a Redis client? First from the code itself: how the value was made (`new
 * Redis()`, `createClient()`, `Redis.fromEnv()`, `.multi()`, ... imported from a client package),
 * the type annotations on the way to it (a parameter, a member, a member of an annotated object
 * such as `params.redis` with `params: { redis: Redis }`, a destructured binding, the declared
 * return type of a function or method), and, for a value, class or type imported from another
 * module of the code (a relative specifier, a tsconfig path alias or a workspace package of the
 * repository: `redis-calls/resolve.ts`), what its own module says of it (read through `redis-calls/modules.ts`). A receiver
 * that is provably something else (a `Map`, `Headers`, an object literal, a class or interface of
 * the code that extends no client, a type imported from a package that is not a client) is never
 * a client.
 *
 * With type information, what the code settles that way is not asked of the type checker (whose
 * first question about a node-redis client type can cost seconds); the rest is: where the
 * receiver's declared type is declared (the `ioredis`, `@redis/client` / `redis` or
 * `@upstash/redis` packages). Last comes the receiver's name (`settings['redis-ttl'].clientNames`),
 * and a verdict resting on a name says so (`byName`), so that messages explain only those.
 *
 * What is known of the client libraries (packages, constructors, type names, verdicts) lives in
 * `redis-calls/client-facts.ts`; syntax read without judging (where a name comes from, what a
 * pattern binds, what a function returns) in `redis-calls/client-syntax.ts`.
 */
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import type * as ts from 'typescript';
import { isAbsolute } from 'node:path';
import { codeImports, loadModule, locateExport, moduleContext, readModule, type ExportSite, type ImportedModule } from './modules.js';
import { pluginSettings, type PluginSettings } from './settings.js';
import { type ClientFlavor, type ReceiverKind, NOT_REDIS, FOREIGN, UNKNOWN, clientVerdict, relabel, settled, flavorOfModule, CLIENT_CONSTRUCTORS, CLIENT_FACTORIES, SELF_RETURNING, CLIENT_TYPE_NAMES, KNOWN_NOT_REDIS, CLIENT_MODULE_TEXT, VALUE_EXPRESSIONS, EVIDENCE_NAMES, symbolVerdict, duckVerdict, either, batchOfTypeName, packageExport, packageType, packageValue, importBringsClient, foreignFactoryMakesNoClient } from './client-facts.js';
import { clientPackageOf, hasNamedClients } from './client-packages.js';
import { TRANSPARENT_TYPES, describesClient, declaresDuckTypedClient, duckTypedCommands, isClientCommandName, promisedType, outermostPattern, propertyPath, isRequire, requiredModule, returnedExpressions, inStaticMember, enclosingClass, memberKeyName, importedName, type ImportOrigin, type IdentifierOrigin, originOf } from './client-syntax.js';
import { forEachThisWrite } from './bounded.js';
import { globalClientLibrary } from './global-clients.js';
import { constructionKeyPrefix } from './client-key-prefix.js';
import { memberOf, memberPath, typeOfExpression } from './declared-types.js';
import { ownerName } from './member-owner.js';
import { accessorValues } from './accessors.js';

import { findVariable, isCallOnItself, moduleNamespaceOf, promisifyAllArgument, unwrap, type AnyContext, type FunctionLike } from './static.js';

export { flavorOfModule, type ClientFlavor, type ReceiverKind } from './client-facts.js';
export type { IdentifierOrigin, ImportOrigin } from './client-syntax.js';

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
   * `clientNames`, an import of a module of the code whose text imports a client package or
   * re-exports another module, or a type of the file that is a client by its shape
   * (`declaresDuckTypedClient`); one pass over the file's tokens and a look at the text of the
   * modules it imports decide (it never changes a verdict, since every positive verdict needs one
   * of those), so files without any cost nothing more.
   */
  mayUseRedis(): boolean {
    if (this.evidence !== undefined) return this.evidence;
    this.evidence = this.typed || this.importsRedis() || this.hasEvidenceName() || this.importsClientModule() || declaresDuckTypedClient(this.context.sourceCode.ast);
    return this.evidence;
  }

  /** An import (or top-level `require`) of a module of the code whose text may make or pass on a client. */
  private importsClientModule(): boolean {
    const from = this.context.physicalFilename ?? this.context.filename;
    if (!from || !isAbsolute(from)) return false;
    for (const specifier of codeImports(this.context, { types: true, requires: true })) {
      const text = readModule(from, specifier, true)?.entry.text;
      if (text !== undefined && CLIENT_MODULE_TEXT.test(text)) return true;
    }
    return false;
  }

  private hasEvidenceName(): boolean {
    const seen = new Set<string>();
    for (const token of this.context.sourceCode.ast.tokens) {
      // require('ioredis') / import('redis') anywhere in the file
      if (token.type === 'String' && flavorOfModule(token.value.slice(1, -1))) return true;
      // c.get('redis'), app.get(`valkey`): a client kept under a name ({@link keptUnder})
      if ((token.type === 'String' || token.type === 'Template') && this.namesClient(token.value.slice(1, -1))) return true;
      if (token.type !== 'Identifier' || seen.has(token.value)) continue;
      seen.add(token.value);
      const name = token.value;
      if (EVIDENCE_NAMES.has(name)) return true;
      if (this.settings.clientNames.some((pattern) => pattern.regex.test(name))) return true;
    }
    return false;
  }

  /** Whether the text of a string is a name (`redis`, `redisClient`) that matches `clientNames`. */
  private namesClient(text: string): boolean {
    return /^[A-Za-z_$][\w$]*$/.test(text) && this.settings.clientNames.some((pattern) => pattern.regex.test(text));
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
        const pkg = clientPackageOf(statement.source.value);
        if (pkg && importBringsClient(pkg, statement)) found.add(pkg.flavor);
      } else if (statement.type === AST_NODE_TYPES.VariableDeclaration) {
        // const Redis = require('ioredis'); const { createClient } = require('redis')
        for (const declarator of statement.declarations) {
          const source = declarator.init ? requiredModule(declarator.init) : undefined;
          const flavor = source === undefined ? undefined : flavorOfModule(source);
          if (flavor) found.add(flavor);
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
    // Boolean = 16, BooleanLiteral = 512, Never = 131072: no method can be called on such a value,
    // so a receiver typed so is a JavaScript option the checker typed from its default
    // (`{ redisClient: false }`), not a fact about what the code passes: fall back to syntax.
    if (type.flags & (16 | 512 | 131072)) return 'unknown';
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
      const own = symbolVerdict(type.aliasSymbol);
      if (own) return own;
      return sawUnknown ? 'unknown' : NOT_REDIS;
    }
    const own = symbolVerdict(type.aliasSymbol) ?? symbolVerdict(type.getSymbol());
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


  // ---- without type information ----------------------------------------------------------

  private classifySyntactic(input: TSESTree.Node, depth: number): ReceiverKind {
    if (depth > 8) return UNKNOWN;
    // bluebird's promisifyAll(client) returns the client it was given
    const node = unwrap(promisifyAllArgument(input) ?? input);
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
        return either(this.classifySyntactic(node.left, depth + 1), this.classifySyntactic(node.right, depth + 1));
      case AST_NODE_TYPES.ConditionalExpression:
        return either(this.classifySyntactic(node.consequent, depth + 1), this.classifySyntactic(node.alternate, depth + 1));
      default:
        return VALUE_EXPRESSIONS.has(node.type) ? NOT_REDIS : UNKNOWN;
    }
  }


  /**
   * `new X(...)`: a client constructor, a known non-Redis class, or unknown; an ioredis / iovalkey
   * client with the `keyPrefix` its options spell (`redis-calls/client-key-prefix.ts`).
   */
  private classifyConstruction(callee: TSESTree.Node, made?: TSESTree.Node, depth = 0): ReceiverKind {
    const verdict = this.constructionVerdict(callee, made, depth);
    if (depth > 0 || made?.type !== AST_NODE_TYPES.NewExpression || !verdict.redis || verdict.batch || verdict.flavor !== 'ioredis') return verdict;
    return withKeyPrefix(verdict, constructionKeyPrefix(this.context, made));
  }

  private constructionVerdict(callee: TSESTree.Node, made: TSESTree.Node | undefined, depth: number): ReceiverKind {
    const bare = unwrap(callee);
    const how = made ? this.madeBy(made) : `it is made from \`${this.text(bare)}\``;
    if (depth > 6) return UNKNOWN;
    if (bare.type === AST_NODE_TYPES.Identifier) {
      const origin = this.identifierOrigin(bare);
      if (origin.kind === 'import') {
        const pkg = clientPackageOf(origin.source);
        if (pkg) return packageExport(pkg, origin.namespace ? undefined : origin.imported, how, made);
        if (!origin.own) return FOREIGN;
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
      // new Redis.Cluster(...), new IORedis.Cluster(...), new glide.Batch(true), new Bun.RedisClient()
      const objectVerdict = bare.object.type === AST_NODE_TYPES.Identifier ? this.identifierOrigin(bare.object) : undefined;
      const isBun = objectVerdict?.kind === 'global' && bare.object.type === AST_NODE_TYPES.Identifier && bare.object.name === 'Bun';
      const pkg = objectVerdict?.kind === 'import' ? clientPackageOf(objectVerdict.source) : isBun ? clientPackageOf('bun') : undefined;
      if (pkg) return packageExport(pkg, hasNamedClients(pkg) ? bare.property.name : undefined, how, made);
      if (objectVerdict?.kind === 'import') return objectVerdict.own ? UNKNOWN : FOREIGN;
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
          if (!origin.own) return FOREIGN;
        } else if (origin.kind !== 'local') {
          return clientVerdict(this.fileFlavor(), this.madeBy(node), undefined, true);
        }
      }
      // CacheRedis('fees') / createCache() imported from a package that is neither a client package
      // nor a module of the code: that package's value, not a client, whatever the variable is named
      if (origin.kind === 'import' && !origin.own && !clientPackageOf(origin.source) && foreignFactoryMakesNoClient(origin.source)) return FOREIGN;
      // getRedis() of another module of the code: what its declaration says it returns
      if (origin.kind === 'import' && origin.own) {
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
        return flavor ? clientVerdict(flavor, this.madeBy(node)) : origin.own ? UNKNOWN : FOREIGN;
      }
      return object.name === 'Redis' ? clientVerdict('upstash', this.madeBy(node), undefined, true) : UNKNOWN;
    }
    if (CLIENT_FACTORIES.has(method) && (object.type === AST_NODE_TYPES.Identifier || object.type === AST_NODE_TYPES.MemberExpression)) {
      // redis.createClient() (import * as redis from 'redis'), GlideClient.createClient(config), glide.GlideClient.createClient(config)
      const root = object.type === AST_NODE_TYPES.MemberExpression ? unwrap(object.object) : object;
      const origin = root.type === AST_NODE_TYPES.Identifier ? this.identifierOrigin(root) : undefined;
      const pkg = origin?.kind === 'import' ? clientPackageOf(origin.source) : undefined;
      const name = object.type === AST_NODE_TYPES.MemberExpression ? memberKeyName(object.property, object.computed) : origin?.kind === 'import' && !origin.namespace ? origin.imported : undefined;
      if (pkg && (object === root || hasNamedClients(pkg))) return packageExport(pkg, name, this.madeBy(node));
      if (origin?.kind === 'import' && !origin.own && object === root) return FOREIGN;
    }
    // this.redis(), Store.client(): a method of a class of this module that returns a client
    const method_ = this.localMethod(callee);
    if (method_) return this.classifyReturnOf(method_, this.text(node), depth);
    // pool.getClient(config) with `pool: { getClient(c): RedisClientType }`: the declared return type
    const signature = memberOf(typeOfExpression(this, callee.object, depth + 1), method, depth + 1);
    const declared = signature?.returns ? this.declaredResult(signature.returns, signature.detector, this.text(node)) : undefined;
    if (declared) return declared;
    // cacheService.getClient() of a class of the code, undeclared: what the method returns
    if (signature?.method) {
      const returned = signature.detector.classifyReturnOf(signature.method, this.text(node), depth + 1);
      if (returned.redis || returned.proven) return returned;
    }
    // multi().json.set(...): a module command queued on a batch returns the batch
    const namespace = moduleNamespaceOf(callee);
    if (namespace) {
      const owner = this.classify(namespace.object);
      return owner.redis && owner.batch ? owner : UNKNOWN;
    }
    const receiver = this.classify(callee.object);
    if (!receiver.redis) {
      // c.get('redis') (a framework context's variables, Express's app.get('redis'), a Map of
      // clients): a value kept under a name, judged by that name like a variable's, whatever
      // the container is (a package's Context is no client, what it keeps may be)
      const kept = method === 'get' ? keptUnder(node) : undefined;
      if (kept !== undefined) return this.verdictByName(kept, `it is kept under \`${kept}\`, which`);
      return receiver.proven ? NOT_REDIS : UNKNOWN;
    }
    // a batch sends its commands through the client's options: its keyPrefix too
    if (method === 'multi' || method === 'pipeline') return withKeyPrefix(clientVerdict(receiver.flavor, receiver.why, method, receiver.byName), receiver.keyPrefix);
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
    // a function whose return type names itself, here or through another module
    // (`f(): ReturnType<typeof g>`, `g(): ReturnType<typeof f>`) is not judged again inside itself
    if (!fn || depth > 6) return UNKNOWN;
    // keyed by the annotation when there is one: `const f: () => T` is read into a new object each time
    const key: object = fn.returnType ?? fn;
    if (returnsInProgress.has(key)) return UNKNOWN;
    returnsInProgress.add(key);
    try {
      return this.classifyReturnOfOnce(fn, label, depth);
    } finally {
      returnsInProgress.delete(key);
    }
  }

  private classifyReturnOfOnce(fn: FunctionWithReturn, label: string, depth: number): ReceiverKind {
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
    // client() { return api.redis.clients.client }: an accessor's value, judged by its name (accessors.ts)
    for (const expression of allNot ? [] : accessorValues(fn, returned)) {
      const verdict = this.classifyByName(expression);
      if (verdict.redis) return relabel(verdict, (inner) => `it is returned by the accessor \`${label}\`, where ${inner}`);
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
  localMethod(member: TSESTree.MemberExpression, kind: 'method' | 'get' = 'method'): FunctionWithReturn | undefined {
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
          // const redis: Redis = new Redis({ keyPrefix }): the type says what, the value its prefix
          if (fromType.redis) return this.keyPrefixOfValues(fromType, () => (declarator.init ? [declarator.init] : []), depth);
          if (fromType.proven) return fromType;
        }
        if (def.parent?.kind === 'const' || declarator.parent.declare) return declarator.init ? this.classifySyntactic(declarator.init, depth + 1) : UNKNOWN;
        // a `let` / `var`: every value written to it (`var _x; ... _x = new WeakMap()` as
        // TypeScript emits for private fields): a client if one is, provably not if none can be
        const writes = variable.references.filter((r) => r.isWrite() && r.writeExpr).map((r) => r.writeExpr!);
        if (writes.length === 0 || writes.some((v) => v.parent?.type === AST_NODE_TYPES.AssignmentExpression && v.parent.operator !== '=')) {
          return UNKNOWN;
        }
        // `let tx = client.multi(); tx = tx.set(k, v);`: a command queued on the batch returns the
        // batch itself, so such a write says nothing new; the other writes decide
        const values = writes.filter((v) => !isCallOnItself(v, node.name));
        if (values.length === 0) return UNKNOWN;
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
    // import { redis } from 'bun': a client value of a package; its other exports are no clients
    const pkg = origin.kind === 'import' && !origin.own && !origin.namespace ? clientPackageOf(origin.source) : undefined;
    if (pkg && hasNamedClients(pkg) && origin.kind === 'import') return packageValue(pkg, origin.imported) ?? FOREIGN;
    const exported = origin.kind === 'import' && origin.own ? this.exported(origin) : undefined;
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
    const typed = memberPath(annotation ? { type: annotation, detector: this } : init ? typeOfExpression(this, init, depth + 1) : undefined, path, depth + 1);
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
      // Bun.redis (the global Bun namespace), bun.redis (import * as bun from 'bun')
      const whole = origin.kind === 'import' && (origin.namespace || origin.imported === 'default');
      const bunValue = packageValue(origin.kind === 'global' && object.name === 'Bun' ? clientPackageOf('bun') : whole ? clientPackageOf(origin.source) : undefined, name);
      if (bunValue) return bunValue;
      // const state = { redisTimers: new Map() }; state.redisTimers
      const value = this.constObjectProperty(object, name);
      if (value) return this.classifySyntactic(value, depth + 1);
    }
    const signature = memberOf(typeOfExpression(this, node.object, depth + 1), name, depth + 1);
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

  // ---- other modules of the code --------------------------------------------------------------

  /**
   * The declaration an import of a module of the code names (relative, or a path alias / workspace
   * package into the repository: `origin.own`), in its own module (read through
   * `redis-calls/modules.ts`), with that module's detector: the identifier a declaration binds
   * (`export const redis = ...`, `export class RedisCache`, `export interface Store`, `export
   * function getRedis(): Redis`), or the exported expression (`export default new Redis()`,
   * `module.exports = { redis }`). `undefined` for a namespace import, a module that cannot be read,
   * or a name it does not export.
   */
  exported(origin: ImportOrigin): Exported | undefined {
    if (origin.namespace) return undefined;
    const module = loadModule(this.context, origin.source, { packages: true });
    const site = module ? locateExport(module, origin.imported ?? 'default') : undefined;
    return site ? detectorOfModule(this.context, site.module).exportedAt(site) : undefined;
  }

  /** See {@link exported}: the binding or expression an export site of this detector's module names. */
  private exportedAt(site: ExportSite): Exported | undefined {
    const id = site.local === undefined ? undefined : this.moduleBinding(site.local);
    if (id) return { node: id, detector: this, module: site.module };
    return site.expression ? { node: site.expression, detector: this, module: site.module } : undefined;
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
          // private redis: Redis, made with a keyPrefix by its initializer or the class's methods
          if (fromType.redis) return this.keyPrefixOfValues(fromType, () => (member.value ? [member.value] : this.assignedValues(cls, name, isStatic)), depth);
          if (fromType.proven) return fromType;
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
    const assigned = this.classifyAssignmentsOnce(cls, name, depth, isStatic);
    if (assigned.redis || assigned.proven || depth > 6) return assigned;
    return this.inheritedMember(cls, name, depth + 1, isStatic) ?? assigned;
  }

  /**
   * A member the class inherits (`class Adapter extends BaseAdapter`, `this.redisCache`): its getter
   * or member in the superclass, declared in this module or in another module of the code, when
   * that decides (a client, or provably none: the app's own cache class).
   */
  private inheritedMember(
    cls: TSESTree.ClassDeclaration | TSESTree.ClassExpression,
    name: string,
    depth: number,
    isStatic: boolean,
  ): ReceiverKind | undefined {
    const superClass = cls.superClass ? unwrap(cls.superClass) : undefined;
    const parent = superClass?.type === AST_NODE_TYPES.Identifier ? this.classDeclaration(superClass, depth) : undefined;
    if (!parent) return undefined;
    const { node, detector } = parent;
    let verdict: ReceiverKind | undefined;
    for (const element of node.body.body) {
      if (element.type === AST_NODE_TYPES.MethodDefinition && element.kind === 'get' && element.static === isStatic && memberKeyName(element.key, element.computed) === name) {
        verdict = detector.classifyReturnOf(element.value, `this.${name}`, depth + 1);
        break;
      }
    }
    verdict ??= detector.classifyClassMember(node, name, depth + 1, isStatic);
    return verdict.redis || verdict.proven ? verdict : undefined;
  }

  /** The class a name declares, in this module or in the module of the code it is imported from, with that module's detector. */
  private classDeclaration(
    ident: TSESTree.Identifier,
    depth: number,
  ): { node: TSESTree.ClassDeclaration | TSESTree.ClassExpression; detector: ClientDetector } | undefined {
    if (depth > 8) return undefined;
    const origin = this.identifierOrigin(ident);
    if (origin.kind === 'local') return origin.classNode ? { node: origin.classNode, detector: this } : undefined;
    if (origin.kind !== 'import' || !origin.own) return undefined;
    const exported = this.exported(origin);
    return exported?.node.type === AST_NODE_TYPES.Identifier ? exported.detector.classDeclaration(exported.node, depth + 1) : undefined;
  }

  /**
   * {@link classifyAssignments}, once per member and depth in one search: members assigned from
   * each other (`this.a = this.b; this.b = this.a`, n members assigning each other: n^depth paths)
   * are judged once; a member met again while it is judged gives no verdict, one judged already
   * at the same depth or nearer gives that verdict.
   */
  private classifyAssignmentsOnce(
    cls: TSESTree.ClassDeclaration | TSESTree.ClassExpression,
    name: string,
    depth: number,
    isStatic: boolean,
  ): ReceiverKind {
    const outermost = memberSearch === undefined;
    const search = (memberSearch ??= new Map());
    try {
      let members = search.get(cls);
      if (!members) search.set(cls, (members = new Map()));
      const key = `${isStatic ? 'static ' : ''}${name}`;
      const met = members.get(key);
      if (met && met.depth <= depth) return met.verdict ?? UNKNOWN;
      const entry: { depth: number; verdict?: ReceiverKind } = { depth };
      members.set(key, entry);
      entry.verdict = this.classifyAssignments(cls, name, depth, isStatic);
      return entry.verdict;
    } finally {
      if (outermost) memberSearch = undefined;
    }
  }

  /**
   * Every `this.<name> = value` in the class's own methods (not in nested classes): a client if
   * one is (with a `keyPrefix` only when every value that is a client has that same one), provably
   * not one if all are provably not.
   */
  private classifyAssignments(
    cls: TSESTree.ClassDeclaration | TSESTree.ClassExpression,
    name: string,
    depth: number,
    isStatic: boolean,
  ): ReceiverKind {
    const values = this.assignedValues(cls, name, isStatic);
    if (values.length === 0) return UNKNOWN;
    let allNot = true;
    for (const value of values) {
      const verdict = this.classifySyntactic(value, depth + 1);
      if (verdict.redis) return verdict.keyPrefix === undefined || values.length === 1 ? verdict : this.keyPrefixOfValues(verdict, () => values, depth);
      if (!verdict.proven) allNot = false;
    }
    return allNot ? NOT_REDIS : UNKNOWN;
  }

  /** The values the class's own methods assign to `this.<name>`. */
  private assignedValues(cls: TSESTree.ClassDeclaration | TSESTree.ClassExpression, name: string, isStatic: boolean): TSESTree.Node[] {
    const values: TSESTree.Node[] = [];
    for (const member of cls.body.body) {
      if (member.type !== AST_NODE_TYPES.MethodDefinition || member.static !== isStatic || !member.value.body) continue;
      forEachThisWrite(member.value.body, name, (value) => value && values.push(value));
    }
    return values;
  }

  /**
   * A client verdict with the `keyPrefix` of the values a binding can hold, when every one of them
   * that is a client has the same (`*` when they differ); without one when none has one.
   */
  private keyPrefixOfValues(verdict: ReceiverKind, valuesOf: () => readonly TSESTree.Node[], depth: number): ReceiverKind {
    // only ioredis / iovalkey clients have the option
    if (!verdict.redis || verdict.flavor !== 'ioredis' || depth > 6) return verdict;
    const prefixes = new Set<string | undefined>();
    for (const value of valuesOf()) {
      const made = this.classifySyntactic(value, depth + 1);
      if (made.redis) prefixes.add(made.keyPrefix);
    }
    const { keyPrefix: _, ...rest } = verdict;
    const base = rest as ReceiverKind;
    if (prefixes.size === 0 || (prefixes.size === 1 && prefixes.has(undefined))) return base;
    return withKeyPrefix(base, prefixes.size === 1 ? [...prefixes][0] : '*');
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
          // ReturnType<typeof getRedis> of a function another module of the code exports
          const exported = origin.kind === 'import' && origin.own ? this.exported(origin) : undefined;
          const exportedFn = exported ? exported.detector.functionOf(exported.node) : undefined;
          if (exported && exportedFn) return relabel(exported.detector.classifyReturnOf(exportedFn, `${query.name}()`, depth + 1), (inner) => `${inner} (${exported.module.display})`);
          return CLIENT_FACTORIES.has(query.name) ? clientVerdict(this.fileFlavor(), why, undefined, true) : UNKNOWN;
        }
        // Awaited<Redis>, NonNullable<Redis>, Awaited<ReturnType<typeof getRedis>>: the type inside
        const wrapped = type.typeArguments?.params[0];
        if (wrapped && ident === type.typeName && (last === 'Awaited' || TRANSPARENT_TYPES.has(last)) && this.identifierOrigin(ident).kind === 'global') {
          return this.classifyType(wrapped, depth + 1);
        }
        const batch = batchOfTypeName(last);
        if (ident) {
          const origin = this.identifierOrigin(ident);
          if (origin.kind === 'import') {
            const pkg = clientPackageOf(origin.source);
            const name = ident === type.typeName ? (origin.namespace ? undefined : origin.imported) : last;
            if (pkg) return packageType(pkg, name, `its annotation \`${annotated}\` comes from ${origin.source}`, batch);
            if (!origin.own) return FOREIGN;
            // import type { Store } from './store': what its module declares it as
            const exported = this.exported(origin.namespace && ident !== type.typeName ? { ...origin, namespace: undefined, imported: last } : origin);
            // a type of the code whose module cannot be read (`RedisService` of a service
            // module): the declared type beats the receiver's name, which is not asked; the
            // checker still is, where there is one
            if (!exported) return FOREIGN;
            if (exported.node.type !== AST_NODE_TYPES.Identifier) return UNKNOWN;
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
        // { incr(key: string); expire(key: string, s: number) } is a client by its shape; { get(k); set(k, v) } is none
        return duckVerdict(this.fileFlavor(), duckTypedCommands(type.members), (list) => `its annotation declares Redis commands (${list})`) ?? (describesClient(type.members) ? UNKNOWN : NOT_REDIS);
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
      const pkg = clientPackageOf(origin.source);
      if (pkg) return packageType(pkg, origin.namespace ? undefined : origin.imported, `its annotation \`${annotated}\` comes from ${origin.source}`, batchOfTypeName(origin.imported ?? ident.name));
      if (!origin.own) return FOREIGN;
      const exported = this.exported(origin);
      if (!exported) return FOREIGN; // as in classifyType: the declared type beats the name
      return exported.node.type === AST_NODE_TYPES.Identifier ? exported.detector.classifyTypeName(exported.node, annotated, depth + 1) : UNKNOWN;
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
    // interface RedisLike { incr(key: string); expire(key: string, s: number) }: the code's own description
    // of the client it takes, a client by its shape when tight enough, else unknown (names decide)
    const duck = allNot ? duckVerdict(this.fileFlavor(), duckTypedCommands(declaration.body.body), (list) => `its annotation \`${annotated}\` is declared ${this.module ? `in ${this.module.display}` : 'in this file'} with Redis commands (${list})`) : undefined;
    if (duck) return duck;
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
        const pkg = clientPackageOf(origin.source);
        if (pkg) return packageType(pkg, last, `its annotation \`${written}\` comes from ${origin.source}`, batchOfTypeName(last));
        return origin.own ? UNKNOWN : FOREIGN;
      }
    }
    if (CLIENT_TYPE_NAMES.has(last)) return clientVerdict(this.fileFlavor(), `its annotation is \`${written}\``, undefined, true);
    return UNKNOWN;
  }

  /** Where a name comes from in this file ({@link originOf}). */
  identifierOrigin(node: TSESTree.Identifier): IdentifierOrigin {
    return originOf(this.context, node);
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
    // `const multiRedis = this.multi()`: a batch stored from a `multi()` / `pipeline()` call is
    // that batch, whatever the call's receiver is read as (`this` of a class extending the client)
    const batch = bare.type === AST_NODE_TYPES.Identifier ? this.storedBatch(bare) : undefined;
    const verdict = this.verdictByName(name, 'its name', batch, ownerName(bare));
    // a global the file never imports (the host's `redis`, `globalThis.redis`): its package tells its library
    const global = verdict.redis && verdict.flavor === 'unknown' ? globalClientLibrary(this.context, node, (module, value) => (module ? detectorOfModule(this.context, module) : this).classify(value)) : undefined;
    return global && verdict.redis ? { ...verdict, flavor: global.flavor, why: `${verdict.why}, ${global.why}` } : verdict;
  }

  /**
   * A client by `name` (`subject` says whose name, for the message): a `clientNames` pattern, or a
   * weak default one (`^client$`) in a file that imports a Redis client or for a member of an
   * `owner` whose own name matches a `clientNames` pattern (`this.client` in `class RedisStore`,
   * `RedisStore.client`); else unknown. `batch`: the value is that client's MULTI or pipeline.
   */
  private verdictByName(name: string, subject: string, batch?: 'multi' | 'pipeline', owner?: string): ReceiverKind {
    const strong = this.settings.clientNames.find((pattern) => pattern.regex.test(name));
    if (strong) return clientVerdict(this.fileFlavor(), `${subject} matches clientNames '${strong.source}'`, batch, true);
    const weak = this.settings.weakClientNames.find((pattern) => pattern.regex.test(name));
    if (weak && this.importsRedis()) {
      return clientVerdict(this.fileFlavor(), `${subject} matches clientNames '${weak.source}' in a file that imports a Redis client`, batch, true);
    }
    const ownerPattern = weak && owner !== undefined ? this.settings.clientNames.find((pattern) => owner.split('.').some((part) => pattern.regex.test(part))) : undefined;
    if (weak && ownerPattern) {
      return clientVerdict(this.fileFlavor(), `${subject} matches clientNames '${weak.source}' in \`${owner}\`, whose name matches '${ownerPattern.source}'`, batch, true);
    }
    return UNKNOWN;
  }

  /**
   * The batch a variable holds when its one value (a `const`, or a `let` written once) is a
   * `multi()` / `pipeline()` call, commands queued on it in the same chain included
   * (`redis.multi().set(k, v)`); `undefined` otherwise.
   */
  private storedBatch(node: TSESTree.Identifier): 'multi' | 'pipeline' | undefined {
    const variable = findVariable(this.context, node);
    const def = variable?.defs.length === 1 ? variable.defs[0] : undefined;
    if (def?.type !== 'Variable' || def.node.id.type !== AST_NODE_TYPES.Identifier || !def.node.init) return undefined;
    if (variable!.references.some((r) => r.isWrite() && r.identifier !== def.node.id && !(r.writeExpr && isCallOnItself(r.writeExpr, node.name)))) return undefined;
    let init = unwrap(def.node.init);
    while (init.type === AST_NODE_TYPES.CallExpression) {
      const callee = unwrap(init.callee);
      if (callee.type !== AST_NODE_TYPES.MemberExpression) return undefined;
      const method = memberKeyName(callee.property, callee.computed);
      if (method === 'multi' || method === 'pipeline') return method;
      init = unwrap(callee.object);
    }
    return undefined;
  }
}

/** A client verdict with a `keyPrefix` (none when `undefined`). */
function withKeyPrefix(verdict: ReceiverKind, keyPrefix: string | undefined): ReceiverKind {
  return verdict.redis && keyPrefix !== undefined ? { ...verdict, keyPrefix } : verdict;
}

/** The name of `x.get('name')`: its only argument, a string literal or a template without expressions. */
function keptUnder(call: TSESTree.CallExpression): string | undefined {
  if (call.arguments.length !== 1) return undefined;
  const arg = unwrap(call.arguments[0]!);
  if (arg.type === AST_NODE_TYPES.Literal && typeof arg.value === 'string') return arg.value;
  if (arg.type === AST_NODE_TYPES.TemplateLiteral && arg.expressions.length === 0) return arg.quasis[0]?.value.cooked ?? undefined;
  return undefined;
}

/** A function, or a declaration of one, whose declared return type or return values can be judged. */
type FunctionWithReturn =
  | FunctionLike
  | TSESTree.TSDeclareFunction
  | TSESTree.TSEmptyBodyFunctionExpression
  | { returnType: TSESTree.TSTypeAnnotation; body?: undefined };

/** A binding or value another module exports, with that module's detector. */
interface Exported {
  node: TSESTree.Node;
  detector: ClientDetector;
  module: ImportedModule;
}

/** The class members whose assignments the current search judges or has judged: per class, `[static ]<name>` -> depth and verdict. */
let memberSearch: Map<object, Map<string, { depth: number; verdict?: ReceiverKind }>> | undefined;

/** The functions whose return is being judged (any module's detector), to cut cycles. */
const returnsInProgress = new Set<object>();

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
