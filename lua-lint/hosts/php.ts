/**
 * PHP: Predis and phpredis (`$redis->eval($src, ...)`, `->evalRo`, `->script('load', $src)`,
 * `->rawCommand('EVAL', $src, ...)`), Laravel's facade and connections (`Redis::eval(...)`,
 * `$connection->eval(...)`), Predis `ScriptCommand` subclasses (`getScript()` returns the script),
 * and every heredoc or nowdoc labelled `LUA` (Laravel's `LuaScripts`), wherever it is.
 * Strings: single-quoted, double-quoted (escapes), heredocs and nowdocs (the closing marker's
 * indentation removed, PHP 7.3+), joined with `.`; named values: constants (`const`, `define`),
 * properties, variables, and methods of the file that return a string (`self::LOCK`,
 * `static::release()`, `$this->script`). Interpolation (`$var`, `{$a->b}`) and `sprintf` build
 * a script at run time.
 */
import { removeIndent, trimCooked, verbatim } from './cooked.js';
import type { Node } from './parser.js';
import { children, commandScript, cookRange, Resolver, binaryOperands, unwrapParentheses, simpleQuoted, wordHint, type LanguageSyntax } from './shared.js';
import type { ScriptSite, ScriptValue } from './types.js';

const ESCAPES = new Set(['escape_sequence']);
const TEXT = new Set(['string_content', 'string_value', 'nowdoc_string', 'text']);
const CALLS = ['member_call_expression', 'nullsafe_member_call_expression', 'scoped_call_expression'];

/** A heredoc (escapes, interpolation) or nowdoc: the text between the lines of its markers. */
function heredoc(node: Node): ScriptValue | undefined {
  const body = children(node).find((c) => c.type === 'heredoc_body' || c.type === 'nowdoc_body');
  const end = children(node).find((c) => c.type === 'heredoc_end');
  if (!end) return undefined;
  const text = node.text;
  const closingLine = text.lastIndexOf('\n', end.startIndex - node.startIndex) + 1;
  const indent = end.startIndex - node.startIndex - closingLine;
  if (!body) return { kind: 'string', value: verbatim('', end.startIndex) };
  const value =
    node.type === 'nowdoc'
      ? cookRange(body, body.startIndex + 1, body.endIndex, {})
      : cookRange(body, body.startIndex + 1, body.endIndex, { escapes: ESCAPES, text: TEXT, interpolationName: 'heredoc interpolation' });
  if (value.kind === 'dynamic') return value;
  return { kind: 'string', value: removeIndent(value.value, indent) };
}

/** The expression of a method with a body of one `return <expr>;`. */
function returnedExpression(method: Node): Node | undefined {
  const body = method.childForFieldName('body');
  const statements = body ? children(body).filter((c) => c.type !== 'comment') : [];
  if (statements.length !== 1 || statements[0]!.type !== 'return_statement') return undefined;
  return statements[0]!.namedChild(0) ?? undefined;
}

