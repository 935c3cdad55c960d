/**
 * The plugin's findings for a snippet, through ESLint's `Linter` (flat config,
 * `@typescript-eslint/parser` without type information): for tests that look at several rules at
 * once, or at what RuleTester does not show (the line a message names, the rule of each finding).
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import tsParser from '@typescript-eslint/parser';
import { Linter } from 'eslint';
import plugin from '../../rules/index.js';

/**
 * Lints `code` as the file `filename` with `rules` (`{ 'redis-ttl/<rule>': ['error', options] }`)
 * and returns ESLint's messages, in ESLint's order.
 */
export function lintSnippet(code: string, rules: Linter.RulesRecord, filename = 'app.ts'): Linter.LintMessage[] {
  const linter = new Linter({ configType: 'flat' });
  return linter.verify(code, [{ files: ['**/*.ts'], languageOptions: { parser: tsParser }, plugins: { 'redis-ttl': plugin }, rules }], { filename });
}

/** The key policy of the `strict` config: every inferred exemption off. */
export const STRICT_KEY_POLICY = { allowConstantKeys: false, allowOptionalTtl: false, allowPassThrough: false, allowOpaqueKeys: false, allowScriptFallbacks: false } as const;

/** A finding of {@link lintKeyRules}: the full rule id, messageId, line, column. */
export type KeyFinding = [string | null, string | undefined, number, number];

/**
 * Lints `code` with the two key-writing rules (`incr-needs-expire-on-create`,
 * `set-requires-ttl-or-keepttl`), both given the same `options`, and returns [rule id, messageId,
 * line, column] per finding, in ESLint's order.
 */
export function lintKeyRules(code: string, options: Record<string, unknown> = {}): KeyFinding[] {
  const messages = lintSnippet(code, {
    'redis-ttl/incr-needs-expire-on-create': ['error', options],
    'redis-ttl/set-requires-ttl-or-keepttl': ['error', options],
  });
  return messages.map((m) => [m.ruleId, m.messageId, m.line, m.column]);
}

/** A finding of {@link lintWriteRules}: rule (without `redis-ttl/`), messageId, line, column, the line the message names. */
export type WriteFinding = [string | undefined, string | undefined, number, number, string | undefined];

/**
 * Lints `code` with the two write rules (`incr-needs-expire-on-create`, `set-requires-ttl-or-keepttl`),
 * giving each rule the keys of `options` its schema declares (the lifecycle options are shared, a
 * few are one rule's own), and returns [rule, messageId, line, column, the line named in the
 * message (`line N`)] per finding, in ESLint's order.
 */
export function lintWriteRules(code: string, options: Record<string, unknown> = {}): WriteFinding[] {
  const rules: Linter.RulesRecord = {};
  for (const name of ['incr-needs-expire-on-create', 'set-requires-ttl-or-keepttl'] as const) {
    const schema = (plugin.rules?.[name]?.meta?.schema as Array<{ properties?: Record<string, unknown> }> | undefined)?.[0];
    const accepted = Object.fromEntries(Object.entries(options).filter(([key]) => key in (schema?.properties ?? {})));
    rules[`redis-ttl/${name}`] = ['error', accepted];
  }
  return lintSnippet(code, rules).map((m) => [m.ruleId?.replace('redis-ttl/', ''), m.messageId, m.line, m.column, /\bline (\d+)/.exec(m.message)?.[1]]);
}

/**
 * Writes `files` (relative path -> text) into a new temporary folder, pushes the folder onto
 * `roots` (the caller removes them after its tests) and returns its absolute path.
 */
export function writeProject(roots: string[], files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'lint-project-'));
  roots.push(root);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

/**
 * Writes an application to a new temporary folder (`manifest` as its package.json, `"private":
 * true` by default, and `files` by relative path), pushes the folder onto `roots` (the caller
 * removes them after its tests), and lints `target` with `rules` (`{ rule: options }`, rule names
 * without the `redis-ttl/` prefix; `undefined` options: the rule's defaults) and `settings['redis-ttl'].persistentKeys`.
 * @returns `[rule, messageId, line, column]` per finding, in ESLint's order
 */
export function lintApplication(
  roots: string[],
  files: Record<string, string>,
  target: string,
  rules: Record<string, unknown>,
  persistentKeys: string[],
  manifest = '{ "name": "app", "private": true }',
): Array<[string | undefined, string | undefined, number, number]> {
  return lintApplicationMessages(roots, files, target, rules, persistentKeys, manifest).map((m) => [m.ruleId?.replace('redis-ttl/', ''), m.messageId, m.line, m.column]);
}

/**
 * {@link lintApplication}'s lint, with ESLint's messages whole (for tests of a message's text).
 * @returns ESLint's messages on `target`, in its order
 */
export function lintApplicationMessages(
  roots: string[],
  files: Record<string, string>,
  target: string,
  rules: Record<string, unknown>,
  persistentKeys: string[],
  manifest = '{ "name": "app", "private": true }',
): Linter.LintMessage[] {
  const root = writeProject(roots, { 'package.json': manifest, ...files });
  const file = join(root, target);
  const linter = new Linter({ configType: 'flat', cwd: root });
  const config = [
    {
      files: ['**/*.ts'],
      languageOptions: { parser: tsParser },
      plugins: { 'redis-ttl': plugin },
      settings: { 'redis-ttl': { persistentKeys } },
      rules: Object.fromEntries(Object.entries(rules).map(([rule, options]) => [`redis-ttl/${rule}`, options === undefined ? 'error' : ['error', options]])) as Linter.RulesRecord,
    },
  ];
  return linter.verify(readFileSync(file, 'utf8'), config, { filename: file });
}

/** A finding of {@link lintEmbeddedLuaFile}: the Lua rule id the message opens with (`[rule]`), line, column. */
export type EmbeddedLuaFinding = [string | undefined, number, number];

/**
 * Writes `code` as `file` of the project folder `root` (made by {@link writeProject}) and lints it
 * with `embedded-lua` alone (`.ts` and `.js`, `@typescript-eslint/parser`, ESLint's `cwd` at
 * `root`, so project-wide readings see the folder's package.json and modules).
 * @returns `[Lua rule id, line, column]` per finding, in ESLint's order
 */
export function lintEmbeddedLuaFile(root: string, file: string, code: string): EmbeddedLuaFinding[] {
  const linter = new Linter({ configType: 'flat', cwd: root });
  const config = [
    {
      files: ['**/*.ts', '**/*.js'],
      languageOptions: { parser: tsParser },
      plugins: { 'redis-ttl': plugin },
      rules: { 'redis-ttl/embedded-lua': 'error' } as Linter.RulesRecord,
    },
  ];
  writeFileSync(join(root, file), code);
  return linter.verify(code, config, { filename: join(root, file) }).map((m) => [/^\[([^\]]+)\]/.exec(m.message)?.[1], m.line, m.column]);
}
