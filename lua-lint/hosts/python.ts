/**
 * Python: redis-py and valkey-py (`r.register_script(src)`, `r.eval(src, numkeys, ...)`,
 * `eval_ro`, `script_load`, `function_load`, `Script(client, src)`,
 * `execute_command("EVAL", src, ...)`), the same methods of their asyncio clients and of coredis.
 * Strings: every quote style, raw (`r"..."`) and byte strings, implicit concatenation
 * (`"a" "b"`) and `+`; named values: assignments at module and class level (`SCRIPT = ...`,
 * `self.SCRIPT`, `cls.SCRIPT`, `Limiter.SCRIPT`). f-strings, `%` and `.format()` build a
 * script at run time.
 */
import { children, commandScript, cookRange, lastName, Resolver, binaryOperands, unwrapParentheses, memberReference, wordHint, type LanguageSyntax } from './shared.js';
import type { Node } from './parser.js';
import type { ScriptSite, ScriptValue } from './types.js';
import { concat, dedentCooked, trimCooked } from './cooked.js';

const ESCAPES = new Set(['escape_sequence']);
const INTERPOLATIONS = new Set(['interpolation']);

function stringValue(node: Node): ScriptValue {
  const start = node.child(0);
  const end = node.child(node.childCount - 1);
  const prefix = (start?.text ?? '').replace(/["']+$/, '').toLowerCase();
  const from = start?.endIndex ?? node.startIndex;
  const to = end?.type === 'string_end' ? end.startIndex : node.endIndex;
  return cookRange(node, from, to, {
    ...(prefix.includes('r') ? {} : { escapes: ESCAPES }),
    ...(prefix.includes('f') ? { interpolations: INTERPOLATIONS, interpolationName: 'an f-string' } : {}),
    unknownEscape: 'keep',
  });
}

const syntax: LanguageSyntax = {
  *constants(root) {
    for (const assignment of root.descendantsOfType('assignment')) {
      const left = assignment?.childForFieldName('left');
      const right = assignment?.childForFieldName('right');
      if (!left || !right) continue;
      if (left.type === 'identifier') yield [left.text, right];
      else if (left.type === 'attribute') yield [left.childForFieldName('attribute')?.text ?? '', right];
    }
  },
  literal(node) {
    if (node.type === 'string') return stringValue(node);
    if (node.type === 'concatenated_string') {
      const parts = [];
      for (const part of children(node)) {
        const value = stringValue(part);
        if (value.kind === 'dynamic') return value;
        parts.push(value.value);
      }
      return { kind: 'string', value: concat(parts, node.startIndex) };
    }
    return undefined;
  },
  operands: (node) => binaryOperands(node, 'binary_operator', '+'),
  reference: (node) => memberReference(node, 'attribute', 'attribute'),
  template(node) {
    if (node.type === 'binary_operator' && node.childForFieldName('operator')?.text === '%' && isStringish(node.childForFieldName('left'))) {
      return '`%` formatting';
    }
    if (node.type === 'call') {
      const fn = node.childForFieldName('function');
      if (fn?.type === 'attribute' && /^(format|format_map|replace)$/.test(lastName(fn.childForFieldName('attribute')) ?? '') && isStringish(fn.childForFieldName('object'))) {
        return `\`.${fn.childForFieldName('attribute')!.text}()\``;
      }
    }
    return undefined;
  },
  transform(node) {
    if (node.type !== 'call') return undefined;
    const fn = node.childForFieldName('function');
    const args = children(node.childForFieldName('arguments') ?? node).filter((a) => a.type !== 'comment');
    // textwrap.dedent(s) / dedent(s)
    if ((fn?.text === 'textwrap.dedent' || fn?.text === 'dedent') && args.length === 1) return { of: args[0]!, apply: dedentCooked };
    // s.strip() / s.lstrip() / s.rstrip(), without arguments
    const method = fn?.type === 'attribute' ? fn.childForFieldName('attribute')?.text : undefined;
    const object = fn?.childForFieldName('object');
    if (object && args.length === 0 && (method === 'strip' || method === 'lstrip' || method === 'rstrip')) {
      return { of: object, apply: (v) => trimCooked(v, method === 'strip' ? 'both' : method === 'lstrip' ? 'start' : 'end') };
    }
    return undefined;
  },
  join(node) {
    // separator.join(pieces): one positional argument, the separator a string of the file
    if (node.type !== 'call') return undefined;
    const fn = node.childForFieldName('function');
    const args = children(node.childForFieldName('arguments') ?? node).filter((a) => a.type !== 'comment');
    const separator = fn?.type === 'attribute' && fn.childForFieldName('attribute')?.text === 'join' ? fn.childForFieldName('object') : null;
    return separator && args.length === 1 && args[0]!.type !== 'keyword_argument' ? { separator, pieces: [args[0]!] } : undefined;
  },
  elements: (node) => (node.type === 'list' || node.type === 'tuple' ? children(node).filter((e) => e.type !== 'comment') : undefined),
  unwrap: (node) => unwrapParentheses(node),
};

function isStringish(node: Node | null): boolean {
  return node !== null && (node.type === 'string' || node.type === 'concatenated_string' || node.type === 'identifier' || node.type === 'attribute');
}

const SCRIPT_FIRST = new Set(['register_script', 'eval', 'eval_ro', 'script_load', 'function_load']);
const SCRIPT_SECOND = new Set(['Script', 'AsyncScript']); // Script(registered_client, script)
const COMMAND = 'execute_command';

/** Whether a Python file may hold a script (names one of the calls). */
export const pythonHint = wordHint([...SCRIPT_FIRST, ...SCRIPT_SECOND, COMMAND]);

/** The scripts of a Python file. */
export function pythonScripts(root: Node): ScriptSite[] {
  const resolver = new Resolver(syntax, root);
  const sites: ScriptSite[] = [];
  for (const call of root.descendantsOfType('call')) {
    if (!call) continue;
    const fn = call.childForFieldName('function');
    const name = fn?.type === 'attribute' ? fn.childForFieldName('attribute')?.text : fn?.type === 'identifier' ? fn.text : undefined;
    if (!fn || !name) continue;
    const argList = call.childForFieldName('arguments');
    if (argList?.type !== 'argument_list') continue;
    const all = children(argList);
    const positional = all.filter((arg) => arg.type !== 'keyword_argument');
    const keyword = (key: string): Node | undefined =>
      all.find((arg) => arg.type === 'keyword_argument' && arg.childForFieldName('name')?.text === key)?.childForFieldName('value') ?? undefined;
    let script: Node | undefined;
    if (fn.type === 'attribute' && SCRIPT_FIRST.has(name)) {
      script = positional[0] ?? keyword('script') ?? keyword('code');
    } else if (SCRIPT_SECOND.has(name)) {
      script = positional[1] ?? keyword('script');
    } else if (fn.type === 'attribute' && name === COMMAND) {
      script = commandScript(positional, resolver);
    } else {
      continue;
    }
    const value = resolver.script(script);
    if (value) sites.push({ value, via: `${fn.text}(...)` });
  }
  return sites;
}
