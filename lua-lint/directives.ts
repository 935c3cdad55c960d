/**
 * Comment directives: ESLint-style disable comments and persistent-key annotations.
 *
 * - `-- lua-lint-disable-next-line [ids]`, `-- lua-lint-disable-line [ids]`
 * - `-- lua-lint-disable [ids]` ... `-- lua-lint-enable [ids]` (ranges; no ids = every rule)
 * - `-- redis-ttl persistent: KEYS[2], job_key` on the line before a write (that write only), or
 *   above the first statement of the script (the whole script).
 * Ids are separated by commas or spaces; text after ` -- ` is a free-form explanation. An id that
 * is not a lua-lint rule is a {@link DirectiveProblem} (ESLint: "Definition for rule '...' was not
 * found"), reported as `unknown-rule-in-directive`: a typo must not silently disable nothing.
 */
import type { Comment } from 'luaparse';
import type { LineIndex } from '../text/lines.js';
import { isLuaRuleId, nearestRuleId } from './rules.js';

/** The directives of one script. */
export interface Directives {
  /** Whether a finding of `ruleId` starting at `line` is silenced by a disable comment. */
  isDisabled(ruleId: string | null, line: number): boolean;
  /** Key spellings declared persistent for the whole script. */
  globalPersistent: string[];
  /** Key spellings declared persistent for the statement on a given line. */
  persistentByLine: Map<number, string[]>;
  /** The directive comments that name a rule lua-lint does not have, in source order. */
  problems: DirectiveProblem[];
}

/** A disable or enable comment naming an unknown rule id: the whole comment, and what to say. */
export interface DirectiveProblem {
  /** 0-based UTF-16 offset of the comment's `--`. */
  offset: number;
  /** 0-based UTF-16 offset just past the comment. */
  endOffset: number;
  /** What is wrong and the fix: the unknown id, the directive, the nearest rule id when one is close. */
  message: string;
}

interface Range {
  from: number;
  to: number;
  ids: Set<string> | null; // null = every rule
}

const DIRECTIVE = /^\s*(lua-lint-disable-next-line|lua-lint-disable-line|lua-lint-disable|lua-lint-enable)\b(.*)$/s;
const PERSISTENT = /^\s*redis-ttl\s+persistent\s*:\s*(.*)$/s;

/**
 * Whether `text` can hold a directive at all (each kind spells `lua-lint-` or `redis-ttl`): a
 * script without either has its comments left unread.
 */
export function mayHoldDirectives(text: string): boolean {
  return DIRECTIVE_WORD.test(text);
}

/** One pass over the text (twice as fast as two `includes`). */
const DIRECTIVE_WORD = /lua-lint-|redis-ttl/;

/**
 * The message for `id`, unknown, in a `kind` comment: names the nearest rule id when one is close
 * ({@link nearestRuleId}: `no-getst`, `No-Getset`), else where the rule ids are listed.
 */
export function unknownRuleMessage(id: string, kind: string): string {
  const nearest = nearestRuleId(id);
  const effect =
    kind === 'lua-lint-enable'
      ? 'enables nothing under that name, so a rule disabled above it stays disabled'
      : 'disables nothing under that name, so the finding it was written for stays reported';
  return `Unknown rule '${id}' in ${kind}${nearest ? `; did you mean '${nearest}'?` : '.'} The comment ${effect}${nearest ? '.' : '. The rule ids are listed in docs/lua-lint.md#rules.'}`;
}

function splitIds(text: string): Set<string> | null {
  const withoutReason = text.split(/\s--\s/)[0] ?? '';
  const ids = withoutReason
    .split(/[\s,]+/)
    .map((s) => s.trim())
    .filter(Boolean);
  return ids.length > 0 ? new Set(ids) : null;
}

/**
 * Reads the directives of a script from its comments.
 * @param comments luaparse comments with UTF-16 `range`s
 * @param lines the line index of the source
 * @param firstStatementOffset offset of the first statement (annotations above it are global)
 */
