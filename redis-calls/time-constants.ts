/**
 * Durations whose unit is known from where they come, not from their name: a constant of a time
 * library, a call of a duration parser, a constant named as one unit of time whose value is that
 * unit counted in milliseconds or in seconds. Read by `ttl-units` through `redis-calls/ttl-value.ts`.
 * Redis-independent facts of JavaScript libraries, with their sources:
 *
 * - `@sapphire/duration`'s `Time` enum, re-exported by `@sapphire/time-utilities`, counts
 *   milliseconds (`Millisecond = 1`, `Second = 1000`, `Minute = Second * 60`, ... `Year = Day *
 *   365`): https://github.com/sapphiredev/utilities/blob/main/packages/duration/src/lib/constants.ts
 * - `ms('1d')` of the `ms` package returns milliseconds (https://github.com/vercel/ms), and so does
 *   `parse('1d')` of `@lukeed/ms` (https://github.com/lukeed/ms);
 * - date-fns' `milliseconds({ days: 1 })` returns milliseconds (https://date-fns.org/docs/milliseconds);
 * - Luxon's `toMillis()` / `as('seconds')`, Moment's and Day.js' `asMilliseconds()` /
 *   `asSeconds()` and Temporal's `total('millisecond')` give a number in the unit their name
 *   says; `toMillis()` / `toSeconds()` of a Luxon `DateTime` is a Unix time, of a `Duration` a
 *   span, so only the unit is taken from them (https://moment.github.io/luxon/api-docs/,
 *   https://momentjs.com/docs/#/durations/, https://tc39.es/proposal-temporal/docs/duration.html).
 */
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { findVariable, foldNumber, propertyName, staticValue, unwrap, type AnyContext, type ConstantScope } from './static.js';

/** What a duration's source says: its unit, its value when known, and why (for messages). */
export interface SpanSource {
  unit: 'seconds' | 'milliseconds';
  /** The value in that unit, when the code or the library fixes it (`Time.Second`: 1000). */
  value?: number;
  /** Only the unit is known, not whether it is a span or a Unix time (`dt.toMillis()`). */
  unitOnly?: true;
  why: string;
}

/** One unit of time in seconds, by its name. */
const UNIT_SECONDS: Readonly<Record<string, number>> = { second: 1, minute: 60, hour: 3600, day: 86_400, week: 604_800 };

/** `@sapphire/duration`'s `Time`, in milliseconds (the library's constants). */
const SAPPHIRE_TIME: Readonly<Record<string, number>> = {
  Nanosecond: 1 / 1_000_000,
  Microsecond: 1 / 1000,
  Millisecond: 1,
  Second: 1000,
  Minute: 60_000,
  Hour: 3_600_000,
  Day: 86_400_000,
  Week: 604_800_000,
  Month: 86_400_000 * (365 / 12),
  Year: 86_400_000 * 365,
};

/** Named exports of packages that are enums of durations in milliseconds: package -> export -> members. */
const MS_ENUMS: Readonly<Record<string, Readonly<Record<string, Readonly<Record<string, number>>>>>> = {
  '@sapphire/duration': { Time: SAPPHIRE_TIME },
  '@sapphire/time-utilities': { Time: SAPPHIRE_TIME },
};

/** Functions of packages that return milliseconds: package -> export (`default` for the default import). */
const MS_FUNCTIONS: Readonly<Record<string, readonly string[]>> = {
  ms: ['default'],
  '@lukeed/ms': ['parse'],
  'date-fns': ['milliseconds'],
  'date-fns/milliseconds': ['milliseconds', 'default'],
};

/** Methods of date libraries whose number is in the unit their name says (span or Unix time alike). */
const UNIT_METHODS: Readonly<Record<string, 'seconds' | 'milliseconds'>> = {
  toMillis: 'milliseconds',
  asMilliseconds: 'milliseconds',
  asSeconds: 'seconds',
  toSeconds: 'seconds',
};

/** `as('seconds')` (Luxon), `total('millisecond')` / `total({ unit: 'second' })` (Temporal): the unit argument. */
const UNIT_ARGUMENT_METHODS = new Set(['as', 'total']);

/**
 * The name of one unit of time: `DAY`, `ONE_HOUR`, `Second`, `oneMinute`, `SECONDS` (an enum
 * member of a duration table, whose value says the unit), or `undefined`.
 */
export function singleUnitName(name: string): string | undefined {
  const match = /^(?:one_?|a_?)?(second|minute|hour|day|week)s?$/i.exec(name);
  return match ? match[1]!.toLowerCase() : undefined;
}

/**
 * The unit a constant named as one unit of time is counted in, from its value: `DAY = 86400000`
 * (or `Time.Day` of an enum `Second = 1000, Minute = Second * 60, ...`) is in milliseconds, `DAY =
 * 86400` in seconds; any other value says nothing.
 */
