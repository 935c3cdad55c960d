/**
 * The part every host language shares: following a script argument through constants,
 * class members and concatenations of the same file to its cooked value, and cooking the inside
 * of a literal (escape and interpolation nodes among verbatim text).
 */
import { concat, decodeEscape, emptyCooked, escaped, verbatim, type Cooked } from './cooked.js';
import type { Node } from './parser.js';
import type { LineIndex } from '../../text/lines.js';
import { builtAtRunTimeMessage } from '../messages.js';
import { RULES, parseSeverity } from '../rules.js';
import type { AnalyzeOptions, LuaFinding } from '../types.js';
import type { HostDynamicScript, ScriptValue } from './types.js';

/** What a language tells the shared resolver about its syntax tree. */
export interface LanguageSyntax {
  /** Named values of the file: constants, module variables, class members (name -> value expression). */
  constants(root: Node): Iterable<[string, Node]>;
  /** The value of a string literal node, or `undefined` when `node` is not one. */
  literal(node: Node): ScriptValue | undefined;
  /** The operands of a string concatenation (`a + b`, `a . b`, `"a" "b"`), or `undefined`. */
  operands(node: Node): Node[] | undefined;
  /** The name a reference to a named value uses (`SCRIPT`, `self.SCRIPT`, `Foo::SCRIPT` -> `SCRIPT`). */
  reference(node: Node): string | undefined;
  /** When `node` builds a string from a template at run time: what it is (`fmt.Sprintf`). */
  template(node: Node): string | undefined;
  /** The expression inside parentheses and other wrappers that do not change a value. */
  unwrap(node: Node): Node;
  /**
   * A call that makes a new string from one string of the file in a way known here
   * (`textwrap.dedent(s)`, `s.strip()`, `s.trim()`, `strings.TrimSpace(s)`): the string's
   * expression and what the call does to it.
   */
  transform?(node: Node): { of: Node; apply: (value: Cooked) => Cooked } | undefined;
  /**
   * A join of strings with a separator (`"\n".join([A, B])`, `String.join("\n", A, B)`,
   * `strings.Join([]string{A, B}, "\n")`, `[A, B].join("\n")`, `implode("\n", [A, B])`,
   * `string.Join("\n", A, B)`): the separator (`undefined`: none, the empty string) and the
   * pieces, or the one expression holding them (a list or array, or a named one: see
   * {@link elements}).
   */
  join?(node: Node): { separator: Node | undefined; pieces: Node[] } | undefined;
  /** The elements of a list, array or tuple written out (`["a", B]`, `List.of("a", B)`), or `undefined`. */
  elements?(node: Node): Node[] | undefined;
  /**
   * A call of a function that makes a string from its arguments (Go `strings.ToLower(s)`, PHP
   * `strtolower($s)`): its arguments, which are looked into for a string of the file, as the
   * receiver of a method is (a script made that way is reported, not dropped).
   */
  stringArguments?(node: Node): Node[] | undefined;
}

/** How deep named values may refer to each other (`A = B`, `B = C + "..."`) before the resolver gives up. */
const MAX_REFERENCE_DEPTH = 20;

/** Resolves expressions of one file to the string values they hold. */
export class Resolver {
  private named: Map<string, Node> | undefined;

  constructor(
    private readonly syntax: LanguageSyntax,
    private readonly root: Node,
  ) {}

  /** The named values of the file (the first definition of each name), collected on first use. */
  private lookup(name: string): Node | undefined {
    if (!this.named) {
      this.named = new Map();
      for (const [key, value] of this.syntax.constants(this.root)) if (!this.named.has(key)) this.named.set(key, value);
    }
    return this.named.get(name);
  }

