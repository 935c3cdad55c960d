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
 * pattern binds, what a function returns) in `redis-calls/client-syntax.ts`. The detector's parts
 * each live in their own module, which it calls with itself: the type checker's verdict
 * (`redis-calls/client-checker.ts`), a type annotation's (`redis-calls/client-annotations.ts`), a
 * class member's (`redis-calls/client-members.ts`) and a name's (`redis-calls/client-names.ts`).
 */
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import type * as ts from 'typescript';
import { isAbsolute } from 'node:path';
import { codeImports, loadModule, locateExport, moduleContext, readModule, type ExportSite, type ImportedModule } from './modules.js';
import { pluginSettings, type PluginSettings } from './settings.js';
import { type ClientFlavor, type ReceiverKind, NOT_REDIS, FOREIGN, UNKNOWN, clientVerdict, relabel, settled, withKeyPrefix, flavorOfModule, CLIENT_CONSTRUCTORS, CLIENT_FACTORIES, NODE_REDIS_CALLBACK_METHODS, SELF_RETURNING, KNOWN_NOT_REDIS, VALUE_EXPRESSIONS, EVIDENCE_NAMES, either, packageExport, packageValue, importBringsClient, foreignFactoryMakesNoClient } from './client-facts.js';
import { clientPackageOf, hasNamedClients, isRegistryPackage } from './client-packages.js';
import { declaresDuckTypedClient, importedFlavor, importedPackage, ownSpecifier, promisedType, outermostPattern, propertyPath, isRequire, requiredModule, returnedExpressions, inStaticMember, enclosingClass, memberKeyName, importedName, type ImportOrigin, type IdentifierOrigin, originOf } from './client-syntax.js';
import { constructionKeyPrefix } from './client-key-prefix.js';
import { memberOf, memberPath, typeOfExpression } from './declared-types.js';
import { checkerVerdict } from './client-checker.js';
import { annotationVerdict } from './client-annotations.js';
import { declaresArgvSenderType } from './argv-sender-types.js';
import { classMemberVerdict, keyPrefixOfValues } from './client-members.js';
import { codeClassNamed } from './inherited-members.js';
import { makesOrPassesClient, mayPassOnClient } from './passed-on-clients.js';
import { typeArgumentClient } from './type-argument-clients.js';
import { nameVerdict, verdictByName } from './client-names.js';
import { accessorValues } from './accessors.js';
import { objectLiteralMethod } from './object-literal-methods.js';
import { callbackParameterVerdict } from './callback-clients.js';
import { storedMapValues } from './map-clients.js';
import { literalName, localsMemberName, settingClientLibrary } from './global-clients.js';
import { injectedClientVerdict, registryCallVerdict } from './client-registries.js';