export function unitOfUnitConstant(name: string, value: number, text: string): SpanSource | undefined {
  const unit = singleUnitName(name);
  if (unit === undefined) return undefined;
  const seconds = UNIT_SECONDS[unit]!;
  if (value === seconds * 1000) return { unit: 'milliseconds', value, why: `\`${text}\` is one ${unit} counted in milliseconds (${value})` };
  if (value === seconds) return { unit: 'seconds', value, why: `\`${text}\` is one ${unit} counted in seconds (${value})` };
  return undefined;
}

/** `import { NAME as local } from 'pkg'` or `const { NAME: local } = require('pkg')`: the package and `NAME`. */
function namedImportOf(context: AnyContext, id: TSESTree.Identifier): { source: string; name: string } | undefined {
  const def = findVariable(context, id)?.defs[0];
  if (!def) return undefined;
  if (def.type === 'ImportBinding' && def.parent?.type === AST_NODE_TYPES.ImportDeclaration) {
    const source = def.parent.source.value;
    if (def.node.type === AST_NODE_TYPES.ImportDefaultSpecifier) return { source, name: 'default' };
    if (def.node.type !== AST_NODE_TYPES.ImportSpecifier) return undefined;
    const imported = def.node.imported;
    return { source, name: imported.type === AST_NODE_TYPES.Identifier ? imported.name : imported.value };
  }
  if (def.type !== 'Variable' || def.node.type !== AST_NODE_TYPES.VariableDeclarator || !def.node.init) return undefined;
  const init = unwrap(def.node.init);
  if (init.type !== AST_NODE_TYPES.CallExpression || init.callee.type !== AST_NODE_TYPES.Identifier || init.callee.name !== 'require') return undefined;
  const specifier = init.arguments[0];
  if (specifier?.type !== AST_NODE_TYPES.Literal || typeof specifier.value !== 'string') return undefined;
  if (def.node.id.type === AST_NODE_TYPES.Identifier) return { source: specifier.value, name: 'default' };
  if (def.node.id.type !== AST_NODE_TYPES.ObjectPattern) return undefined;
  for (const property of def.node.id.properties) {
    if (property.type !== AST_NODE_TYPES.Property || property.computed) continue;
    const value = property.value.type === AST_NODE_TYPES.AssignmentPattern ? property.value.left : property.value;
    if (value.type === AST_NODE_TYPES.Identifier && value.name === id.name) {
      const key = propertyName(property.key);
      return key === undefined ? undefined : { source: specifier.value, name: key };
    }
  }
  return undefined;
}

/** The value of member `name` of an enum declared in this file (`enum Time { Second = 1000, Minute = Second * 60 }`). */
function localEnumMember(context: AnyContext, object: TSESTree.Identifier, name: string, scope: ConstantScope): number | undefined {
  const def = findVariable(context, object)?.defs[0];
  if (def?.type !== 'TSEnumName' || def.node.type !== AST_NODE_TYPES.TSEnumDeclaration) return undefined;
  const members = def.node.body?.members ?? (def.node as unknown as { members: TSESTree.TSEnumMember[] }).members;
  const initializers = new Map<string, TSESTree.Node>();
  for (const member of members) {
    const key = propertyName(member.id);
    if (key !== undefined && member.initializer) initializers.set(key, member.initializer);
  }
  const node = initializers.get(name);
  if (!node) return undefined;
  // a member's initializer names its siblings (`Minute = Second * 60`)
  const inner: ConstantScope = {
    ...scope,
    resolve(id) {
      const sibling = initializers.get(id.name);
      return sibling ? { node: sibling, scope: inner } : scope.resolve(id);
    },
  };
  return foldNumber(node, inner);
}

/**
 * What the source of a duration says about its unit:
 * - `Time.Day` of `@sapphire/time-utilities` / `@sapphire/duration`: milliseconds;
 * - a member or `const` named as one unit of time whose value is that unit in milliseconds or in
 *   seconds (`TIME.DAY` with `DAY: 24 * 60 * 60 * 1000`, a file's `enum Time { Second = 1000, ... }`,
 *   `const ONE_HOUR = 3600`);
 * - `ms('1d')`, `parse('1d')` of `@lukeed/ms`, `milliseconds({ days: 1 })` of date-fns: milliseconds;
 * - `d.toMillis()`, `d.asSeconds()`, `d.as('seconds')`, `d.total('millisecond')`: the unit only;
 * - `end.diff(start, 'seconds')` (moment, dayjs): a span in that unit.
 * @returns `undefined` when the source says nothing.
 */
