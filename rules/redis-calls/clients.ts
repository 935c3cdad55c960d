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
import { findVariable, unwrap, type AnyContext } from './static.js';

/** Which client library's syntax a call follows. */
export type ClientFlavor = 'ioredis' | 'node-redis' | 'upstash' | 'unknown';

/** The verdict on one receiver. */
export type ReceiverKind =
  /** a client (or cluster) object: commands run one by one */
  | { redis: true; flavor: ClientFlavor; batch?: undefined }
  /** a `multi()` / `pipeline()` object: commands are queued until `exec()` */
  | { redis: true; flavor: ClientFlavor; batch: 'multi' | 'pipeline' }
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

/** Identifiers whose presence means a file may create or receive a Redis client. */
const EVIDENCE_NAMES: ReadonlySet<string> = new Set([
  ...CLIENT_CONSTRUCTORS,
  ...CLIENT_FACTORIES,
  ...CLIENT_TYPE_NAMES,
  ...BATCH_TYPE_NAMES.keys(),
  'fromEnv',
  'defineScript',
]);

/**
 * Default `clientNames`: receivers named like a Redis client when nothing else is known. A name
 * containing `redis` or `valkey` always counts; the generic `client` only in a file that imports
 * a Redis client package (a memcached or HTTP `client.incr(...)` elsewhere is not Redis).
 */
export const DEFAULT_CLIENT_NAMES: readonly string[] = ['redis', 'valkey', '^client$'];
/** Default names that need a Redis import in the file to count. */
const WEAK_DEFAULT_NAMES = new Set(['^client$']);

/** Parsed `settings['redis-ttl']`. */
export interface RedisTtlSettings {
  /** Names that mark a receiver as a client on their own. */
  clientNames: RegExp[];
  /** Names that count only in a file importing a Redis client package. */
  weakClientNames: RegExp[];
}

/**
 * Reads `settings['redis-ttl']`: `clientNames` is a list of regular expression sources (or one),
 * matched case-insensitively against a receiver's name (`redis`, `this.cache` -> `cache`). When
 * set, it replaces the default list.
 */
export function readSettings(context: AnyContext): RedisTtlSettings {
  const raw = (context.settings as Record<string, unknown>)['redis-ttl'] as { clientNames?: unknown } | undefined;
  const configured = Array.isArray(raw?.clientNames)
    ? raw.clientNames.filter((n): n is string => typeof n === 'string')
    : typeof raw?.clientNames === 'string'
      ? [raw.clientNames]
      : undefined;
  if (configured) return { clientNames: configured.map(compileClientName), weakClientNames: [] };
  return {
    clientNames: DEFAULT_CLIENT_NAMES.filter((n) => !WEAK_DEFAULT_NAMES.has(n)).map((n) => new RegExp(n, 'i')),
    weakClientNames: [...WEAK_DEFAULT_NAMES].map((n) => new RegExp(n, 'i')),
  };
}

function compileClientName(source: string): RegExp {
  try {
    return new RegExp(source, 'i');
  } catch (error) {
    throw new Error(
      `settings['redis-ttl'].clientNames: ${JSON.stringify(source)} is not a valid regular expression ` +
        `(${error instanceof Error ? error.message : String(error)}).`,
      { cause: error },
    );
  }
}

/** Decides whether receivers are Redis clients, for one file; verdicts are cached per node. */
export class ClientDetector {
  private readonly cache = new Map<TSESTree.Node, ReceiverKind>();
  private readonly settings: RedisTtlSettings;
  private readonly checker: ts.TypeChecker | undefined;
  private readonly esTreeToTs: { get(node: TSESTree.Node): ts.Node } | undefined;
  private importedCache: ReadonlySet<ClientFlavor> | undefined;
  private evidence: boolean | undefined;

  constructor(private readonly context: AnyContext) {
    this.settings = readSettings(context);
    const services = context.sourceCode.parserServices;
    if (services?.program && services.esTreeNodeToTSNodeMap) {
      this.checker = services.program.getTypeChecker();
      this.esTreeToTs = services.esTreeNodeToTSNodeMap as unknown as { get(node: TSESTree.Node): ts.Node };
    }
  }

  /** Whether type information is available for this file. */
  get typed(): boolean {
    return this.checker !== undefined;
  }

