/**
 * Keys named by a remote caller of a procedure: the input a tRPC procedure or a GraphQL resolver
 * is handed by whoever calls it over the wire,
 *
 * ```ts
 * setValue: protectedProcedure.input(z.object({ key: z.string() })).mutation(({ input }) => valkey.hset(input.key, 'f', 'v')), // tRPC
 * Mutation: { push: (parent, { key, value }) => redis.rpush(key, value) },                                             // GraphQL
 * ```
 *
 * is the key its caller typed, as a route handler's request field is (`redis-calls/user-named-key.ts`,
 * which asks this module about the root of a key's chain): an admin UI's store procedure writes
 * whatever key its caller names, and the TTL is the caller's business.
 *
 * **What counts.** A value read, by property reads only, off:
 *
 * - the `input` of a **tRPC procedure**: the first parameter of the function given to
 *   `.query(fn)` / `.mutation(fn)` / `.subscription(fn)` on a builder whose chain calls
 *   `.input(...)` (`t.procedure.input(schema).mutation(({ input }) => ...)`, `opts.input.key`,
 *   `({ input: { key } })`), or the `resolve` of a tRPC v9 procedure object that declares an
 *   `input` (`router().mutation('set', { input, resolve: ({ input }) => ... })`);
 * - the arguments of a **GraphQL resolver**: the second parameter of a function that is a field of
 *   a resolver map's `Query` or `Mutation` object (`Mutation: { set: (_, { key }) => ... }`), or
 *   the `resolve` of a field configuration that declares `args` (graphql-js'
 *   `{ type, args: { key: ... }, resolve: (_, args) => ... }`); a NestJS resolver's parameter
 *   decorated `@Args('key')` (itself or a field of it) or `@Args()` (a field of it).
 *
 * Not counted: a procedure without `.input(...)` (it has nothing the caller names), the context
 * (`ctx`, the third parameter: the server's own), a subscription resolver's `subscribe`, and a
 * Next.js server action's parameters: the app's own components call an action as a function
 * (`await setKey('theme:' + id, v)`), so its key is judged at those calls like any helper's
 * (`redis-calls/user-named-key.ts`, a parameter every call of which passes a user's key).
 */
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import type { MessageStep } from './message-key.js';
import { propertyName, unwrap, type FunctionLike } from './static.js';

/** The tRPC procedure builder's methods that take the resolver. */
const PROCEDURE_KINDS: ReadonlySet<string> = new Set(['query', 'mutation', 'subscription']);
/** The root types of a GraphQL resolver map whose fields are answered with the caller's arguments. */
const RESOLVER_ROOTS: ReadonlySet<string> = new Set(['Query', 'Mutation']);
/** How many calls of a builder chain are read back for its `.input(...)`. */
const MAX_CHAIN = 12;

/**
 * Whether the value read by `steps` off parameter `index` (`param`) of `fn` is, verbatim, a value
 * a remote caller of a tRPC procedure or a GraphQL resolver passed (see the module comment).
 */
export function rpcInputField(fn: FunctionLike, index: number, param: TSESTree.Parameter, steps: readonly MessageStep[]): boolean {
  if (steps.some((step) => step.kind !== 'prop')) return false;
  if (nestArgs(param, steps)) return true;
  if (index === 0) return steps.length > 0 && steps[0]!.kind === 'prop' && steps[0]!.name === 'input' && trpcResolver(fn);
  return index === 1 && steps.length > 0 && graphqlResolver(fn);
}

/** `builder.input(schema)...mutation(fn)`, or `{ input, resolve: fn }` handed to `.mutation('name', ...)` (tRPC v9). */
function trpcResolver(fn: FunctionLike): boolean {
  const parent = fn.parent;
  if (parent?.type === AST_NODE_TYPES.CallExpression && parent.arguments[0] === fn) {
    const callee = unwrap(parent.callee);
    if (callee.type !== AST_NODE_TYPES.MemberExpression || !PROCEDURE_KINDS.has(propertyName(callee.property, callee.computed) ?? '')) return false;
    return chainCalls(callee.object, 'input');
  }
  const property = parent?.type === AST_NODE_TYPES.Property && parent.value === fn ? parent : undefined;
  if (!property || propertyName(property.key, property.computed) !== 'resolve') return false;
  const object = property.parent;
  if (object?.type !== AST_NODE_TYPES.ObjectExpression || !hasProperty(object, 'input')) return false;
  const call = object.parent;
  if (call?.type !== AST_NODE_TYPES.CallExpression || call.arguments[1] !== object) return false;
  const callee = unwrap(call.callee);
  return callee.type === AST_NODE_TYPES.MemberExpression && PROCEDURE_KINDS.has(propertyName(callee.property, callee.computed) ?? '');
}

/** Whether the call chain ending at `node` (`t.procedure.use(auth).input(schema)`) calls a method named `name`. */
function chainCalls(node: TSESTree.Node, name: string): boolean {
  let current = unwrap(node);
  for (let seen = 0; seen < MAX_CHAIN; seen++) {
    if (current.type === AST_NODE_TYPES.CallExpression) {
      const callee = unwrap(current.callee);
      if (callee.type !== AST_NODE_TYPES.MemberExpression) return false;
      if (propertyName(callee.property, callee.computed) === name) return true;
      current = unwrap(callee.object);
    } else if (current.type === AST_NODE_TYPES.MemberExpression) {
      current = unwrap(current.object);
    } else {
      return false;
    }
  }
  return false;
}

/** A field of a resolver map's `Query` / `Mutation`, or the `resolve` of a field configuration declaring `args`. */
function graphqlResolver(fn: FunctionLike): boolean {
  const property = fn.parent?.type === AST_NODE_TYPES.Property && fn.parent.value === fn ? fn.parent : undefined;
  const object = property?.parent;
  if (!property || object?.type !== AST_NODE_TYPES.ObjectExpression) return false;
  if (propertyName(property.key, property.computed) === 'resolve' && hasProperty(object, 'args')) return true;
  const root = object.parent;
  return root?.type === AST_NODE_TYPES.Property && root.value === object && RESOLVER_ROOTS.has(propertyName(root.key, root.computed) ?? '');
}

/** Whether the object literal has a property named `name`. */
function hasProperty(object: TSESTree.ObjectExpression, name: string): boolean {
  return object.properties.some((p) => p.type === AST_NODE_TYPES.Property && propertyName(p.key, p.computed) === name);
}

/** A NestJS resolver's `@Args('key') key` (itself or a field of it), or `@Args() args` read at a field. */
function nestArgs(param: TSESTree.Parameter, steps: readonly MessageStep[]): boolean {
  const decorators = 'decorators' in param && Array.isArray(param.decorators) ? (param.decorators as TSESTree.Decorator[]) : [];
  return decorators.some(({ expression }) => {
    if (expression.type !== AST_NODE_TYPES.CallExpression || expression.callee.type !== AST_NODE_TYPES.Identifier || expression.callee.name !== 'Args') return false;
    const named = expression.arguments[0]?.type === AST_NODE_TYPES.Literal;
    return named || (expression.arguments.length === 0 && steps.length > 0);
  });
}