export function spanSourceOf(context: AnyContext, node: TSESTree.Node, scope: ConstantScope): SpanSource | undefined {
  const bare = unwrap(node);
  // imports and enums are looked up in the linted file's scopes; a node of an imported module
  // (a `const` followed there) is read through `scope` alone
  const own = inFile(context, bare);
  const text = (n: TSESTree.Node): string => scope.text(n).replace(/\s+/g, ' ');
  switch (bare.type) {
    case AST_NODE_TYPES.Identifier: {
      if (singleUnitName(bare.name) === undefined) return undefined;
      const value = foldNumber(bare, scope);
      return value === undefined ? undefined : unitOfUnitConstant(bare.name, value, bare.name);
    }
    case AST_NODE_TYPES.MemberExpression: {
      const name = propertyName(bare.property, bare.computed);
      const object = unwrap(bare.object);
      if (name === undefined || object.type !== AST_NODE_TYPES.Identifier) return undefined;
      const imported = own ? namedImportOf(context, object) : undefined;
      const table = imported ? MS_ENUMS[imported.source]?.[imported.name] : undefined;
      if (imported && table) {
        const value = Object.hasOwn(table, name) ? table[name] : undefined;
        return value === undefined ? undefined : { unit: 'milliseconds', value, why: `\`${text(bare)}\` of ${imported.source} is in milliseconds (${value})` };
      }
      if (singleUnitName(name) === undefined) return undefined;
      const value = (own ? localEnumMember(context, object, name, scope) : undefined) ?? foldNumber(bare, scope);
      return value === undefined ? undefined : unitOfUnitConstant(name, value, text(bare));
    }
    case AST_NODE_TYPES.CallExpression: {
      const callee = unwrap(bare.callee);
      if (callee.type === AST_NODE_TYPES.Identifier) {
        const imported = own ? namedImportOf(context, callee) : undefined;
        if (imported && MS_FUNCTIONS[imported.source]?.includes(imported.name)) {
          return { unit: 'milliseconds', why: `\`${text(bare)}\` of ${imported.source} returns milliseconds` };
        }
        return undefined;
      }
      if (callee.type !== AST_NODE_TYPES.MemberExpression) return undefined;
      const method = propertyName(callee.property, callee.computed);
      if (method === undefined) return undefined;
      if (Object.hasOwn(UNIT_METHODS, method) && bare.arguments.length === 0) {
        const unit = UNIT_METHODS[method]!;
        return { unit, unitOnly: true, why: `\`${text(bare)}\` is in ${unit}` };
      }
      // `end.diff(start, 'seconds')` of moment / dayjs: the span between two points, in that unit
      if (method === 'diff' && bare.arguments.length >= 2) {
        const second = unwrap(bare.arguments[1]!);
        const raw = second.type === AST_NODE_TYPES.Literal ? second.value : own ? staticValue(context, second) : undefined;
        const unit = typeof raw === 'string' ? unitWord(raw) : undefined;
        return unit ? { unit, why: `\`${text(bare)}\` is a span in ${unit}` } : undefined;
      }
      if (UNIT_ARGUMENT_METHODS.has(method) && bare.arguments.length === 1) {
        const first = unwrap(bare.arguments[0]!);
        const raw = first.type === AST_NODE_TYPES.ObjectExpression ? unitProperty(first) : first.type === AST_NODE_TYPES.Literal ? first.value : own ? staticValue(context, first) : undefined;
        const unit = typeof raw === 'string' ? unitWord(raw) : undefined;
        return unit ? { unit, unitOnly: true, why: `\`${text(bare)}\` is in ${unit}` } : undefined;
      }
      return undefined;
    }
    default:
      return undefined;
  }
}

/** `{ unit: 'second' }` (Temporal's `total` options): the unit's text. */
function unitProperty(object: TSESTree.ObjectExpression): unknown {
  for (const property of object.properties) {
    if (property.type === AST_NODE_TYPES.Property && propertyName(property.key, property.computed) === 'unit' && property.value.type === AST_NODE_TYPES.Literal) return property.value.value;
  }
  return undefined;
}

/** Whether a node is of the linted file (not of a module whose `const`s are followed). */
function inFile(context: AnyContext, node: TSESTree.Node): boolean {
  let root: TSESTree.Node = node;
  while (root.parent) root = root.parent;
  return root === context.sourceCode.ast;
}

/** `'seconds'`, `'second'`, `'milliseconds'`, `'millisecond'`: the unit; any other unit is nobody's TTL unit. */
function unitWord(text: string): 'seconds' | 'milliseconds' | undefined {
  // moment's and dayjs' short forms too ('s', 'ms': https://day.js.org/docs/en/display/difference)
  if (/^(seconds?|s)$/i.test(text)) return 'seconds';
  if (/^(milliseconds?|ms)$/i.test(text)) return 'milliseconds';
  return undefined;
}
