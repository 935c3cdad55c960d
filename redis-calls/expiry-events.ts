/**
 * Whether a package runs code when a key expires: a production module names the channel of expired
 * keys (of every key, or of a key family) (`semantics/keyspace-events.ts`), as the argument of a SUBSCRIBE / PSUBSCRIBE or anywhere
 * else in a string. Such a package ends an operation in two ways: by its completion, which
 * deletes the operation's keys, or by the expiry of its deadline key, which the subscriber handles
 * (`lifecycle.ts`: a DEL in the completion beside that deadline key does not bound a key the
 * expiry handler may leave).
 *
 * ```ts
 * await sub.subscribe('__keyevent@0__:expired');      // this package handles expiries
 * await sub.psubscribe('__keyspace@*__:booking:*');   // so does this one, with an 'expired' check
 * ```
 */
import type { TSESTree } from '@typescript-eslint/utils';
import { EXPIRED_EVENT, EXPIRED_KEYEVENT_CHANNEL, KEYSPACE_CHANNEL } from '../semantics/keyspace-events.js';
import { keyPatternMatcher } from '../semantics/key-patterns.js';
import { moduleText, parsedModule } from './parsed-modules.js';
import { LISTING_TTL_MS, packageFiles, packageOf } from './project.js';
import { walkParsed } from './static.js';
import { testOnlyModule } from './test-paths.js';

const answers = new Map<string, { at: number; patterns: readonly string[] }>();

/** A text that may name an expiry channel, to parse only the modules that might. */
const MENTION = /__key(?:event|space)@/;

/**
 * Whether the package of the file at `file` (absolute path) runs code when a key of shape `shape`
 * (`booking:deadline:*`) expires: one of its modules, tests left out (`test-paths.ts`
 * testOnlyModule), holds a string naming the key-event channel of expiries (`__keyevent@0__:expired`,
 * `__keyevent@*__:expired`, `` `__keyevent@${db}__:expired` ``: every key), or a key-space channel
 * whose key pattern covers the shape (`__keyspace@0__:booking:*`) together with the string
 * `expired` (the subscriber tests the event). Only string literals, templates and `+`
 * concatenations count, an interpolated value read as `*` (a comment does not). `false` when the file belongs to no package or the
 * package is too large to list (`project.ts` MAX_FILES). The package's patterns are kept for
 * `LISTING_TTL_MS` (ms), as its listing is. Never throws.
 */
export function handlesExpiredKeys(file: string, shape: string): boolean {
  return expiredKeyPatterns(file).some((pattern) => keyPatternMatcher(pattern)(shape));
}

function expiredKeyPatterns(file: string): readonly string[] {
  const root = packageOf(file)?.root;
  if (root === undefined) return [];
  const now = Date.now();
  const cached = answers.get(root);
  if (cached && now - cached.at < LISTING_TTL_MS) return cached.patterns;
  const patterns: string[] = [];
  for (const path of packageFiles(root) ?? []) {
    const text = moduleText(path);
    if (text !== undefined && MENTION.test(text) && !testOnlyModule(root, path)) patterns.push(...channelPatterns(path));
  }
  answers.set(root, { at: now, patterns });
  return patterns;
}

/** The key patterns whose expiry the module at `path` names a channel of ({@link handlesExpiredKeys}). */
function channelPatterns(path: string): string[] {
  const parsed = parsedModule(path);
  if (typeof parsed === 'string') return [];
  const keyspace: string[] = [];
  const patterns: string[] = [];
  let expired = false;
  walkParsed(parsed.program, (node: TSESTree.Node) => {
    const value = spelledChannel(node);
    if (value === undefined) return;
    if (EXPIRED_KEYEVENT_CHANNEL.test(value)) patterns.push('*');
    const space = KEYSPACE_CHANNEL.exec(value);
    if (space) keyspace.push(value.slice(space[0].length) || '*');
    if (value === EXPIRED_EVENT) expired = true;
    return node.type === 'TemplateLiteral' || node.type === 'BinaryExpression' ? 'skip' : undefined;
  });
  return expired ? [...patterns, ...keyspace] : patterns;
}

/**
 * The text of a string the code writes: a literal, a template part, and a template or a `+`
 * concatenation whole with each interpolated value spelled `*` (`__keyevent@${db}__:expired`,
 * `'__keyevent@' + db + '__:expired'`: any database; `__keyspace@0__:booking:${id}`: any booking).
 */
function spelledChannel(node: TSESTree.Node): string | undefined {
  if (node.type === 'Literal') return typeof node.value === 'string' ? node.value : undefined;
  if (node.type === 'TemplateElement') return node.value.cooked ?? undefined;
  if (node.type === 'TemplateLiteral') return node.quasis.map((quasi) => quasi.value.cooked ?? '').join('*');
  if (node.type !== 'BinaryExpression' || node.operator !== '+' || (node.parent?.type === 'BinaryExpression' && node.parent.operator === '+')) return undefined;
  const parts: string[] = [];
  const add = (operand: TSESTree.Node): void => {
    if (operand.type === 'BinaryExpression' && operand.operator === '+') {
      add(operand.left);
      add(operand.right);
    } else parts.push(operand.type === 'Literal' && typeof operand.value === 'string' ? operand.value : '*');
  };
  add(node);
  return parts.join('');
}
