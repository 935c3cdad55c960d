/**
 * A rule's own findings in ANOTHER MODULE of the package, as that rule would report them when
 * ESLint lints that module with the same options and settings: for a reading that drops a finding
 * of the linted file because another module carries it (`record-creation.ts`
 * recordCreatedInAnotherModule: a record family created there), so it drops it only when that
 * module does report it, and does not silence it there.
 *
 * The rule runs on the module's context (`modules.ts` moduleContext: its syntax tree, scopes and
 * text read from disk) given the comment and token look-ups the key policy reads
 * (`getAllComments`, `getCommentsBefore`, `getCommentsInside`, `getFirstToken`): its `CallExpression`
 * visitor on every call in source order, then `Program:exit`; what it reports is kept. Disable
 * directives of that module are not applied: a creation silenced there by an `eslint-disable` is
 * still one the user has seen and decided on (as in the linted file itself, where a disabled
 * creation also leaves the family's updates alone).
 *
 * Bounds: one module judged at a time; a question asked while one is judged (a module judged in
 * turn from it) is answered `undefined` (not known), and so is a run that throws (a reading that
 * needs what a module read from disk lacks, such as type information): the caller keeps its
 * finding. A caller asking while a module is judged ({@link judgingAnotherModule}) is deciding
 * what that module reports: not knowing must make it report less, not more (two modules that
 * each create a family and then call the other's creation would otherwise each be judged to
 * report it, and each drop its own). Findings are kept per module program, options and settings.
 */
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { walk, type AnyContext } from './static.js';

/** A finding of the rule in the other module: where it is reported, and its message. */
export interface ForeignFinding {
  node: TSESTree.Node;
  messageId: string;
  loc: TSESTree.Position;
}

/** A rule's `create`, as `createRule` makes it (options read from `context.options`). */
type RuleCreate = (context: never) => TSESLint.RuleListener;

const findingsCache = new WeakMap<TSESTree.Node, Array<{ settings: unknown; options: string; id: string; findings: readonly ForeignFinding[] | undefined }>>();
let judging = false;

/**
 * Whether a module is being judged ({@link findingsInModule} is running the rule on it): a question
 * asked now is answered `undefined`, and the reading asking it decides what that module reports.
 */
export function judgingAnotherModule(): boolean {
  return judging;
}

/**
 * The findings the rule whose `create` is given reports in the module of `at` (a related module's
 * context), linted with the options, settings and rule id of `context` (the linted file's), before
 * any disable directive; `undefined` when not known (see the module
 * comment: a nested question, or a run that throws).
 */
export function findingsInModule(context: AnyContext, at: AnyContext, create: RuleCreate): readonly ForeignFinding[] | undefined {
  const program = at.sourceCode.ast;
  const options = JSON.stringify(context.options);
  let entries = findingsCache.get(program);
  const cached = entries?.find((e) => e.settings === context.settings && e.options === options && e.id === context.id);
  if (cached) return cached.findings;
  if (judging) return undefined;
  const found: ForeignFinding[] = [];
  const foreign = {
    ...at,
    id: context.id,
    options: context.options,
    settings: context.settings,
    sourceCode: withComments(at.sourceCode),
    report(descriptor: { node?: TSESTree.Node; loc?: TSESTree.SourceLocation | TSESTree.Position; messageId: string }) {
      const node = descriptor.node;
      if (!node) return;
      const loc = descriptor.loc && 'start' in descriptor.loc ? descriptor.loc.start : (descriptor.loc ?? node.loc.start);
      found.push({ node, messageId: descriptor.messageId, loc });
    },
  } as unknown as AnyContext;
  let findings: readonly ForeignFinding[] | undefined;
  judging = true;
  try {
    const visitors = create(foreign as never) as Record<string, ((node: TSESTree.Node) => void) | undefined>;
    const onCall = visitors['CallExpression'];
    if (onCall) walk(foreign, program, (node) => (node.type === 'CallExpression' ? void onCall(node) : undefined));
    visitors['Program:exit']?.(program);
    findings = found;
  } catch {
    findings = undefined;
  } finally {
    judging = false;
  }
  if (!entries) {
    entries = [];
    findingsCache.set(program, entries);
  }
  entries.push({ settings: context.settings, options, id: context.id, findings });
  return findings;
}

/** The module's source code with the comment and token look-ups of ESLint's `SourceCode` the key readings use. */
function withComments(sourceCode: TSESLint.SourceCode): TSESLint.SourceCode {
  const program = sourceCode.ast;
  const comments = program.comments ?? [];
  const tokens = program.tokens ?? [];
  return Object.assign(Object.create(sourceCode) as TSESLint.SourceCode, {
    getAllComments: () => comments,
    getCommentsInside: (node: TSESTree.Node) => comments.filter((c) => c.range[0] >= node.range[0] && c.range[1] <= node.range[1]),
    // the comments between the token before the node and the node
    getCommentsBefore: (node: TSESTree.Node | TSESTree.Token) => {
      let previous = 0;
      for (const token of tokens) {
        if (token.range[1] > node.range[0]) break;
        previous = token.range[1];
      }
      return comments.filter((c) => c.range[0] >= previous && c.range[1] <= node.range[0]);
    },
    getFirstToken: (node: TSESTree.Node) => tokens.find((t) => t.range[0] >= node.range[0] && t.range[1] <= node.range[1]) ?? null,
  });
}