  /** The verdict on the receiver expression of a member call. */
  classify(node: TSESTree.Node): ReceiverKind {
    const cached = this.cache.get(node);
    if (cached) return cached;
    this.cache.set(node, UNKNOWN); // cycles (a = b; b = a) end as unknown
    let verdict = this.checker ? this.classifyTyped(node) : undefined;
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
      if (this.settings.clientNames.some((pattern) => pattern.test(name))) return true;
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
    return NOT_REDIS;
  }

  private symbolVerdict(symbol: ts.Symbol | undefined): ReceiverKind | undefined {
    for (const declaration of symbol?.getDeclarations() ?? []) {
      const fileName = declaration.getSourceFile().fileName.replace(/\\/g, '/');
      for (const [pattern, flavor] of PACKAGE_PATTERNS) {
        if (pattern.test(fileName)) {
          const batch = batchOfTypeName(symbol?.getName() ?? '');
          return batch ? { redis: true, flavor, batch } : { redis: true, flavor };
        }
      }
    }
    return undefined;
  }

  // ---- without type information ----------------------------------------------------------

  private classifySyntactic(input: TSESTree.Node, depth: number): ReceiverKind {
    if (depth > 6) return UNKNOWN;
    const node = unwrap(input);
    switch (node.type) {
      case AST_NODE_TYPES.AwaitExpression:
        return this.classifySyntactic(node.argument, depth + 1);
      case AST_NODE_TYPES.NewExpression:
        return this.classifyConstruction(node.callee);
      case AST_NODE_TYPES.CallExpression:
        return this.classifyCallResult(node);
      case AST_NODE_TYPES.Identifier:
        return this.classifyIdentifier(node, depth);
      case AST_NODE_TYPES.MemberExpression:
        return this.classifyMember(node, depth);
      case AST_NODE_TYPES.ObjectExpression:
      case AST_NODE_TYPES.ArrayExpression:
      case AST_NODE_TYPES.Literal:
      case AST_NODE_TYPES.TemplateLiteral:
      case AST_NODE_TYPES.ArrowFunctionExpression:
      case AST_NODE_TYPES.FunctionExpression:
      case AST_NODE_TYPES.ClassExpression:
        return NOT_REDIS;
      default:
        return UNKNOWN;
    }
  }

  /** `new X(...)`: a client constructor, a known non-Redis class, or unknown. */
  private classifyConstruction(callee: TSESTree.Node): ReceiverKind {
    const bare = unwrap(callee);
    if (bare.type === AST_NODE_TYPES.Identifier) {
      const origin = this.identifierOrigin(bare);
      if (origin.kind === 'import') {
        const flavor = flavorOfModule(origin.source);
        if (flavor) return { redis: true, flavor };
        return origin.relative ? this.nameGuess(bare.name) : NOT_REDIS;
      }
      if (origin.kind === 'local') {
        // class Cache extends Redis {}: judged by what it extends
        const superClass = origin.classNode?.superClass;
        return superClass ? this.classifyConstruction(superClass) : NOT_REDIS;
      }
      if (KNOWN_NOT_REDIS.has(bare.name)) return NOT_REDIS;
      return this.nameGuess(bare.name);
    }
    if (bare.type === AST_NODE_TYPES.MemberExpression && bare.property.type === AST_NODE_TYPES.Identifier) {
      // new Redis.Cluster(...), new IORedis.Cluster(...)
      const objectVerdict = bare.object.type === AST_NODE_TYPES.Identifier ? this.identifierOrigin(bare.object) : undefined;
      if (objectVerdict?.kind === 'import') {
        const flavor = flavorOfModule(objectVerdict.source);
        return flavor ? { redis: true, flavor } : NOT_REDIS;
      }
      return CLIENT_CONSTRUCTORS.has(bare.property.name) ? { redis: true, flavor: 'unknown' } : UNKNOWN;
    }
    return UNKNOWN;
  }

  private nameGuess(name: string): ReceiverKind {
    return CLIENT_CONSTRUCTORS.has(name) ? { redis: true, flavor: this.fileFlavor() } : UNKNOWN;
  }

