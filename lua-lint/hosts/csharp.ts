/**
 * C#: StackExchange.Redis (`LuaScript.Prepare(src)` with `@name` parameters, see
 * templating.ts; `db.ScriptEvaluate(src, keys, values)`, `ScriptEvaluateAsync`,
 * `ScriptEvaluateReadOnly[Async]`, `server.ScriptLoad[Async](src)`, `db.Execute("EVAL", ...)`)
 * and NRedisStack / FreeRedis / CSRedis methods of the same names (`Eval`, `EvalAsync`).
 * Strings: regular literals (escapes), verbatim strings (`@"..."`, `""` is a quote), raw string
 * literals (`"""`, the closing line's indentation removed), joined with `+`; named values:
 * `const` and `static readonly` fields and local variables of the file. Interpolated strings
 * (`$"...{x}..."`) and `string.Format` build a script at run time.
 */
import { removeIndent, trimCooked } from './cooked.js';
import type { Node } from './parser.js';
import { children, commandScript, cookRange, Resolver, binaryOperands, unwrapParentheses, memberReference, simpleQuoted, wordHint, type LanguageSyntax } from './shared.js';
import type { ScriptSite, ScriptValue } from './types.js';

const ESCAPES = new Set(['escape_sequence']);

/** `"""..."""`: on several lines, the text between the delimiters' lines, less the closing line's indentation. */
function rawString(node: Node): ScriptValue | undefined {
  const content = children(node).find((c) => c.type === 'raw_string_content');
  if (!content) return undefined;
  const text = content.text;
  if (!text.includes('\n')) return cookRange(content, content.startIndex, content.endIndex, {});
  const first = text.indexOf('\n') + 1;
  const lastBreak = text.lastIndexOf('\n');
  const indent = text.length - lastBreak - 1;
  const end = lastBreak > 0 && text[lastBreak - 1] === '\r' ? lastBreak - 1 : lastBreak;
  const value = cookRange(content, content.startIndex + first, content.startIndex + Math.max(end, first), {});
  if (value.kind === 'dynamic') return value;
  return { kind: 'string', value: removeIndent(value.value, indent) };
}

