/**
 * The luaparse syntax tree as every part of lua-lint reads it: a node's offsets ({@link rangeOf}),
 * a compact spelling of an expression ({@link expressionText}: the identity of a key built in the
 * script), a pre-order visit of a subtree ({@link forEachNode}) and whether a statement can leave
 * a loop ({@link statementExits}), a Redis command call with a literal name ({@link commandCall}) and
 * a string literal's text ({@link literalText}). It imports nothing of lua-lint, so any module may
 * import it.
 */
import type * as L from 'luaparse';

/** The `[start, end)` 0-based UTF-16 offsets of a node (luaparse's `range`; `[0, 0]` when the parse kept none). */
export function rangeOf(node: L.Node): [number, number] {
  return (node as L.Node & { range?: [number, number] }).range ?? [0, 0];
}

/** A compact spelling of an expression (`KEYS[1]..':count'`), used as the identity of a key built in the script. */
export function expressionText(node: L.Node): string {
  switch (node.type) {
    case 'Identifier':
      return node.name;
    case 'StringLiteral':
    case 'NumericLiteral':
    case 'BooleanLiteral':
      return node.raw;
    case 'NilLiteral':
      return 'nil';
    case 'VarargLiteral':
      return '...';
    case 'MemberExpression':
      return `${expressionText(node.base)}${node.indexer}${node.identifier.name}`;
    case 'IndexExpression':
      return `${expressionText(node.base)}[${expressionText(node.index)}]`;
    case 'BinaryExpression':
    case 'LogicalExpression':
      return `${expressionText(node.left)}${node.operator === 'and' || node.operator === 'or' ? ` ${node.operator} ` : node.operator}${expressionText(node.right)}`;
    case 'UnaryExpression':
      return `${node.operator === 'not' ? 'not ' : node.operator}${expressionText(node.argument)}`;
    case 'CallExpression':
      return `${expressionText(node.base)}(${node.arguments.map(expressionText).join(',')})`;
    case 'StringCallExpression':
      return `${expressionText(node.base)}${expressionText(node.argument)}`;
    case 'TableCallExpression':
    case 'TableConstructorExpression':
      return '{...}';
    case 'FunctionDeclaration':
      return 'function';
    default:
      return '?';
  }
}

/** Visits every node under `root` in source order (pre-order); `visit` returning `false` skips a node's children. */
export function forEachNode(root: unknown, visit: (node: L.Node) => boolean | void): void {
  if (!root || typeof root !== 'object') return;
  if (Array.isArray(root)) {
    for (const item of root) forEachNode(item, visit);
    return;
  }
  const node = root as L.Node;
  if (visit(node) === false) return;
  const fields = CHILD_FIELDS[node.type];
  if (fields === undefined) {
    // a node type of another luaparse version: every field, as luaparse wrote them
    for (const [field, value] of Object.entries(node)) if (field !== 'range' && field !== 'loc') forEachNode(value, visit);
    return;
  }
  const record = node as unknown as Record<string, unknown>;
  for (const field of fields) forEachNode(record[field], visit);
}

/**
 * The fields of each luaparse node type that can hold nodes, in the order luaparse creates them
 * (the order `Object.entries` would give, which source-order walks rely on). Leaves have none.
 */
const CHILD_FIELDS: Readonly<Record<string, readonly string[]>> = {
  Chunk: ['body', 'comments'],
  LabelStatement: ['label'],
  BreakStatement: [],
  GotoStatement: ['label'],
  ReturnStatement: ['arguments'],
  IfStatement: ['clauses'],
  IfClause: ['condition', 'body'],
  ElseifClause: ['condition', 'body'],
  ElseClause: ['body'],
  WhileStatement: ['condition', 'body'],
  DoStatement: ['body'],
  RepeatStatement: ['condition', 'body'],
  LocalStatement: ['variables', 'init'],
  AssignmentStatement: ['variables', 'init'],
  CallStatement: ['expression'],
  FunctionDeclaration: ['identifier', 'parameters', 'body'],
  ForNumericStatement: ['variable', 'start', 'end', 'step', 'body'],
  ForGenericStatement: ['variables', 'iterators', 'body'],
  Identifier: [],
  StringLiteral: [],
  NumericLiteral: [],
  BooleanLiteral: [],
  NilLiteral: [],
  VarargLiteral: [],
  Comment: [],
  TableKey: ['key', 'value'],
  TableKeyString: ['key', 'value'],
  TableValue: ['value'],
  TableConstructorExpression: ['fields'],
  BinaryExpression: ['left', 'right'],
  LogicalExpression: ['left', 'right'],
  UnaryExpression: ['argument'],
  MemberExpression: ['identifier', 'base'],
  IndexExpression: ['base', 'index'],
  CallExpression: ['base', 'arguments'],
  TableCallExpression: ['base', 'arguments'],
  StringCallExpression: ['base', 'argument'],
};

/** Whether a statement (or a block inside it, functions aside) can leave a loop or the script. */
export function statementExits(node: L.Statement): boolean {
  switch (node.type) {
    case 'ReturnStatement':
    case 'BreakStatement':
      return true;
    case 'CallStatement': {
      const base = node.expression.base;
      return base.type === 'Identifier' && (base.name === 'error' || base.name === 'assert');
    }
    case 'IfStatement':
      return node.clauses.some((clause) => clause.body.some(statementExits));
    case 'DoStatement':
    case 'WhileStatement':
    case 'RepeatStatement':
    case 'ForNumericStatement':
    case 'ForGenericStatement':
      return node.body.some(statementExits);
    default:
      return false;
  }
}

/** A Redis command call of a script, with a literal command name (upper case). */
export interface CommandCall {
  node: L.CallExpression;
  command: string;
  /** The first argument after the name (the key), if any. */
  key: L.Expression | undefined;
}

/**
 * `redis.call('NAME', ...)` / `redis.pcall` / `server.call` / `server.pcall` (Valkey's alias), with
 * a literal name, as a {@link CommandCall}; a call statement is read as its call; anything else is
 * `undefined`.
 */
export function commandCall(node: L.Node | undefined | null): CommandCall | undefined {
  if (!node) return undefined;
  if (node.type === 'CallStatement') return commandCall(node.expression);
  if (node.type !== 'CallExpression' || node.base.type !== 'MemberExpression') return undefined;
  const base = node.base;
  if (base.base.type !== 'Identifier' || (base.base.name !== 'redis' && base.base.name !== 'server')) return undefined;
  if (base.identifier.name !== 'call' && base.identifier.name !== 'pcall') return undefined;
  const name = node.arguments[0];
  if (name?.type !== 'StringLiteral') return undefined;
  return { node, command: upperCase(literalText(name)), key: node.arguments[1] };
}

const UPPER = new Map<string, string>();

/** A command name in upper case; the few names of a script are upper-cased once. */
function upperCase(name: string): string {
  let upper = UPPER.get(name);
  if (upper === undefined) {
    if (UPPER.size > 10_000) UPPER.clear();
    UPPER.set(name, (upper = name.toUpperCase()));
  }
  return upper;
}

/** The text of a Lua string literal: its value (parseLua's `encodingMode` keeps it), else its raw text unquoted. */
export function literalText(node: L.StringLiteral): string {
  if (typeof node.value === 'string' && node.value !== null) return node.value;
  return node.raw.slice(1, -1);
}
