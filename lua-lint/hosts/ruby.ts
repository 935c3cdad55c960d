/**
 * Ruby: redis-rb and redis-client (`redis.eval(src, keys: [...], argv: [...])`,
 * `redis.script(:load, src)`, `redis.function_load(src)`, `conn.call("EVAL", src, ...)`), and
 * every heredoc labelled `LUA` (`<<~LUA`), wherever it is: the label says what the text is.
 * Strings: single- and double-quoted (escapes), heredocs (`<<~` removes the common indentation,
 * `<<~'LUA'` takes no escapes), `+` and adjacent literals, `.freeze` / `.dup`; named values:
 * constants, local, instance and class variables of the file (`RELEASE`, `@script`,
 * `self.class::RELEASE`). Interpolation (`#{...}`) and `format` build a script at run time.
 */
import { commonIndent, concat, removeIndent, trimCooked } from './cooked.js';
import type { Node } from './parser.js';
import { children, commandScript, cookRange, Resolver, binaryOperands, simpleQuoted, wordHint, type LanguageSyntax } from './shared.js';
import type { ScriptSite, ScriptValue } from './types.js';

const ESCAPES = new Set(['escape_sequence']);
const INTERPOLATIONS = new Set(['interpolation']);
const SAME_VALUE = new Set(['freeze', 'dup', '+@', 'to_s', 'itself']);

function syntaxFor(root: Node): LanguageSyntax {
  const beginnings = root.descendantsOfType('heredoc_beginning').filter((n): n is Node => n !== null);
  const bodies = root.descendantsOfType('heredoc_body').filter((n): n is Node => n !== null);
  const bodyOf = new Map(beginnings.map((beginning, index) => [beginning.startIndex, bodies[index]]));
  const heredoc = (beginning: Node): ScriptValue | undefined => {
    const body = bodyOf.get(beginning.startIndex);
    const end = body?.children.find((c) => c?.type === 'heredoc_end');
    if (!body || !end) return undefined;
    const text = body.text;
    const stop = body.startIndex + text.lastIndexOf('\n', end.startIndex - body.startIndex) + 1;
    const quoted = /^<<[~-]?'/.test(beginning.text);
    const value = cookRange(body, body.startIndex + 1, Math.max(stop, body.startIndex + 1), {
      ...(quoted ? {} : { escapes: ESCAPES, interpolations: INTERPOLATIONS }),
      interpolationName: 'heredoc interpolation `#{...}`',
    });
    if (value.kind === 'dynamic' || !beginning.text.startsWith('<<~')) return value;
    return { kind: 'string', value: removeIndent(value.value, commonIndent(value.value.text.replace(/\n$/, ''))) };
  };
  const syntax: LanguageSyntax = {
    *constants(tree) {
      for (const assignment of tree.descendantsOfType(['assignment', 'operator_assignment'])) {
        const left = assignment?.childForFieldName('left');
        const right = assignment?.childForFieldName('right');
        if (left && right && /^(constant|identifier|instance_variable|class_variable|global_variable)$/.test(left.type)) yield [left.text, right];
      }
    },
    literal(node) {
      if (node.type === 'heredoc_beginning') return heredoc(node);
      if (node.type === 'string') {
        if (node.text.startsWith("'")) return simpleQuoted(node, 1, '\\', "'");
        return cookRange(node, node.startIndex + 1, node.endIndex - 1, {
          escapes: ESCAPES,
          interpolations: INTERPOLATIONS,
          interpolationName: 'string interpolation `#{...}`',
        });
      }
      if (node.type === 'chained_string') {
        const parts = [];
        for (const part of children(node)) {
          const value = syntax.literal(part);
          if (!value || value.kind === 'dynamic') return value;
          parts.push(value.value);
        }
        return { kind: 'string', value: concat(parts, node.startIndex) };
      }
      if (node.type === 'simple_symbol') return cookRange(node, node.startIndex + 1, node.endIndex, {});
      return undefined;
    },
    operands: (node) => binaryOperands(node, 'binary', '+'),
    reference(node) {
      if (/^(constant|identifier|instance_variable|class_variable|global_variable)$/.test(node.type)) return node.text;
      if (node.type === 'scope_resolution') return node.childForFieldName('name')?.text;
      return undefined;
    },
    template(node) {
      if (node.type === 'binary' && node.childForFieldName('operator')?.text === '%') return '`%` formatting';
      if (node.type === 'call' && !node.childForFieldName('receiver') && /^(format|sprintf)$/.test(node.childForFieldName('method')?.text ?? '')) return `\`${node.childForFieldName('method')!.text}\``;
      return undefined;
    },
    transform(node) {
      // s.strip / s.lstrip / s.rstrip / s.chomp / s.freeze / s.dup, without arguments
      if (node.type !== 'call' || node.childForFieldName('arguments')) return undefined;
      const receiver = node.childForFieldName('receiver');
      const method = node.childForFieldName('method')?.text;
      if (!receiver) return undefined;
      if (method === 'strip') return { of: receiver, apply: (v) => trimCooked(v) };
      if (method === 'lstrip') return { of: receiver, apply: (v) => trimCooked(v, 'start') };
      if (method === 'rstrip') return { of: receiver, apply: (v) => trimCooked(v, 'end') };
      if (method === 'freeze' || method === 'dup' || method === 'to_s') return { of: receiver, apply: (v) => v };
      return undefined;
    },
    join(node) {
      // [a, b].join(separator) / LINES.join: an array, or a named one (not File.join(dir, name))
      if (node.type !== 'call' || node.childForFieldName('method')?.text !== 'join') return undefined;
      const receiver = node.childForFieldName('receiver');
      const argumentList = node.childForFieldName('arguments');
      const args = argumentList ? children(argumentList).filter((a) => a.type !== 'comment') : [];
      if (!receiver || args.length > 1 || !/^(array|string_array|identifier|constant)$/.test(receiver.type) || /^[A-Z][a-z]/.test(receiver.text)) return undefined;
      return { separator: args[0], pieces: [receiver] };
    },
    elements: (node) => (node.type === 'array' ? children(node).filter((e) => e.type !== 'comment') : undefined),
    unwrap(node) {
      let current = node;
      for (;;) {
        if ((current.type === 'parenthesized_statements' || current.type === 'begin_block') && current.namedChildCount === 1) {
          current = current.namedChild(0)!;
        } else if (current.type === 'call' && SAME_VALUE.has(current.childForFieldName('method')?.text ?? '') && !current.childForFieldName('arguments')) {
          current = current.childForFieldName('receiver') ?? current;
          if (current.type === 'call' && SAME_VALUE.has(current.childForFieldName('method')?.text ?? '') && current === node) break;
        } else {
          return current;
        }
      }
      return current;
    },
  };
  return syntax;
}

