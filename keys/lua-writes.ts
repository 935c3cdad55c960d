/**
 * The keys a Redis Lua script writes and reads, and what each write does about the key's TTL,
 * as lua-lint proves it: every `redis.call` / `redis.pcall` with a literal command name is read
 * with the shared command table (`semantics/commands.ts`), and a write's TTL status comes from
 * lua-lint's own findings at that call (`write-path-needs-ttl`, `no-getset`, `no-persist`,
 * `keepttl-needs-existing-key`): no second analysis of the paths.
 */
import type * as L from 'luaparse';
import { describeCommand, EXPIRY_EFFECTS, WRITE_EFFECTS, type CommandArg, type KeyEffect } from '../semantics/commands.js';
import type { TtlStatus } from '../inventory/format.js';
import { analyzeLua } from '../lua-lint/lint.js';
import { parseLua } from '../lua-lint/parse.js';
import { forEachNode, rangeOf } from '../lua-lint/walk/ast.js';

/** One key a script's `redis.call` touches. */
export interface LuaKeyUse {
  /** 0-based UTF-16 offset of the `redis.call` in the script. */
  offset: number;
  /** The command in capitals. */
  command: string;
  /** The key as the script spells it (`KEYS[1] .. ':meta'`). */
  keyText: string;
  /**
   * The key's shape (`*` for run-time parts, persistentKeys syntax), with each `KEYS[n]` replaced
   * by the shape passed for it at the call site; `undefined` when the key uses a `KEYS[n]` whose
   * shape is not known (a script file, a call in another file).
   */
  shape: string | undefined;
  /** For a write: what it does about the TTL; absent for a read. */
  ttl?: TtlStatus;
  /** For a `none` write: `true` when it leaves the key without TTL only when the caller passes no TTL (an optional TTL). */
  optionalTtl?: true;
}

/** The key uses of a script, or why it could not be read. */
export type LuaKeyUses =
  | {
      ok: true;
      writes: LuaKeyUse[];
      reads: LuaKeyUse[];
      /** The keys the script gives a TTL by an expiry command (EXPIRE, PEXPIRE, ...: the command table's expiry effects), on any path. */
      expiries: LuaKeyUse[];
    }
  | { ok: false; offset: number; message: string };

/** lua-lint rules whose finding at a write means the write can leave the key without TTL. */
const LEAK_RULES = new Set(['write-path-needs-ttl', 'no-getset', 'no-persist']);

/**
 * The TTL status of a write with the given effect, when no rule of lua-lint or of the ESLint
 * plugin reported it (the analysis proved an expiry on every path, or the command sets one).
 */
export function unreportedStatus(effect: KeyEffect): TtlStatus {
  if (effect === 'keep-ttl' || effect === 'transfer-ttl') return 'keepttl';
  if (effect === 'remove-ttl') return 'none';
  return 'atomic';
}

/** Whether a key effect writes the key (and gets a TTL status in the inventory). */
export function isWriteEffect(effect: KeyEffect): boolean {
  return WRITE_EFFECTS.has(effect);
}

/**
 * The keys a script writes and reads.
 * @param source the script as Redis receives it
 * @param keyShapes the shape of each `KEYS[n]` passed at the call site (index 0 is `KEYS[1]`);
 *   `undefined` (the whole list, or one entry) when not known
 * @returns the writes with their TTL status and the reads, in source order; or the parse error
 *   (0-based offset into `source`). Never throws.
 */
