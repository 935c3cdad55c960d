/**
 * The client verdict the TypeScript type checker gives a receiver's type, for the client detector
 * (`redis-calls/clients.ts`) on a typed lint run: where the type (its alias, its symbol, a union's
 * members, a type parameter's constraint, a class's base types) is declared; `unknown` when the
 * checker knows nothing (`any`, `unknown`, a boolean) or the type is the code's own object type
 * declaring a client's commands, which syntax and names then decide. A type that says nothing about
 * its value (`{}`, what `new Proxy({}, handler)` is; `object`; an empty interface or class; an index
 * signature only; the lib's `Function`) is `unknown` too: the untyped evidence (names, imports, how
 * the value was made) decides, as in the untyped run. A type with members that are not a client's
 * (a class of the code, `Map`, a logger) still says "not a client".
 */
import type * as ts from 'typescript';
import { type ReceiverKind, NOT_REDIS, symbolVerdict } from './client-facts.js';
import { isClientCommandName } from './client-syntax.js';

/**
 * The verdict on a type, or `unknown` when the checker cannot tell.
 * @param depth how many types (constraints, union members, base types) led here; past 3, not a client
 */
export function checkerVerdict(checker: ts.TypeChecker, type: ts.Type, depth: number): ReceiverKind | 'unknown' {
  // ts.TypeFlags.Any = 1, Unknown = 2: nothing is known, fall back to syntax.
  if (type.flags & (1 | 2)) return 'unknown';
  // Boolean = 16, BooleanLiteral = 512, Never = 131072: no method can be called on such a value,
  // so a receiver typed so is a JavaScript option the checker typed from its default
  // (`{ redisClient: false }`), not a fact about what the code passes: fall back to syntax.
  if (type.flags & (16 | 512 | 131072)) return 'unknown';
  if (depth > 3) return NOT_REDIS;
  // (a second name for the type: the guard would narrow `type` itself to `never` past this branch)
  const parameter: ts.Type = type;
  if (parameter.isTypeParameter()) {
    // <C extends Redis>(client: C): judge by the constraint
    const constraint = checker.getBaseConstraintOfType(parameter);
    return constraint && constraint !== type ? checkerVerdict(checker, constraint, depth + 1) : 'unknown';
  }
  const parts = type.isUnionOrIntersection() ? type.types : [];
  if (parts.length > 0) {
    const intersection = type.isIntersection();
    let sawUnknown = false;
    let informative = false;
    for (const part of parts) {
      // null / undefined / void members of a union say nothing (TypeFlags Null | Undefined | Void).
      if (part.flags & (65536 | 32768 | 16384)) continue;
      // `Store & {}`, `T & Record<string, unknown>`: a part that says nothing leaves the others to decide
      if (intersection && saysNothing(part)) continue;
      informative = true;
      const verdict = checkerVerdict(checker, part, depth + 1);
      if (verdict === 'unknown') sawUnknown = true;
      else if (verdict.redis) return verdict;
    }
    const own = symbolVerdict(type.aliasSymbol);
    if (own) return own;
    if (intersection && !informative) return 'unknown';
    return sawUnknown ? 'unknown' : NOT_REDIS;
  }
  const own = symbolVerdict(type.aliasSymbol) ?? symbolVerdict(type.getSymbol());
  if (own) return own;
  // class Cache extends Redis {}: a subclass of a client is a client
  if (type.isClassOrInterface()) {
    for (const base of checker.getBaseTypes(type)) {
      const verdict = checkerVerdict(checker, base, depth + 1);
      if (verdict !== 'unknown' && verdict.redis) return verdict;
    }
  }
  // `Pick<Redis, 'get' | 'set'>`, `Omit<Redis, 'quit'>`: a mapped type (ts.ObjectFlags.Mapped = 32)
  // made from a client is the client's commands, judged by the type it is made from
  if (((type as ts.ObjectType).objectFlags ?? 0) & 32) {
    for (const argument of type.aliasTypeArguments ?? []) {
      const verdict = checkerVerdict(checker, argument, depth + 1);
      if (verdict !== 'unknown' && verdict.redis) return verdict;
    }
  }
  // `{}`, `object`, `Record<string, any>`, an empty interface or class: nothing to decide by
  if (saysNothing(type)) return 'unknown';
  // an interface or object type (no class) declaring a client's commands: the code's own
  // description of the client it takes, which the declared type cannot tell from a client
  // (ts.TypeFlags.Object = 524288; ts.ObjectFlags Class = 1, Interface = 2, Anonymous = 16)
  const objectFlags = (type as ts.ObjectType).objectFlags ?? 0;
  if (type.flags & 524288 && !(objectFlags & 1) && objectFlags & (2 | 16) && type.getProperties().some((p) => isClientCommandName(p.getName()))) {
    return 'unknown';
  }
  return NOT_REDIS;
}

/**
 * Whether a type says nothing about what its value is, so that a client cannot be told from
 * anything else by it: `object` (TypeFlags.NonPrimitive), the lib's `Function`, or an object type
 * with no property and no call or construct signature (`{}`, which TypeScript gives
 * `new Proxy({}, handler)`; an empty interface or class; a type with index signatures only, such
 * as `Record<string, any>` or `{ [name: string]: Function }`). A function type (it has a call
 * signature) and any type with a member say something.
 */
export function saysNothing(type: ts.Type): boolean {
  // ts.TypeFlags.NonPrimitive = 67108864 (`object`), Object = 524288
  if (type.flags & 67108864) return true;
  if (!(type.flags & 524288)) return false;
  if (isLibFunction(type)) return true;
  return type.getProperties().length === 0 && type.getCallSignatures().length === 0 && type.getConstructSignatures().length === 0;
}

/** Whether a type is the default library's `Function` (any callable, its signature unsaid). */
function isLibFunction(type: ts.Type): boolean {
  const symbol = type.getSymbol();
  if (symbol?.getName() !== 'Function') return false;
  // the default library's files declare `/// <reference no-default-lib="true"/>`
  return (symbol.getDeclarations() ?? []).some((declaration) => declaration.getSourceFile().hasNoDefaultLib);
}
