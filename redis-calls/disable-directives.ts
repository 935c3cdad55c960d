/**
 * ESLint's inline disable directives of a module read from disk (not the linted file: ESLint
 * applies the linted file's own): whether a finding a rule would make at a position of that module
 * is silenced there, so a reading that drops a finding because another module carries it can ask
 * whether that module shows it at all.
 *
 * Read as ESLint reads them (`eslint/lib/languages/js/source-code/source-code.js`
 * getDisableDirectives, `apply-disable-directives.js`): a comment whose text, before a ` -- `
 * justification, starts with `eslint-disable`, `eslint-enable`, `eslint-disable-line` or
 * `eslint-disable-next-line`, followed by a comma-separated list of rule ids (none: every rule);
 * `eslint-disable` / `eslint-enable` only in a block comment, from the comment's start on, in
 * source order; `eslint-disable-line` on the comment's own line (a comment on one line);
 * `eslint-disable-next-line` on the line after the comment's end.
 *
 * Not read: `noInlineConfig` / `--no-inline-config` (the directives are taken to apply), a
 * configuration that turns the rule off for that file, a file the configuration ignores.
 */
import type { TSESTree } from '@typescript-eslint/utils';
import type { AnyContext } from './static.js';

/** One parsed directive comment. */
interface Directive {
  type: 'disable' | 'enable' | 'disable-line' | 'disable-next-line';
  /** The rule ids it names; empty: every rule. */
  rules: readonly string[];
  comment: TSESTree.Comment;
}

const DIRECTIVE = /^eslint-(disable|enable|disable-line|disable-next-line)(?:\s|$)/;

const directivesCache = new WeakMap<TSESTree.Node, readonly Directive[]>();

function directivesOf(at: AnyContext): readonly Directive[] {
  const program = at.sourceCode.ast;
  let directives = directivesCache.get(program);
  if (directives) return directives;
  const list: Directive[] = [];
  for (const comment of program.comments ?? []) {
    const justified = /\s-{2,}\s/.exec(comment.value);
    const text = (justified ? comment.value.slice(0, justified.index) : comment.value).trim();
    const match = DIRECTIVE.exec(text);
    if (!match) continue;
    const type = match[1] as Directive['type'];
    if (comment.type === 'Line' && (type === 'disable' || type === 'enable')) continue;
    if (type === 'disable-line' && comment.loc.start.line !== comment.loc.end.line) continue;
    const rules = text
      .slice(match[0].length)
      .split(',')
      .map((rule) => rule.trim().replace(/^(['"])(.*)\1$/, '$2'))
      .filter((rule) => rule.length > 0);
    list.push({ type, rules, comment });
  }
  directives = list;
  directivesCache.set(program, directives);
  return directives;
}

/**
 * Whether a finding of the rule `ruleId` (as configured: `redis-ttl/incr-needs-expire-on-create`,
 * the linting context's `id`) reported at `position` (1-based line, 0-based column, ESLint's
 * `loc.start`) of the module of `at` is silenced by a disable directive of that module.
 */
export function ruleDisabledAt(at: AnyContext, ruleId: string, position: TSESTree.Position): boolean {
  let disabled = false;
  for (const { type, rules, comment } of directivesOf(at)) {
    if (rules.length > 0 && !rules.includes(ruleId)) continue;
    if (type === 'disable-line' && comment.loc.start.line === position.line) return true;
    if (type === 'disable-next-line' && comment.loc.end.line + 1 === position.line) return true;
    if (type !== 'disable' && type !== 'enable') continue;
    const start = comment.loc.start;
    if (start.line > position.line || (start.line === position.line && start.column > position.column)) continue;
    disabled = type === 'disable';
  }
  return disabled;
}
