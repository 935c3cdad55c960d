/**
 * The last resort of the client detector (`redis-calls/clients.ts`): a receiver is a client by its
 * name (`settings['redis-ttl'].clientNames`, or a weak default name such as `client` in a file
 * that imports a client or in a class whose name matches), and such a verdict says it rests on a
 * name (`byName`); a variable holding a `multi()` / `pipeline()` call is that batch; a global the
 * file never imports, or a member other code stores a client in (`req.redisClient`), gets its
 * library from the package; so does a `const` holding such a member (`const r = req.redisClient`,
 * `const { redisClient } = req`), which is judged by the member's name when its own says nothing.
 */
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { type ReceiverKind, UNKNOWN, clientVerdict, namesClientByItself } from './client-facts.js';
import { memberKeyName } from './client-syntax.js';
import type { ClientDetector } from './clients.js';
import { aliasedMember, globalClientLibrary, memberClientLibrary } from './global-clients.js';
import { applicationMemberClient, isEggService } from './application-members.js';
import type { ImportedModule } from './modules.js';
import { ownerName } from './member-owner.js';
import { findVariable, isCallOnItself, unwrap } from './static.js';

/** Last resort: the receiver's name matches `clientNames`. */
export function nameVerdict(detector: ClientDetector, node: TSESTree.Node): ReceiverKind {
  const bare = unwrap(node);
  let name: string | undefined;
  if (bare.type === AST_NODE_TYPES.Identifier) name = bare.name;
  else if (bare.type === AST_NODE_TYPES.MemberExpression && !bare.computed && bare.property.type === AST_NODE_TYPES.Identifier) {
    name = bare.property.name;
  } else if (bare.type === AST_NODE_TYPES.MemberExpression && bare.property.type === AST_NODE_TYPES.PrivateIdentifier) {
    name = bare.property.name; // this.#redis is judged by its name like this.redis
  }
  if (!name) return UNKNOWN;
  // `ctx.service.redis` of an Egg.js application: its own service class, whatever its name
  if (isEggService(detector.contextOf, bare)) return UNKNOWN;
  // `client.utils.redis.redisMainUsers`: the application's helper kept under its client
  if (helperPastClient(detector, bare)) return UNKNOWN;
  // `const multiRedis = this.multi()`: a batch stored from a `multi()` / `pipeline()` call is
  // that batch, whatever the call's receiver is read as (`this` of a class extending the client)
  const batch = bare.type === AST_NODE_TYPES.Identifier ? storedBatch(detector, bare) : undefined;
  let verdict = verdictByName(detector, name, 'its name', batch, ownerName(bare));
  // `const r = req.redisClient`, `const { redisClient } = req`: the member it holds, by that member's name
  const alias = bare.type === AST_NODE_TYPES.Identifier && !verdict.redis ? aliasedMember(detector.contextOf, bare) : undefined;
  if (alias) verdict = verdictByName(detector, alias.name, `the member it holds (\`.${alias.name}\`)`, batch, alias.owner);
  if (!verdict.redis) return verdict;
  const judge = (module: ImportedModule | undefined, value: TSESTree.Node): ReceiverKind => (module ? detector.detectorOf(module) : detector).classify(value);
  const strong = (member: string): boolean => detector.settingsOf.clientNames.some((pattern) => pattern.regex.test(member));
  // `this.app.redis` of an application that depends on egg-redis: the plugin's (ioredis) client,
  // whatever the file imports or other code calls on members of that name; unless the code stores
  // a client there itself (`app.redis = createClient()` in app.js): the client it stores
  const plugin = applicationMemberClient(detector.contextOf, bare);
  if (plugin) {
    const stored = memberClientLibrary(detector.contextOf, node, strong, judge);
    return stored ? { ...verdict, flavor: stored.flavor, why: `${verdict.why}, ${stored.why}` } : { ...verdict, flavor: plugin.flavor, why: `${verdict.why}, ${plugin.why}` };
  }
  if (verdict.flavor !== 'unknown') return verdict;
  // a global the file never imports (the host's `redis`, `globalThis.redis`), or a member other
  // code stores a client in (`req.redisClient`): its package tells its library
  const told = globalClientLibrary(detector.contextOf, node, judge) ?? memberClientLibrary(detector.contextOf, node, strong, judge);
  return told ? { ...verdict, flavor: told.flavor, why: `${verdict.why}, ${told.why}` } : verdict;
}