export function readDirectives(comments: readonly Comment[], lines: LineIndex, firstStatementOffset: number, source = ''): Directives {
  // comment start offset -> its end: the next code after a comment is found by offset, not by a
  // search through every comment (which made a script of many comments quadratic); made when an
  // annotation on a line of its own first needs it
  let commentEnds: Map<number, number> | undefined;
  const endsByStart = (): Map<number, number> => {
    if (commentEnds) return commentEnds;
    commentEnds = new Map();
    for (const c of comments) {
      const range = (c as Comment & { range?: [number, number] }).range ?? [0, 0];
      if (!commentEnds.has(range[0])) commentEnds.set(range[0], range[1]);
    }
    return commentEnds;
  };
  /** The line of the next code after `offset`: blank lines and comment lines in between are skipped. */
  const nextCodeLine = (offset: number): number => {
    const commentEnds = endsByStart();
    let at = offset;
    for (;;) {
      while (at < source.length && /\s/.test(source[at]!)) at++;
      const end = commentEnds.get(at);
      if (end === undefined) return lines.lineOf(at);
      at = end;
    }
  };
  const ranges: Range[] = [];
  const open: Array<{ from: number; ids: Set<string> | null }> = [];
  const globalPersistent: string[] = [];
  const persistentByLine = new Map<number, string[]>();
  const problems: DirectiveProblem[] = [];

  for (const comment of comments) {
    const value = comment.value;
    // every directive spells one of the words mayHoldDirectives looks for: the other comments are skipped
    if (!mayHoldDirectives(value)) continue;
    const range = (comment as Comment & { range?: [number, number] }).range ?? [0, 0];
    const startLine = lines.lineOf(range[0]);
    const endLine = lines.lineOf(Math.max(range[0], range[1] - 1));
    const persistent = PERSISTENT.exec(value);
    if (persistent) {
      // Keys are separated by commas (or by spaces when no comma is used); spaces inside one key
      // spelling (`KEYS[1] .. ':log'`) do not matter.
      const list = (persistent[1] ?? '').split(/\s--\s/)[0]!;
      const keys = (list.includes(',') ? list.split(',') : list.trim().split(/\s+(?![.][.])(?<![.][.]\s*)/))
        .map((s) => s.replace(/\s+/g, ''))
        .filter(Boolean);
      if (range[0] < firstStatementOffset) globalPersistent.push(...keys);
      else {
        // A trailing annotation applies to its own line; one on a line of its own to the next line
        // of code (a reason written on comment lines in between does not break the link).
        const ownLine = lines.isFirstOnLine(range[0]);
        const target = !ownLine ? startLine : source ? nextCodeLine(range[1]) : endLine + 1;
        persistentByLine.set(target, [...(persistentByLine.get(target) ?? []), ...keys]);
      }
      continue;
    }
    const match = DIRECTIVE.exec(value);
    if (!match) continue;
    const kind = match[1]!;
    const ids = splitIds(match[2] ?? '');
    for (const id of ids ?? []) {
      if (!isLuaRuleId(id)) problems.push({ offset: range[0], endOffset: range[1], message: unknownRuleMessage(id, kind) });
    }
    if (kind === 'lua-lint-disable-next-line') ranges.push({ from: endLine + 1, to: endLine + 1, ids });
    else if (kind === 'lua-lint-disable-line') ranges.push({ from: startLine, to: startLine, ids });
    else if (kind === 'lua-lint-disable') open.push({ from: startLine, ids });
    else {
      // lua-lint-enable [ids]: closes every open range (or the ids named).
      for (let i = open.length - 1; i >= 0; i--) {
        const o = open[i]!;
        if (ids === null || o.ids === null) {
          ranges.push({ from: o.from, to: startLine, ids: o.ids });
          open.splice(i, 1);
        } else {
          const closing = new Set([...o.ids].filter((id) => ids.has(id)));
          if (closing.size === 0) continue;
          ranges.push({ from: o.from, to: startLine, ids: closing });
          const rest = new Set([...o.ids].filter((id) => !ids.has(id)));
          if (rest.size === 0) open.splice(i, 1);
          else o.ids = rest;
        }
      }
    }
  }
  for (const o of open) ranges.push({ from: o.from, to: Number.MAX_SAFE_INTEGER, ids: o.ids });
  // one-line ranges (the -line and -next-line comments, the common kind) by line; the others are few
  const byLine = new Map<number, Range[]>();
  const spans: Range[] = [];
  for (const r of ranges) {
    if (r.from !== r.to) spans.push(r);
    else byLine.set(r.from, [...(byLine.get(r.from) ?? []), r]);
  }
  const covers = (r: Range, line: number, ruleId: string): boolean => line >= r.from && line <= r.to && (r.ids === null || r.ids.has(ruleId));

  return {
    isDisabled(ruleId, line) {
      if (ruleId === null) return false; // parse errors cannot be disabled
      return (byLine.get(line) ?? []).some((r) => covers(r, line, ruleId)) || spans.some((r) => covers(r, line, ruleId));
    },
    globalPersistent,
    persistentByLine,
    problems,
  };
}
