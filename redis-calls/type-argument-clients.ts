/**
 * A call whose explicit type argument says it returns a client: a DI container's
 * `container.get<Redis>(kRedis)`, `resolve<Redis>(token)`, `inject<RedisClientType>(REDIS)`. The
 * caller names the type of what comes back, and the callee passes it through: its declared return
 * type is that type parameter (`get<T>(token: Token<T>): T`, `Promise<T>`), or the code declares
 * no callee at all (a method of a package's object, whose declaration is not read). A callee the
 * code declares with another return type (`get<T>(key: string): Promise<string>`, `pool<T>():
 * Pool<T>`) decides by that type, as before; a type argument that is no client (`get<Config>()`,
 * `get<Logger>(kLogger)`) makes no client.
 *
 * ```ts
 * import { container } from '@acme/framework';         // export const container = new Container() (a package's class)
 * const redis = container.get<Redis>(kRedis);          // a client: its calls are checked
 * const logger = container.get<Logger>(kLogger);       // not one
 * ```
 */
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { promisedType } from './client-syntax.js';
import { type ReceiverKind, UNKNOWN, relabel } from './client-facts.js';
import type { ClientDetector } from './clients.js';
import { memberOf, typeOfExpression } from './declared-types.js';
import { objectLiteralMethod } from './object-literal-methods.js';
import { unwrap } from './static.js';

/**
 * The client the explicit type argument of `node` names, when the callee returns what that type
 * argument says (see the module comment); else {@link UNKNOWN}.
 * @param host the detector of the module `node` is written in
 */
export function typeArgumentClient(host: ClientDetector, node: TSESTree.CallExpression, depth: number): ReceiverKind {
  const params = node.typeArguments?.params;
  if (!params || params.length === 0 || depth > 6) return UNKNOWN;
  const declared = declaredReturn(host, node, depth);
  if (declared === 'other') return UNKNOWN;
  // the argument the callee returns: the one its return type names, or the only one given
  const index = declared === undefined ? (params.length === 1 ? 0 : -1) : declared;
  const argument = index >= 0 ? params[index] : undefined;
  if (!argument) return UNKNOWN;
  const verdict = host.classifyType(argument);
  if (!verdict.redis) return UNKNOWN;
  const text = host.contextOf.sourceCode.getText(argument);
  return relabel(verdict, (inner) => `its call names the type it returns, \`${text}\`: ${inner.replace(/^its annotation /, '')}`);
}

/**
 * What the callee of `node` is declared to return: the index of the type parameter its return
 * type is (`T`, `Promise<T>`), `'other'` for another declared return type or a callee of the code
 * declared without one, `undefined` when the code declares no such callee (a package's).
 */
function declaredReturn(host: ClientDetector, node: TSESTree.CallExpression, depth: number): number | 'other' | undefined {
  const callee = unwrap(node.callee);
  if (callee.type === AST_NODE_TYPES.Identifier) {
    const origin = host.identifierOrigin(callee);
    if (origin.kind === 'import' && !origin.own) return undefined;
    const exported = origin.kind === 'import' ? host.exported(origin) : undefined;
    const fn = exported ? exported.detector.functionOf(exported.node) : origin.kind === 'local' ? host.functionOf(callee) : undefined;
    if (!fn) return origin.kind === 'local' || exported ? 'other' : undefined;
    return returnedParameter(fn.returnType?.typeAnnotation);
  }
  if (callee.type !== AST_NODE_TYPES.MemberExpression || callee.property.type !== AST_NODE_TYPES.Identifier) return 'other';
  const method = host.localMethod(callee);
  if (method) return returnedParameter(method.returnType?.typeAnnotation);
  const signature = memberOf(typeOfExpression(host, callee.object, depth + 1), callee.property.name, depth + 1);
  if (signature) return signature.returns ? returnedParameter(signature.returns) : 'other';
  const literal = objectLiteralMethod(host, callee.object, callee.property.name);
  if (literal) return returnedParameter(literal.fn.returnType?.typeAnnotation);
  return undefined;
}

/** The index of the type parameter of its function a declared return type is (`T`, `Promise<T>`), else `'other'`. */
function returnedParameter(type: TSESTree.TypeNode | undefined): number | 'other' {
  if (!type) return 'other';
  const inner = promisedType(type);
  if (inner.type !== AST_NODE_TYPES.TSTypeReference || inner.typeName.type !== AST_NODE_TYPES.Identifier || inner.typeArguments) return 'other';
  const name = inner.typeName.name;
  // the function the return type belongs to: TSTypeAnnotation, then the function or signature
  const owner = type.parent?.parent as { typeParameters?: TSESTree.TSTypeParameterDeclaration } | undefined;
  const index = owner?.typeParameters?.params.findIndex((p) => p.name.name === name) ?? -1;
  return index >= 0 ? index : 'other';
}
