/**
 * Redis scripts embedded in Go, Python, Ruby, PHP, Java, C#, JavaScript and TypeScript files:
 * found with a real parser of the host language (web-tree-sitter; ESLint's parsers for JS/TS),
 * cooked to the Lua text Redis receives, analysed by lua-lint, and reported at the host file's
 * lines and columns. See docs/lua-lint-hosts.md for the calls recognised per language and client.
 *
 * Nothing here is loaded by a run over `.lua` files: the CLI imports this module only when a host
 * file is among its targets, and the parsers load on first use.
 */
import { lineIndex } from '../../text/lines.js';
import { analyzeLua } from '../lint.js';
import type { AnalyzeOptions, LuaFinding } from '../types.js';
import type { Cooked } from './cooked.js';
import type { GrammarName, Node, Tree } from './parser.js';
import { atHost, dynamicFindings } from './shared.js';

export { dynamicFindings } from './shared.js';
import { prepareStackExchangeScript, type NamedParameter } from './templating.js';
import type { HostDynamicScript, ScriptSite } from './types.js';

export type { HostDynamicScript } from './types.js';

export type { NamedParameter } from './templating.js';

import { hostLanguageOf, type HostLanguageId } from './extensions.js';

export { HOST_EXTENSIONS, hostLanguageOf, type HostLanguageId } from './extensions.js';

interface Extractor {
  /** Whether the text may hold a script at all: the names of the script-taking calls appear in it. */
  hint: (text: string) => boolean;
  scripts: (root: Node) => ScriptSite[];
}

interface TreeSitterLanguage {
  grammar: GrammarName;
  load: () => Promise<Extractor>;
}

const TREE_SITTER: Record<Exclude<HostLanguageId, 'javascript' | 'typescript'>, TreeSitterLanguage> = {
  go: { grammar: 'go', load: async () => import('./go.js').then((m) => ({ hint: m.goHint, scripts: m.goScripts })) },
  python: { grammar: 'python', load: async () => import('./python.js').then((m) => ({ hint: m.pythonHint, scripts: m.pythonScripts })) },
  ruby: { grammar: 'ruby', load: async () => import('./ruby.js').then((m) => ({ hint: m.rubyHint, scripts: m.rubyScripts })) },
  php: { grammar: 'php', load: async () => import('./php.js').then((m) => ({ hint: m.phpHint, scripts: m.phpScripts })) },
  java: { grammar: 'java', load: async () => import('./java.js').then((m) => ({ hint: m.javaHint, scripts: m.javaScripts })) },
  csharp: { grammar: 'c-sharp', load: async () => import('./csharp.js').then((m) => ({ hint: m.csharpHint, scripts: m.csharpScripts })) },
};

/** One script found in a host file. */
export interface HostScript {
  /** The Lua text Redis receives (escapes decoded, literals joined, `@name` parameters replaced). */
  source: string;
  /** The 1-based host line and column (UTF-16 code units) of a 0-based offset into {@link source}. */
  position(offset: number): { line: number; column: number };
  /** The 0-based host offset of a 0-based offset into {@link source}. */
  hostOffset(offset: number): number;
  /** The call that makes it a script (`redis.NewScript(...)`, `a LUA heredoc`). */
  via: string;
  /** StackExchange.Redis `@name` parameters and the KEYS / ARGV they were analysed as. */
  parameters: NamedParameter[];
}


/** What {@link extractHostScripts} finds in one file. */
export interface HostExtraction {
  scripts: HostScript[];
  dynamic: HostDynamicScript[];
}

/**
 * Finds the Redis scripts of a Go, Python, Ruby, PHP, Java or C# file (see docs/lua-lint-hosts.md).
 * A file that names neither Redis nor Valkey nor a LUA heredoc is not parsed. JS/TS files go
 * through {@link lintHostSource}, which uses the ESLint rule's extraction.
 *
 * @param language the file's language ({@link hostLanguageOf}); not `javascript` / `typescript`.
 * @param text the file's text.
 * @throws Error when the parser cannot be loaded (a broken install); {@link HostExtractionError}
 *   when the file's scripts cannot be read (never expected, whatever the input).
 */