/**
 * Whether a member receiver is an object of the application reached through a client-named path:
 * some name of the path before it matches a `clientNames` pattern (`client.utils.redis`,
 * `redis.helpers`), and its own name does not name a client by itself (`redisMainUsers`,
 * `redisCache`; {@link namesClientByItself}): a client has no data member holding another object
 * with commands (`client-facts.ts` CLIENT_NOUN), so it is the application's helper, whose `set`
 * is its own, not SET. `redis.client`, `this.redis.redisClient`, `RedisService.redis` stay clients
 * by name; `this.x` (whose owner is a class, not a path) is left to the name alone.
 */
function helperPastClient(detector: ClientDetector, node: TSESTree.Node): boolean {
  if (node.type !== AST_NODE_TYPES.MemberExpression || node.computed || node.property.type !== AST_NODE_TYPES.Identifier) return false;
  if (namesClientByItself(node.property.name)) return false;
  const path: string[] = [];
  let current: TSESTree.Node = unwrap(node.object);
  while (current.type === AST_NODE_TYPES.MemberExpression && !current.computed && current.property.type === AST_NODE_TYPES.Identifier) {
    path.push(current.property.name);
    current = unwrap(current.object);
  }
  if (current.type === AST_NODE_TYPES.Identifier) path.push(current.name);
  return path.some((segment) => detector.settingsOf.clientNames.some((pattern) => pattern.regex.test(segment)));
}

/**
 * A client by `name` (`subject` says whose name, for the message): a `clientNames` pattern, or a
 * weak default one (`^client$`) in a file that imports a Redis client or for a member of an
 * `owner` whose own name matches a `clientNames` pattern (`this.client` in `class RedisStore`,
 * `RedisStore.client`); else unknown. `batch`: the value is that client's MULTI or pipeline.
 */
export function verdictByName(detector: ClientDetector, name: string, subject: string, batch?: 'multi' | 'pipeline', owner?: string): ReceiverKind {
  const strong = detector.settingsOf.clientNames.find((pattern) => pattern.regex.test(name));
  if (strong) return clientVerdict(detector.fileFlavor(), `${subject} matches clientNames '${strong.source}'`, batch, true);
  const weak = detector.settingsOf.weakClientNames.find((pattern) => pattern.regex.test(name));
  if (weak && detector.importsRedis()) {
    return clientVerdict(detector.fileFlavor(), `${subject} matches clientNames '${weak.source}' in a file that imports a Redis client`, batch, true);
  }
  const ownerPattern = weak && owner !== undefined ? detector.settingsOf.clientNames.find((pattern) => owner.split('.').some((part) => pattern.regex.test(part))) : undefined;
  if (weak && ownerPattern) {
    return clientVerdict(detector.fileFlavor(), `${subject} matches clientNames '${weak.source}' in \`${owner}\`, whose name matches '${ownerPattern.source}'`, batch, true);
  }
  return UNKNOWN;
}

/**
 * The batch a variable holds when its one value (a `const`, or a `let` written once) is a
 * `multi()` / `pipeline()` call, commands queued on it in the same chain included
 * (`redis.multi().set(k, v)`); `undefined` otherwise.
 */
function storedBatch(detector: ClientDetector, node: TSESTree.Identifier): 'multi' | 'pipeline' | undefined {
  const variable = findVariable(detector.contextOf, node);
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