  /**
   * The string an expression holds: a literal, a concatenation of literals (of any length: the
   * operands of `a + b + ... + z` are gathered in one pass, and joined once), a named value of the
   * file holding one, a known transformation of one (`.strip()`); `dynamic` when part of it is
   * built at run time; `undefined` when the expression is not known to be a string of this file
   * (a parameter, a call). `depth` counts named values followed, not operands.
   */
  value(node: Node | null | undefined, depth = 0): ScriptValue | undefined {
    if (!node || depth > MAX_REFERENCE_DEPTH) return undefined;
    const inner = this.syntax.unwrap(node);
    const literal = this.syntax.literal(inner);
    if (literal) return literal;
    const template = this.syntax.template(inner);
    if (template) return { kind: 'dynamic', how: template, at: inner.startIndex, end: inner.endIndex };
    if (this.syntax.operands(inner)) return this.concatenation(inner, depth);
    const join = this.syntax.join?.(inner);
    if (join) {
      const joined = this.joined(inner, join.separator, join.pieces, depth);
      if (joined) return joined;
    }
    const transform = this.syntax.transform?.(inner);
    if (transform) {
      const of = this.value(transform.of, depth + 1);
      return of?.kind === 'string' ? { kind: 'string', value: transform.apply(of.value) } : of;
    }
    const name = this.syntax.reference(inner);
    if (name !== undefined) {
      const target = this.lookup(name);
      if (target && target !== inner) return this.value(target, depth + 1);
    }
    return undefined;
  }

  /**
   * A concatenation, whatever its length: the operand tree (as deep as the chain is long for a
   * left-associative `+`) is flattened with a stack, each operand resolved once, and the pieces
   * joined once, so a join of n literals costs O(total length).
   */
  private concatenation(node: Node, depth: number): ScriptValue | undefined {
    const leaves: Node[] = [];
    const stack: Node[] = [node];
    while (stack.length > 0) {
      const current = this.syntax.unwrap(stack.pop()!);
      const operands = this.syntax.operands(current);
      if (!operands) {
        leaves.push(current);
        continue;
      }
      for (let i = operands.length - 1; i >= 0; i--) stack.push(operands[i]!);
    }
    const read = this.pieces(leaves, depth, undefined);
    if (!('parts' in read)) return read;
    const { parts, unknown } = read;
    if (parts.length === 0) return undefined;
    if (unknown) return { kind: 'dynamic', how: `a concatenation with \`${snippet(unknown.text)}\``, at: unknown.startIndex, end: unknown.endIndex };
    return { kind: 'string', value: concat(parts, node.startIndex) };
  }

  /**
   * A join of pieces with a separator: the pieces' values with the separator's between them, a
   * list of any length costing O(total length) as a concatenation does. `dynamic` when a piece is
   * built at run time or not known (`"\n".join(lines)` of a parameter); `undefined` when neither
   * the separator nor any piece is a string of this file (`os.path.join(a, b)`, `File.join(...)`
   * are no joins of a script).
   */
  private joined(node: Node, separator: Node | undefined, pieces: Node[], depth: number): ScriptValue | undefined {
    const between = separator ? this.value(separator, depth + 1) : undefined;
    if (separator && between?.kind !== 'string') return between;
    const items = (pieces.length === 1 ? this.elementsOf(pieces[0]!, depth + 1) : undefined) ?? pieces;
    const read = this.pieces(items, depth, between?.kind === 'string' ? between.value : undefined);
    if (!('parts' in read)) return read;
    const { parts, unknown } = read;
    if (!between && parts.length === 0) return undefined;
    if (unknown) return { kind: 'dynamic', how: `a join of \`${snippet(unknown.text)}\``, at: unknown.startIndex, end: unknown.endIndex };
    return { kind: 'string', value: parts.length === 0 ? emptyCooked(node.startIndex) : concat(parts, node.startIndex) };
  }

