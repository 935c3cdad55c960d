/**
 * Keys persistent by design (a queue, a job hash, a registry, a stats counter kept forever): no
 * rule reports a missing TTL on them. A key is persistent when its shape matches a pattern of
 * `settings['redis-ttl'].persistentKeys` as written or as stored (written through an ioredis /
 * iovalkey client made with a `keyPrefix`, `redis-calls/client-key-prefix.ts`, the key as stored
 * is that prefix followed by the key as written: `guild.id` through `new Redis({ keyPrefix:
 * 'queue:' })` is stored as `queue:*`, which `queue:*` names), or when an annotation comment
 * `// redis-ttl persistent: <reason>` (the same words as lua-lint's `-- redis-ttl persistent:`)
 * stands on the write (the line above its statement, or at the end of one of its lines) or on the
 * declaration of the key's `const` / key builder, or of the `const` holding the object a key
 * builder returns (`const keys = buildKeys(id)`, its member written: `set(keys.profile, v)`).
 */
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import type { KeyShape } from './key-shape.js';
import { pluginSettings } from './settings.js';
import type { AnyContext } from './static.js';

/** `redis-ttl persistent` at the start of a comment's text (after `*` of a block comment line). */
const ANNOTATION = /^[\s*]*redis-ttl\s+persistent\b/m;

interface Annotations {
  /** Lines that hold (the end of) an annotation comment. */
  lines: ReadonlySet<number>;
  /** Annotation comments. */
  comments: ReadonlySet<TSESTree.Comment>;
}

const annotationCache = new WeakMap<TSESLint.SourceCode, Annotations>();

function annotationsOf(sourceCode: TSESLint.SourceCode): Annotations {
  let annotations = annotationCache.get(sourceCode);
  if (!annotations) {
    const lines = new Set<number>();
    const comments = new Set<TSESTree.Comment>();
    for (const comment of sourceCode.getAllComments()) {
      if (!ANNOTATION.test(comment.value)) continue;
      comments.add(comment);
      for (let line = comment.loc.start.line; line <= comment.loc.end.line; line++) lines.add(line);
    }
    annotations = { lines, comments };
    annotationCache.set(sourceCode, annotations);
  }
  return annotations;
}

/**
 * Why a key is persistent by design, or `undefined` when it is not: the matching
 * `persistentKeys` pattern, or the annotation comment on the write or on a declaration the key's
 * shape was read through.
 * @param context the rule context
 * @param write the node of the write (the call, or the queued array of `multi([...])`)
 * @param shape the key's shape ({@link keyShapeOf})
 * @param keyPrefix the shape of the writing client's `keyPrefix` (`RedisCall.client.keyPrefix`), if any
 */
export function persistentReason(context: AnyContext, write: TSESTree.Node, shape: KeyShape, keyPrefix?: string): string | undefined {
  return persistentPattern(context, shape, keyPrefix) ?? persistentAnnotation(context, write, shape);
}

/**
 * The `persistentKeys` pattern a key's shape matches (`settings['redis-ttl'].persistentKeys
 * 'system:*'`), as written or, through a client with a `keyPrefix`, as stored (`keyPrefix`
 * followed by the shape), or, for a key that is one of a few values
 * ({@link KeyShape.alternatives}: both arms of a conditional, each assignment of a `let`, each
 * caller's argument), the patterns that together match every one; `undefined` when none does.
 * @param keyPrefix the shape of the writing client's `keyPrefix` (`RedisCall.client.keyPrefix`), if any
 */
export function persistentPattern(context: AnyContext, shape: KeyShape, keyPrefix?: string): string | undefined {
  const patterns = pluginSettings(context).persistentKeys;
  const matching = (spelling: string) => {
    const stored = keyPrefix ? storedShape(keyPrefix, spelling) : undefined;
    return patterns.find((p) => p.matches(spelling) || (stored !== undefined && p.matches(stored)));
  };
  const pattern = matching(shape.shape);
  if (pattern) return `settings['redis-ttl'].persistentKeys '${pattern.pattern}'`;
  // a key that is one of a few (`ride ? 'rideDrivers:geo' : 'onlineDrivers:geo'`): persistent
  // when every one of them is, each by some pattern
  const each = shape.alternatives?.map(matching);
  if (!each?.every((p) => p !== undefined)) return undefined;
  return `settings['redis-ttl'].persistentKeys ${[...new Set(each.map((p) => `'${p!.pattern}'`))].join(', ')}`;
}

/** The shape of a key as stored through a client with a `keyPrefix`: the prefix, then the key (runs of `*` as one). */
export function storedShape(keyPrefix: string, shape: string): string {
  return `${keyPrefix}${shape}`.replace(/\*+/g, '*');
}

/**
 * The `// redis-ttl persistent: <reason>` annotation on the write or on a declaration the key's
 * shape was read through, or `undefined`.
 */
export function persistentAnnotation(context: AnyContext, write: TSESTree.Node, shape: KeyShape): string | undefined {
  const sourceCode = context.sourceCode;
  const annotations = annotationsOf(sourceCode);
  if (annotations.comments.size === 0) return undefined;
  for (const node of [statementOf(write), ...shape.via]) {
    if (isAnnotated(sourceCode, annotations, node)) return 'a redis-ttl persistent annotation';
  }
  return undefined;
}

/** An annotation comment right above a node (no code between), or on one of its lines. */
function isAnnotated(sourceCode: TSESLint.SourceCode, annotations: Annotations, node: TSESTree.Node): boolean {
  for (let line = node.loc.start.line; line <= node.loc.end.line; line++) {
    if (annotations.lines.has(line)) return true;
  }
  return sourceCode.getCommentsBefore(node).some((comment) => annotations.comments.has(comment));
}

/** The statement (or class member) a node belongs to. */
export function statementOf(node: TSESTree.Node): TSESTree.Node {
  let current = node;
  while (current.parent) {
    const parent: TSESTree.Node = current.parent;
    if (
      parent.type === 'BlockStatement' ||
      parent.type === 'Program' ||
      parent.type === 'SwitchCase' ||
      parent.type === 'ClassBody' ||
      parent.type === 'StaticBlock'
    ) {
      return current;
    }
    // an arrow's expression body: the arrow's statement decides
    current = parent;
  }
  return current;
}