const syntax: LanguageSyntax = {
  *constants(root) {
    for (const node of root.descendantsOfType(['const_element', 'property_element', 'assignment_expression', 'method_declaration', 'function_call_expression'])) {
      if (!node) continue;
      if (node.type === 'const_element') {
        const [name, value] = children(node);
        if (name && value) yield [name.text, value];
      } else if (node.type === 'property_element') {
        const name = node.childForFieldName('name');
        const value = node.childForFieldName('default_value');
        if (name && value) yield [name.text.replace(/^\$/, '->'), value];
      } else if (node.type === 'assignment_expression') {
        const left = node.childForFieldName('left');
        const right = node.childForFieldName('right');
        if (left?.type === 'variable_name' && right) yield [left.text, right];
      } else if (node.type === 'method_declaration') {
        const name = node.childForFieldName('name');
        const returned = returnedExpression(node);
        if (name && returned) yield [`${name.text}()`, returned];
      } else if (node.childForFieldName('function')?.text === 'define') {
        const [name, value] = children(node.childForFieldName('arguments') ?? node).map(argumentValue);
        const constant = name && syntax.literal(name);
        if (constant?.kind === 'string' && value) yield [constant.value.text, value];
      }
    }
  },
  literal(node) {
    if (node.type === 'string') return node.text.replace(/^[bB]/, '').startsWith("'") ? simpleQuoted(node, node.text.indexOf("'") + 1, '\\', "'") : undefined;
    if (node.type === 'encapsed_string') {
      return cookRange(node, node.startIndex + 1, node.endIndex - 1, { escapes: ESCAPES, text: TEXT, interpolationName: 'string interpolation' });
    }
    if (node.type === 'heredoc' || node.type === 'nowdoc') return heredoc(node);
    return undefined;
  },
  operands: (node) => binaryOperands(node, 'binary_expression', '.'),
  reference(node) {
    if (node.type === 'variable_name' || node.type === 'name') return node.text;
    if (node.type === 'class_constant_access_expression') return children(node).at(-1)?.text;
    if (node.type === 'member_access_expression' || node.type === 'scoped_property_access_expression') {
      const name = node.childForFieldName('name')?.text;
      return name === undefined ? undefined : `->${name.replace(/^\$/, '')}`;
    }
    if (CALLS.includes(node.type) && children(node.childForFieldName('arguments') ?? node).length === 0) {
      return `${node.childForFieldName('name')?.text}()`;
    }
    return undefined;
  },
  template(node) {
    if (node.type === 'function_call_expression' && /^(sprintf|vsprintf|str_replace|strtr)$/i.test(node.childForFieldName('function')?.text ?? '')) {
      return `${node.childForFieldName('function')!.text}(...)`;
    }
    return undefined;
  },
  transform(node) {
    if (node.type !== 'function_call_expression') return undefined;
    const name = node.childForFieldName('function')?.text.toLowerCase();
    const args = children(node.childForFieldName('arguments') ?? node).map(argumentValue);
    if (args.length !== 1 || !args[0]) return undefined;
    if (name === 'trim') return { of: args[0], apply: (v) => trimCooked(v) };
    if (name === 'ltrim') return { of: args[0], apply: (v) => trimCooked(v, 'start') };
    if (name === 'rtrim' || name === 'chop') return { of: args[0], apply: (v) => trimCooked(v, 'end') };
    return undefined;
  },
  join(node) {
    // implode(separator, pieces) / join(...), implode(pieces), and the old order implode(pieces, separator)
    if (node.type !== 'function_call_expression' || !/^(implode|join)$/i.test(node.childForFieldName('function')?.text ?? '')) return undefined;
    const args = children(node.childForFieldName('arguments') ?? node).filter((a) => a.type === 'argument').map(argumentValue);
    if (args.length === 1) return { separator: undefined, pieces: [args[0]!] };
    if (args.length !== 2) return undefined;
    return args[0]!.type === 'array_creation_expression' ? { separator: args[1]!, pieces: [args[0]!] } : { separator: args[0]!, pieces: [args[1]!] };
  },
  stringArguments(node) {
    // strtolower($s), str_repeat($s, 2), substr(...), preg_replace(...), mb_*: a string made from the arguments
    if (node.type !== 'function_call_expression' || !/^(str|substr|ucfirst|lcfirst|ucwords|wordwrap|nl2br|preg_replace|mb_)/i.test(node.childForFieldName('function')?.text ?? '')) return undefined;
    return children(node.childForFieldName('arguments') ?? node).filter((a) => a.type === 'argument').map(argumentValue);
  },
  elements(node) {
    // [a, b] / array(a, b): each element's value (after `key =>`)
    if (node.type !== 'array_creation_expression') return undefined;
    return children(node).filter((e) => e.type === 'array_element_initializer').map((e) => children(e).at(-1) ?? e);
  },
  unwrap: (node) => unwrapParentheses(node),
};

function argumentValue(argument: Node): Node {
  return argument.type === 'argument' ? (children(argument).at(-1) ?? argument) : argument;
}

const SCRIPT_FIRST = new Set(['eval', 'evalro', 'eval_ro']);
const COMMAND = 'rawcommand';

/** Whether a PHP file may hold a script (names one of the calls, a ScriptCommand, or has a LUA heredoc). */
export const phpHint = wordHint([...SCRIPT_FIRST, 'script', COMMAND, 'getScript'], /\bLUA\b/, 'i');

/** The scripts of a PHP file. */
export function phpScripts(root: Node): ScriptSite[] {
  const resolver = new Resolver(syntax, root);
  const sites: ScriptSite[] = [];
  for (const call of root.descendantsOfType(CALLS)) {
    const method = call?.childForFieldName('name')?.text;
    if (!call || !method) continue;
    const args = children(call.childForFieldName('arguments') ?? call).filter((a) => a.type === 'argument');
    const named = (key: string): Node | undefined => args.find((a) => a.childForFieldName('name')?.text === key);
    let script: Node | undefined;
    const lower = method.toLowerCase();
    if (SCRIPT_FIRST.has(lower)) {
      script = named('script') ?? args[0];
    } else if (lower === 'script') {
      const sub = resolver.value(args[0] && argumentValue(args[0]));
      if (sub?.kind !== 'string' || sub.value.text.toLowerCase() !== 'load') continue;
      script = args[1];
    } else if (lower === COMMAND) {
      script = commandScript(args.map(argumentValue), resolver);
    } else {
      continue;
    }
    const value = resolver.script(script && argumentValue(script));
    const receiver = call.childForFieldName('object') ?? call.childForFieldName('scope');
    if (value) sites.push({ value, via: `${receiver?.text ?? ''}${call.type === 'scoped_call_expression' ? '::' : '->'}${method}(...)` });
  }
  for (const cls of root.descendantsOfType('class_declaration')) {
    const base = cls ? children(cls).find((c) => c.type === 'base_clause') : undefined;
    if (!cls || !base || !/ScriptCommand$/.test(base.text)) continue;
    for (const method of cls.descendantsOfType('method_declaration')) {
      if (method?.childForFieldName('name')?.text !== 'getScript') continue;
      const value = resolver.value(returnedExpression(method));
      if (value) sites.push({ value, via: `${cls.childForFieldName('name')?.text ?? 'the class'}::getScript()` });
    }
  }
  for (const doc of root.descendantsOfType(['heredoc', 'nowdoc'])) {
    if (!doc || children(doc).find((c) => c.type === 'heredoc_start')?.text.toUpperCase() !== 'LUA') continue;
    const value = heredoc(doc);
    if (value) sites.push({ value, via: `the <<<${doc.type === 'nowdoc' ? "'LUA'" : 'LUA'} ${doc.type}` });
  }
  return sites;
}
