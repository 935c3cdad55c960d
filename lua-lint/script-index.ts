/**
 * Facts about a whole script that several checks look up by name or by block. They are collected
 * while luaparse builds the tree ({@link indexCollector}, luaparse's `onCreateNode`), so that no
 * check walks the whole tree again (before, the fixed-window check walked it three times and the
 * TTL checks twice).
 */
import type * as L from 'luaparse';
import { rangeOf } from './analyze.js';

/** One value assigned to a name by `local x = v` or `x = v`. */
export interface Assignment {
  /** 0-based UTF-16 offset of the assigning statement. */
  offset: number;
  value: L.Expression;
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
}

const ORDERING = new Set(['<', '<=', '>', '>=']);

/**
 * Collects the index of one parse: pass `onCreateNode` to luaparse, call `finish` once the node
 * ranges are final (after any remapping). Nodes are created children first; `finish` puts the
 * lists in source order.
 */
export function indexCollector(): { onCreateNode(node: L.Node): void; finish(ast: L.Chunk): ScriptIndex } {
  const owners: Array<L.Node & { body: L.Statement[] }> = [];
  const comparisons: L.BinaryExpression[] = [];
  const assignments: Array<L.LocalStatement | L.AssignmentStatement> = [];
  return {
    onCreateNode(node) {
      switch (node.type) {
        case 'BinaryExpression':
          if (ORDERING.has(node.operator)) comparisons.push(node);
          return;
        case 'LocalStatement':
        case 'AssignmentStatement':
          if (node.init.length > 0) assignments.push(node);
          return;
        case 'FunctionDeclaration':
        case 'IfClause':
        case 'ElseifClause':
        case 'ElseClause':
        case 'WhileStatement':
        case 'RepeatStatement':
        case 'DoStatement':
        case 'ForNumericStatement':
        case 'ForGenericStatement':
          owners.push(node);
          return;
        default:
      }
    },
    finish(ast) {
      const bySource = (a: L.Node, b: L.Node): number => rangeOf(a)[0] - rangeOf(b)[0];
      const index: ScriptIndex = { blocks: [ast.body, ...owners.sort(bySource).map((owner) => owner.body)], comparisons: new Map(), assignments: new Map() };
      for (const node of comparisons.sort(bySource)) addComparison(index, node);
      for (const node of assignments.sort(bySource)) addAssignment(index, node);
      return index;
    },
  };
}

function push<T>(map: Map<string, T[]>, name: string, item: T): void {
  const list = map.get(name);
  if (list) list.push(item);
  else map.set(name, [item]);
}

function addComparison(index: ScriptIndex, node: L.BinaryExpression): void {
  const at = rangeOf(node)[0];
  for (const side of [node.left, node.right]) {
    const operand = side.type === 'CallExpression' && side.arguments[0] ? side.arguments[0] : side;
    if (operand.type === 'Identifier') push(index.comparisons, operand.name, at);
  }
}

function addAssignment(index: ScriptIndex, node: L.LocalStatement | L.AssignmentStatement): void {
  const offset = rangeOf(node)[0];
  for (let i = 0; i < node.variables.length && i < node.init.length; i++) {
    const target = node.variables[i]!;
    if (target.type === 'Identifier') push(index.assignments, target.name, { offset, value: node.init[i]! });
  }
}
