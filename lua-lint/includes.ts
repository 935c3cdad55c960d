/**
 * `--- @include "name"` resolution, as BullMQ's script loader does it
 * (https://github.com/taskforcesh/bullmq, `src/commands/script-loader.ts`): the directive line is
 * replaced by the included file (itself expanded, `.lua` added when the name has no extension), a
 * file included twice is emitted once, where it is first included. A script whose helpers live in
 * include files is analysed whole, and each finding is reported in the file that holds its line.
 *
 * References are resolved relative to the including file; `~/x` and `<name>/x` (BullMQ's mapped
 * paths) relative to the include root; a reference not found next to the including file is also
 * looked up under the include root.
 */
import path from 'node:path';
import { analyzeLua } from './lint.js';
import { includeNotFoundMessage } from './messages.js';
import { lineIndex, type LineIndex } from '../text/lines.js';
import { RULES } from './rules.js';
import type { AnalyzeOptions, LuaFinding } from './types.js';

/** `--- @include "x"` or `-- @include 'x'` on a line of its own (BullMQ's syntax). */
const INCLUDE_DIRECTIVE = /^[ \t]*-{2,3}[ \t]*@include[ \t]+(["'])(.+?)\1[; \t]*$/gm;

/** How include references become files. */
export interface IncludeResolver {
  /**
   * The absolute path of the file that `reference` (as written, without quotes) names when
   * `fromFile` includes it, or `undefined` when no such file exists.
   */
  resolve(reference: string, fromFile: string): string | undefined;
  /** The text of a file (UTF-8), or `undefined` when it cannot be read. */
  read(file: string): string | undefined;
}

/** The findings of one file. */
export interface FileFindings {
  filePath: string;
  findings: LuaFinding[];
}

interface Segment {
  /** Offsets in the combined text. */
  from: number;
  to: number;
  file: string;
  /** Offset in `file` of the combined text's `from`. */
  fileOffset: number;
}

/** Whether a script has `@include` directives. */
export function hasIncludes(source: string): boolean {
  INCLUDE_DIRECTIVE.lastIndex = 0;
  return INCLUDE_DIRECTIVE.test(source);
}

/**
 * Analyses `source` (the text of `filePath`) with its includes resolved.
 * @returns the findings of every file involved that has any, `filePath` first (always present):
 *   positions are lines and columns of the file that holds them. An include that cannot be found
 *   is an `unanalyzable-command` finding at its directive. Never throws.
 */
export function analyzeLuaWithIncludes(filePath: string, source: string, resolver: IncludeResolver, options: AnalyzeOptions = {}): FileFindings[] {
  if (!hasIncludes(source)) return [{ filePath, findings: analyzeLua(source, options) }];
  const texts = new Map<string, string>([[filePath, source]]);
  const segments: Segment[] = [];
  const missing: Array<{ file: string; offset: number; end: number; reference: string }> = [];
  const emitted = new Set<string>([filePath]);
  let combined = '';

  const expand = (file: string, text: string, stack: readonly string[]): void => {
    let last = 0;
    INCLUDE_DIRECTIVE.lastIndex = 0;
    const matches = [...text.matchAll(INCLUDE_DIRECTIVE)];
    for (const match of matches) {
      const start = match.index;
      const end = start + match[0].length;
      push(file, text, last, start);
      last = end;
      const reference = match[2]!;
      const target = resolver.resolve(reference, file);
      const content = target === undefined ? undefined : (texts.get(target) ?? resolver.read(target));
      if (target === undefined || content === undefined) {
        missing.push({ file, offset: start, end, reference });
        continue;
      }
      if (emitted.has(target) || stack.includes(target)) continue; // once, where first included
      emitted.add(target);
      texts.set(target, content);
      expand(target, content, [...stack, target]);
    }
    push(file, text, last, text.length);
  };
  const push = (file: string, text: string, from: number, to: number): void => {
    if (to <= from) return;
    segments.push({ from: combined.length, to: combined.length + (to - from), file, fileOffset: from });
    combined += text.slice(from, to);
  };
  expand(filePath, source, [filePath]);

  const indexes = new Map<string, LineIndex>();
  const linesOf = (file: string): LineIndex => {
    let index = indexes.get(file);
    if (!index) indexes.set(file, (index = lineIndex(texts.get(file) ?? '')));
    return index;
  };
  const locate = (offset: number): { file: string; offset: number } => {
    let lo = 0;
    let hi = segments.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (segments[mid]!.from <= offset) lo = mid;
      else hi = mid - 1;
    }
    const segment = segments[lo];
    if (!segment) return { file: filePath, offset: 0 };
    return { file: segment.file, offset: segment.fileOffset + Math.min(offset, segment.to) - segment.from };
  };
  const messagePosition = (offset: number) => {
    const place = locate(offset);
    const { line, column } = linesOf(place.file).position(place.offset);
    // Several files are involved: every place says which one it is in.
    return { line, column, file: path.basename(place.file) };
  };

  const byFile = new Map<string, LuaFinding[]>([[filePath, []]]);
  const add = (file: string, finding: LuaFinding): void => {
    const list = byFile.get(file) ?? [];
    byFile.set(file, list);
    list.push(finding);
  };
  for (const finding of analyzeLua(combined, { ...options, messagePosition })) {
    const start = locate(finding.offset);
    const lines = linesOf(start.file);
    const begin = lines.position(start.offset);
    // A range never leaves the file that holds its start.
    const endPlace = locate(Math.max(finding.offset, finding.endOffset - 1));
    const endOffset = endPlace.file === start.file ? endPlace.offset + (finding.endOffset > finding.offset ? 1 : 0) : start.offset;
    const end = lines.position(endOffset);
    add(start.file, { ...finding, line: begin.line, column: begin.column, endLine: end.line, endColumn: end.column, offset: start.offset, endOffset });
  }
  const unanalyzable = options.rules?.['unanalyzable-command'];
  if (unanalyzable !== 'off' && unanalyzable !== 0) {
    const severity = unanalyzable === 'error' || unanalyzable === 2 ? 2 : unanalyzable === 'warn' || unanalyzable === 1 ? 1 : RULES['unanalyzable-command'].defaultSeverity;
    for (const m of missing) {
      const lines = linesOf(m.file);
      const begin = lines.position(m.offset);
      const end = lines.position(m.end);
      add(m.file, {
        ruleId: 'unanalyzable-command',
        severity,
        message: includeNotFoundMessage(m.reference),
        line: begin.line,
        column: begin.column,
        endLine: end.line,
        endColumn: end.column,
        offset: m.offset,
        endOffset: m.end,
      });
    }
  }
  return [...byFile].map(([file, findings]) => ({
    filePath: file,
    findings: findings.sort((a, b) => a.offset - b.offset || (a.ruleId ?? '').localeCompare(b.ruleId ?? '')),
  }));
}
