/**
 * Keys named by the user through a message: the payload of a message a client sent over a live
 * connection, handed to the handler that answers it,
 *
 * ```js
 * io.on('connection', (socket) => {
 *   socket.on('key-new', async (data, ack) => ack(await redis.rpush(data.key, data.value))); // socket.io
 * });
 * wss.on('connection', (ws) => ws.on('message', (raw) => redis.sadd(JSON.parse(raw).key, 'm'))); // ws
 * ipcMain.handle('persist', (event, key) => redis.persist(key));                          // Electron
 * module.exports = async ({ socket, payload }) => redis.lpush(payload.model.key, payload.model.value);
 * ```
 *
 * is the key the admin UI's user typed, as a route handler's request field is
 * (`redis-calls/user-named-key.ts`, which asks this module about the root of a key's chain).
 *
 * **What counts.** A value read, by property reads only (after an optional `JSON.parse(...)` of
 * the raw message, or of its `.toString()`), off a parameter of:
 *
 * - a handler registered on a **connection's socket**: `s.on(event, fn)` / `once` /
 *   `addListener` / `prependListener`, with `event` a string other than the connection's own
 *   events (`disconnect`, `error`, `close` ...), where `s` is the first parameter of a callback
 *   given to `x.on('connection' | 'connect', ...)` (socket.io's `io.on('connection')`, `ws`'s
 *   `wss.on('connection')`); the handler is the function written there, or a function of the
 *   file registered by name (`socket.on('set', onSet)`);
 * - an Electron `ipcMain.handle` / `handleOnce` / `on` / `once` handler, after its first parameter
 *   (the event);
 * - a NestJS gateway's parameter decorated `@MessageBody()` (a field of it) or `@MessageBody('x')`;
 * - a handler handed the socket with the message (a dispatcher that calls one module per event,
 *   as p3x-redis-ui does): the message is the `payload` / `data` / `message` / `msg` field of a
 *   parameter whose `socket` field the handler also reads (`const { socket, payload } = options`),
 *   and the handler is its module's default export, loaded by name inside a socket's handler
 *   (`redis-calls/dispatched-handlers.ts`): that shape alone is not a dispatched handler.
 *
 * A key built from a payload field (`` `room:${data.id}` ``) is the code's key family, and stays
 * reported; so does a handler's parameter on any other emitter (the app's own `EventEmitter`
 * events, a queue's `job`): nobody typed that key. `redis-calls/user-named-key.ts` keeps reported
 * too a message whose field the handler rewrites first (`data.key = 'x:' + data.key`), a handler
 * the code also calls itself with a key of its own, and a write storing the connection's own
 * identity under the client's name ({@link storesConnection}: a room's members).
 */
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { dispatchedHandler } from './dispatched-handlers.js';
import { findVariable, propertyName, unwrap, walkOwnNodes, type AnyContext, type FunctionLike } from './static.js';

/** One step of a chain from a root value (`redis-calls/user-named-key.ts` Step, and `JSON.parse`). */
export type MessageStep = { kind: 'prop'; name: string } | { kind: 'call'; name: string; arg?: string | number } | { kind: 'parse' };

/** The methods that register an event handler. */
const REGISTER: ReadonlySet<string> = new Set(['on', 'once', 'addListener', 'prependListener', 'prependOnceListener']);
/** The events a connection's socket emits of itself, not a message a client sent (a pg client's `notification` / `notice`, of a pool's `connect`: what the database sent). */
const OWN_EVENTS: ReadonlySet<string> = new Set(['disconnect', 'disconnecting', 'error', 'close', 'end', 'connect', 'connection', 'open', 'ping', 'pong', 'upgrade', 'unexpected-response', 'drain', 'timeout', 'finish', 'notification', 'notice']);
/** The events a server emits with a new connection's socket. */
const CONNECTION_EVENTS: ReadonlySet<string> = new Set(['connection', 'connect']);
/** Electron's main-process IPC registrations. */
const IPC_REGISTER: ReadonlySet<string> = new Set(['handle', 'handleOnce', 'on', 'once']);
/** The fields a dispatcher hands a handler its message in, beside the socket. */
const MESSAGE_FIELDS: ReadonlySet<string> = new Set(['payload', 'data', 'message', 'msg']);

