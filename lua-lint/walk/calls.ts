/**
 * Calls: the builtins the walk understands (`assert`, `error`, `pcall` / `xpcall`, `tonumber`,
 * `unpack`, `table.insert`, `redis.error_reply`, `redis.register_function`, `math.*`), calls of
 * the script's own functions (followed into their body, with their arguments, up to
 * {@link MAX_CALL_DEPTH}; under pcall an error returns to the caller), and `redis.call` /
 * `redis.pcall`, handed to effects.ts. A function the script defines nowhere is reported.
 */
import type * as L from 'luaparse';
import { undefinedFunctionMessage } from '../messages.js';
import { adopt, joinAll, NIL, sameValue, UNKNOWN, withReply, type Scope, type State, type Value } from '../state.js';
import { expressionText, rangeOf } from './ast.js';
import type { Ctx } from './base.js';
import { Expressions } from './expressions.js';
import { appendItem, GLOBAL_BUILTINS, mathCall } from './values.js';

/** How deep calls of the script's own functions are followed (a recursive call is not followed). */
const MAX_CALL_DEPTH = 8;

/** See the module comment. */
export abstract class Calls extends Expressions {
  /** The callbacks `redis.register_function` registered: each is walked as a script of its own. */
  protected readonly registered: Value[] = [];
  private readonly callStack: L.FunctionDeclaration[] = [];
  /** Why some code could not be analysed (a registered callback the walk cannot see). */
  protected unfollowed: string | undefined;

  private names: Set<string> | undefined;

  /** Walks a block of statements (statements.ts). */
  protected abstract block(body: readonly L.Statement[], st: State, ctx: Ctx): State;

  /** Every name the script declares or assigns anywhere (functions, locals, globals, parameters). */
  private definedNames(): Set<string> {
    // the scan listed them: the locals (functions, parameters, loop variables among them) and the
    // names assigned by `name = v`
    if (this.names) return this.names;
    const { locals, assigned } = this.input.index;
    return (this.names = new Set([...locals, ...assigned]));
  }

  protected call(node: L.Node, baseNode: L.Expression, argNodes: readonly L.Expression[], st: State, ctx: Ctx): Value {
    const callee = this.expression(baseNode, st, ctx);
    if (callee.t === 'builtin') {
      switch (callee.name) {
        case 'assert': {
          const [cond, ...rest] = argNodes;
          if (!cond) return UNKNOWN;
          const [t, f] = this.condition(cond, st, ctx);
          if (f) this.raise(f, ctx, { kind: 'assert', offset: rangeOf(node)[0] });
          if (t) {
            for (const arg of rest) this.expression(arg, t, ctx);
            adopt(st, t);
          } else st.dead = true;
          return UNKNOWN;
        }
        case 'pcall':
        case 'xpcall': {
          const [fnNode, ...rest] = argNodes;
          const fn = fnNode ? this.expression(fnNode, st, ctx) : UNKNOWN;
          const args = this.expressionList(callee.name === 'xpcall' ? rest.slice(1) : rest, st, ctx, 0);
          if (fn.t === 'fn') this.callFunction(fn, args, st, ctx, true);
          else if (fn.t === 'builtin' && (fn.name === 'redis.call' || fn.name === 'redis.pcall')) {
            this.redisCall(node, args, rest, st, ctx, true);
          }
          return UNKNOWN;
        }
        default:
          break;
      }
    }
    const args = this.expressionList(argNodes, st, ctx, 0);
    if (st.dead) return UNKNOWN;
    if (callee.t === 'fn') return this.callFunction(callee, args, st, ctx, false);
    if (callee.t !== 'builtin') {
      const name = undefinedCallee(baseNode, this.definedNames());
      if (name !== undefined && callee.t === 'unknown' && !callee.origin) this.report('unanalyzable-command', node, undefinedFunctionMessage(name));
      return UNKNOWN;
    }
    switch (callee.name) {
      case 'redis.call':
      case 'redis.pcall':
        return this.redisCall(node, args, argNodes, st, ctx, callee.name === 'redis.pcall');
      case 'redis.error_reply':
        return { t: 'errorReply' };
      case 'redis.register_function': {
        // register_function(name, callback) or register_function{function_name = ..., callback = ...}
        const first = args[0];
        const callback = first?.t === 'table' && first.fields ? first.fields.get('callback') : args[1];
        const nameValue = first?.t === 'table' && first.fields ? first.fields.get('function_name') : first;
        const name = nameValue?.t === 'str' && nameValue.v !== undefined ? nameValue.v : undefined;
        const callbacks = callback?.t === 'each' ? callback.values : callback ? [callback] : [];
        for (const cb of callbacks) {
          if (cb.t === 'fn') this.registered.push(name ? { ...cb, name } : cb);
          else this.unfollowed ??= `a function registered at line ${this.input.lineOf(rangeOf(node)[0])} is not one the analyzer can follow`;
        }
        return UNKNOWN;
      }
      case 'error':
        this.raise(st, ctx, { kind: 'error', offset: rangeOf(node)[0] });
        return UNKNOWN;
      case 'tonumber': {
        const arg = args[0] ?? NIL;
        if (arg.t === 'num') return arg;
        // tonumber() of an integer reply is that reply: guards on it keep their meaning.
        if (arg.t === 'reply' && arg.luaType === 'number') return arg;
        // tonumber() of a bulk reply: a number when the key holds one, nil otherwise.
        if (arg.t === 'reply') return withReply(arg, { luaType: 'number', numeric: true });
        if (arg.t === 'str') {
          if (arg.zeroWhenMissing) return { t: 'num', zeroWhenMissing: arg.zeroWhenMissing };
          if (arg.v !== undefined) return arg.v.trim() !== '' && Number.isFinite(Number(arg.v)) ? { t: 'num', v: Number(arg.v) } : NIL;
          return arg.argv !== undefined && arg.argv !== '*' ? { t: 'num', argv: arg.argv, nilable: true } : { t: 'num', nilable: true };
        }
        return { t: 'num', nilable: true };
      }
      case 'tostring':
      case 'type':
      case 'table.concat':
      case 'cjson.encode':
      case 'redis.sha1hex':
        return { t: 'str', node };
      case 'unpack':
      case 'table.unpack': {
        // unpack(KEYS); unpack(t) of a table the script built or filled: its items; unpack(t) of
        // a table holding values we cannot list one by one ({unpack(ARGV)}): unknown values.
        const table = args[0];
        if (table?.t === 'table') return table.items && table.items.length > 0 ? { t: 'spread', items: [...table.items] } : { t: 'spread' };
        return { t: 'spread', ...(table ? { of: table } : {}) };
      }
      case 'table.insert': {
        // table.insert(t, v): remembered in order, so that unpack(t) gives the keys it holds.
        const [table, ...rest] = args;
        if (table?.t === 'table' && rest.length === 1 && rest[0]) appendItem(table, rest[0]);
        return NIL;
      }
      case 'cjson.decode':
      case 'cmsgpack.unpack':
        return { t: 'unknown', origin: 'decoded' };
      default:
        if (callee.name.startsWith('math.')) return mathCall(callee.name, args);
        if (callee.name === 'string.len' || callee.name === 'string.byte' || callee.name === 'string.find') return { t: 'num' };
        if (callee.name.startsWith('string.')) return { t: 'str', node };
        return UNKNOWN;
    }
  }

