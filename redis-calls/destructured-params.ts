/**
 * A key builder's destructured options parameter, read against the object literal a call passes:
 *
 * ```js
 * function flagKey({ prefix, tenant = 'default', flagName, environment }) {
 *   return [prefix, tenant, 'flags', flagName, environment].join(':');
 * }
 * flagKey({ prefix: this.prefix, tenant: this.tenant, flagName: name, environment: env });
 * ```
 *
 * Each name the pattern binds takes the value of the argument's property of that name (written at
 * the call: `redis-calls/key-shape.ts` spells it there), or the pattern's default when the
 * argument has no such property (spelled in the builder's module). A name the argument may set
 * through a spread (`{ ...opts, id }`: any property but those written after the spread), a
 * computed key, a nested pattern or a rest element is not bound: its part stays `*`, as a
 * parameter the call does not fix.
 */
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { propertyName, unwrap } from './static.js';

/** The value one name of a destructured parameter takes at a call. */
export interface DestructuredValue {
  /** The name the pattern binds (the parameter's identifier in the builder). */
  id: TSESTree.Identifier;
  /** The expression it takes; `undefined` when unknown (a spread may set it, or nothing does). */
  value: TSESTree.Node | undefined;
  /** Where `value` is written: the call's argument, or the pattern's default in the builder. */
  from: 'argument' | 'default';
}

/**
 * The values the names of an object-destructuring parameter (`{ prefix, tenant = 'default' }`,
 * also `{ ... } = {}`) take at a call passing `argument`; `undefined` when the parameter is no
 * object pattern or the argument is no object literal (and the parameter's own default is none).
 * @param param the builder's parameter as declared
 * @param argument the call's argument at the parameter's position, if any
 */
export function destructuredArgument(param: TSESTree.Parameter, argument: TSESTree.Node | undefined): DestructuredValue[] | undefined {
  const pattern = param.type === AST_NODE_TYPES.AssignmentPattern ? param.left : param;
  if (pattern.type !== AST_NODE_TYPES.ObjectPattern) return undefined;
  // no argument: the parameter's default object (`{ prefix = 'q' } = {}`)
  const given = argument ? unwrap(argument) : param.type === AST_NODE_TYPES.AssignmentPattern ? unwrap(param.right) : undefined;
  if (given?.type !== AST_NODE_TYPES.ObjectExpression) return undefined;
  const written = writtenProperties(given);
  const out: DestructuredValue[] = [];
  for (const property of pattern.properties) {
    if (property.type !== AST_NODE_TYPES.Property || property.computed) continue;
    const name = propertyName(property.key, false);
    const target = property.value;
    const id = target.type === AST_NODE_TYPES.AssignmentPattern ? target.left : target;
    if (name === undefined || id.type !== AST_NODE_TYPES.Identifier) continue;
    if (written.values.has(name)) out.push({ id, value: written.values.get(name), from: 'argument' });
    else if (written.spread) out.push({ id, value: undefined, from: 'argument' });
    else if (target.type === AST_NODE_TYPES.AssignmentPattern) out.push({ id, value: target.right, from: 'default' });
    else out.push({ id, value: undefined, from: 'argument' });
  }
  return out;
}

/**
 * The properties an object literal surely holds, by name (the last one written wins; `undefined`
 * for a method or accessor), and whether
 * a spread or a computed key may hold others: a property written before a spread may be replaced
 * by it, so only those after the last spread count.
 */
function writtenProperties(object: TSESTree.ObjectExpression): { values: Map<string, TSESTree.Node | undefined>; spread: boolean } {
  const values = new Map<string, TSESTree.Node | undefined>();
  let spread = false;
  for (const property of object.properties) {
    if (property.type === AST_NODE_TYPES.SpreadElement) {
      values.clear();
      spread = true;
      continue;
    }
    const name = property.computed ? undefined : propertyName(property.key, false);
    if (name === undefined) {
      spread = true; // a computed key may be any name
      continue;
    }
    // a method or accessor is no text: the name is set, its part unknown
    values.set(name, property.kind === 'init' && !property.method ? property.value : undefined);
  }
  return { values, spread };
}
