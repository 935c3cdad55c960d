/**
 * Clients handed out by a framework's registry of named clients (the table of such packages is
 * `redis-calls/client-packages.ts`' registries):
 *
 * ```ts
 * import { RedisService } from 'nestjs-redis';
 * constructor(private readonly redisService: RedisService) {}
 * const redis = this.redisService.getClient('log');   // an ioredis client
 * await redis.set(`up:${key}`, 'time out');            // read as SET, reported
 * ```
 *
 * A call of a registry method (`getClient`, `getOrThrow`, `getOrNil`) on an object the code says
 * is an instance of a registry class that package exports is a client of the package the registry
 * holds (ioredis for the Nest modules). The object is such an instance when:
 * - its declared type names the class as imported from the package (`redisService: RedisService`,
 *   a constructor's parameter property, a parameter, a variable, a member, `x as RedisService`,
 *   a namespace import's `nest.RedisService`), read as `redis-calls/declared-types.ts` reads
 *   declared types (across modules of the code too);
 * - or it is what Nest's container hands out for the class as token (`app.get(RedisService)`,
 *   `moduleRef.get(RedisService)`, `await moduleRef.resolve(RedisService)`), directly or through a
 *   `const` holding it.
 *
 * Not read: a class of the code or of another package with the same method names (an HTTP
 * client registry, a database pool: their `getClient` returns what they declare), a registry
 * instance the code does not type (plain JavaScript), and a registry method that returns no
 * client (`getClients()`, a `Map`).
 */
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import type { ClientDetector } from './clients.js';
import { clientVerdict, type ReceiverKind } from './client-facts.js';
import { isRegistryExport, registryClient } from './client-packages.js';
import { memberKeyName } from './client-syntax.js';
import { typeOfExpression } from './declared-types.js';
import { findVariable, unwrap } from './static.js';

/** An export of a package, as an import names it. */
interface PackageExport {
  source: string;
  name: string;
}

/** Methods of Nest's container (`INestApplicationContext`, `ModuleRef`) that give the instance of a class token. */
const CONTAINER_GETTERS: ReadonlySet<string> = new Set(['get', 'resolve']);

/**
 * The verdict on `call` (`this.redisService.getClient('log')`) when it calls a registry method
 * that returns a client (see the module comment): that client package's client; `undefined`
 * otherwise, for the detector to judge the call as any other.
 * @param detector the detector of the module `call` is in
 * @param call a call used as a receiver
 * @param depth how many values led here (the detector's depth)
 */
export function registryCallVerdict(detector: ClientDetector, call: TSESTree.CallExpression, depth: number): ReceiverKind | undefined {
  const callee = unwrap(call.callee);
  if (callee.type !== AST_NODE_TYPES.MemberExpression || depth > 6) return undefined;
  const method = memberKeyName(callee.property, callee.computed);
  if (method === undefined) return undefined;
  const registry = registryInstanceOf(detector, callee.object, depth + 1);
  const found = registry ? registryClient(registry.source, registry.name, method) : undefined;
  if (!registry || !found) return undefined;
  return clientVerdict(found.client.flavor, `it is returned by \`${registry.name}#${method}\` of ${found.registry}, a ${found.client.name} client`);
}

/** The registry class of a package that `input` is an instance of, when the code says so. */
function registryInstanceOf(detector: ClientDetector, input: TSESTree.Node, depth: number): PackageExport | undefined {
  if (depth > 8) return undefined;
  const declared = typeOfExpression(detector, input, depth + 1);
  const byType = declared ? typeExport(declared.detector, declared.type) : undefined;
  if (byType) return isRegistryExport(byType.source, byType.name) ? byType : undefined;
  const node = unwrap(input);
  if (node.type === AST_NODE_TYPES.AwaitExpression) return registryInstanceOf(detector, node.argument, depth + 1);
  if (node.type === AST_NODE_TYPES.Identifier) {
    // const redisService = app.get(RedisService)
    const variable = findVariable(detector.contextOf, node);
    const def = variable?.defs.length === 1 ? variable.defs[0] : undefined;
    if (def?.type !== 'Variable' || def.parent?.kind !== 'const' || def.node.id.type !== AST_NODE_TYPES.Identifier || !def.node.init) return undefined;
    return registryInstanceOf(detector, def.node.init, depth + 1);
  }
  if (node.type !== AST_NODE_TYPES.CallExpression || node.arguments.length !== 1) return undefined;
  const callee = unwrap(node.callee);
  const method = callee.type === AST_NODE_TYPES.MemberExpression ? memberKeyName(callee.property, callee.computed) : undefined;
  if (method === undefined || !CONTAINER_GETTERS.has(method)) return undefined;
  const token = unwrap(node.arguments[0]!);
  const exported = token.type === AST_NODE_TYPES.Identifier ? valueExport(detector, token) : undefined;
  return exported && isRegistryExport(exported.source, exported.name) ? exported : undefined;
}

/** The package export a type reference names (`RedisService`, `nest.RedisService`), read in the module it is written in. */
function typeExport(detector: ClientDetector, type: TSESTree.TypeNode): PackageExport | undefined {
  if (type.type !== AST_NODE_TYPES.TSTypeReference) return undefined;
  const name = type.typeName;
  if (name.type === AST_NODE_TYPES.Identifier) return valueExport(detector, name);
  if (name.type !== AST_NODE_TYPES.TSQualifiedName || name.left.type !== AST_NODE_TYPES.Identifier) return undefined;
  const origin = detector.identifierOrigin(name.left);
  return origin.kind === 'import' && !origin.own && origin.namespace ? { source: origin.source, name: name.right.name } : undefined;
}

/** The package export a name is imported as (`import { RedisService } from 'nestjs-redis'`), not a module of the code's. */
function valueExport(detector: ClientDetector, name: TSESTree.Identifier): PackageExport | undefined {
  const origin = detector.identifierOrigin(name);
  if (origin.kind !== 'import' || origin.own || origin.namespace || origin.imported === undefined) return undefined;
  return { source: origin.source, name: origin.imported };
}
