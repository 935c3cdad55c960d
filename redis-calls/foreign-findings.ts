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
 * What it does not see: that module's own configuration (an ESLint `ignores`, a `files` block that
 * turns the rule off or sets other options there: it is judged with the linted file's), and type
 * information (it is read from disk untyped, even in a typed run). A creation such a configuration
 * hides, or one the typed reading of that module would not take for a client write, still counts
 * as reported there.
 *
 * Bounds: one module judged at a time. A question asked while one is judged (that module's own
 * record updates asking about a third module, or back about the linted file) is answered
 * `'nested'`, which the caller takes as "reported there": the judged module then drops its own
 * update, so that the module asking first keeps its finding (two modules that each create the
 * family and call the other's creation both keep theirs, whatever order they are linted in; none
 * is left reported nowhere). A run that throws is answered `undefined` (not known): the caller
 * keeps its finding. Answers are kept per module program, options, settings and rule id, for
 * {@link LISTING_TTL_MS} (what that module reports depends on the package's other files, such as
 * who calls its creating function: a long-lived process, an editor or eslint_d, reads them again
 * after that time, as the package listing is read again).
 */
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { LISTING_TTL_MS } from './project.js';
import { walk, type AnyContext } from './static.js';

/** A finding of the rule in the other module: where it is reported, and its message. */
export interface ForeignFinding {
  node: TSESTree.Node;
  messageId: string;
  loc: TSESTree.Position;
}

/** A rule's `create`, as `createRule` makes it (options read from `context.options`). */
type RuleCreate = (context: never) => TSESLint.RuleListener;

/**
 * Per judged module's program (dropped with it): the answers found for it, each with the settings
 * object, the options (as JSON) and the rule id it was found with, and when (`at`, milliseconds of
 * `Date.now()`); an answer older than {@link LISTING_TTL_MS} is found again.
 */
const findingsCache = new WeakMap<TSESTree.Node, Array<{ settings: unknown; options: string; id: string; at: number; findings: readonly ForeignFinding[] | undefined }>>();
/** Whether a module is being judged now (the rule's run on it is under way): questions it asks are `'nested'`. */
let judging = false;

/**
 * The findings the rule whose `create` is given reports in the module of `at` (a related module's
 * context), linted with the options, settings and rule id of `context` (the linted file's), before
 * any disable directive; `undefined` when not known (see the module
 * comment: a nested question, or a run that throws).
 */
export function findingsInModule(context: AnyContext, at: AnyContext, create: RuleCreate): readonly ForeignFinding[] | 'nested' | undefined {
  // before the cache: a judged module's answer must not depend on which modules were linted before
  if (judging) return 'nested';
  const program = at.sourceCode.ast;
  const options = JSON.stringify(context.options);
  const now = Date.now();
  let entries = findingsCache.get(program)?.filter((e) => now - e.at < LISTING_TTL_MS);
  const cached = entries?.find((e) => e.settings === context.settings && e.options === options && e.id === context.id);
  if (cached) return cached.findings;
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
  entries = [...(entries ?? []), { settings: context.settings, options, id: context.id, at: now, findings }];
  findingsCache.set(program, entries);
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