const SCRIPT_FIRST = new Set(['eval', 'function_load']);
const COMMAND = new Set(['call', 'call_v', 'blocking_call']);

/** Whether a Ruby file may hold a script (names one of the calls, or has a LUA heredoc). */
export const rubyHint = wordHint([...SCRIPT_FIRST, 'script', ...COMMAND], /\bLUA\b/);

/** The scripts of a Ruby file. */
export function rubyScripts(root: Node): ScriptSite[] {
  const syntax = syntaxFor(root);
  const resolver = new Resolver(syntax, root);
  const sites: ScriptSite[] = [];
  for (const call of root.descendantsOfType('call')) {
    const receiver = call?.childForFieldName('receiver');
    const method = call?.childForFieldName('method')?.text;
    const argList = call?.childForFieldName('arguments');
    if (!call || !receiver || !method || !argList) continue;
    const args = children(argList).filter((arg) => arg.type !== 'pair' && arg.type !== 'block_argument');
    let script: Node | undefined;
    if (SCRIPT_FIRST.has(method)) {
      script = args[0];
    } else if (method === 'script') {
      const sub = resolver.value(args[0]);
      if (sub?.kind !== 'string' || sub.value.text.toLowerCase() !== 'load') continue;
      script = args[1];
    } else if (COMMAND.has(method)) {
      script = commandScript(args, resolver);
    } else {
      continue;
    }
    const value = resolver.script(script);
    if (value) sites.push({ value, via: `${receiver.text}.${method}(...)` });
  }
  for (const beginning of root.descendantsOfType('heredoc_beginning')) {
    if (!beginning || !/^<<[~-]?(['"`]?)LUA\1$/i.test(beginning.text)) continue;
    const value = syntax.literal(beginning);
    if (value) sites.push({ value, via: `the ${beginning.text} heredoc` });
  }
  return sites;
}