  /**
   * The values of the pieces of a concatenation or a join, `between` (a join's separator) between
   * each two known ones, and the first piece not known to be a string of the file; the first
   * piece's value when it is built at run time.
   */
  private pieces(nodes: readonly Node[], depth: number, between: Cooked | undefined): { parts: Cooked[]; unknown: Node | undefined } | ScriptValue {
    const parts: Cooked[] = [];
    let unknown: Node | undefined;
    for (const node of nodes) {
      const value = this.value(node, depth + 1);
      if (value?.kind === 'dynamic') return value;
      if (value === undefined) {
        unknown ??= node;
        continue;
      }
      if (between && parts.length > 0) parts.push(between);
      parts.push(value.value);
    }
    return { parts, unknown };
  }

  /** The elements of a list written out, or of a named value holding one; `undefined` otherwise. */
  private elementsOf(node: Node, depth: number): Node[] | undefined {
    if (depth > MAX_REFERENCE_DEPTH) return undefined;
    const inner = this.syntax.unwrap(node);
    const elements = this.syntax.elements?.(inner);
    if (elements) return elements;
    const name = this.syntax.reference(inner);
    if (name === undefined) return undefined;
    const target = this.lookup(name);
    return target && target !== inner ? this.elementsOf(target, depth + 1) : undefined;
  }

  /**
   * The script a call receives: its {@link value}, or, when that is unknown but the expression
   * holds a string of this file (a literal in it, or a named value holding one), `dynamic`: a
   * script lua-lint cannot read is reported, never dropped. An expression without any string of
   * the file (a parameter, `loadScript("x.lua")`'s result is not one: its literal is a path) is
   * left to the code that builds it.
   */
  script(node: Node | null | undefined): ScriptValue | undefined {
    const value = this.value(node);
    if (value || !node) return value;
    const inner = this.syntax.unwrap(node);
    if (!this.holdsString(inner, 0)) return undefined;
    return { kind: 'dynamic', how: `\`${snippet(inner.text)}\`, which lua-lint cannot evaluate`, at: inner.startIndex, end: inner.endIndex };
  }

  /**
   * Whether an expression is made from a string of this file: one of its operands or receivers
   * is a literal or a named value holding one (`SCRIPT.strip().lower()`, `String.join("\n", A, B)`).
   * Arguments of a call are not looked into when the callee itself holds no string: they are
   * what it reads, a file name or a key (`loadScript("limiter.lua")`).
   */
  private holdsString(node: Node, depth: number): boolean {
    if (depth > MAX_REFERENCE_DEPTH) return false;
    if (this.syntax.literal(node)) return true;
    const name = this.syntax.reference(node);
    if (name !== undefined) {
      const target = this.lookup(name);
      return target !== undefined && target !== node && this.holdsString(this.syntax.unwrap(target), depth + 1);
    }
    const operands = this.syntax.operands(node) ?? this.syntax.stringArguments?.(node);
    if (operands) return operands.some((operand) => this.holdsString(this.syntax.unwrap(operand), depth + 1));
    // a method called on a string (`"...".strip()`, `SCRIPT.replace(...)`): the receiver is the
    // call's first child (Java, Ruby), or the object of its callee (`s.lower` in Python, `s.Trim` in C#)
    if (!/call|invocation/.test(node.type)) return false;
    const first = node.namedChild(0);
    if (!first) return false;
    const callee = this.syntax.unwrap(first);
    if (this.holdsString(callee, depth + 1)) return true;
    const object = callee.namedChild(0);
    return object !== null && object !== callee && /attribute|member|field|selector/.test(callee.type) && this.holdsString(this.syntax.unwrap(object), depth + 1);
  }
}

function snippet(text: string): string {
  const line = text.split('\n')[0]!;
  return line.length > 40 ? `${line.slice(0, 37)}...` : line;
}

/** Options of {@link cookRange}. */
export interface CookOptions {
  /** Node types inside the literal that are escape sequences. */
  escapes?: ReadonlySet<string>;
  /** Node types inside the literal that are interpolations (`#{...}`, `{x}`, `$var`). */
  interpolations?: ReadonlySet<string>;
  /** How an unknown escape reads (see {@link decodeEscape}). */
  unknownEscape?: 'char' | 'keep';
  /**
   * Node types inside the literal that are plain text: with this set, every other named node that
   * is not an escape is an interpolation (PHP's `$var`, `{$a->b}`, `$a[0]`).
   */
  text?: ReadonlySet<string>;
  /** What an interpolation is called in messages. */
  interpolationName?: string;
}

