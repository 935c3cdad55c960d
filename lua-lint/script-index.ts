/**
 * One walk over a parsed script ({@link scanTree}) that collects what several checks look up by
 * name or by block, so that no check walks the whole tree again (before, the fixed-window check
 * walked it three times, the TTL checks twice and the FUNCTION LOAD checks twice), and counts
 * the "syntax levels" of Lua 5.1's parser on the way (Redis refuses a script nested deeper than
 * {@link MAX_SYNTAX_LEVELS}).
 *
 * The walk replaced two `onCreateNode` callbacks of luaparse (this index, and the tree's height as
 * a bound of the levels): a callback per node created cost a third of the parse, the walk after it
 * about a tenth.
 */
import type * as L from 'luaparse';
import { rangeOf } from './walk/ast.js';

/** One value assigned to a name by `local x = v` or `x = v`. */
export interface Assignment {
  /** 0-based UTF-16 offset of the assigning statement. */
  offset: number;
  value: L.Expression;
}

/** A `redis.<field>` of the script (`redis.call`, `redis.register_function`, ...). */
export interface RedisField {
  node: L.MemberExpression;
  /** Outside every function body: the code that runs while a function library loads. */
  loadTime: boolean;
}

/** See the module comment. Offsets are 0-based UTF-16 offsets into the script. */
export interface ScriptIndex {
  /** Every block of statements, in source order: the chunk, then function bodies, branches and loop bodies. */
  blocks: L.Statement[][];
  /**
   * Name -> offsets of the comparisons with `<`, `<=`, `>`, `>=` that take it as an operand
   * (directly, or as the first argument of a call: `tonumber(ttl) > 0`), in source order.
   */
  comparisons: Map<string, number[]>;
  /** Name -> the values assigned to it, in source order. */
  assignments: Map<string, Assignment[]>;
  /**
   * Every `redis.<field>` member expression (indexed with `.`), in source order: listed only for a
   * text whose first line is a `#!` line (a function library: the FUNCTION LOAD checks read them),
   * empty for any other.
   */
  redisFields: RedisField[];
  /**
   * Every name the script declares as a local somewhere (`local x`, `local function f`, a
   * parameter, `...`, a loop variable): any other name is a global wherever it is read.
   */
  locals: Set<string>;
  /** Every name a statement `name = v` assigns somewhere (a global, unless a local of that name is in scope). */
  assigned: Set<string>;
}

/**
 * Lua 5.1's parser counts one "syntax level" per block (`chunk`) and per sub-expression it parses
 * recursively (`subexpr`: a right operand, a unary operand, an index, a call argument, a table
 * field), and refuses the script beyond LUAI_MAXCCALLS = 200 (lparser.c `enterlevel`; checked on
 * redis-server 7.0: 198 nested `if`s load, 199 do not). A parenthesised expression `( exp )` is one
 * more `subexpr` (`return` followed by 198 `(` loads, 199 do not, on redis-server 7.0); luaparse
 * keeps no node for it, so the parentheses are counted in the source around the node's range.
 */
export const MAX_SYNTAX_LEVELS = 200;

/** The result of {@link scanTree}. */
export interface TreeScan {
  /** The index; incomplete when `found` is set (the walk stops there). */
  index: ScriptIndex;
  /** The offset of the first node deeper than {@link MAX_SYNTAX_LEVELS}, if any. */
  found: number | undefined;
  /** The deepest level seen. */
  deepest: number;
}

/**
 * Walks a parsed script once: collects its {@link ScriptIndex} and counts Lua 5.1's syntax levels.
 * @param ast the parse, with its final ranges (after any remapping).
 * @param source the text the ranges index: given, the parentheses around each node are counted too
 *   (a scan of the text per node, for the rare script that needs it); without it they are not.
 * @param options `redisFields: false` leaves `ScriptIndex.redisFields` empty (default true).
 */
export function scanTree(ast: L.Chunk, source?: string, options?: { redisFields?: boolean }): TreeScan {
  const scanner = new TreeScanner(source, options?.redisFields ?? true);
  scanner.blocks.push(ast.body);
  scanner.block(ast.body, 0);
  return {
    index: {
      blocks: scanner.blocks,
      comparisons: scanner.comparisons,
      assignments: scanner.assignments,
      redisFields: scanner.redisFields,
      locals: scanner.locals,
      assigned: scanner.assigned,
    },
    found: scanner.found,
    deepest: scanner.deepest,
  };
}