/**
 * Whether the value read by `steps` off parameter `index` of `fn` is a field of a message a
 * connected client sent (see the module comment): property reads only, after an optional
 * `JSON.parse` of the raw message.
 */
export function messageField(context: AnyContext, fn: FunctionLike, index: number, param: TSESTree.Parameter, steps: readonly MessageStep[]): boolean {
  const fields = payloadSteps(steps);
  if (!fields) return false;
  if (nestMessageBody(param, fields)) return true;
  if (fields.some((step) => step.kind !== 'prop')) return false;
  // a module a socket's dispatcher loads by event name (`redis-calls/dispatched-handlers.ts`)
  if (index === 0 && fields.length > 0 && fields[0]!.kind === 'prop' && MESSAGE_FIELDS.has(fields[0]!.name) && readsSocket(context, param) && dispatchedHandler(context, fn)) return true;
  return registrations(context, fn).some((registration) => (registration === 'ipc' ? index >= 1 : true));
}

/** The steps after an optional leading `.toString()` and `JSON.parse(...)`; `undefined` when a call sits anywhere else. */
function payloadSteps(steps: readonly MessageStep[]): readonly MessageStep[] | undefined {
  let rest = steps;
  if (rest[0]?.kind === 'call' && rest[0].name === 'toString' && rest[0].arg === undefined && rest[1]?.kind === 'parse') rest = rest.slice(1);
  if (rest[0]?.kind === 'parse') rest = rest.slice(1);
  return rest.some((step) => step.kind !== 'prop') ? undefined : rest;
}

/** How `fn` is registered: as a socket's message handler, as an Electron IPC handler (none: an empty list). */
function registrations(context: AnyContext, fn: FunctionLike): Array<'socket' | 'ipc'> {
  const found: Array<'socket' | 'ipc'> = [];
  const at = (call: TSESTree.Node | undefined, arg: TSESTree.Node): void => {
    if (call?.type !== AST_NODE_TYPES.CallExpression || call.arguments[1] !== arg) return;
    const kind = registrationKind(context, call);
    if (kind) found.push(kind);
  };
  at(fn.parent, fn);
  // registered by name: `function onSet(data) {}` / `const onSet = (data) => {}`, then `socket.on('set', onSet)`
  const name = fn.type === AST_NODE_TYPES.FunctionDeclaration ? fn.id : fn.parent?.type === AST_NODE_TYPES.VariableDeclarator && fn.parent.init === fn ? fn.parent.id : undefined;
  if (name?.type === AST_NODE_TYPES.Identifier) {
    const variable = findVariable(context, name);
    for (const ref of variable?.references ?? []) at(ref.identifier.parent, ref.identifier);
  }
  return found;
}

/** Whether `call` registers a handler of a client's messages on a connection's socket, or on Electron's `ipcMain`. */
function registrationKind(context: AnyContext, call: TSESTree.CallExpression): 'socket' | 'ipc' | undefined {
  const callee = unwrap(call.callee);
  if (callee.type !== AST_NODE_TYPES.MemberExpression) return undefined;
  const method = propertyName(callee.property, callee.computed);
  const event = call.arguments[0];
  if (method === undefined || event?.type !== AST_NODE_TYPES.Literal || typeof event.value !== 'string') return undefined;
  const receiver = unwrap(callee.object);
  const receiverName = receiver.type === AST_NODE_TYPES.Identifier ? receiver.name : receiver.type === AST_NODE_TYPES.MemberExpression ? propertyName(receiver.property, receiver.computed) : undefined;
  if (receiverName === 'ipcMain' && IPC_REGISTER.has(method)) return 'ipc';
  if (!REGISTER.has(method) || OWN_EVENTS.has(event.value) || receiver.type !== AST_NODE_TYPES.Identifier) return undefined;
  return connectionSocket(context, receiver) ? 'socket' : undefined;
}