/**
 * Cooks the host text from `start` to `end` (the inside of the literal `node`, 0-based UTF-16
 * offsets in the host text):
 * verbatim text, with the escape nodes among `node`'s descendants decoded; an interpolation
 * node makes the value dynamic.
 */
export function cookRange(node: Node, start: number, end: number, options: CookOptions): ScriptValue {
  const source = node.text;
  const base = node.startIndex;
  const slice = (from: number, to: number): string => source.slice(from - base, to - base);
  const specials: Node[] = [];
  const visit = (n: Node): void => {
    for (const child of n.namedChildren) {
      if (!child || child.endIndex <= start || child.startIndex >= end) continue;
      if (options.interpolations?.has(child.type) || (options.text && !options.text.has(child.type) && !options.escapes?.has(child.type))) {
        specials.push(child);
      } else if (options.escapes?.has(child.type)) {
        specials.push(child);
      } else {
        visit(child);
      }
    }
  };
  if (options.escapes || options.interpolations || options.text) visit(node);
  specials.sort((a, b) => a.startIndex - b.startIndex);
  const parts: Cooked[] = [];
  let at = start;
  for (const special of specials) {
    if (!options.escapes?.has(special.type)) {
      return { kind: 'dynamic', how: options.interpolationName ?? 'string interpolation', at: special.startIndex, end: special.endIndex };
    }
    if (special.startIndex > at) parts.push(verbatim(slice(at, special.startIndex), at));
    parts.push(escaped(decodeEscape(special.text, options.unknownEscape), special.startIndex, special.endIndex));
    at = special.endIndex;
  }
  if (end > at) parts.push(verbatim(slice(at, end), at));
  const value = concat(parts.length > 0 ? parts : [verbatim('', start)], start);
  return { kind: 'string', value: { ...value, end } };
}

/** The children of a node that are not null (tree-sitter's lists may hold nulls). */
export function children(node: Node): Node[] {
  return node.namedChildren.filter((child): child is Node => child !== null);
}

/** The name of a call's method or function (`rdb.Eval` -> `Eval`), from its last identifier. */
export function lastName(node: Node | null | undefined): string | undefined {
  if (!node) return undefined;
  if (node.childCount === 0 || /identifier|name|constant/.test(node.type) && node.namedChildCount === 0) return node.text;
  const last = children(node).at(-1);
  return last ? lastName(last) : undefined;
}

/**
 * The script of a generic command call (`conn.Do("EVAL", script, 1, key)`,
 * `rdb.Do(ctx, "eval", script, ...)`, `redis.call("SCRIPT", "LOAD", script)`): the argument after
 * `EVAL` / `EVAL_RO`, `SCRIPT LOAD` or `FUNCTION LOAD [REPLACE]`, the command words being the first
 * arguments that hold strings (case-insensitive, as Redis reads them). `EVALSHA` carries no script.
 */
export function commandScript(args: readonly Node[], resolver: Resolver): Node | undefined {
  const words: string[] = [];
  for (const [index, arg] of args.entries()) {
    const value = resolver.value(arg);
    if (words.length === 0 && value === undefined) continue; // ctx and the like, before the command
    const word = value?.kind === 'string' ? value.value.text.toUpperCase() : undefined;
    const expected =
      words.length === 0
        ? ['EVAL', 'EVAL_RO', 'SCRIPT', 'FUNCTION']
        : words[0] === 'SCRIPT' && words.length === 1
          ? ['LOAD']
          : words[0] === 'FUNCTION' && words.length === 1
            ? ['LOAD']
            : words[0] === 'FUNCTION' && words.length === 2
              ? ['REPLACE']
              : [];
    if (word !== undefined && expected.includes(word)) {
      words.push(word);
      continue;
    }
    if (words.length === 0) return undefined;
    if ((words[0] === 'SCRIPT' || words[0] === 'FUNCTION') && words.length < 2) return undefined;
    return args[index];
  }
  return undefined;
}