  /** `f(...)` or `x.m(...)` used as a receiver: factories, `multi()` / `pipeline()` and chains. */
  private classifyCallResult(node: TSESTree.CallExpression): ReceiverKind {
    const callee = unwrap(node.callee);
    if (callee.type === AST_NODE_TYPES.Identifier) {
      if (!CLIENT_FACTORIES.has(callee.name)) return UNKNOWN;
      const origin = this.identifierOrigin(callee);
      if (origin.kind === 'import') {
        const flavor = flavorOfModule(origin.source);
        return flavor ? { redis: true, flavor } : origin.relative ? UNKNOWN : NOT_REDIS;
      }
      return origin.kind === 'local' ? UNKNOWN : { redis: true, flavor: this.fileFlavor() };
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
        return flavor ? { redis: true, flavor } : NOT_REDIS;
      }
      return object.name === 'Redis' ? { redis: true, flavor: 'upstash' } : UNKNOWN;
    }
    if (CLIENT_FACTORIES.has(method) && object.type === AST_NODE_TYPES.Identifier) {
      // import * as redis from 'redis'; redis.createClient()
      const origin = this.identifierOrigin(object);
      if (origin.kind === 'import') {
        const flavor = flavorOfModule(origin.source);
        return flavor ? { redis: true, flavor } : NOT_REDIS;
      }
    }
    const receiver = this.classify(callee.object);
    if (!receiver.redis) return receiver.proven ? NOT_REDIS : UNKNOWN;
    if (method === 'multi' || method === 'pipeline') {
      return { redis: true, flavor: receiver.flavor, batch: method === 'multi' ? 'multi' : 'pipeline' };
    }
    if (SELF_RETURNING.has(method)) return receiver;
    // A queued command on a multi / pipeline returns the same batch (ioredis, node-redis, upstash).
    if (receiver.batch && method !== 'exec' && method !== 'execAsPipeline') return receiver;
    return UNKNOWN;
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
        if (!declarator.init) return UNKNOWN;
        // a `let` that is reassigned elsewhere could hold anything
        if (def.parent?.kind !== 'const' && variable.references.some((r) => r.isWrite() && r.identifier !== declarator.id)) {
          return UNKNOWN;
        }
        return this.classifySyntactic(declarator.init, depth + 1);
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

  /** `this.redis` (a class member with an annotation or initializer) or `obj.prop` (unknown). */
  private classifyMember(node: TSESTree.MemberExpression, depth: number): ReceiverKind {
    if (node.computed || node.property.type !== AST_NODE_TYPES.Identifier) return UNKNOWN;
    const name = node.property.name;
    if (node.object.type === AST_NODE_TYPES.ThisExpression) {
      const cls = enclosingClass(node);
      if (!cls) return UNKNOWN;
      for (const member of cls.body.body) {
        if (
          member.type === AST_NODE_TYPES.PropertyDefinition &&
          !member.computed &&
          member.key.type === AST_NODE_TYPES.Identifier &&
          member.key.name === name
        ) {
          if (member.typeAnnotation) {
            const fromType = this.classifyType(member.typeAnnotation.typeAnnotation);
            if (fromType.redis || fromType.proven) return fromType;
          }
          return member.value ? this.classifySyntactic(member.value, depth + 1) : UNKNOWN;
        }
        if (
          member.type === AST_NODE_TYPES.MethodDefinition &&
          member.kind === 'constructor' &&
          member.value.type === AST_NODE_TYPES.FunctionExpression
        ) {
          for (const param of member.value.params) {
            if (param.type !== AST_NODE_TYPES.TSParameterProperty) continue;
            const inner = param.parameter;
            const id = inner.type === AST_NODE_TYPES.AssignmentPattern ? inner.left : inner;
            if (id.type === AST_NODE_TYPES.Identifier && id.name === name) {
              return id.typeAnnotation ? this.classifyType(id.typeAnnotation.typeAnnotation) : UNKNOWN;
            }
          }
        }
      }
    }
    // url.searchParams, req.headers: well-known non-Redis members
    if (name === 'searchParams' || name === 'headers') return NOT_REDIS;
    return UNKNOWN;
  }

