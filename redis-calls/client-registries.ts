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
 * A declaration decorated with a registry package's injector (`@InjectRedis('log')`,
 * `@InjectCluster()`, @nestjs-modules/ioredis' `@InjectRedis()`) is the client Nest injects,
 * whatever its annotation ({@link injectedClientVerdict}).
 *
 * egg-redis' registry is read the same way: with `redis: { clients: {...} }` in the package's
 * configuration modules (`config/config.*.js`), `app.redis.get('log')` (any `<x>.redis.get(id)`
 * with one argument) is the ioredis client `log`; configured with one `client`, or with no
 * configuration read, `app.redis.get(key)` is a GET (and `app.redis` is judged by its name).
 *
 * Not read: a class of the code or of another package with the same method names (an HTTP
 * client registry, a database pool: their `getClient` returns what they declare), a registry
 * instance the code does not type (plain JavaScript), and a registry method that returns no
 * client (`getClients()`, a `Map`).
 */
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import type { ClientDetector } from './clients.js';
import { clientVerdict, type ReceiverKind } from './client-facts.js';
import { EGG_REDIS, clientPackageOf, injectedClient, isRegistryExport, registryClient } from './client-packages.js';
import { configurationPrograms } from './configured-values.js';
import { memberKeyName } from './client-syntax.js';
import { typeOfExpression } from './declared-types.js';
import { findVariable, propertyName, unwrap, walkParsed } from './static.js';

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
  if (eggRegistryCall(detector, call, callee, method)) {
    return clientVerdict(clientPackageOf(EGG_REDIS.client)!.flavor, `it is returned by \`${EGG_REDIS.member}.${EGG_REDIS.method}(id)\` of egg-redis, configured with several \`${EGG_REDIS.clients}\``);
  }
  const registry = registryInstanceOf(detector, callee.object, depth + 1);
  const found = registry ? registryClient(registry.source, registry.name, method) : undefined;
  if (!registry || !found) return undefined;
  return clientVerdict(found.client.flavor, `it is returned by \`${registry.name}#${method}\` of ${found.registry}, a ${found.client.name} client`);
}

/**
 * `app.redis.get('foo')`, `this.app.redis.get(id)`: egg-redis' registry of named clients, when
 * the package's configuration modules configure `redis` with `clients` ({@link EGG_REDIS}). With a
 * single `client` configured (or no such configuration read), `app.redis.get(key)` is a GET.
 */
function eggRegistryCall(detector: ClientDetector, call: TSESTree.CallExpression, callee: TSESTree.MemberExpression, method: string): boolean {
  if (method !== EGG_REDIS.method || call.arguments.length !== 1) return false;
  const owner = unwrap(callee.object);
  if (owner.type !== AST_NODE_TYPES.MemberExpression || memberKeyName(owner.property, owner.computed) !== EGG_REDIS.member) return false;
  return configuresClients(detector);
}

/** Per configuration program: whether it configures egg-redis with several clients. */
const multiClientConfig = new WeakMap<TSESTree.Program, boolean>();

/** Whether the configuration modules of the detector's package configure `redis: { clients: {...} }` (`config.redis = {...}`, `exports.redis = {...}`, a `redis` property). */
function configuresClients(detector: ClientDetector): boolean {
  return (configurationPrograms(detector.contextOf) ?? []).some((program) => {
    let known = multiClientConfig.get(program);
    if (known === undefined) {
      known = false;
      walkParsed(program, (node) => {
        let value: TSESTree.Node | undefined;
        if (node.type === AST_NODE_TYPES.AssignmentExpression && node.left.type === AST_NODE_TYPES.MemberExpression && propertyName(node.left.property, node.left.computed) === EGG_REDIS.config) value = node.right;
        else if (node.type === AST_NODE_TYPES.Property && propertyName(node.key, node.computed) === EGG_REDIS.config) value = node.value;
        const object = value ? unwrap(value) : undefined;
        if (object?.type !== AST_NODE_TYPES.ObjectExpression) return undefined;
        const clients = object.properties.some((p) => p.type === AST_NODE_TYPES.Property && propertyName(p.key, p.computed) === EGG_REDIS.clients && unwrap(p.value).type === AST_NODE_TYPES.ObjectExpression);
        if (!clients) return undefined;
        known = true;
        return 'stop';
      });
      multiClientConfig.set(program, known);
    }
    return known;
  });
}

/**
 * The verdict a decorator of a parameter, parameter property or class property gives it when it
 * injects a registry package's client (`@InjectRedis('log')`, `@InjectCluster()` of
 * @liaoliaots/nestjs-redis 8-9 / @songkeys/nestjs-redis, `@InjectRedis()` of
 * @nestjs-modules/ioredis): Nest hands it that client whatever the annotation says; `undefined`
 * when no decorator does (a decorator of the code's own, or of another package, says nothing).
 * @param detector the detector of the module the declaration is in
 * @param decorators the declaration's decorators
 */
export function injectedClientVerdict(detector: ClientDetector, decorators: readonly TSESTree.Decorator[] | undefined): ReceiverKind | undefined {
  for (const decorator of decorators ?? []) {
    const expression = unwrap(decorator.expression);
    const callee = expression.type === AST_NODE_TYPES.CallExpression ? unwrap(expression.callee) : undefined;
    const exported = callee?.type === AST_NODE_TYPES.Identifier ? valueExport(detector, callee) : undefined;
    const found = exported ? injectedClient(exported.source, exported.name) : undefined;
    if (found) return clientVerdict(found.client.flavor, `it is injected by \`@${exported!.name}()\` of ${found.registry}, a ${found.client.name} client`);
  }
  return undefined;
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