/**
 * A literal whose only escapes are a doubled `escape` character or `escape` + `quote` (PHP's and
 * Ruby's `'...'`: `\\` and `\'`; C#'s `@"..."`: `""`), from `open` characters after its start
 * to the character before its end.
 */
export function simpleQuoted(node: Node, open: number, escape: string, quote: string): ScriptValue {
  const text = node.text;
  const base = node.startIndex;
  const parts: Cooked[] = [];
  let at = open;
  for (let i = at; i < text.length - 1; i++) {
    if (text[i] === escape && (text[i + 1] === escape || text[i + 1] === quote)) {
      if (escape === quote && i + 1 === text.length - 1) break; // C#: the closing quote
      if (i > at) parts.push(verbatim(text.slice(at, i), base + at));
      parts.push(escaped(text[i + 1]!, base + i, base + i + 2));
      at = i + 2;
      i++;
    }
  }
  if (text.length - 1 > at) parts.push(verbatim(text.slice(at, text.length - 1), base + at));
  return { kind: 'string', value: { ...concat(parts.length > 0 ? parts : [verbatim('', base + at)], base + at), end: node.endIndex - 1 } };
}

/**
 * A cheap test run before parsing: whether the text contains one of `names` as a word (or matches
 * `extra`). A file without any script-taking call name cannot hold a script, so it is not parsed.
 */
export function wordHint(names: Iterable<string>, extra?: RegExp, flags = ''): (text: string) => boolean {
  const words = new RegExp(`\\b(?:${[...names].join('|')})\\b`, flags);
  return (text) => words.test(text) || (extra?.test(text) ?? false);
}

/** The two operands of `left <operator> right` when `node` is a binary node of `type`. */
export function binaryOperands(node: Node, type: string, operator: string): Node[] | undefined {
  if (node.type !== type || node.childForFieldName('operator')?.text !== operator) return undefined;
  return [node.childForFieldName('left'), node.childForFieldName('right')].filter((n): n is Node => n !== null);
}

/** The expression inside any number of parentheses (`type` is the grammar's parenthesised node). */
export function unwrapParentheses(node: Node, type = 'parenthesized_expression'): Node {
  let current = node;
  while (current.type === type && current.namedChildCount === 1) current = current.namedChild(0)!;
  return current;
}

/** The name an identifier, or the `field` of a member access of type `memberType`, refers to. */
export function memberReference(node: Node, memberType: string, field: string): string | undefined {
  if (node.type === 'identifier') return node.text;
  if (node.type === memberType) return node.childForFieldName(field)?.text;
  return undefined;
}

/** A finding of an embedded script, moved to host offsets `offset`..`endOffset` of the host text. */
export function atHost(finding: LuaFinding, lines: LineIndex, offset: number, endOffset: number, message = finding.message): LuaFinding {
  const start = lines.position(offset);
  const end = lines.position(endOffset);
  return { ...finding, message, line: start.line, column: start.column, endLine: end.line, endColumn: end.column, offset, endOffset };
}

/** The findings for scripts built at run time, at `unanalyzable-command`'s severity. */
export function dynamicFindings(dynamic: readonly HostDynamicScript[], options: AnalyzeOptions): LuaFinding[] {
  const configured = options.rules?.['unanalyzable-command'];
  const severity = configured === undefined ? RULES['unanalyzable-command'].defaultSeverity : parseSeverity(configured);
  if (!severity) return [];
  return dynamic.map((d) => ({
    ruleId: 'unanalyzable-command',
    severity,
    message: builtAtRunTimeMessage(d.via, d.how),
    line: d.line,
    column: d.column,
    endLine: d.endLine,
    endColumn: d.endColumn,
    offset: d.offset,
    endOffset: d.endOffset,
  }));
}
