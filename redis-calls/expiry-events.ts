/**
 * Whether a package runs code when a key expires: a production module names the channel of expired
 * keys (`semantics/keyspace-events.ts`), as the argument of a SUBSCRIBE / PSUBSCRIBE or anywhere
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
import { moduleText, parsedModule } from './parsed-modules.js';
import { LISTING_TTL_MS, packageFiles, packageOf } from './project.js';
import { walkParsed } from './static.js';
import { testOnlyModule } from './test-paths.js';

const answers = new Map<string, { at: number; handles: boolean }>();

/** A text that may name an expiry channel, to parse only the modules that might. */
const MENTION = /__key(?:event|space)@/;

/**
 * Whether a module of the package of the file at `file` (absolute path), tests left out
 * (`test-paths.ts` testOnlyModule), holds a string naming the key-event channel of expiries
 * (`__keyevent@0__:expired`, `__keyevent@*__:expired`), or both a key-space channel
 * (`__keyspace@0__:<key>`) and the string `expired` (the subscriber tests the event). Only
 * string literals, templates and `+` concatenations count, an interpolated value read as a
 * database number (`__keyevent@${db}__:expired`); a comment does not. `false` when the file belongs
 * to no package or the package is too large to list (`project.ts` MAX_FILES). Kept per package
 * for `LISTING_TTL_MS` (ms), as the package listing is. Never throws.
 */
export function handlesExpiredKeys(file: string): boolean {
  const root = packageOf(file)?.root;
  if (root === undefined) return false;
  const now = Date.now();
  const cached = answers.get(root);
  if (cached && now - cached.at < LISTING_TTL_MS) return cached.handles;
  const handles = (packageFiles(root) ?? []).some((path) => {
    const text = moduleText(path);
    return text !== undefined && MENTION.test(text) && !testOnlyModule(root, path) && namesExpiryChannel(path);
  });
  answers.set(root, { at: now, handles });
  return handles;
}

function namesExpiryChannel(path: string): boolean {
  const parsed = parsedModule(path);
  if (typeof parsed === 'string') return false;
  let keyspace = false;
  let expired = false;
  walkParsed(parsed.program, (node: TSESTree.Node) => {
    const value = spelledChannel(node);
    if (value === undefined) return;
    if (EXPIRED_KEYEVENT_CHANNEL.test(value)) {
      keyspace = expired = true;
      return 'stop';
    }
    if (KEYSPACE_CHANNEL.test(value)) keyspace = true;
    if (value === EXPIRED_EVENT) expired = true;
    return keyspace && expired ? 'stop' : undefined;
  });
  return keyspace && expired;
}

/**
 * The text of a string the code writes: a literal, a template part, and a template or a `+`
 * concatenation whole with each interpolated value spelled `0` (`__keyevent@${db}__:expired`,
 * `'__keyevent@' + db + '__:expired'`: a database number there, the channel of that database).
 */
function spelledChannel(node: TSESTree.Node): string | undefined {
  if (node.type === 'Literal') return typeof node.value === 'string' ? node.value : undefined;
  if (node.type === 'TemplateElement') return node.value.cooked ?? undefined;
  if (node.type === 'TemplateLiteral') return node.quasis.map((quasi) => quasi.value.cooked ?? '').join('0');
  if (node.type !== 'BinaryExpression' || node.operator !== '+' || (node.parent?.type === 'BinaryExpression' && node.parent.operator === '+')) return undefined;
  const parts: string[] = [];
  const add = (operand: TSESTree.Node): void => {
    if (operand.type === 'BinaryExpression' && operand.operator === '+') {
      add(operand.left);
      add(operand.right);
    } else parts.push(operand.type === 'Literal' && typeof operand.value === 'string' ? operand.value : '0');
  };
  add(node);
  return parts.join('');
}
