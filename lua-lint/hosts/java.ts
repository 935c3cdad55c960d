/**
 * Java: Jedis (`jedis.eval(src, ...)`, `evalReadonly`, `scriptLoad`, `functionLoad`), Lettuce
 * (`commands.eval(src, type, keys...)`, `evalReadOnly`, `scriptLoad`, `functionLoad`), Redisson
 * (`getScript().eval(Mode, src, ReturnType, ...)`, `evalAsync`, `scriptLoad`) and Spring Data
 * Redis (`new DefaultRedisScript<>(src, ...)`, `RedisScript.of(src, ...)`, `setScriptText(src)`).
 * Strings: literals with escapes, text blocks (`"""`, incidental indentation removed as the JLS
 * says), joined with `+`; named values: fields and local variables of the file (`LUA`,
 * `this.lua`, `Scripts.LUA`). `String.format`, `.formatted(...)` and `.replace(...)` build a
 * script at run time.
 */
import { commonIndent, dedentCooked, removeIndent, trimCooked } from './cooked.js';
import type { Node } from './parser.js';
import { children, commandScript, cookRange, lastName, Resolver, binaryOperands, unwrapParentheses, memberReference, wordHint, type LanguageSyntax } from './shared.js';
import type { ScriptSite, ScriptValue } from './types.js';

const ESCAPES = new Set(['escape_sequence']);

function stringLiteral(node: Node): ScriptValue {
  const block = node.text.startsWith('"""');
  if (!block) return cookRange(node, node.startIndex + 1, node.endIndex - 1, { escapes: ESCAPES });
  // A text block starts on the line after the opening delimiter.
  const firstBreak = node.text.indexOf('\n');
  const value = cookRange(node, node.startIndex + firstBreak + 1, node.endIndex - 3, { escapes: ESCAPES });
  if (value.kind === 'dynamic') return value;
  const dedented = removeIndent(value.value, commonIndent(value.value.text, true));
  return { kind: 'string', value: dedented };
}

const syntax: LanguageSyntax = {
  *constants(root) {
    for (const declarator of root.descendantsOfType('variable_declarator')) {
      const name = declarator?.childForFieldName('name');
      const value = declarator?.childForFieldName('value');
      if (name && value) yield [name.text, value];
    }
  },
  literal(node) {
    return node.type === 'string_literal' ? stringLiteral(node) : undefined;
  },
  operands: (node) => binaryOperands(node, 'binary_expression', '+'),
  reference: (node) => memberReference(node, 'field_access', 'field'),
  template(node) {
    if (node.type !== 'method_invocation') return undefined;
    const name = node.childForFieldName('name')?.text ?? '';
    const object = node.childForFieldName('object');
    if (name === 'format' && (object?.text === 'String' || object?.text === 'java.lang.String')) return '`String.format(...)`';
    if (/^(formatted|replace|replaceAll)$/.test(name) && object && (object.type === 'string_literal' || object.type === 'identifier' || object.type === 'field_access')) {
      return `\`.${name}(...)\``;
    }
    return undefined;
  },
  transform(node) {
    if (node.type !== 'method_invocation') return undefined;
    const name = node.childForFieldName('name')?.text;
    const object = node.childForFieldName('object');
    const argumentList = node.childForFieldName('arguments');
    if (!object || !argumentList || children(argumentList).length > 0) return undefined;
    if (name === 'trim' || name === 'strip') return { of: object, apply: (v) => trimCooked(v) };
    if (name === 'stripLeading') return { of: object, apply: (v) => trimCooked(v, 'start') };
    if (name === 'stripTrailing') return { of: object, apply: (v) => trimCooked(v, 'end') };
    if (name === 'stripIndent') return { of: object, apply: dedentCooked };
    if (name === 'intern' || name === 'toString') return { of: object, apply: (v) => v };
    return undefined;
  },
  join(node) {
    if (node.type !== 'method_invocation') return undefined;
    if (node.childForFieldName('name')?.text === 'toString') return builderPieces(node.childForFieldName('object'));
    // String.join(separator, piece, ...) / String.join(separator, list)
    if (node.childForFieldName('name')?.text !== 'join') return undefined;
    if (!/^(java\.lang\.)?String$/.test(node.childForFieldName('object')?.text ?? '')) return undefined;
    const [separator, ...pieces] = children(node.childForFieldName('arguments') ?? node).filter((a) => !/comment/.test(a.type));
    return separator && pieces.length > 0 ? { separator, pieces } : undefined;
  },
  elements(node) {
    // List.of(...), Arrays.asList(...), new String[] { ... }, { ... } in an array declaration
    if (node.type === 'method_invocation') {
      const owner = node.childForFieldName('object')?.text;
      const name = node.childForFieldName('name')?.text;
      return (owner === 'List' && name === 'of') || (owner === 'Arrays' && name === 'asList') ? children(node.childForFieldName('arguments') ?? node) : undefined;
    }
    const initializer = node.type === 'array_creation_expression' ? node.childForFieldName('value') : node.type === 'array_initializer' ? node : null;
    return initializer ? children(initializer).filter((e) => !/comment/.test(e.type)) : undefined;
  },
  unwrap: (node) => unwrapParentheses(node),
};