/** The level of the parts Lua's level count does not reach (assignment targets' bases): never deep. */
const UNLEVELED = Number.NEGATIVE_INFINITY;

/**
 * The walk of {@link scanTree}: Lua's level count (a node's level grows by at most one per tree
 * edge from the chunk down, plus the parentheses around it) in source order, pre-order, so that
 * the index lists come out in source order.
 */
class TreeScanner {
  readonly blocks: L.Statement[][] = [];
  readonly comparisons = new Map<string, number[]>();
  readonly assignments = new Map<string, Assignment[]>();
  readonly redisFields: RedisField[] = [];
  readonly locals = new Set<string>();
  readonly assigned = new Set<string>();
  found: number | undefined;
  deepest = 0;
  private functionDepth = 0;

  constructor(
    private readonly source: string | undefined,
    /** Whether to list the `redis.<field>` nodes (see `ScriptIndex.redisFields`). */
    private readonly listFields: boolean,
  ) {}

  private parens(node: L.Node): number {
    if (this.source === undefined) return 0;
    const range = (node as L.Node & { range?: [number, number] }).range;
    return range ? parensAround(this.source, range[0], range[1]) : 0;
  }

  /** `callParens`: `f((x))`, the call's own parentheses enclose its only argument too. */
  expr(node: L.Expression | null | undefined, level: number, callParens = 0): void {
    if (!node || this.found !== undefined) return;
    if (this.source !== undefined) level += Math.max(0, this.parens(node) - callParens);
    if (level > this.deepest) this.deepest = level;
    if (level > MAX_SYNTAX_LEVELS) {
      this.found = rangeOf(node)[0];
      return;
    }
    switch (node.type) {
      case 'BinaryExpression':
        if (node.operator === '<' || node.operator === '<=' || node.operator === '>' || node.operator === '>=') this.addComparison(node);
        this.expr(node.left, level);
        this.expr(node.right, level + 1);
        return;
      case 'LogicalExpression':
        this.expr(node.left, level);
        this.expr(node.right, level + 1);
        return;
      case 'UnaryExpression':
        this.expr(node.argument, level + 1);
        return;
      case 'MemberExpression':
        if (this.listFields && node.indexer === '.' && node.base.type === 'Identifier' && node.base.name === 'redis') {
          this.redisFields.push({ node, loadTime: this.functionDepth === 0 });
        }
        this.expr(node.base, level);
        return;
      case 'IndexExpression':
        this.expr(node.base, level);
        this.expr(node.index, level + 1);
        return;
      case 'CallExpression': {
        this.expr(node.base, level);
        const args = node.arguments;
        if (args.length === 1) this.expr(args[0]!, level + 1, 1);
        else for (let i = 0; i < args.length; i++) this.expr(args[i]!, level + 1);
        return;
      }
      case 'StringCallExpression':
        this.expr(node.base, level);
        return;
      case 'TableCallExpression':
        this.expr(node.base, level);
        this.expr(node.arguments, level);
        return;
      case 'TableConstructorExpression':
        for (const field of node.fields) {
          if (field.type === 'TableKey') this.expr(field.key, level + 1);
          this.expr(field.value, level + 1);
        }
        return;
      case 'FunctionDeclaration':
        this.functionBody(node, level);
        return;
      default:
        return;
    }
  }

  block(body: readonly L.Statement[], level: number): void {
    const chunk = level + 1;
    if (this.found !== undefined) return;
    if (chunk > this.deepest) this.deepest = chunk;
    if (chunk > MAX_SYNTAX_LEVELS && body[0]) {
      this.found = rangeOf(body[0])[0];
      return;
    }
    for (let i = 0; i < body.length; i++) this.stat(body[i]!, chunk);
  }

  private owned(owner: { body: L.Statement[] }, level: number): void {
    this.blocks.push(owner.body);
    this.block(owner.body, level);
  }

  private functionBody(node: L.FunctionDeclaration, level: number): void {
    this.functionDepth++;
    this.blocks.push(node.body);
    if (node.identifier?.type === 'Identifier') this.locals.add(node.identifier.name);
    for (const parameter of node.parameters) this.locals.add(parameter.type === 'Identifier' ? parameter.name : '...');
    // `function redis.x() end`: its name, outside Lua's level count
    if (node.identifier?.type === 'MemberExpression') this.expr(node.identifier, UNLEVELED);
    this.block(node.body, level);
    this.functionDepth--;
  }