  /** A type annotation: client / batch types, known non-Redis types, or unknown. */
  classifyType(type: TSESTree.TypeNode): ReceiverKind {
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
        if (last === 'ReturnType' && type.typeArguments?.params[0]?.type === AST_NODE_TYPES.TSTypeQuery) {
          const query = type.typeArguments.params[0].exprName;
          const name = query.type === AST_NODE_TYPES.Identifier ? query.name : undefined;
          return name && CLIENT_FACTORIES.has(name) ? { redis: true, flavor: this.fileFlavor() } : UNKNOWN;
        }
        const batch = batchOfTypeName(last);
        if (ident) {
          const origin = this.identifierOrigin(ident);
          if (origin.kind === 'import') {
            const flavor = flavorOfModule(origin.source);
            if (flavor) return batch ? { redis: true, flavor, batch } : { redis: true, flavor };
            return origin.relative ? UNKNOWN : NOT_REDIS;
          }
          if (origin.kind === 'local') {
            const superClass = origin.classNode?.superClass;
            return superClass ? this.classifyConstruction(superClass) : NOT_REDIS;
          }
        }
        if (KNOWN_NOT_REDIS.has(last)) return NOT_REDIS;
        if (batch) return { redis: true, flavor: this.fileFlavor(), batch };
        if (CLIENT_TYPE_NAMES.has(last)) return { redis: true, flavor: this.fileFlavor() };
        return UNKNOWN;
      }
      case AST_NODE_TYPES.TSUnionType: {
        let allNot = true;
        for (const member of type.types) {
          if (member.type === AST_NODE_TYPES.TSUndefinedKeyword || member.type === AST_NODE_TYPES.TSNullKeyword) continue;
          const verdict = this.classifyType(member);
          if (verdict.redis) return verdict;
          if (!verdict.proven) allNot = false;
        }
        return allNot ? NOT_REDIS : UNKNOWN;
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

  /** Where a name comes from: an import (with its module), a declaration in this file, or nowhere. */
  private identifierOrigin(
    node: TSESTree.Identifier,
  ):
    | { kind: 'import'; source: string; relative: boolean }
    | { kind: 'local'; classNode?: TSESTree.ClassDeclaration | TSESTree.ClassExpression }
    | { kind: 'global' } {
    const variable = findVariable(this.context, node);
    if (!variable || variable.defs.length === 0) return { kind: 'global' };
    const def = variable.defs[0]!;
    if (def.type === 'ImportBinding') {
      const declaration = def.parent;
      const source = declaration.type === AST_NODE_TYPES.ImportDeclaration ? declaration.source.value : '';
      return { kind: 'import', source, relative: source.startsWith('.') || source.startsWith('/') };
    }
    if (def.type === 'Variable') {
      // const Redis = require('ioredis')
      const init = def.node.init ? unwrap(def.node.init) : undefined;
      if (
        init?.type === AST_NODE_TYPES.CallExpression &&
        init.callee.type === AST_NODE_TYPES.Identifier &&
        init.callee.name === 'require' &&
        init.arguments[0]?.type === AST_NODE_TYPES.Literal &&
        typeof init.arguments[0].value === 'string'
      ) {
        const source = init.arguments[0].value;
        return { kind: 'import', source, relative: source.startsWith('.') };
      }
      // const { createClient } = require('redis')
      if (
        init?.type === AST_NODE_TYPES.CallExpression &&
        def.node.id.type === AST_NODE_TYPES.ObjectPattern &&
        init.callee.type === AST_NODE_TYPES.Identifier &&
        init.callee.name === 'require' &&
        init.arguments[0]?.type === AST_NODE_TYPES.Literal &&
        typeof init.arguments[0].value === 'string'
      ) {
        const source = init.arguments[0].value;
        return { kind: 'import', source, relative: source.startsWith('.') };
      }
    }
    if (def.type === 'ClassName') return { kind: 'local', classNode: def.node };
    if (def.type === 'Variable' && def.node.init?.type === AST_NODE_TYPES.ClassExpression) {
      return { kind: 'local', classNode: def.node.init };
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
    }
    if (!name) return UNKNOWN;
    if (this.settings.clientNames.some((pattern) => pattern.test(name))) {
      return { redis: true, flavor: this.fileFlavor() };
    }
    if (this.settings.weakClientNames.some((pattern) => pattern.test(name)) && this.importsRedis()) {
      return { redis: true, flavor: this.fileFlavor() };
    }
    return UNKNOWN;
  }
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