/**
 * `new StringBuilder("a").append("b").append(C)` (or StringBuffer), before its `.toString()`: the
 * pieces in order, joined without separator; `undefined` when the chain is anything else.
 */
function builderPieces(node: Node | null): { separator: undefined; pieces: Node[] } | undefined {
  const pieces: Node[] = [];
  let current = node;
  while (current?.type === 'method_invocation' && current.childForFieldName('name')?.text === 'append') {
    const args = children(current.childForFieldName('arguments') ?? current);
    if (args.length !== 1) return undefined;
    pieces.unshift(args[0]!);
    current = current.childForFieldName('object');
  }
  if (current?.type !== 'object_creation_expression' || !/^(java\.lang\.)?(StringBuilder|StringBuffer)$/.test(current.childForFieldName('type')?.text ?? '')) return undefined;
  // new StringBuilder(text) starts with it; new StringBuilder(capacity) with nothing
  const initial = children(current.childForFieldName('arguments') ?? current).filter((a) => !/integer_literal|comment/.test(a.type));
  if (initial.length === 1) pieces.unshift(initial[0]!);
  return pieces.length > 0 ? { separator: undefined, pieces } : undefined;
}

const SCRIPT_FIRST = new Set(['eval', 'evalReadonly', 'evalReadOnly', 'evalAsync', 'evalReadOnlyAsync', 'scriptLoad', 'scriptLoadAsync', 'functionLoad', 'functionLoadReplace', 'setScriptText']);
const COMMAND = new Set(['sendCommand', 'dispatch', 'executeCommand']);

/** Whether a Java file may hold a script (names one of the calls, or Spring's RedisScript). */
export const javaHint = wordHint([...SCRIPT_FIRST, ...COMMAND], /RedisScript/);

/** The scripts of a Java file. */
export function javaScripts(root: Node): ScriptSite[] {
  const resolver = new Resolver(syntax, root);
  const sites: ScriptSite[] = [];
  for (const call of root.descendantsOfType(['method_invocation', 'object_creation_expression'])) {
    if (!call) continue;
    const args = children(call.childForFieldName('arguments') ?? call).filter((a) => a.type !== 'argument_list');
    let script: Node | undefined;
    let via: string;
    if (call.type === 'object_creation_expression') {
      const typeNode = call.childForFieldName('type');
      const type = (typeNode?.type === 'generic_type' ? typeNode.namedChild(0)?.text : lastName(typeNode)) ?? '';
      if (type !== 'DefaultRedisScript') continue;
      script = args[0];
      via = `new ${type}<>(...)`;
    } else {
      const name = call.childForFieldName('name')?.text ?? '';
      const object = call.childForFieldName('object');
      via = `${object ? `${object.text}.` : ''}${name}(...)`;
      if (SCRIPT_FIRST.has(name) && object) {
        // Redisson: eval([key,] Mode, script, ReturnType, ...): the script follows the Mode.
        const mode = args.findIndex((a) => /(^|\.)(Mode\.)?(READ_ONLY|READ_WRITE)$/.test(a.text));
        script = mode >= 0 ? args[mode + 1] : args[0];
      } else if (name === 'of' && object?.text.endsWith('RedisScript')) {
        script = args[0];
      } else if (COMMAND.has(name) && object) {
        script = commandScript(args, resolver);
      } else {
        continue;
      }
    }
    const value = resolver.script(script);
    if (value) sites.push({ value, via });
  }
  return sites;
}
