/**
 * JavaScript and TypeScript files given to lua-lint: the scripts are found by the ESLint rule
 * `redis-ttl/embedded-lua`'s own extraction (`embeddedScriptsOf`: ioredis `eval` /
 * `defineCommand` / `script('LOAD', ...)`, node-redis `defineScript` / `scriptLoad` /
 * `functionLoad`, upstash `eval` / `createScript`, `sendCommand([...])` / `call(...)` with EVAL,
 * SCRIPT LOAD or FUNCTION LOAD, through `const`s, wrappers and relative imports; a script built at
 * run time is one `unanalyzable-command`), run in ESLint's `Linter` with ESLint's parser (espree) or
 * typescript-eslint's, so a repository without an ESLint configuration can still check its
 * embedded scripts. Loaded only for JS/TS files.
 */
import path from 'node:path';
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { embeddedScriptsOf, type EmbeddedScript, type UnreadableScript } from '../../redis-calls/lua.js';
import type { AnyContext } from '../../redis-calls/static.js';
import { lineIndex } from '../../text/lines.js';
import { atHost, dynamicFindings } from './shared.js';
import { analyzeLua } from '../lint.js';
import type { AnalyzeOptions, LuaFinding } from '../types.js';

interface LinterLike {
  verify(text: string, config: unknown[], options: { filename: string }): Array<{ fatal?: boolean; message: string; line: number; column: number }>;
}

type ParserModule = { parseForESLint: unknown };

async function loadLinter(): Promise<(new (options: { configType: 'flat'; cwd: string }) => LinterLike) | undefined> {
  try {
    const eslint = (await import('eslint')) as unknown as { Linter: new (options: { configType: 'flat'; cwd: string }) => LinterLike };
    return eslint.Linter;
  } catch {
    return undefined;
  }
}

async function loadTypeScriptParser(): Promise<ParserModule | undefined> {
  try {
    return (await import('@typescript-eslint/parser')) as unknown as ParserModule;
  } catch {
    try {
      return ((await import('typescript-eslint')) as unknown as { parser: ParserModule }).parser;
    } catch {
      return undefined;
    }
  }
}

function fatal(message: string): LuaFinding {
  return { ruleId: null, severity: 2, message, line: 1, column: 1, endLine: 1, endColumn: 1, offset: 0, endOffset: 0, fatal: true };
}

/**
 * Lints the scripts embedded in one JavaScript or TypeScript file (see the module comment); the
 * findings are at the file's lines and columns. A file that names neither Redis nor Valkey, or none
 * of the script-taking calls, is not parsed. Needs `eslint` (a peer dependency of the plugin) and, for TypeScript,
 * `@typescript-eslint/parser` or `typescript-eslint`; without them, one fatal finding says what
 * to install.
 */
export async function lintJavaScriptSource(file: string, text: string, options: AnalyzeOptions): Promise<LuaFinding[]> {
  const filePath = path.resolve(file);
  // The calls embeddedScriptsOf reads; a file naming none of them holds no script.
  if (!/redis|valkey/i.test(text) || !/\b(?:eval\w*|defineCommand|defineScript|createScript|Script|scriptLoad|functionLoad|script_load|function_load|load)\b/i.test(text)) return [];
  const typescript = /\.[cm]?tsx?$/i.test(filePath);
  const Linter = await loadLinter();
  if (!Linter) return [fatal('lua-lint reads JavaScript and TypeScript files with ESLint\'s parser: install eslint next to eslint-plugin-redis-ttl (npm install --save-dev eslint).')];
  const parser = typescript ? await loadTypeScriptParser() : undefined;
  if (typescript && !parser) {
    return [fatal('lua-lint reads TypeScript files with typescript-eslint\'s parser: install it (npm install --save-dev typescript-eslint typescript).')];
  }
  const found: Array<EmbeddedScript | UnreadableScript> = [];
  const collector: TSESLint.RuleModule<string, []> = {
    defaultOptions: [],
    meta: { type: 'problem', schema: [], messages: {} },
    create(context) {
      return {
        CallExpression(node: TSESTree.CallExpression) {
          found.push(...embeddedScriptsOf(context as unknown as AnyContext, node));
        },
        // Valkey GLIDE: new Script(code)
        NewExpression(node: TSESTree.NewExpression) {
          found.push(...embeddedScriptsOf(context as unknown as AnyContext, node));
        },
      };
    },
  };
  const linter = new Linter({ configType: 'flat', cwd: path.dirname(filePath) });
  const messages = linter.verify(
    text,
    [
      {
        files: [`**/*${path.extname(filePath)}`],
        languageOptions: {
          ecmaVersion: 'latest',
          sourceType: /\.cjs$|\.cts$/i.test(filePath) ? 'commonjs' : 'module',
          ...(parser ? { parser } : {}),
          parserOptions: { ecmaFeatures: { jsx: /x$/i.test(filePath) } },
        },
        plugins: { 'lua-lint': { rules: { scripts: collector } } },
        rules: { 'lua-lint/scripts': 'error' },
      },
    ],
    { filename: filePath },
  );
  const parseError = messages.find((m) => m.fatal);
  if (parseError) {
    return [{ ...fatal(`This file does not parse, so its Redis scripts cannot be found: ${parseError.message}`), line: parseError.line, column: parseError.column, endLine: parseError.line, endColumn: parseError.column }];
  }
  const lines = lineIndex(text);
  const findings: LuaFinding[] = [];
  const seen = new Set<TSESTree.Node>();
  const unreadable: UnreadableScript[] = [];
  for (const script of found) {
    if ('unreadable' in script) {
      if (!seen.has(script.node)) unreadable.push(script);
      seen.add(script.node);
      continue;
    }
    if (seen.has(script.literal)) continue; // one const used by several calls
    seen.add(script.literal);
    const messagePosition = script.modulePosition ?? ((offset: number) => lines.position(script.toFileOffset(offset)));
    for (const finding of analyzeLua(script.source, { ...options, messagePosition })) {
      const offset = script.toFileOffset(finding.offset);
      const endOffset = script.importedFrom ? offset : script.toFileOffset(Math.max(finding.endOffset, finding.offset));
      const where = script.importedFrom ? `In the script at ${script.importedFrom.replace(/:\d+:\d+$/, '')}:${script.modulePosition!(finding.offset).line}: ` : '';
      findings.push(atHost(finding, lines, offset, endOffset, `${where}${finding.message}`));
    }
  }
  const dynamic = unreadable.map(({ node, how, via }) => {
    const start = lines.position(node.range[0]);
    const end = lines.position(node.range[1]);
    return { how, via, line: start.line, column: start.column, endLine: end.line, endColumn: end.column, offset: node.range[0], endOffset: node.range[1] };
  });
  findings.push(...dynamicFindings(dynamic, options));
  return findings.sort((a, b) => a.line - b.line || a.column - b.column);
}
