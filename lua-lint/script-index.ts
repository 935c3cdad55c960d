/**
 * Facts about a whole script that several checks look up by name or by block, collected in one
 * walk of the tree the first time one is asked for (before, each check walked the whole tree
 * again: the fixed-window check three times, the TTL checks twice).
 */
import type * as L from 'luaparse';
import { forEachNode, rangeOf } from './analyze.js';

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

/** Indexes `ast` (which must carry ranges) in one walk. */
export function indexScript(ast: L.Chunk): ScriptIndex {
  const blocks: L.Statement[][] = [ast.body];
  const comparisons = new Map<string, number[]>();
  const assignments = new Map<string, Assignment[]>();
  const push = <T>(map: Map<string, T[]>, name: string, item: T): void => {
    const list = map.get(name);
    if (list) list.push(item);
    else map.set(name, [item]);
  };
  forEachNode(ast.body, (node) => {
    switch (node.type) {
      case 'BinaryExpression': {
        if (!ORDERING.has(node.operator)) return;
        const at = rangeOf(node)[0];
        for (const side of [node.left, node.right]) {
          const operand = side.type === 'CallExpression' && side.arguments[0] ? side.arguments[0] : side;
          if (operand.type === 'Identifier') push(comparisons, operand.name, at);
        }
        return;
      }
      case 'LocalStatement':
      case 'AssignmentStatement': {
        const offset = rangeOf(node)[0];
        for (let i = 0; i < node.variables.length && i < node.init.length; i++) {
          const target = node.variables[i]!;
          if (target.type === 'Identifier') push(assignments, target.name, { offset, value: node.init[i]! });
        }
        return;
      }
      default:
        if ('body' in node && Array.isArray(node.body)) blocks.push(node.body as L.Statement[]);
    }
  });
  return { blocks, comparisons, assignments };
}
