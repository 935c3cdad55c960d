/**
 * The keys a command defined from a script is called with in the same file: ioredis
 * `defineCommand('meterDrain', { numberOfKeys: 2, lua })` adds a method of that name to the client,
 * whose first `numberOfKeys` arguments are the script's `KEYS` (https://github.com/redis/ioredis#lua-scripting).
 * What the script does to `KEYS[i]` is then what the file does to the keys its calls pass there.
 */
import type { TSESTree } from '@typescript-eslint/utils';
import { propertyName, resolveConstExpression, staticValue, walk, type AnyContext } from './static.js';

/**
 * The key arguments of every call of the command `defineCommand(name, { numberOfKeys, lua })`
 * defines, in this file (`x.name(k1, k2, ...args)`, any receiver: the method exists on the client
 * it was defined on, reached under any name), one list per call, in `KEYS` order. `undefined` when
 * the name or `numberOfKeys` is not a literal, or a call passes fewer keys or spreads one: nothing
 * then says which key each `KEYS[i]` is. An empty list when the file never calls it.
 */
export function definedCommandCallerKeys(context: AnyContext, define: TSESTree.CallExpression): TSESTree.Node[][] | undefined {
  const [nameArg, optionsArg] = define.arguments;
  const name = nameArg ? staticValue(context, nameArg) : undefined;
  if (typeof name !== 'string' || !optionsArg || optionsArg.type === 'SpreadElement') return undefined;
  const options = resolveConstExpression(context, optionsArg);
  if (options.type !== 'ObjectExpression') return undefined;
  const count = options.properties.find((p) => p.type === 'Property' && propertyName(p.key, p.computed) === 'numberOfKeys');
  const numberOfKeys = count?.type === 'Property' ? staticValue(context, count.value) : undefined;
  if (typeof numberOfKeys !== 'number' || !Number.isInteger(numberOfKeys) || numberOfKeys < 1) return undefined;
  const calls: TSESTree.Node[][] = [];
  let unreadable = false;
  walk(context, context.sourceCode.ast, (node) => {
    if (node.type !== 'CallExpression' || node.callee.type !== 'MemberExpression' || propertyName(node.callee.property, node.callee.computed) !== name) return;
    const keys = node.arguments.slice(0, numberOfKeys);
    if (keys.length < numberOfKeys || keys.some((k) => k.type === 'SpreadElement')) unreadable = true;
    else calls.push(keys);
  });
  return unreadable ? undefined : calls;
}
