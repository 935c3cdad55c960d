/**
 * The text of a fixed value: `NATIVE_MINT.toString()` (no radix: {@link textMethodCall}) is the text of
 * `NATIVE_MINT`, fixed when that value is (an imported binding, a `const` of constants), as
 * `String(NATIVE_MINT)` is (`redis-calls/key-shape.ts`): `` `${NATIVE_MINT.toString()}_price` `` is
 * one key (Fenguoz/trading-bot). `toString()` of data (a parameter, `v4()`, `Date.now()`) stays
 * data.
 *
 * The same holds for the string methods that take no argument and make one text of one text
 * ({@link textMethodCall}): `trim()`, `trimStart()`, `trimEnd()`, `toLowerCase()`,
 * `toUpperCase()`. A configured prefix normalised once (`process.env.REDIS_KEY_PREFIX?.trim() ||
 * 'workdcup:'`, thombanal/polymarket-fifa-arbitrage) is still one value per deployment, so a key
 * built from it and constants is one key. Of data (`` `user:${name.toLowerCase()}` ``) it stays
 * data.
 */
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { propertyName } from './static.js';

/** What each argument-less text method does to a spelling (`*` runs, which stand for run-time text, are left as they are). */
const TEXT_METHODS: Readonly<Record<string, (text: string) => string>> = {
  toString: (text: string) => text,
  trim: (text) => text.trim(),
  trimStart: (text) => text.trimStart(),
  trimEnd: (text) => text.trimEnd(),
  toLowerCase: (text) => text.toLowerCase(),
  toUpperCase: (text) => text.toUpperCase(),
};

/** A spelled value: its text and, when it is one of a few, each spelling. */
interface Spelled {
  text: string;
  alternatives?: string[];
}

/**
 * A call of an argument-less method that makes one text of the text of its receiver
 * (`x.toString()`, `x.trim()`, `x?.toLowerCase()`, ...; `x` any expression): the receiver, and
 * `respell`, which gives the call's spelling (text and alternatives) from the receiver's. The
 * caller decides whether the receiver is fixed (then the call is, as `String(x)` is).
 * `undefined` for any other call, and for one of these with arguments (`toString(16)`, a radix).
 * @param callee the call's callee, unwrapped of compiler output (`redis-calls/key-parts.ts`)
 * @param call the call
 */
export function textMethodCall(
  callee: TSESTree.Node,
  call: TSESTree.CallExpression,
): { receiver: TSESTree.Expression; respell: <P extends Spelled>(part: P) => P } | undefined {
  if (callee.type !== AST_NODE_TYPES.MemberExpression || callee.computed || call.arguments.length > 0) return undefined;
  const name = propertyName(callee.property, false);
  const method = name === undefined || !Object.hasOwn(TEXT_METHODS, name) ? undefined : TEXT_METHODS[name];
  if (!method) return undefined;
  return {
    receiver: callee.object,
    respell: (part) => ({ ...part, text: method(part.text), ...(part.alternatives ? { alternatives: part.alternatives.map(method) } : {}) }),
  };
}
