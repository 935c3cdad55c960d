/**
 * The shared analysis behind every rule of the plugin, computed once per file and cached: which
 * receivers are Redis clients, what each call does in Redis terms, which atomic unit it runs in,
 * and where embedded Lua scripts are. Rules only decide.
 */
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { ClientDetector } from './clients.js';
import { callsOwnModuleFunction } from './module-methods.js';
import { withJsonPathsRead } from './json-paths.js';
import { isCandidateCall, normalizeCall, type RedisCall } from './normalize.js';
import { mayBePromisified, promisifiedTarget } from './promisified.js';
import { walk, type AnyContext } from './static.js';

export type { ClientFlavor, ReceiverKind } from './client-facts.js';
export type { AtomicUnit, RedisCall } from './normalize.js';

interface FileAnalysis {
  detector: ClientDetector;
  calls: Map<TSESTree.CallExpression, RedisCall[]>;
}

const analyses = new WeakMap<TSESLint.SourceCode, FileAnalysis>();

function analysisOf(context: AnyContext): FileAnalysis {
  const sourceCode = context.sourceCode;
  let analysis = analyses.get(sourceCode);
  if (!analysis) {
    analysis = { detector: new ClientDetector(context), calls: new Map() };
    analyses.set(sourceCode, analysis);
  }
  return analysis;
}

/**
 * The Redis commands a call expression issues: none for a call that is not on a Redis client,
 * one for `redis.set(...)` / `redis.call('SET', ...)`, several for ioredis `multi([[...], ...])`.
 * Cached per file, so every rule of the plugin shares one analysis.
 */
export function redisCallsOf(context: AnyContext, node: TSESTree.CallExpression): readonly RedisCall[] {
  // most calls are not candidates: decide that without touching the per-file cache (a promisified
  // node-redis method, `setAsync(k, v)`, only in files that promisify: `redis-calls/promisified.ts`)
  const candidate = isCandidateCall(node);
  if (!candidate && !mayBePromisified(context)) return NONE;
  const analysis = analysisOf(context);
  if (!analysis.detector.mayUseRedis()) return NONE;
  let calls = analysis.calls.get(node);
  if (!calls) {
    calls = candidate ? normalizeCall(context, analysis.detector, node) : [];
    // `redis.incr(...)` of `const redis = require('./redis')`: the module's function runs, not a client's INCR
    if (calls.length > 0 && calls[0]!.form === 'method' && callsOwnModuleFunction(analysis.detector, node)) calls = [];
    const promised = calls.length === 0 && mayBePromisified(context) ? promisifiedTarget(context, analysis.detector, node) : undefined;
    if (promised) calls = normalizeCall(context, analysis.detector, node, promised);
    // json.set(key, `$.${field}`, v): a path below the root creates no key
    calls = calls.map((call) => withJsonPathsRead(context, call));
    analysis.calls.set(node, calls);
  }
  return calls;
}

const NONE: readonly RedisCall[] = Object.freeze([]);

/** The Redis commands issued anywhere inside a subtree (nested functions included), in no particular order. */
export function redisCallsIn(context: AnyContext, root: TSESTree.Node): RedisCall[] {
  const out: RedisCall[] = [];
  forEachCallIn(context, root, (node) => out.push(...redisCallsOf(context, node)));
  return out;
}

/** Calls `visit` for every call expression inside a subtree (nested functions included), in no particular order. */
export function forEachCallIn(context: AnyContext, root: TSESTree.Node, visit: (node: TSESTree.CallExpression) => void): void {
  walk(context, root, (node) => {
    if (node.type === 'CallExpression') visit(node);
  });
}

/** The file's client detector (shared by the rules of one file). */
export function clientDetectorOf(context: AnyContext): ClientDetector {
  return analysisOf(context).detector;
}
