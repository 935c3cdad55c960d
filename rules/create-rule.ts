/**
 * The one `RuleCreator` of the plugin: every ESLint rule is built here so that its docs URL points
 * at `docs/rules/<name>.md` (the base URL is shared with the Lua analyzer's rule pages).
 */
import { ESLintUtils } from '@typescript-eslint/utils';
import { DOCS_BASE_URL } from '../lua-lint/rules.js';

/** The plugin-specific `meta.docs` fields: which shipped config turns the rule on. */
export interface RedisTtlRuleDocs {
  /** On in the `recommended` config (and therefore in `strict`). */
  recommended?: boolean;
  /** On in the `strict` config (with stricter options where the rule has them). */
  strict?: boolean;
  /** Whether the rule needs type information (none of ours do; they use it when present). */
  requiresTypeChecking?: boolean;
}

/** The docs page of an ESLint rule of this plugin. */
export function ruleDocsUrl(name: string): string {
  return `${DOCS_BASE_URL}${name}.md`;
}

/** Builds a rule with its docs URL, typed `Options` and `MessageIds`. */
export const createRule = ESLintUtils.RuleCreator<RedisTtlRuleDocs>(ruleDocsUrl);