import { findVariable, isCallOnItself, moduleNamespaceOf, promisifyAllArgument, unwrap, type AnyContext, type FunctionLike } from './static.js';

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

  /** The module of the code this detector judges in (absent for the linted file). */
  get moduleOf(): ImportedModule | undefined {
    return this.module;
  }

  /** The plugin settings of the linted file. */
  get settingsOf(): PluginSettings {
    return this.settings;
  }

  /** The (cached) detector of a module of the code, for the linted file's settings. */
  detectorOf(module: ImportedModule): ClientDetector {
    return detectorOfModule(this.context, module);
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
    // app.locals.cache of a package that stores a client there (`app.locals.cache = createClient()`, `app.set('cache', client)`)
    const setting = !verdict.redis && !verdict.proven ? localsMemberName(node) : undefined;
    if (setting !== undefined) verdict = settingVerdict(this, setting) ?? verdict;
    if (!verdict.redis && !verdict.proven) verdict = nameVerdict(this, node);
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
    this.evidence = this.typed || this.importsRedis() || this.hasEvidenceName() || this.importsClientModule() || declaresDuckTypedClient(this.context.sourceCode.ast) || declaresArgvSenderType(this.context.sourceCode.ast) || this.readsStoredSetting();
    return this.evidence;
  }

  /**
   * Whether the file reads a setting its package stores a client under (`req.app.get('cache')`,
   * `app.locals.cache` after `app.set('cache', createClient())`: {@link settingVerdict}), from its
   * tokens: `get ( '<name>' )` and `locals . <name>`; or a module of the code it imports reads one
   * (`exports.cacheOf = (req) => req.app.get('cache')`), from that module's text. Only those names
   * are looked up.
   */
  private readsStoredSetting(): boolean {
    const tokens = this.context.sourceCode.ast.tokens;
    const asked = new Set<string>();
    const from = this.context.physicalFilename ?? this.context.filename;
    if (from && isAbsolute(from)) {
      for (const specifier of codeImports(this.context, { requires: true })) {
        const text = readModule(from, specifier)?.entry.text;
        for (const match of text?.matchAll(SETTING_READ) ?? []) {
          const name = match[2] ?? match[3]!;
          if (asked.has(name)) continue;
          asked.add(name);
          if (settingVerdict(this, name)) return true;
        }
      }
    }
    for (let i = 2; i < tokens.length; i++) {
      const token = tokens[i]!;
      let name: string | undefined;
      if ((token.type === 'String' || token.type === 'Template') && tokens[i - 1]!.value === '(' && tokens[i - 2]!.value === 'get' && tokens[i + 1]?.value === ')') name = token.value.slice(1, -1);
      else if (token.type === 'Identifier' && tokens[i - 1]!.value === '.' && tokens[i - 2]!.value === 'locals') name = token.value;
      if (name === undefined || asked.has(name) || !/^[\w$:.-]+$/.test(name)) continue;
      asked.add(name);
      if (settingVerdict(this, name)) return true;
    }
    return false;
  }

  /** An import (or top-level `require`) of a module of the code whose text may make or pass on a client. */
  private importsClientModule(): boolean {
    const from = this.context.physicalFilename ?? this.context.filename;
    if (!from || !isAbsolute(from)) return false;
    for (const specifier of codeImports(this.context, { types: true, requires: true })) {
      // that module, or the modules of the code it passes a binding on from (passed-on-clients.ts)
      if (mayPassOnClient(from, specifier, makesOrPassesClient)) return true;
    }
    return false;
  }

  private hasEvidenceName(): boolean {
    const seen = new Set<string>();
    for (const token of this.context.sourceCode.ast.tokens) {
      // require('ioredis') / import('redis') anywhere in the file
      // (or of a framework's registry of clients: import { RedisService } from 'nestjs-redis')
      if (token.type === 'String' && (flavorOfModule(token.value.slice(1, -1)) || isRegistryPackage(token.value.slice(1, -1)))) return true;
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
    const from = this.context.physicalFilename ?? this.context.filename;
    for (const statement of this.context.sourceCode.ast.body) {
      if (statement.type === AST_NODE_TYPES.ImportDeclaration) {
        const pkg = clientPackageOf(statement.source.value);
        // `import { RedisService } from '@redis/redis.service.js'` through the project's alias is its own module
        if (pkg && importBringsClient(pkg, statement) && !ownSpecifier(from, statement.source.value)) found.add(pkg.flavor);
      } else if (statement.type === AST_NODE_TYPES.VariableDeclaration) {
        // const Redis = require('ioredis'); const { createClient } = require('redis')
        for (const declarator of statement.declarations) {
          const source = declarator.init ? requiredModule(declarator.init) : undefined;
          const flavor = source === undefined ? undefined : flavorOfModule(source);
          if (flavor && !ownSpecifier(from, source!)) found.add(flavor);
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
    const verdict = checkerVerdict(this.checker, type, 0);
    return verdict === 'unknown' ? undefined : verdict;
  }



  // ---- without type information ----------------------------------------------------------

  /**
   * The verdict the code itself gives a value (how it is made, the annotations on the way to it,
   * what another module of the code makes it), without the type checker or the receiver's name.
   * @param depth how many values led here; past 8, unknown
   */
  classifySyntactic(input: TSESTree.Node, depth: number): ReceiverKind {
    if (depth > 8) return UNKNOWN;
    // bluebird's promisifyAll(client) returns the client it was given
    const node = unwrap(promisifyAllArgument(input) ?? input);
    switch (node.type) {
      case AST_NODE_TYPES.AwaitExpression:
        return this.classifySyntactic(node.argument, depth + 1);
      case AST_NODE_TYPES.NewExpression:
        return this.classifyConstruction(node.callee, node);
      case AST_NODE_TYPES.CallExpression: {
        // container.get<Redis>(kRedis): the type the call names, when its callee returns it (type-argument-clients.ts)
        const verdict = this.classifyCallResult(node, depth);
        if (verdict.redis || !node.typeArguments) return verdict;
        const named = typeArgumentClient(this, node, depth);
        return named.redis ? named : verdict;
      }
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
  classifyConstruction(callee: TSESTree.Node, made?: TSESTree.Node, depth = 0): ReceiverKind {
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
        const pkg = importedPackage(origin);
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
      const pkg = objectVerdict?.kind === 'import' ? importedPackage(objectVerdict) : isBun ? clientPackageOf('bun') : undefined;
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

  /**
   * The first parameter of a callback node-redis calls with a client (NODE_REDIS_CALLBACK_METHODS):
   * `client.executeIsolated(async (isolated) => ...)` (4), `pool.execute(async (c) => ...)` (5's
   * `createClientPool()`), when the method's receiver is a node-redis client (not a batch).
   */
  private nodeRedisCallbackClient(id: TSESTree.Identifier, depth: number): ReceiverKind | undefined {
    const fn = id.parent;
    if (fn?.type !== AST_NODE_TYPES.ArrowFunctionExpression && fn?.type !== AST_NODE_TYPES.FunctionExpression) return undefined;
    if (fn.params[0] !== id) return undefined;
    const call = fn.parent;
    if (call?.type !== AST_NODE_TYPES.CallExpression || call.arguments[0] !== fn) return undefined;
    const callee = unwrap(call.callee);
    if (callee.type !== AST_NODE_TYPES.MemberExpression) return undefined;
    const method = memberKeyName(callee.property, callee.computed);
    if (!method || !NODE_REDIS_CALLBACK_METHODS.has(method)) return undefined;
    const owner = this.classifySyntactic(unwrap(callee.object), depth + 1);
    if (!owner.redis || owner.flavor !== 'node-redis' || owner.batch) return undefined;
    return relabel(owner, (inner) => `node-redis calls \`${method}\`'s callback with a client, where ${inner}`);
  }

  /** `f(...)` or `x.m(...)` used as a receiver: factories, `multi()` / `pipeline()` and chains. */
  private classifyCallResult(node: TSESTree.CallExpression, depth: number): ReceiverKind {
    const callee = unwrap(node.callee);
    if (callee.type === AST_NODE_TYPES.Identifier) {
      const origin = this.identifierOrigin(callee);
      if (CLIENT_FACTORIES.has(importedName(origin) ?? callee.name)) {
        if (origin.kind === 'import') {
          const flavor = importedFlavor(origin);
          if (flavor) return clientVerdict(flavor, this.madeBy(node));
          if (!origin.own) return FOREIGN;
        } else if (origin.kind !== 'local') {
          return clientVerdict(this.fileFlavor(), this.madeBy(node), undefined, true);
        }
      }
      // CacheRedis('fees') / createCache() imported from a package that is neither a client package
      // nor a module of the code: that package's value, not a client, whatever the variable is named
      if (origin.kind === 'import' && !origin.own && !clientPackageOf(origin.source) && foreignFactoryMakesNoClient(origin.source, importedName(origin) ?? callee.name)) return FOREIGN;
      // getRedis() of another module of the code: what its declaration says it returns
      if (origin.kind === 'import' && origin.own) return this.exportedFunctionResult(origin, this.text(node), depth) ?? UNKNOWN;
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
        const flavor = importedFlavor(origin);
        return flavor ? clientVerdict(flavor, this.madeBy(node)) : origin.own ? UNKNOWN : FOREIGN;
      }
      return object.name === 'Redis' ? clientVerdict('upstash', this.madeBy(node), undefined, true) : UNKNOWN;
    }
    if (CLIENT_FACTORIES.has(method) && (object.type === AST_NODE_TYPES.Identifier || object.type === AST_NODE_TYPES.MemberExpression)) {
      // redis.createClient() (import * as redis from 'redis'), GlideClient.createClient(config), glide.GlideClient.createClient(config)
      const root = object.type === AST_NODE_TYPES.MemberExpression ? unwrap(object.object) : object;
      const origin = root.type === AST_NODE_TYPES.Identifier ? this.identifierOrigin(root) : undefined;
      const pkg = origin?.kind === 'import' ? importedPackage(origin) : undefined;
      const name = object.type === AST_NODE_TYPES.MemberExpression ? memberKeyName(object.property, object.computed) : origin?.kind === 'import' && !origin.namespace ? origin.imported : undefined;
      if (pkg && (object === root || hasNamedClients(pkg))) return packageExport(pkg, name, this.madeBy(node));
      if (origin?.kind === 'import' && !origin.own && object === root) return FOREIGN;
    }
    // redisModule.connect() of `const redisModule = require('./config/redis')` (or `import * as`):
    // what the function that module exports under that name returns
    const moduleFunction = object.type === AST_NODE_TYPES.Identifier ? this.moduleFunctionResult(object, method, node, depth) : undefined;
    if (moduleFunction) return moduleFunction;
    // this.redisService.getClient('log'): a client handed out by a framework's registry (client-registries.ts)
    const handedOut = registryCallVerdict(this, node, depth);
    if (handedOut) return handedOut;
    // this.redis(), Store.client(): a method of a class of this module that returns a client
    const method_ = this.localMethod(callee);
    if (method_) return this.declaredBatch(node, method, this.classifyReturnOf(method_, this.text(node), depth), depth);
    // pool.getClient(config) with `pool: { getClient(c): RedisClientType }`: the declared return type
    const signature = memberOf(typeOfExpression(this, callee.object, depth + 1), method, depth + 1);
    const declared = signature?.returns ? this.declaredResult(signature.returns, signature.detector, this.text(node)) : undefined;
    if (declared) return this.declaredBatch(node, method, declared, depth);
    // cacheService.getClient() of a class of the code, undeclared: what the method returns
    if (signature?.method) {
      const returned = signature.detector.classifyReturnOf(signature.method, this.text(node), depth + 1);
      if (returned.redis || returned.proven) return returned;
    }
    // redisService.getClient() of `const redisService = { getClient: () => ... }` (object-literal-methods.ts)
    const literal = signature ? undefined : objectLiteralMethod(this, callee.object, method);
    if (literal) {
      const returned = literal.detector.classifyReturnOf(literal.fn, this.text(node), depth + 1);
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
      // this.clients.get(name) of a Map the code fills with clients: what it stores (map-clients.ts)
      if (method === 'get' && node.arguments.length === 1) {
        for (const value of storedMapValues(this.context, callee.object, node.arguments[0])) {
          const verdict = this.classifySyntactic(value, depth + 1);
          if (verdict.redis) return relabel(verdict, (inner) => `it is read from \`${this.text(callee.object)}\`, where the code stores \`${this.text(value)}\`: ${inner}`);
        }
      }
      // c.get('redis') (a framework context's variables, Express's app.get('redis'), a Map of
      // clients): a value kept under a name, judged by that name like a variable's, whatever
      // the container is (a package's Context is no client, what it keeps may be)
      const kept = method === 'get' ? keptUnder(node) : undefined;
      // app.set('redis', createClient()) somewhere in the package: `<any>.get('redis')` is that client
      const setting = kept !== undefined ? settingVerdict(this, kept) : undefined;
      if (setting) return setting;
      if (kept !== undefined) return verdictByName(this, kept, `it is kept under \`${kept}\`, which`);
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
   * `m.f(...)` where `m` is a whole module of the code (`const m = require('./db')`, `import * as m
   * from './db'`): what the function that module exports as `f` returns, when that says a client or
   * provably none; `undefined` otherwise (the call is judged as any other member call).
   */
  private moduleFunctionResult(object: TSESTree.Identifier, method: string, node: TSESTree.CallExpression, depth: number): ReceiverKind | undefined {
    const origin = this.identifierOrigin(object);
    if (origin.kind !== 'import' || !origin.own || (!origin.namespace && origin.imported !== undefined)) return undefined;
    const returned = this.exportedFunctionResult({ source: origin.source, own: true, imported: method }, this.text(node), depth + 1);
    return returned && (returned.redis || returned.proven) ? returned : undefined;
  }

  /**
   * What the function `origin` names in another module of the code returns, as that module's
   * detector classifies it (`label`: the call's text), its reason naming the module; `undefined`
   * when `origin` names no function there.
   */
  private exportedFunctionResult(origin: ImportOrigin, label: string, depth: number): ReceiverKind | undefined {
    const exported = this.exported(origin);
    const fn = exported ? exported.detector.functionOf(exported.node) : undefined;
    if (!exported || !fn) return undefined;
    return relabel(exported.detector.classifyReturnOf(fn, label, depth), (inner) => `${inner} (${exported.module.display})`);
  }

  /**
   * A batch of the code's own declared types (`multi(): Tx` with `interface Tx { zadd(...): this;
   * pexpire(...): this; exec(): ... }`, a type that is a client by the Redis commands it lists):
   * the result of its `multi()` / `pipeline()` is a batch of that kind, as a client's is, so the
   * commands queued on it, chained or on a variable holding it, share one unit; and a command
   * queued on such a batch and declared to return its type (`zadd(...): Tx`) returns the same
   * batch. Other verdicts are returned as they are.
   * @param node the call whose result `verdict` describes
   * @param method the method it calls
   */
  private declaredBatch(node: TSESTree.CallExpression, method: string, verdict: ReceiverKind, depth: number): ReceiverKind {
    if (!verdict.redis || verdict.batch) return verdict;
    if (method === 'multi' || method === 'pipeline') return { ...verdict, batch: method };
    const callee = unwrap(node.callee);
    if (depth > 6 || method === 'exec' || method === 'execAsPipeline' || callee.type !== AST_NODE_TYPES.MemberExpression) return verdict;
    const receiver = this.classifySyntactic(callee.object, depth + 1);
    return receiver.redis && receiver.batch ? receiver : verdict;
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
      const verdict = nameVerdict(this, expression);
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
    // exports.getRedis = (req) => req.app.get('redis'): the exported value is the function itself
    if (node.type === AST_NODE_TYPES.ArrowFunctionExpression || node.type === AST_NODE_TYPES.FunctionExpression) return node;
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
          if (fromType.redis) return keyPrefixOfValues(this, fromType, () => (declarator.init ? [declarator.init] : []), depth);
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
        // `let client: any; if (url) client = createClient(...); else client = { get: async () => null }`:
        // a client, with stand-ins that are provably none (a stub object, `null`) on the other
        // paths, is a client where it is one; a write nothing settles leaves it unknown
        let client: ReceiverKind | undefined;
        let allNot = true;
        for (const value of values) {
          const verdict = this.classifySyntactic(value, depth + 1);
          if (verdict.redis) client ??= verdict;
          else if (!verdict.proven) allNot = false;
        }
        if (client) return values.length === 1 ? client : allNot ? keyPrefixOfValues(this, client, () => values, depth) : UNKNOWN;
        return allNot ? NOT_REDIS : UNKNOWN;
      }
      case 'Parameter': {
        const id = def.name;
        if (id.type !== AST_NODE_TYPES.Identifier) return UNKNOWN;
        // function handler({ redis: store }: { redis: Redis })
        const pattern = outermostPattern(id);
        if (pattern !== id) {
          const verdict = this.classifyDestructured(id, pattern, undefined, depth);
          // `({ key, client = dataClient }) => client.setAsync(key, v)`: as an undestructured
          // parameter's default below, what the pattern's default is
          const withDefault = id.parent;
          if (verdict.redis || verdict.proven || withDefault?.type !== AST_NODE_TYPES.AssignmentPattern || withDefault.left !== id) return verdict;
          return this.classifySyntactic(withDefault.right, depth + 1);
        }
        // constructor(@InjectRedis() redis: Redis): the annotation, else the decorator that injects it (client-registries.ts)
        const annotated = id.typeAnnotation ? this.classifyType(id.typeAnnotation.typeAnnotation) : undefined;
        if (annotated?.redis) return annotated;
        const injected = injectedClientVerdict(this, id.decorators);
        if (injected) return injected;
        if (annotated) return annotated;
        const param = id.parent;
        if (param?.type === AST_NODE_TYPES.AssignmentPattern && param.left === id) {
          return this.classifySyntactic(param.right, depth + 1);
        }
        // client.executeIsolated(async (isolated) => ...), pool.execute(async (client) => ...): node-redis hands its own client
        const handed = this.nodeRedisCallbackClient(id, depth);
        if (handed) return handed;
        // withRedis(label, async (r) => ...): what the function the callback is passed to hands it
        return callbackParameterVerdict(this, id, depth);
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
      if (cls) return classMemberVerdict(this, cls, path[0]!, depth + 1, inStaticMember(source, cls));
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
      if (cls) return classMemberVerdict(this, cls, name, depth, inStaticMember(node, cls));
    } else if (object.type === AST_NODE_TYPES.Identifier) {
      const origin = this.identifierOrigin(object);
      if (origin.kind === 'local' && origin.classNode) return classMemberVerdict(this, origin.classNode, name, depth, true);
      // Store.client of `import { Store } from './store'`: the static member of the class there
      const imported = origin.kind === 'import' && origin.own && depth < 6 ? codeClassNamed(this, object, 0, 6) : undefined;
      if (imported && (imported.node.type === AST_NODE_TYPES.ClassDeclaration || imported.node.type === AST_NODE_TYPES.ClassExpression)) return classMemberVerdict(imported.detector, imported.node, name, depth + 1, true);
      // Bun.redis (the global Bun namespace), bun.redis (import * as bun from 'bun')
      const whole = origin.kind === 'import' && (origin.namespace || origin.imported === 'default');
      const bunValue = packageValue(origin.kind === 'global' && object.name === 'Bun' ? clientPackageOf('bun') : whole ? importedPackage(origin) : undefined, name);
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

  /** A type annotation: client / batch types, known non-Redis types, or unknown (`redis-calls/client-annotations.ts`). */
  classifyType(type: TSESTree.TypeNode, depth = 0): ReceiverKind {
    return annotationVerdict(this, type, depth);
  }

  /** Where a name comes from in this file ({@link originOf}). */
  identifierOrigin(node: TSESTree.Identifier): IdentifierOrigin {
    return originOf(this.context, node);
  }
}

/** The name of `x.get('name')`: its only argument, a string literal or a template without expressions. */
/** A setting read as written in a module's text: `.get('<name>')`, `.locals.<name>`. */
const SETTING_READ = /\.\s*get\s*\(\s*(['"`])([\w$:.-]+)\1\s*\)|\blocals\s*\.\s*([A-Za-z_$][\w$]*)/g;

function keptUnder(call: TSESTree.CallExpression): string | undefined {
  return call.arguments.length === 1 ? literalName(call.arguments[0]!) : undefined;
}

/**
 * The client kept in a framework's settings under `name` (`req.app.get('redis')`, `c.get('redis')`,
 * `app.locals.redis`), when the package stores one library's client there
 * (`redis-calls/global-clients.ts`' {@link settingClientLibrary}): that library's client, decided
 * (the code stores a client it made or imported, not a name); `undefined` otherwise.
 */
function settingVerdict(detector: ClientDetector, name: string): ReceiverKind | undefined {
  const judge = (module: ImportedModule | undefined, value: TSESTree.Node): ReceiverKind => (module ? detector.detectorOf(module) : detector).classify(value);
  const stored = settingClientLibrary(detector.contextOf, name, judge);
  return stored ? clientVerdict(stored.flavor, `it is read from ${stored.why}`) : undefined;
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
