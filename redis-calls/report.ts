/** Where findings about a Redis call are placed. */
import type { TSESTree } from '@typescript-eslint/utils';
import { keyShapeOf } from './key-shape.js';
import type { RedisCall } from './normalize.js';
import type { AnyContext } from './static.js';
import { uncalledDeclaration } from './uncalled.js';

/**
 * From the method name (or the command-name literal) to the end of the call: precise inside
 * chains such as `redis.multi().incr(key).expire(key, 60)`.
 */
export function reportLoc(call: RedisCall): TSESTree.SourceLocation {
  return { start: call.nameNode.loc.start, end: call.node.loc.end };
}

/**
 * The message data every key finding carries: `key`, the key as messages name it (its shape, e.g.
 * `bull:*:wait`, or the expression as written when nothing of it is static); `hint`, how to
 * declare such keys persistent, where a pattern can be copied (the shape has a static part; else
 * empty: the rule page says how to annotate a write); `client`, why the receiver was taken for a
 * Redis client, only when that rests on its name alone (else empty), so that such a false alarm
 * says what to configure, or, for a call of a pass-through facade, which facade forwards the key
 * where (`redis-calls/facades.ts`), or, when the caller's TTL argument (`0`, `null`) chose the
 * facade's branch without expiry, that argument; followed by a note when the write is in code
 * that never runs (a function nothing else in its application names: `redis-calls/uncalled.ts`,
 * reported in `strict`).
 * `hint` and `client` start with a space; the rules' messages end with
 * {@link KEY_TAIL}, and a message too long drops them (`rules/create-rule.ts`).
 */
export function keyData(
  context: AnyContext,
  call: RedisCall,
  keyNode: TSESTree.Node | undefined,
): { key: string; hint: string; client: string } {
  const shape = keyNode ? keyShapeOf(context, keyNode).shape : '*';
  return {
    key: keyLabel(context, keyNode),
    hint: /[^*]/.test(shape) ? ` Kept forever on purpose? Add '${shape}' to settings['redis-ttl'].persistentKeys.` : '',
    client:
      (call.facade
        ? call.facade.chosenBy === undefined
          ? ` (\`${call.facade.label}\` forwards the key to ${call.command}, ${call.facade.where}.)`
          : ` (TTL \`${call.facade.chosenBy}\` takes \`${call.facade.label}\`'s ${call.command} without expiry, ${call.facade.where}.)`
        : call.client.byName
          ? ` (${clientNote(call)}.)`
          : '') + uncalledNote(context, call),
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

/**
 * What a finding in code that never runs adds (`strict`: `recommended` leaves it out): which
 * function nothing in the application names (`redis-calls/uncalled.ts`); else empty.
 */
function uncalledNote(context: AnyContext, call: RedisCall): string {
  const uncalled = uncalledDeclaration(context, call.node);
  return uncalled === undefined ? '' : ` (Nothing else in the application names \`${uncalled}\`: if it is dead code, delete it.)`;
}

/** "`this.redis` is taken for a Redis client because its name matches clientNames 'redis'" */
export function clientNote(call: RedisCall): string {
  return `\`${call.client.receiver}\` is taken for a Redis client because ${call.client.why}`;
}

/**
 * What every key finding ends with (no space before it: each part brings its own): the receiver
 * reason when it rests on a name, and how to declare such keys persistent.
 */
export const KEY_TAIL = '{{client}}{{hint}}';
