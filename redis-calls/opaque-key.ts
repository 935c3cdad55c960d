/**
 * "An opaque key nothing says is meant to expire": the records and indexes of a storage layer, the
 * structures of a queue, written as `set(getKey(table, { id }), value)` or with keys destructured
 * from `keys.getQueueKeys(queue)`. Such a key
 *
 * - is **opaque**: its shape has no letter or digit (`*`, `*:*`), so no `persistentKeys` pattern
 *   can name it and the message has no pattern to offer;
 * - is **built by a key helper**: a call of a key builder of this module named as one (`getKey`,
 *   `messageKey`, `this.toKey`: its name says `key`), or a binding or member named as a key
 *   (`key`, `keyQueuePending`) destructured from, or read off, the result of a call
 *   (`const { key } = processRecord(t, r)`, `redisKeys.getQueueKeys(q).keyPending`), also through
 *   a `const` or a member the class assigns only such values (`this.keyQueuePending = keyQueuePending`);
 *   a key the caller passes in (a parameter) or a key made of data (`JSON.stringify(args)`,
 *   `hash(text)`) is not, and stays reported;
 * - has **no sign that it is meant to expire**: the file gives no key a TTL (no EXPIRE, SET ... EX,
 *   ...); no name around it says temporary (the key expression, its helper, the enclosing
 *   functions, classes, or the file name: cache, session, lock, token, otp, nonce, limit,
 *   throttle, temp, lease, ...); and no TTL value (`ttl`, `expiresIn`, `maxAge`) is read in the
 *   enclosing function or class.
 *
 * `allowOpaqueKeys` (on in `recommended`, off in `strict`) leaves such writes unreported.
 */
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { classOfThis, forEachThisWrite } from './bounded.js';
import { fileIndexOf } from './file-index.js';
import { keyBuilder, type KeyShape } from './key-shape.js';
import { KEY_NAME, TEMPORARY_WORD, TTL_VALUE_NAME, wordsOf } from './names.js';
import { findVariable, propertyName, referenceName, unwrap, type AnyContext } from './static.js';

const MAX_DEPTH = 6;

/**
 * Whether the key at `keyNode` is an opaque key built by a key helper, and nothing in its file
 * says it is meant to expire (see the module comment).
 * @param context the rule context
 * @param keyNode the key argument as written at the call
 * @param shape the key's shape ({@link keyShapeOf})
 */
export function opaqueKeyNotMeantToExpire(context: AnyContext, keyNode: TSESTree.Node, shape: KeyShape): boolean {
  if (/[\p{L}\p{N}]/u.test(shape.shape)) return false;
  const names = helperNames(context, keyNode, 0);
  if (!names) return false;
  if (fileIndexOf(context).expiredShapes.size > 0) return false;
  const sourceCode = context.sourceCode;
  const around = [sourceCode.getText(keyNode), ...names, ...enclosingNames(keyNode), context.filename.split(/[\\/]/).pop() ?? ''];
  if (around.some((name) => wordsOf(name).some((word) => TEMPORARY_WORD.test(word)))) return false;
  return !readsTtlValue(keyNode);
}

/**
 * The names of the key helper a key comes from (`['getKey']`, `['key', 'processRecord']`), or
 * `undefined` when it does not come from one.
 */
function helperNames(context: AnyContext, input: TSESTree.Node, depth: number): string[] | undefined {
  if (depth > MAX_DEPTH) return undefined;
  let node = unwrap(input);
  if (node.type === AST_NODE_TYPES.AwaitExpression) node = unwrap(node.argument);
  switch (node.type) {
    case AST_NODE_TYPES.CallExpression: {
      const name = calleeName(node.callee);
      return name !== undefined && KEY_NAME.test(name) && keyBuilder(context, node.callee) ? [name] : undefined;
    }
    case AST_NODE_TYPES.MemberExpression: {
      const name = propertyName(node.property, node.computed);
      if (name === undefined) return undefined;
      const object = unwrap(node.object);
      // this.keyQueuePending: every value the class assigns it comes from a key helper
      if (object.type === AST_NODE_TYPES.ThisExpression) return memberHelperNames(context, node, name, depth);
      // getQueueKeys(q).keyPending
      const call = callOf(object);
      return call && KEY_NAME.test(name) ? [name, calleeName(call.callee) ?? ''] : undefined;
    }
    case AST_NODE_TYPES.Identifier:
      return bindingHelperNames(context, node, depth);
    default:
      return undefined;
  }
}

/** `const k = getKey(...)` (assigned once), or `const { key } = processRecord(...)`. */
function bindingHelperNames(context: AnyContext, id: TSESTree.Identifier, depth: number): string[] | undefined {
  const variable = findVariable(context, id);
  const def = variable?.defs.length === 1 ? variable.defs[0] : undefined;
  if (!variable || !def || def.type !== 'Variable') return undefined;
  const declarator = def.node;
  if (!declarator.init || variable.references.some((r) => r.isWrite() && r.identifier !== def.name)) return undefined;
  if (declarator.id.type === AST_NODE_TYPES.Identifier) return helperNames(context, declarator.init, depth + 1);
  if (declarator.id.type !== AST_NODE_TYPES.ObjectPattern) return undefined;
  let name: string | undefined;
  for (const property of declarator.id.properties) {
    if (property.type === AST_NODE_TYPES.Property && unwrapPattern(property.value) === def.name) name = propertyName(property.key, property.computed);
  }
  const call = callOf(declarator.init);
  if (!name || !call || !(KEY_NAME.test(name) || KEY_NAME.test(def.name.name))) return undefined;
  return [name, calleeName(call.callee) ?? ''];
}