  private callFunction(fn: Extract<Value, { t: 'fn' }>, args: Value[], st: State, _ctx: Ctx, isProtected: boolean): Value {
    if (this.callStack.length >= MAX_CALL_DEPTH || this.callStack.includes(fn.node)) return UNKNOWN;
    this.callStack.push(fn.node);
    const scope: Scope = { parent: fn.scope, names: undefined };
    fn.node.parameters.forEach((param, i) => {
      if (param.type === 'Identifier') this.declare(scope, st, param.name, args[i] ?? NIL, param);
      else this.declare(scope, st, '...', { t: 'spread', items: args.slice(i) }, param);
    });
    const fnCtx = this.newFn('helper', fn.name, isProtected);
    const end = this.block(fn.node.body, st, { scope, fn: fnCtx });
    this.callStack.pop();
    const outs = [...fnCtx.returns];
    if (!end.dead) outs.push(end);
    const joined = joinAll(outs);
    adopt(st, joined);
    this.dropScope(st, scope);
    const first = fnCtx.returnValues[0];
    if (!first || outs.length !== fnCtx.returnValues.length) return first && !end.dead ? UNKNOWN : (first ?? NIL);
    return fnCtx.returnValues.every((v) => sameValue(v, first)) ? first : UNKNOWN;
  }
}

/** Globals of Redis' Lua 5.1 besides {@link GLOBAL_BUILTINS} (https://redis.io/docs/latest/develop/interact/programmability/lua-api/). */
const OTHER_GLOBALS: ReadonlySet<string> = new Set(['_G', '_VERSION', 'KEYS', 'ARGV', 'redis', 'server', 'collectgarbage', 'coroutine', 'gcinfo', 'getfenv', 'setfenv', 'newproxy', 'select', 'bit', 'struct']);

/**
 * The name of a called function that the script defines nowhere (`helper(...)`, `utils.helper(...)`
 * with `utils` undefined), or undefined.
 */
function undefinedCallee(base: L.Expression, defined: ReadonlySet<string>): string | undefined {
  let root: L.Expression = base;
  while (root.type === 'MemberExpression' || root.type === 'IndexExpression') root = root.base;
  if (root.type !== 'Identifier') return undefined;
  const name = root.name;
  if (defined.has(name) || GLOBAL_BUILTINS.has(name) || OTHER_GLOBALS.has(name)) return undefined;
  return expressionText(base);
}
