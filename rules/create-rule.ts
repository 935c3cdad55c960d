/**
 * The one `RuleCreator` of the plugin: every ESLint rule is built here so that its docs URL points
 * at `docs/rules/<name>.md` (the base URL is shared with the Lua analyzer's rule pages), and so
 * that every message it reports fits {@link MAX_MESSAGE_LENGTH} characters (an editor hover, a CI
 * log line): the optional parts of a key finding (`{{client}}`, the receiver reason when the
 * receiver is a client by its name alone; `{{hint}}`, how to declare such keys persistent) are
 * dropped first, then the longest quoted value (a key, an expression) is shortened with `...`.
 * The rule page holds the rest.
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

/** The longest message a rule of the plugin reports, in characters. */
export const MAX_MESSAGE_LENGTH = 300;

/** Message data a message can do without, dropped in this order when it is too long. */
const OPTIONAL_DATA = ['hint', 'client'] as const;
/**
 * Message data of another tool's finding (`embedded-lua` reports lua-lint's messages, whose
 * length lua-lint answers for): a message with such data is reported as it is.
 */
const FOREIGN_DATA = 'message';

/** The docs page of an ESLint rule of this plugin. */
export function ruleDocsUrl(name: string): string {
  return `${DOCS_BASE_URL}${name}.md`;
}

/** A message template with `data` put in, as ESLint does (`{{ name }}`, unknown names kept). */
export function interpolate(template: string, data: Readonly<Record<string, unknown>> | undefined): string {
  return template.replace(/\{\{([^{}]+?)\}\}/gu, (whole, name: string) => {
    const key = name.trim();
    return data && key in data ? String(data[key]) : whole;
  });
}

/**
 * The data that makes `template` at most {@link MAX_MESSAGE_LENGTH} characters: `data` itself when
 * it fits (or carries another tool's message); else without its optional parts; else with its
 * longest values cut (`...`).
 */
export function fitMessageData(template: string, data: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...data };
  if (FOREIGN_DATA in out || interpolate(template, out).length <= MAX_MESSAGE_LENGTH) return out;
  for (const name of OPTIONAL_DATA) {
    if (!(name in out) || out[name] === '') continue;
    out[name] = '';
    if (interpolate(template, out).length <= MAX_MESSAGE_LENGTH) return out;
  }
  for (let excess = interpolate(template, out).length - MAX_MESSAGE_LENGTH; excess > 0; excess = interpolate(template, out).length - MAX_MESSAGE_LENGTH) {
    let longest: string | undefined;
    for (const [name, value] of Object.entries(out)) {
      if (typeof value !== 'string' || (OPTIONAL_DATA as readonly string[]).includes(name)) continue;
      if (longest === undefined || value.length > (out[longest] as string).length) longest = name;
    }
    const value = longest === undefined ? '' : (out[longest] as string);
    if (longest === undefined || value.length <= 12) break; // nothing left worth cutting
    const uses = Math.max(1, template.split(`{{${longest}}}`).length - 1);
    out[longest] = `${value.slice(0, Math.max(9, value.length - Math.ceil(excess / uses) - 3))}...`;
  }
  return out;
}

const creator = ESLintUtils.RuleCreator<RedisTtlRuleDocs>(ruleDocsUrl);

/** A report descriptor, as far as fitting its messages needs it. */
interface Descriptor {
  messageId: string;
  data?: Record<string, unknown>;
  suggest?: Array<{ messageId: string; data?: Record<string, unknown> }> | null;
}

/** The descriptor with every message (the finding's and its suggestions') fitted. */
function fitted<D extends Descriptor>(descriptor: D, messages: Readonly<Record<string, string>>): D {
  const fit = (messageId: string, data: Record<string, unknown> | undefined) => {
    const template = messages[messageId];
    return template && data ? fitMessageData(template, data) : data;
  };
  const data = fit(descriptor.messageId, descriptor.data);
  const suggest = descriptor.suggest?.map((suggestion) => {
    const suggestionData = fit(suggestion.messageId, suggestion.data);
    return suggestionData ? { ...suggestion, data: suggestionData } : suggestion;
  });
  return { ...descriptor, ...(data ? { data } : {}), ...(suggest ? { suggest } : {}) };
}

/** Builds a rule with its docs URL, typed `Options` and `MessageIds`, and messages that fit. */
export function createRule<Options extends readonly unknown[], MessageIds extends string>(
  rule: Parameters<typeof creator<Options, MessageIds>>[0],
): ReturnType<typeof creator<Options, MessageIds>> {
  const created = creator<Options, MessageIds>(rule);
  const messages = created.meta.messages as Readonly<Record<string, string>>;
  return {
    ...created,
    create(context) {
      const report: typeof context.report = (descriptor) => context.report(fitted(descriptor as unknown as Descriptor, messages) as unknown as typeof descriptor);
      return created.create(Object.create(context, { report: { value: report } }) as typeof context);
    },
  };
}
