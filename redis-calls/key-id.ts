/** The identity of a key expression, for pairing a command with another on the same key. */
import type { RedisCall } from './normalize.js';
import type { AnyContext } from './static.js';

/**
 * The identity of the key at argument `arg` of a command, for pairing a write with its expiry:
 * its literal value when known, else its source text without white space (`key`, `` `rl:${ip}` ``).
 * `undefined` when there is no such argument or it is spread.
 */
export function keyIdOf(context: AnyContext, call: RedisCall, arg: number): string | undefined {
  const keyNode = call.argNodes[arg];
  if (!keyNode || keyNode.type === 'SpreadElement') return undefined;
  const value = call.args[arg];
  return value !== undefined ? `value:${String(value)}` : `text:${context.sourceCode.getText(keyNode).replace(/\s+/g, '')}`;
}

/**
 * Whether a key shape (`redis-calls/key-shape.ts`: `sess:*`, `*:*`) spells anything beyond
 * run-time parts and separators, so that two keys of that shape are of one family (`sess:*` and
 * `sess:*` are; `*:*` and `*:*`, a record `${ns}:${id}` and an index `${ns}:${value}`, need not be).
 * An expiry of one key covers a write of another only when their expressions are the same, or
 * their shapes are equal and spell something: an expiry counts only for the key it names.
 */
export function shapeSpellsKey(shape: string): boolean {
  return /[\p{L}\p{N}]/u.test(shape.replace(/\*/g, ''));
}
