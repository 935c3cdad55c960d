/**
 * Go: go-redis (`redis.NewScript(src)`, `rdb.Eval(ctx, src, keys, args...)`, `EvalRO`,
 * `ScriptLoad`, `FunctionLoad`, `FunctionLoadReplace`, `rdb.Do(ctx, "EVAL", src, ...)`), redigo
 * (`redis.NewScript(keyCount, src)`, `conn.Do("EVAL", src, ...)`, `conn.Send`), rueidis
 * (`rueidis.NewLuaScript(src)`, `NewLuaScriptReadOnly`). Strings: interpreted (`"..."`, escapes)
 * and raw (`` `...` ``, carriage returns dropped as the Go spec says), joined with `+`; named values:
 * `const`, `var` and `:=` of the file. `fmt.Sprintf` and friends build a script at run time.
 */
import { cookRange, children, commandScript, lastName, Resolver, binaryOperands, unwrapParentheses, memberReference, wordHint, type LanguageSyntax } from './shared.js';
import type { Node } from './parser.js';
import type { ScriptSite, ScriptValue } from './types.js';
import { removeCarriageReturns, trimCooked } from './cooked.js';

const ESCAPES = new Set(['escape_sequence']);

const syntax: LanguageSyntax = {
  *constants(root) {
    for (const spec of root.descendantsOfType(['const_spec', 'var_spec', 'short_var_declaration'])) {
      if (!spec) continue;
      const names = spec.type === 'short_var_declaration' ? children(spec.childForFieldName('left')!) : spec.childrenForFieldName('name');
      const values = spec.childForFieldName(spec.type === 'short_var_declaration' ? 'right' : 'value');
      if (!values) continue;
      const list = children(values);
      for (const [index, name] of names.entries()) {
        const value = list[index];
        if (name?.type === 'identifier' && value) yield [name.text, value] as [string, Node];
      }
    }
  },
  literal(node): ScriptValue | undefined {
    if (node.type === 'raw_string_literal') {
      const value = cookRange(node, node.startIndex + 1, node.endIndex - 1, {});
      return value.kind === 'string' ? { kind: 'string', value: removeCarriageReturns(value.value) } : value;
    }
    if (node.type === 'interpreted_string_literal') {
      return cookRange(node, node.startIndex + 1, node.endIndex - 1, { escapes: ESCAPES });
    }
    return undefined;
  },
  operands: (node) => binaryOperands(node, 'binary_expression', '+'),
  reference: (node) => memberReference(node, 'selector_expression', 'field'),
  template(node) {
    if (node.type !== 'call_expression') return undefined;
    const fn = node.childForFieldName('function');
    const name = lastName(fn);
    if (name && /^(Sprintf|Sprint|Sprintln)$/.test(name)) return `${fn!.text}(...)`;
    if (fn?.type === 'selector_expression' && /^(Replace|ReplaceAll)$/.test(name ?? '') && fn.childForFieldName('operand')?.text === 'strings') return `${fn.text}(...)`;
    return undefined;
  },
  transform(node) {
    if (node.type !== 'call_expression') return undefined;
    const fn = node.childForFieldName('function');
    const args = children(node.childForFieldName('arguments') ?? node);
    if (fn?.text === 'strings.TrimSpace' && args.length === 1) return { of: args[0]!, apply: (v) => trimCooked(v) };
    return undefined;
  },
  join(node) {
    // strings.Join(pieces, separator)
    if (node.type !== 'call_expression' || node.childForFieldName('function')?.text !== 'strings.Join') return undefined;
    const args = children(node.childForFieldName('arguments') ?? node).filter((a) => a.type !== 'comment');
    return args.length === 2 ? { separator: args[1]!, pieces: [args[0]!] } : undefined;
  },
  stringArguments(node) {
    // strings.ToLower(s), strings.Repeat(s, n), ...: a string made from the arguments
    const fn = node.type === 'call_expression' ? node.childForFieldName('function') : null;
    return fn?.type === 'selector_expression' && fn.childForFieldName('operand')?.text === 'strings' ? children(node.childForFieldName('arguments') ?? node) : undefined;
  },
  elements(node) {
    // []string{"a", B}: each literal_element holds its expression
    const body = node.type === 'composite_literal' ? node.childForFieldName('body') : null;
    return body ? children(body).filter((e) => e.type !== 'comment').map((e) => (e.type === 'literal_element' ? (e.namedChild(0) ?? e) : e)) : undefined;
  },
  unwrap: (node) => unwrapParentheses(node),
};

/** Where the script is among a call's arguments, by method name. */
const CALLS: Readonly<Record<string, 'first' | 'second' | 'last' | 'command'>> = {
  NewScript: 'last', // go-redis NewScript(src), redigo NewScript(keyCount, src)
  NewLuaScript: 'first',
  NewLuaScriptReadOnly: 'first',
  Eval: 'second', // after the context
  EvalRO: 'second',
  ScriptLoad: 'second',
  FunctionLoad: 'second',
  FunctionLoadReplace: 'second',
  Do: 'command',
  Send: 'command',
};

/** Whether a Go file may hold a script (names one of the calls). */
export const goHint = wordHint(Object.keys(CALLS));

/** The scripts of a Go file. */
export function goScripts(root: Node): ScriptSite[] {
  const resolver = new Resolver(syntax, root);
  const sites: ScriptSite[] = [];
  for (const call of root.descendantsOfType('call_expression')) {
    if (!call) continue;
    const fn = call.childForFieldName('function');
    if (fn?.type !== 'selector_expression') continue;
    const name = fn.childForFieldName('field')?.text;
    if (name === undefined || !Object.hasOwn(CALLS, name)) continue;
    const args = children(call.childForFieldName('arguments') ?? call);
    const where = name === undefined ? undefined : CALLS[name];
    if (where === undefined) continue;
    const script = where === 'command' ? commandScript(args, resolver) : where === 'last' ? args.at(-1) : args[where === 'first' ? 0 : 1];
    const value = resolver.script(script);
    if (value) sites.push({ value, via: `${fn.text}(...)` });
  }
  return sites;
}
