/**
 * Finding Lua source embedded in application code, and mapping positions inside the script back to
 * the JS/TS file. Scripts are the first argument of ioredis / node-redis / upstash `eval`
 * (`evalRo`), upstash `createScript`, the `lua` option of ioredis `defineCommand(name, { lua })`
 * and the `SCRIPT` option of node-redis `defineScript({ SCRIPT })`: a string literal, a template
 * literal without substitutions, or a `const` bound to one in the same file.
 */
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { clientDetectorOf } from './index.js';
import { propertyName, resolveConstExpression, unwrap, type AnyContext } from './static.js';

/** A Lua script found in the file. */
export interface EmbeddedScript {
  /** The script as Redis receives it (the cooked string value). */
  source: string;
  /** The literal holding it (possibly far from the call, through a `const`). */
  literal: TSESTree.StringLiteral | TSESTree.TemplateLiteral;
  /**
   * Maps a 0-based UTF-16 offset into {@link source} (0..source.length) to a 0-based offset into
   * the file's text, through escapes and template-literal line endings.
   */
  toFileOffset(offset: number): number;
}

/** Methods whose first argument is a script's source (never a SHA: `evalsha` is left out). */
const EVAL_METHODS = new Set(['eval', 'evalRo', 'eval_ro', 'evalBuffer', 'EVAL', 'EVAL_RO', 'createScript']);

/** The scripts a call passes to Redis, when it is one of the script-taking calls. */
export function embeddedScriptsOf(context: AnyContext, node: TSESTree.CallExpression): EmbeddedScript[] {
  const callee = unwrap(node.callee);
  const name =
    callee.type === AST_NODE_TYPES.MemberExpression
      ? propertyName(callee.property, callee.computed)
      : callee.type === AST_NODE_TYPES.Identifier
        ? callee.name
        : undefined;
  if (name === undefined || !(EVAL_METHODS.has(name) || name === 'defineCommand' || name === 'defineScript')) return [];
  if (!clientDetectorOf(context).mayUseRedis()) return [];
  let scriptNode: TSESTree.Node | undefined;
  if (callee.type === AST_NODE_TYPES.MemberExpression) {
    const method = propertyName(callee.property, callee.computed);
    if (method === undefined) return [];
    if (EVAL_METHODS.has(method)) {
      if (!clientDetectorOf(context).classify(callee.object).redis) return [];
      scriptNode = node.arguments[0];
    } else if (method === 'defineCommand') {
      if (!clientDetectorOf(context).classify(callee.object).redis) return [];
      scriptNode = optionValue(context, node.arguments[1], 'lua');
    } else if (method === 'defineScript') {
      scriptNode = optionValue(context, node.arguments[0], 'SCRIPT');
    }
  } else if (callee.type === AST_NODE_TYPES.Identifier && callee.name === 'defineScript') {
    scriptNode = optionValue(context, node.arguments[0], 'SCRIPT');
  }
  if (!scriptNode || scriptNode.type === AST_NODE_TYPES.SpreadElement) return [];
  const script = scriptFromNode(context, scriptNode);
  return script ? [script] : [];
}

function optionValue(context: AnyContext, arg: TSESTree.Node | undefined, name: string): TSESTree.Node | undefined {
  if (!arg || arg.type === AST_NODE_TYPES.SpreadElement) return undefined;
  const object = resolveConstExpression(context, arg);
  if (object.type !== AST_NODE_TYPES.ObjectExpression) return undefined;
  for (const property of object.properties) {
    if (property.type === AST_NODE_TYPES.Property && propertyName(property.key, property.computed) === name) {
      return property.value;
    }
  }
  return undefined;
}

/** A script literal (through `const`s) with its cooked text and offset map, else `undefined`. */
export function scriptFromNode(context: AnyContext, node: TSESTree.Node): EmbeddedScript | undefined {
  const literal = resolveConstExpression(context, node);
  const text = context.sourceCode.text;
  if (literal.type === AST_NODE_TYPES.Literal && typeof literal.value === 'string') {
    const raw = text.slice(literal.range[0] + 1, literal.range[1] - 1);
    return build(literal.value, literal as TSESTree.StringLiteral, raw, literal.range[0] + 1, false);
  }
  if (literal.type === AST_NODE_TYPES.TemplateLiteral && literal.expressions.length === 0) {
    const quasi = literal.quasis[0];
    if (!quasi || quasi.value.cooked === null) return undefined;
    const raw = text.slice(literal.range[0] + 1, literal.range[1] - 1);
    return build(quasi.value.cooked, literal, raw, literal.range[0] + 1, true);
  }
  return undefined;
}

function build(
  source: string,
  literal: EmbeddedScript['literal'],
  raw: string,
  rawStart: number,
  template: boolean,
): EmbeddedScript {
  const map = cookedToRawOffsets(raw, template);
  const consistent = map.length === source.length + 1;
  return {
    source,
    literal,
    toFileOffset(offset) {
      if (!consistent) return rawStart; // an escape we do not model: point at the literal
      const clamped = Math.max(0, Math.min(offset, source.length));
      return rawStart + map[clamped]!;
    },
  };
}

const OCTAL = /[0-7]/;

/**
 * For each UTF-16 code unit of the cooked string (and one past the end), the offset in the raw
 * literal text where it comes from. Handles every JS escape (`\n`, `\xHH`, `\uHHHH`, `\u{H...}`,
 * legacy octal, line continuations) and, in templates, CRLF / CR normalised to LF.
 */
export function cookedToRawOffsets(raw: string, template: boolean): number[] {
  const map: number[] = [];
  let i = 0;
  while (i < raw.length) {
    const c = raw[i];
    if (c === '\\') {
      const n = raw[i + 1];
      if (n === '\n' || n === '\u2028' || n === '\u2029') {
        i += 2; // line continuation: produces nothing
      } else if (n === '\r') {
        i += raw[i + 2] === '\n' ? 3 : 2;
      } else if (n === 'x') {
        map.push(i);
        i += 4;
      } else if (n === 'u') {
        if (raw[i + 2] === '{') {
          const end = raw.indexOf('}', i);
          const codePoint = parseInt(raw.slice(i + 3, end), 16);
          map.push(i);
          if (codePoint > 0xffff) map.push(i);
          i = end + 1;
        } else {
          map.push(i);
          i += 6;
        }
      } else if (n !== undefined && OCTAL.test(n) && !template) {
        // legacy octal: up to three digits, value <= 0o377
        let j = i + 1;
        let digits = '';
        while (j < raw.length && digits.length < 3 && OCTAL.test(raw[j]!) && parseInt(digits + raw[j], 8) <= 0o377) {
          digits += raw[j];
          j++;
        }
        map.push(i);
        i = j;
      } else {
        map.push(i);
        i += 2;
      }
    } else if (template && c === '\r') {
      map.push(i);
      i += raw[i + 1] === '\n' ? 2 : 1;
    } else {
      map.push(i);
      i += 1;
    }
  }
  map.push(raw.length);
  return map;
}