/** `this.<name>`, every assignment of which in its class is a value from a key helper. */
function memberHelperNames(context: AnyContext, member: TSESTree.MemberExpression, name: string, depth: number): string[] | undefined {
  const cls = classOfThis(member);
  if (!cls) return undefined;
  const names: string[] = [];
  let ok = true;
  let writes = 0;
  const take = (value: TSESTree.Node | undefined): void => {
    writes++;
    const found = value ? helperNames(context, value, depth + 1) : undefined;
    if (found) names.push(...found);
    else ok = false;
  };
  for (const element of cls.body.body) {
    if (element.type === AST_NODE_TYPES.PropertyDefinition && !element.static && propertyName(element.key, element.computed) === name) {
      if (element.value) take(element.value);
      continue;
    }
    // each method's (the constructor's too) and arrow property's writes of this.<name>
    const body =
      element.type === AST_NODE_TYPES.MethodDefinition ? element.value.body : element.type === AST_NODE_TYPES.PropertyDefinition ? element.value : null;
    if (body) forEachThisWrite(body, name, take);
  }
  return ok && writes > 0 ? [name, ...names] : undefined;
}

/** The call an expression is (through `await`), or undefined. */
function callOf(input: TSESTree.Node): TSESTree.CallExpression | undefined {
  let node = unwrap(input);
  if (node.type === AST_NODE_TYPES.AwaitExpression) node = unwrap(node.argument);
  return node.type === AST_NODE_TYPES.CallExpression ? node : undefined;
}

/** The identifier a destructuring value binds (`{ key }`, `{ key = d }`). */
function unwrapPattern(node: TSESTree.Node): TSESTree.Node {
  return node.type === AST_NODE_TYPES.AssignmentPattern ? node.left : node;
}

/** `getKey` of `getKey(...)`, `toKey` of `this.toKey(...)`; undefined for other callees. */
function calleeName(callee: TSESTree.Node): string | undefined {
  return referenceName(unwrap(callee));
}

/**
 * Whether a text (a Lua script's source) says its keys are meant to expire: a word that names an
 * expiry (`PEXPIRE`, `'EX'`, `ttl`) or a temporary key (cache, lock, session, ...).
 */
export function textSaysTemporary(text: string): boolean {
  return wordsOf(text).some((word) => TEMPORARY_WORD.test(word) || EXPIRY_WORD.test(word));
}

/** Words that name an expiry in a script: the expiry commands and SET options (`EX`, `PXAT`, `KEEPTTL`). */
const EXPIRY_WORD = /^(?:p?expire(?:at|time)?|p?setex|getex|h?p?expire\w*|ex|px|exat|pxat|keepttl)$/i;

/** Names of the functions, methods and classes around a node (innermost first). */
function enclosingNames(node: TSESTree.Node): string[] {
  const names: string[] = [];
  for (let current = node.parent; current; current = current.parent) {
    switch (current.type) {
      case AST_NODE_TYPES.FunctionDeclaration:
      case AST_NODE_TYPES.FunctionExpression:
      case AST_NODE_TYPES.ClassDeclaration:
      case AST_NODE_TYPES.ClassExpression:
        if (current.id) names.push(current.id.name);
        break;
      case AST_NODE_TYPES.MethodDefinition:
      case AST_NODE_TYPES.PropertyDefinition:
      case AST_NODE_TYPES.Property: {
        const name = propertyName(current.key, current.computed);
        if (name) names.push(name);
        break;
      }
      case AST_NODE_TYPES.VariableDeclarator:
        if (current.id.type === AST_NODE_TYPES.Identifier) names.push(current.id.name);
        break;
      default:
        break;
    }
  }
  return names;
}

/** Whether a TTL value (`ttl`, `this.options.expiresIn`) is read in the enclosing class, else the outermost enclosing function. */
function readsTtlValue(node: TSESTree.Node): boolean {
  let scope: TSESTree.Node | undefined;
  for (let current = node.parent; current; current = current.parent) {
    if (current.type === AST_NODE_TYPES.ClassBody) {
      scope = current;
      break;
    }
    if (
      current.type === AST_NODE_TYPES.FunctionDeclaration ||
      current.type === AST_NODE_TYPES.FunctionExpression ||
      current.type === AST_NODE_TYPES.ArrowFunctionExpression
    ) {
      scope = current;
    }
  }
  if (!scope) return false;
  const stack: TSESTree.Node[] = [scope];
  let visited = 0;
  while (stack.length > 0 && visited++ < 50_000) {
    const current = stack.pop()!;
    if (current.type === AST_NODE_TYPES.Identifier && TTL_VALUE_NAME.test(current.name)) return true;
    for (const [key, value] of Object.entries(current)) {
      if (key === 'parent') continue;
      if (Array.isArray(value)) {
        for (const child of value) if (isNode(child)) stack.push(child);
      } else if (isNode(value)) stack.push(value);
    }
  }
  return false;
}

function isNode(value: unknown): value is TSESTree.Node {
  return typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string';
}
