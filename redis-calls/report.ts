/** Where findings about a Redis call are placed. */
import type { TSESTree } from '@typescript-eslint/utils';
import { keyShapeOf } from './key-shape.js';
import type { RedisCall } from './normalize.js';
import type { AnyContext } from './static.js';

/**
 * From the method name (or the command-name literal) to the end of the call: precise inside
 * chains such as `redis.multi().incr(key).expire(key, 60)`.
 */
export function reportLoc(call: RedisCall): TSESTree.SourceLocation {
  return { start: call.nameNode.loc.start, end: call.node.loc.end };
}

/**
 * The message data every key finding carries: `key`, the key as messages name it (its shape, e.g.
 * `bull:*:wait`, or the expression as written when nothing of it is static); `hint`, how to declare
 * such keys persistent (the `persistentKeys` pattern to copy, or the annotation); `client`, why the
 * receiver was taken for a Redis client (so that a false alarm says what to configure).
 */
export function keyData(
  context: AnyContext,
  call: RedisCall,
  keyNode: TSESTree.Node | undefined,
): { key: string; hint: string; client: string } {
  const shape = keyNode ? keyShapeOf(context, keyNode).shape : '*';
  const known = shape !== '*';
  return {
    key: keyLabel(context, keyNode),
    hint: known
      ? `If keys shaped \`${shape}\` are meant to live forever, add '${shape}' to settings['redis-ttl'].persistentKeys or annotate the write with // redis-ttl persistent: <reason>.`
      : 'If this key is meant to live forever, annotate the write with // redis-ttl persistent: <reason>.',
    client: clientNote(call),
  };
}

/**
 * A key as every message names it, to be quoted once in backticks: its shape (`q:*` for
 * `` `q:${id}` ``) when part of it is static, else the expression as written (at most 60
 * characters, a template literal without its own backticks, so that the quote stays one quote).
 * `'the key'` when there is no key node.
 */
export function keyLabel(context: AnyContext, keyNode: TSESTree.Node | undefined): string {
  if (!keyNode) return 'the key';
  const shape = keyShapeOf(context, keyNode).shape;
  if (shape !== '*') return shape;
  let written = context.sourceCode.getText(keyNode).replace(/\s+/g, ' ');
  if (written.length >= 2 && written.startsWith('`') && written.endsWith('`')) written = written.slice(1, -1);
  return written.length > 60 ? `${written.slice(0, 57)}...` : written;
}

/** "`this.redis` is taken for a Redis client because its name matches clientNames 'redis'" */
export function clientNote(call: RedisCall): string {
  return `\`${call.client.receiver}\` is taken for a Redis client because ${call.client.why}`;
}

/** The sentences every key finding ends with: how to declare the key persistent, and the client note. */
export const KEY_TAIL = '{{hint}} ({{client}}.)';