const syntax: LanguageSyntax = {
  *constants(root) {
    for (const declarator of root.descendantsOfType('variable_declarator')) {
      const name = declarator?.childForFieldName('name');
      const value = declarator ? children(declarator).at(-1) : undefined;
      if (name && value && value !== name) yield [name.text, value.type === 'equals_value_clause' ? (value.namedChild(0) ?? value) : value];
    }
  },
  literal(node) {
    if (node.type === 'string_literal') return cookRange(node, node.startIndex + 1, node.endIndex - 1, { escapes: ESCAPES });
    if (node.type === 'verbatim_string_literal') return simpleQuoted(node, 2, '"', '"');
    if (node.type === 'raw_string_literal') return rawString(node);
    if (node.type === 'interpolated_string_expression') {
      const interpolation = children(node).find((c) => c.type === 'interpolation');
      if (interpolation) return { kind: 'dynamic', how: 'an interpolated string', at: interpolation.startIndex, end: interpolation.endIndex };
      const startToken = children(node).find((c) => c.type === 'interpolation_start');
      if (startToken?.text.includes('"""') || startToken?.text.includes('@')) return undefined;
      return cookRange(node, (startToken?.endIndex ?? node.startIndex + 2), node.endIndex - 1, { escapes: ESCAPES });
    }
    return undefined;
  },
  operands: (node) => binaryOperands(node, 'binary_expression', '+'),
  reference: (node) => memberReference(node, 'member_access_expression', 'name'),
  template(node) {
    if (node.type !== 'invocation_expression') return undefined;
    const fn = node.childForFieldName('function');
    const name = fn?.type === 'member_access_expression' ? fn.childForFieldName('name')?.text : undefined;
    const owner = fn?.childForFieldName('expression')?.text;
    if (name === 'Format' && (owner === 'string' || owner === 'String')) return '`string.Format(...)`';
    if (name === 'Replace' && owner !== undefined) return '`.Replace(...)`';
    return undefined;
  },
  transform(node) {
    if (node.type !== 'invocation_expression') return undefined;
    const fn = node.childForFieldName('function');
    const name = fn?.type === 'member_access_expression' ? fn.childForFieldName('name')?.text : undefined;
    const object = fn?.childForFieldName('expression');
    if (!object || children(node.childForFieldName('arguments') ?? node).length > 0) return undefined;
    if (name === 'Trim') return { of: object, apply: (v) => trimCooked(v) };
    if (name === 'TrimStart') return { of: object, apply: (v) => trimCooked(v, 'start') };
    if (name === 'TrimEnd') return { of: object, apply: (v) => trimCooked(v, 'end') };
    return undefined;
  },
  join(node) {
    // string.Join(separator, piece, ...) / string.Join(separator, array), string.Concat(piece, ...)
    const fn = node.type === 'invocation_expression' ? node.childForFieldName('function') : null;
    if (fn?.type !== 'member_access_expression' || !/^(System\.)?(string|String)$/.test(fn.childForFieldName('expression')?.text ?? '')) return undefined;
    const name = fn.childForFieldName('name')?.text;
    const args = children(node.childForFieldName('arguments') ?? node)
      .filter((a) => a.type === 'argument')
      .map((a) => children(a).at(-1) ?? a);
    if (name === 'Concat' && args.length > 0) return { separator: undefined, pieces: args };
    const [separator, ...pieces] = args;
    return name === 'Join' && separator && pieces.length > 0 ? { separator, pieces } : undefined;
  },
  elements(node) {
    // new[] { ... }, new string[] { ... }, { ... } in an array declaration, [ ... ] (C# 12)
    if (node.type === 'implicit_array_creation_expression' || node.type === 'array_creation_expression') {
      const initializer = children(node).find((c) => c.type === 'initializer_expression');
      return initializer ? children(initializer) : undefined;
    }
    return node.type === 'initializer_expression' || node.type === 'collection_expression' ? children(node) : undefined;
  },
  unwrap: (node) => unwrapParentheses(node),
};

const SCRIPT_FIRST = new Set([
  'ScriptEvaluate',
  'ScriptEvaluateAsync',
  'ScriptEvaluateReadOnly',
  'ScriptEvaluateReadOnlyAsync',
  'ScriptLoad',
  'ScriptLoadAsync',
  'Eval',
  'EvalAsync',
  'EvalRo',
  'EvalRoAsync',
]);

const COMMAND = new Set(['Execute', 'ExecuteAsync']);

/** Whether a C# file may hold a script (names one of the calls). */
export const csharpHint = wordHint([...SCRIPT_FIRST, ...COMMAND, 'Prepare']);

/** The scripts of a C# file. */
export function csharpScripts(root: Node): ScriptSite[] {
  const resolver = new Resolver(syntax, root);
  const sites: ScriptSite[] = [];
  for (const call of root.descendantsOfType('invocation_expression')) {
    const fn = call?.childForFieldName('function');
    if (!call || fn?.type !== 'member_access_expression') continue;
    const name = fn.childForFieldName('name')?.text ?? '';
    const owner = fn.childForFieldName('expression')?.text ?? '';
    const args = children(call.childForFieldName('arguments') ?? call)
      .filter((a) => a.type === 'argument')
      .map((a) => children(a).at(-1) ?? a);
    let script: Node | undefined;
    let prepared = false;
    if (name === 'Prepare' && /(^|\.)LuaScript$/.test(owner)) {
      script = args[0];
      prepared = true;
    } else if (SCRIPT_FIRST.has(name)) {
      script = args[0];
    } else if (COMMAND.has(name)) {
      script = commandScript(args, resolver);
    } else {
      continue;
    }
    const value = resolver.script(script);
    if (value) sites.push({ value, via: `${fn.text}(...)`, ...(prepared ? { templating: 'stackexchange-redis' as const } : {}) });
  }
  return sites;
}
