/**
 * A plain SET that clears the TTL its own code gives the key on another path. SET discards any
 * TTL the key had (its `overwrite` effect, `semantics/command-description.ts`), so when the function that
 * writes a key without expiry also writes it with one before it on its path (also in an `if`
 * the path goes through: the creation branch of a read-modify-write), the key was meant to expire
 * and this write takes that away for good. The usual shape is a
 * read-modify-write counter:
 *
 * ```ts
 * const current = await redis.get(key);
 * if (!current) { await redis.set(key, '1', 'EX', windowSeconds); return true; } // the window
 * await redis.set(key, String(Number(current) + 1));                              // clears it
 * ```
 *
 * The write with expiry may be a call of the application's TTL-arms wrapper passing a TTL its
 * test cannot decide (`redisClient.set(key, '1', windowSeconds)`, `facades.ts` expiringArmAt).
 * Not this reading: an expiry in the other arm of the same choice (`if (active) set(k, v, 'EX',
 * 300) else set(k, v)`), after the write on its path (a separate round trip, the rule's
 * `setThenExpire`), in another function, or of another key, nor one whose key a DEL / UNLINK of
 * the same function deletes between the two (the key is gone: the SET discards no TTL).
 */
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { EXPIRY_EFFECTS } from '../semantics/commands.js';
import { expiringArmAt } from './facades.js';
import { callsInFunction } from './file-index.js';
import { forEachCallIn } from './index.js';
import { keyIdOf } from './key-id.js';
import type { RedisCall } from './normalize.js';
import { enclosingFunction, followsOnItsPath, type AnyContext } from './static.js';

/**
 * Whether `other` sits in a branch (of an `if` or `?:` that does not hold `call`) whose test reads
 * nothing but the function's parameters (`if (typeof ttl === 'number') return set(k, v, 'PX', ttl)`):
 * the caller's arguments choose the expiring write, not the key's state, so a later call with
 * other arguments is another caller's write, not this key's TTL being discarded. A test of a reply
 * (`if (!current)` of a GET of the key) keeps the reading.
 */
function chosenByArgumentsOnly(other: TSESTree.Node, call: TSESTree.Node, fn: TSESTree.Node): boolean {
  const params = new Set(
    'params' in fn ? (fn.params as TSESTree.Parameter[]).flatMap((param) => {
      const bare = param.type === AST_NODE_TYPES.TSParameterProperty ? param.parameter : param;
      const id = bare.type === AST_NODE_TYPES.AssignmentPattern ? bare.left : bare;
      return id.type === AST_NODE_TYPES.Identifier ? [id.name] : [];
    }) : [],
  );
  for (let at: TSESTree.Node | undefined = other; at && at !== fn; at = at.parent) {
    const parent: TSESTree.Node | undefined = at.parent;
    if (!parent || (parent.type !== AST_NODE_TYPES.IfStatement && parent.type !== AST_NODE_TYPES.ConditionalExpression) || parent.test === at) continue;
    if (call.range[0] >= parent.range[0] && call.range[1] <= parent.range[1]) continue;
    const names: string[] = [];
    const visit = (node: TSESTree.Node): void => {
      if (node.type === AST_NODE_TYPES.Identifier) names.push(node.name);
      else if (node.type === AST_NODE_TYPES.MemberExpression) visit(node.object);
      else for (const key of ['argument', 'left', 'right', 'expressions', 'test', 'consequent', 'alternate', 'expression'] as const) {
        const child = (node as unknown as Record<string, TSESTree.Node | TSESTree.Node[] | undefined>)[key];
        if (Array.isArray(child)) child.forEach(visit);
        else if (child && typeof child === 'object' && 'type' in child) visit(child);
      }
    };
    visit(parent.test);
    if (names.length > 0 && names.every((name) => params.has(name))) return true;
  }
  return false;
}

/**
 * The write of the same function that gives the key at argument `arg` of `call` a TTL (SET ... EX,
 * SETEX, EXPIRE, an arms wrapper's expiring arm) before `call` on its path (`static.ts`
 * followsOnItsPath); `undefined` when there is none.
 * @param context the rule context of `call`'s file
 * @param call a write without expiry (a plain SET)
 * @param arg the argv position of its key
 */
export function ttlGivenOnOtherPath(context: AnyContext, call: RedisCall, arg: number): RedisCall | undefined {
  const id = keyIdOf(context, call, arg);
  if (!id) return undefined;
  const fn = enclosingFunction(call.node);
  if (!fn) return undefined;
  const candidates: RedisCall[] = [...callsInFunction(context, fn, true)];
  forEachCallIn(context, fn, (node) => {
    if (node === call.node || enclosingFunction(node) !== fn) return;
    const arm = expiringArmAt(context, node);
    if (arm) candidates.push(arm);
  });
  // a DEL / UNLINK of the key between the two: the key is gone, the SET discards no TTL
  const deletes = candidates.filter((other) => other.node !== call.node && other.description.keys.some((action) => action.effect === 'delete' && keyIdOf(context, other, action.arg) === id));
  return candidates.find((other) => {
    if (other === call || other.node === call.node || other.unit.key === call.unit.key) return false;
    // before it on its path (`if (!current) { set(k, '1', 'EX', w); return; }` then `set(k, n + 1)`),
    // not in the other arm of the same choice (`if (active) set(k, v, 'EX', 300) else set(k, v)`)
    if (!followsOnItsPath(other.node, call.node)) return false;
    if (deletes.some((del) => del.node !== other.node && followsOnItsPath(other.node, del.node) && followsOnItsPath(del.node, call.node))) return false;
    if (chosenByArgumentsOnly(other.node, call.node, fn)) return false;
    return other.description.keys.some((action) => EXPIRY_EFFECTS.has(action.effect) && keyIdOf(context, other, action.arg) === id);
  });
}