  private stat(node: L.Statement, level: number): void {
    if (this.found !== undefined) return;
    switch (node.type) {
      case 'LocalStatement':
      case 'AssignmentStatement':
        if (node.init.length > 0) this.addAssignment(node);
        if (node.type === 'LocalStatement') for (const variable of node.variables) this.locals.add(variable.name);
        else for (const target of node.variables) if (target.type === 'Identifier') this.assigned.add(target.name);
        for (const target of node.variables) {
          if (target.type === 'IndexExpression') {
            this.expr(target.base, UNLEVELED);
            this.expr(target.index, level + 1);
          } else if (target.type === 'MemberExpression') this.expr(target, UNLEVELED);
        }
        for (const init of node.init) this.expr(init, level + 1);
        return;
      case 'CallStatement':
        this.expr(node.expression, level);
        return;
      case 'IfStatement':
        for (const clause of node.clauses) {
          this.blocks.push(clause.body);
          if (clause.type !== 'ElseClause') this.expr(clause.condition, level + 1);
          this.block(clause.body, level);
        }
        return;
      case 'WhileStatement':
        this.blocks.push(node.body);
        this.expr(node.condition, level + 1);
        this.block(node.body, level);
        return;
      case 'RepeatStatement':
        this.blocks.push(node.body);
        if (this.source === undefined) {
          // the body comes first in the source, and so in the index
          this.block(node.body, level);
          this.expr(node.condition, level + 1);
        } else {
          // the count with parentheses, which places the refusal, reports the first node it meets
          // in the order it always had (the condition first)
          this.expr(node.condition, level + 1);
          this.block(node.body, level);
        }
        return;
      case 'ForNumericStatement':
        this.blocks.push(node.body);
        this.locals.add(node.variable.name);
        this.expr(node.start, level + 1);
        this.expr(node.end, level + 1);
        this.expr(node.step, level + 1);
        this.block(node.body, level);
        return;
      case 'ForGenericStatement':
        this.blocks.push(node.body);
        for (const variable of node.variables) this.locals.add(variable.name);
        for (const iterator of node.iterators) this.expr(iterator, level + 1);
        this.block(node.body, level);
        return;
      case 'DoStatement':
        this.owned(node, level);
        return;
      case 'FunctionDeclaration':
        this.functionBody(node, level);
        return;
      case 'ReturnStatement':
        for (const arg of node.arguments) this.expr(arg, level + 1);
        return;
      default:
        return;
    }
  }

  private addComparison(node: L.BinaryExpression): void {
    const at = rangeOf(node)[0];
    for (const side of [node.left, node.right]) {
      const operand = side.type === 'CallExpression' && side.arguments[0] ? side.arguments[0] : side;
      if (operand.type === 'Identifier') push(this.comparisons, operand.name, at);
    }
  }

  private addAssignment(node: L.LocalStatement | L.AssignmentStatement): void {
    const offset = rangeOf(node)[0];
    for (let i = 0; i < node.variables.length && i < node.init.length; i++) {
      const target = node.variables[i]!;
      if (target.type === 'Identifier') push(this.assignments, target.name, { offset, value: node.init[i]! });
    }
  }
}

function push<T>(map: Map<string, T[]>, name: string, item: T): void {
  const list = map.get(name);
  if (list) list.push(item);
  else map.set(name, [item]);
}

/**
 * How many pairs of grouping parentheses enclose the source range `[start, end)`: the `(`s right
 * before it matched by `)`s right after it (whitespace between them skipped; a comment stops the
 * count, which can only under-count).
 */
function parensAround(source: string, start: number, end: number): number {
  let before = 0;
  for (let i = start - 1; i >= 0; i--) {
    const c = source.charCodeAt(i);
    if (c === 0x28) before++;
    else if (!isSpace(c)) break;
  }
  if (before === 0) return 0;
  let after = 0;
  for (let i = end; i < source.length && after < before; i++) {
    const c = source.charCodeAt(i);
    if (c === 0x29) after++;
    else if (!isSpace(c)) break;
  }
  return Math.min(before, after);
}

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d || c === 0x0b || c === 0x0c;
}
