/**
 * Whether a command is sent through a client that talks to one Redis server, never to a Cluster:
 * a client of a Cluster must follow the slot map and MOVED / ASK redirections
 * (https://redis.io/docs/latest/operate/oss_and_stack/reference/cluster-spec/#moved-redirection),
 * which only the cluster clients do (ioredis `new Redis.Cluster(...)`, node-redis `createCluster`).
 * A script sent through a standalone client (ioredis `new Redis(url)`, node-redis `createClient()`) therefore
 * never runs on a Cluster, and the Cluster rule of its keys (`key-must-come-from-keys`) says
 * nothing about it.
 */
import type { TSESTree } from '@typescript-eslint/utils';
import { originOf } from './client-syntax.js';
import { constInitializer, unwrap, type AnyContext } from './static.js';

/** ioredis / iovalkey exports that build a standalone client with `new`. */
const STANDALONE_CONSTRUCTORS = new Set(['Redis', 'default', 'Valkey']);
/** Packages whose export builds a standalone client with `new` (`new Redis(url)`). */
const CONSTRUCTOR_PACKAGES = new Set(['ioredis', 'iovalkey']);
/** node-redis packages whose `createClient` builds a standalone client (`createCluster` a Cluster one). */
const FACTORY_PACKAGES = new Set(['redis', '@redis/client']);

/** The package and the exported name an identifier is imported as (`import Redis from 'ioredis'`: `ioredis`, `default`), through client-syntax's originOf. */
function importOf(context: AnyContext, node: TSESTree.Identifier): { source: string; imported: string } | undefined {
  const origin = originOf(context, node);
  return origin.kind === 'import' && origin.imported !== undefined ? { source: origin.source, imported: origin.imported } : undefined;
}

/** Whether `init` builds a standalone client: `new Redis(...)` (ioredis, iovalkey), `createClient(...)` (node-redis). */
function buildsStandalone(context: AnyContext, init: TSESTree.Node): boolean {
  const bare = unwrap(init.type === 'AwaitExpression' ? init.argument : init);
  if (bare.type === 'NewExpression' && bare.callee.type === 'Identifier') {
    const from = importOf(context, bare.callee);
    return from !== undefined && CONSTRUCTOR_PACKAGES.has(from.source) && STANDALONE_CONSTRUCTORS.has(from.imported);
  }
  if (bare.type !== 'CallExpression') return false;
  const callee = unwrap(bare.callee);
  if (callee.type !== 'Identifier') return false;
  const from = importOf(context, callee);
  return from !== undefined && FACTORY_PACKAGES.has(from.source) && from.imported === 'createClient';
}

/**
 * Whether `call` (`redis.eval(...)`, `redis.defineCommand(...)`) is sent through a client built
 * in this file as a standalone connection: its receiver is a binding whose only value is
 * `new Redis(...)` (ioredis / iovalkey, not `Redis.Cluster`) or node-redis `createClient(...)`,
 * imported from the client's package. `false` when the
 * receiver is anything else (a parameter, a member, a client made elsewhere): nothing then says
 * which server it talks to.
 */
export function sentThroughStandaloneClient(context: AnyContext, call: TSESTree.CallExpression | TSESTree.NewExpression): boolean {
  const callee = unwrap(call.callee);
  if (callee.type !== 'MemberExpression') return false;
  const receiver = unwrap(callee.object);
  if (receiver.type !== 'Identifier') return false;
  const init = constInitializer(context, receiver);
  return init !== undefined && buildsStandalone(context, init);
}