/**
 * Whether a value the write `argNodes` stores (any argument but the key at `keyArg`) reads a
 * connected client's socket (`redis.sadd(room, socket.id)`, `hset(name, 'owner', socket.data.user)`):
 * the server's bookkeeping of its live connections under a name the client sent (a room, a
 * channel), whose lifetime is the server's, not an operator's key.
 */
export function storesConnection(context: AnyContext, argNodes: ReadonlyArray<TSESTree.Node | undefined>, keyArg: number): boolean {
  return argNodes.some((arg, i) => {
    if (arg === undefined || i === keyArg) return false;
    let found = false;
    walkOwnNodes(
      arg,
      (node) => {
        if (!found && node.type === AST_NODE_TYPES.Identifier && isSocketReference(node) && connectionSocket(context, node)) found = true;
      },
      true,
    );
    return found;
  });
}

/** Whether the identifier is read as a value (not a property name of a member or an object literal). */
function isSocketReference(id: TSESTree.Identifier): boolean {
  const parent = id.parent;
  if (parent?.type === AST_NODE_TYPES.MemberExpression && parent.property === id && !parent.computed) return false;
  return !(parent?.type === AST_NODE_TYPES.Property && parent.key === id && !parent.shorthand);
}

/** Whether `id` is the first parameter of a callback of `x.on('connection' | 'connect', ...)`: a connected client's socket. */
function connectionSocket(context: AnyContext, id: TSESTree.Identifier): boolean {
  const def = findVariable(context, id)?.defs[0];
  if (def?.type !== 'Parameter') return false;
  const fn = def.node as TSESTree.Node;
  if (fn.type !== AST_NODE_TYPES.FunctionExpression && fn.type !== AST_NODE_TYPES.ArrowFunctionExpression) return false;
  if (fn.params[0] !== def.name) return false;
  const call = fn.parent;
  if (call?.type !== AST_NODE_TYPES.CallExpression || call.arguments[1] !== fn) return false;
  const callee = unwrap(call.callee);
  const event = call.arguments[0];
  return (
    callee.type === AST_NODE_TYPES.MemberExpression &&
    REGISTER.has(propertyName(callee.property, callee.computed) ?? '') &&
    event?.type === AST_NODE_TYPES.Literal &&
    typeof event.value === 'string' &&
    CONNECTION_EVENTS.has(event.value)
  );
}

/** Whether the handler reads the `socket` field of its parameter `param` (`{ socket, payload }`, `options.socket`, `const { socket } = options`). */
function readsSocket(context: AnyContext, param: TSESTree.Parameter): boolean {
  const hasSocket = (pattern: TSESTree.ObjectPattern): boolean => pattern.properties.some((p) => p.type === AST_NODE_TYPES.Property && propertyName(p.key, p.computed) === 'socket');
  if (param.type === AST_NODE_TYPES.ObjectPattern) return hasSocket(param);
  if (param.type !== AST_NODE_TYPES.Identifier) return false;
  const variable = findVariable(context, param);
  return (variable?.references ?? []).some(({ identifier }) => {
    const parent = identifier.parent;
    if (parent?.type === AST_NODE_TYPES.MemberExpression && parent.object === identifier) return propertyName(parent.property, parent.computed) === 'socket';
    return parent?.type === AST_NODE_TYPES.VariableDeclarator && parent.init === identifier && parent.id.type === AST_NODE_TYPES.ObjectPattern && hasSocket(parent.id);
  });
}

/** A NestJS gateway's `@MessageBody('x') x` (the field itself), or `@MessageBody() body` read at its fields. */
function nestMessageBody(param: TSESTree.Parameter, steps: readonly MessageStep[]): boolean {
  const decorators = 'decorators' in param && Array.isArray(param.decorators) ? (param.decorators as TSESTree.Decorator[]) : [];
  return decorators.some(({ expression }) => {
    if (expression.type !== AST_NODE_TYPES.CallExpression || expression.callee.type !== AST_NODE_TYPES.Identifier || expression.callee.name !== 'MessageBody') return false;
    const named = expression.arguments[0]?.type === AST_NODE_TYPES.Literal;
    return named ? steps.length === 0 : expression.arguments.length === 0 && steps.every((step) => step.kind === 'prop');
  });
}