export async function extractHostScripts(language: Exclude<HostLanguageId, 'javascript' | 'typescript'>, text: string): Promise<HostExtraction> {
  if (!/redis|valkey/i.test(text) && !/\bLUA\b/.test(text)) return { scripts: [], dynamic: [] };
  const spec = TREE_SITTER[language];
  const extractor = await spec.load();
  if (!extractor.hint(text)) return { scripts: [], dynamic: [] };
  const { parserFor } = await import('./parser.js');
  const parser = await parserFor(spec.grammar);
  let tree: Tree | null = null;
  try {
    tree = parser.parse(text);
    if (!tree) return { scripts: [], dynamic: [] };
    const lines = lineIndex(text);
    const scripts: HostScript[] = [];
    const dynamic: HostDynamicScript[] = [];
    const seen = new Set<string>();
    const sites = extractor.scripts(tree.rootNode).sort((a, b) => siteStart(a) - siteStart(b));
    for (const site of sites) {
      if (site.value.kind === 'dynamic') {
        const { at, end, how } = site.value;
        if (seen.has(`d${at}`)) continue;
        seen.add(`d${at}`);
        const start = lines.position(at);
        const stop = lines.position(end);
        dynamic.push({ how, via: site.via, line: start.line, column: start.column, endLine: stop.line, endColumn: stop.column, offset: at, endOffset: end });
        continue;
      }
      let value: Cooked = site.value.value;
      const identity = `${value.map[0] ?? value.end}:${value.end}`;
      if (seen.has(identity)) continue; // one constant used by several calls
      seen.add(identity);
      let parameters: NamedParameter[] = [];
      if (site.templating === 'stackexchange-redis') ({ script: value, parameters } = prepareStackExchangeScript(value));
      const mapped = value;
      const hostOffset = (offset: number): number => (offset < mapped.text.length ? mapped.map[Math.max(0, offset)]! : mapped.end);
      scripts.push({ source: mapped.text, hostOffset, position: (offset) => lines.position(hostOffset(offset)), via: site.via, parameters });
    }
    return { scripts, dynamic };
  } catch (error) {
    throw new HostExtractionError(error instanceof Error ? error.message : String(error));
  } finally {
    tree?.delete();
  }
}

/** A file whose scripts could not be read (a bug of an extractor on odd input, not a broken install). */
export class HostExtractionError extends Error {
  override name = 'HostExtractionError';
}

function siteStart(site: ScriptSite): number {
  return site.value.kind === 'dynamic' ? site.value.at : (site.value.value.map[0] ?? site.value.value.end);
}

/**
 * Lints the Redis scripts embedded in a host-language file: each script is analysed with
 * {@link analyzeLua} and every finding is placed at the host file's line and column (messages too
 * name host places). A script built at run time is reported once, as `unanalyzable-command` (at
 * that rule's severity), at the expression that builds it.
 *
 * @param filePath the file's path (its extension picks the language).
 * @param text the file's text.
 * @returns findings whose positions and offsets are the host file's, sorted by position; `[]` for
 *   a file that is not a host file.
 * @throws Error when a parser cannot be loaded (a broken install).
 */
export async function lintHostSource(filePath: string, text: string, options: AnalyzeOptions = {}): Promise<LuaFinding[]> {
  const language = hostLanguageOf(filePath);
  if (language === undefined) return [];
  if (language === 'javascript' || language === 'typescript') {
    const { lintJavaScriptSource } = await import('./javascript.js');
    return lintJavaScriptSource(filePath, text, options);
  }
  let extraction: HostExtraction;
  try {
    extraction = await extractHostScripts(language, text);
  } catch (error) {
    if (!(error instanceof HostExtractionError)) throw error; // a broken install: the parser did not load
    // Never take the run down on odd input, and never pass a file we could not read as clean.
    const message = `lua-lint could not read the Redis scripts of this file: ${error.message}.`;
    return [{ ruleId: null, severity: 2, message, line: 1, column: 1, endLine: 1, endColumn: 1, offset: 0, endOffset: 0, fatal: true }];
  }
  const { scripts, dynamic } = extraction;
  const lines = lineIndex(text);
  const findings: LuaFinding[] = [];
  for (const script of scripts) {
    const perScript: AnalyzeOptions = { ...options, messagePosition: (offset) => script.position(offset) };
    for (const finding of analyzeLua(script.source, perScript)) {
      const offset = script.hostOffset(finding.offset);
      const endOffset = finding.endOffset > finding.offset ? script.hostOffset(finding.endOffset - 1) + 1 : offset;
      const message = finding.fatal
        ? `The script of ${script.via} is not valid Lua, so Redis rejects it. ${finding.message}`
        : withParameterNames(finding.message, script.parameters);
      findings.push(atHost(finding, lines, offset, endOffset, message));
    }
  }
  findings.push(...dynamicFindings(dynamic, options));
  return findings.sort((a, b) => a.line - b.line || a.column - b.column);
}

/** A message about a prepared StackExchange.Redis script names `@key`, not the `KEYS[1]` it became. */
function withParameterNames(message: string, parameters: readonly NamedParameter[]): string {
  let out = message;
  for (const { name, becomes } of parameters) out = out.replace(new RegExp(`${becomes.replace(/[[\]]/g, '\\$&')}(?!\\d)`, 'g'), name);
  return out;
}