export function luaKeyUses(source: string, keyShapes?: ReadonlyArray<string | undefined>): LuaKeyUses {
  const parsed = parseLua(source, { comments: false });
  if (!parsed.ok) return { ok: false, offset: parsed.offset, message: parsed.message };
  // optional-TTL leaks count: a write the caller can make without TTL does leave keys without TTL
  const findings = analyzeLua(source, { allowOptionalTtl: false });
  const fatal = findings.find((f) => f.fatal);
  if (fatal) return { ok: false, offset: fatal.offset, message: fatal.message };
  const assignments = parsed.index.assignments;
  const shapeOf = (node: L.Node, depth = 0): string | undefined => {
    if (depth > 8) return '*';
    switch (node.type) {
      case 'StringLiteral':
        return stringValue(node) ?? '*';
      case 'NumericLiteral':
        return node.raw;
      case 'BinaryExpression': {
        if (node.operator !== '..') return '*';
        const left = shapeOf(node.left, depth + 1);
        const right = shapeOf(node.right, depth + 1);
        return left === undefined || right === undefined ? undefined : collapse(left + right);
      }
      case 'IndexExpression': {
        if (node.base.type === 'Identifier' && node.base.name === 'KEYS') {
          const n = node.index.type === 'NumericLiteral' ? Number(node.index.value) : NaN;
          return Number.isInteger(n) && n >= 1 ? keyShapes?.[n - 1] : undefined;
        }
        return '*';
      }
      case 'Identifier': {
        // a local assigned once: its value's shape (`local k = KEYS[1] .. ':meta'`)
        const values = assignments.get(node.name);
        return values?.length === 1 ? shapeOf(values[0]!.value, depth + 1) : '*';
      }
      default:
        return '*';
    }
  };
  const writes: LuaKeyUse[] = [];
  const reads: LuaKeyUse[] = [];
  const expiries: LuaKeyUse[] = [];
  forEachNode(parsed.ast, (node) => {
    if (node.type !== 'CallExpression') return;
    const callee = node.base;
    if (callee.type !== 'MemberExpression' || callee.base.type !== 'Identifier' || callee.base.name !== 'redis') return;
    if (callee.identifier.name !== 'call' && callee.identifier.name !== 'pcall') return;
    const [name, ...rest] = node.arguments;
    const command = name?.type === 'StringLiteral' ? stringValue(name)?.toUpperCase() : undefined;
    if (command === undefined) return;
    const args: CommandArg[] = rest.map((arg) => (arg.type === 'StringLiteral' ? stringValue(arg) : arg.type === 'NumericLiteral' ? arg.value : undefined));
    const [start, end] = rangeOf(node);
    const at = findings.filter((f) => f.offset >= start && f.offset < end);
    for (const action of describeCommand(command, args).keys) {
      const keyNode = rest[action.arg];
      if (!keyNode) continue;
      const [keyStart, keyEnd] = rangeOf(keyNode);
      const use: LuaKeyUse = { offset: start, command, keyText: source.slice(keyStart, keyEnd), shape: shapeOf(keyNode) };
      if (action.effect === 'read') {
        reads.push(use);
      } else if (EXPIRY_EFFECTS.has(action.effect) && !WRITE_EFFECTS.has(action.effect)) {
        expiries.push(use);
      } else if (WRITE_EFFECTS.has(action.effect)) {
        const leaks = at.filter((f) => f.ruleId !== null && LEAK_RULES.has(f.ruleId));
        const keepttl = at.some((f) => f.ruleId === 'keepttl-needs-existing-key');
        // left without TTL only on the arm where the caller passed none: an optional TTL
        const optional = leaks.length > 0 && leaks.every((f) => f.optionalTtl === true);
        writes.push({ ...use, ttl: leaks.length > 0 ? 'none' : keepttl ? 'keepttl' : unreportedStatus(action.effect), ...(optional ? { optionalTtl: true as const } : {}) });
      }
    }
  });
  return { ok: true, writes, reads, expiries };
}

/** A Lua string literal's value (luaparse keeps `raw` only in its default encoding mode). */
function stringValue(node: L.StringLiteral): string | undefined {
  if (typeof node.value === 'string') return node.value;
  const raw = node.raw;
  const quoted = /^(['"])(.*)\1$/s.exec(raw);
  if (quoted) return quoted[2]!.includes('\\') ? undefined : quoted[2];
  const long = /^\[(=*)\[\n?(.*)\]\1\]$/s.exec(raw);
  return long ? long[2] : undefined;
}

/** Runs of `*` as one: two run-time parts next to each other are one run of unknown characters. */
function collapse(shape: string): string {
  return shape.replace(/\*{2,}/g, '*');
}
