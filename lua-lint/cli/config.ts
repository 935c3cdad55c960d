/**
 * The config file `lua-lint.config.json`:
 *
 * ```json
 * { "rules": { "key-must-come-from-keys": "off" }, "persistentKeys": [2, "queue:*"], "ignores": ["vendor/**"], "allowOptionalTtl": false }
 * ```
 *
 * Found by walking up from the working directory unless `--config` names one. Every problem is
 * reported with the file's path, the line and column of the property that is wrong (its name when
 * the name is the problem, as a misspelt rule id), and what is wrong.
 */
import { readFile } from 'node:fs/promises';
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { parse as parseJson, type ValueNode } from '@humanwhocodes/momoa';
import { lineIndex } from '../../text/lines.js';
import { nearestName, sentence } from '../../text/did-you-mean.js';
import { checkOptions, describeValue, isPlainObject, type OptionProblem } from '../options.js';
import type { LuaRuleId, Severity, SeverityName } from '../types.js';
import { CliError, describeFsError } from '../../cli/errors.js';
import { compileIgnoreGlob } from './ignore.js';

/** The file name looked up in the working directory and its ancestors. */
export const CONFIG_FILE_NAME = 'lua-lint.config.json';

/** A validated config; empty when no config file is used. */
export interface LuaLintConfig {
  /** The config file, absolute; `undefined` when none was found or lookup was disabled. */
  filePath: string | undefined;
  rules: Partial<Record<LuaRuleId, Severity>>;
  persistentKeys: Array<string | number>;
  /** Globs relative to {@link baseDir}. */
  ignores: string[];
  /** The directory of the config file (the working directory when there is none). */
  baseDir: string;
  /** Where `--- @include` references are also looked up (absolute), when set. */
  includeRoot?: string;
  /** `false` reports leaks where the caller chose no TTL (`AnalyzeOptions.allowOptionalTtl`); default `true` (`false` in strict mode). */
  allowOptionalTtl?: boolean;
  /** Strict mode (`"strict": true`): also report an ARGV TTL the script never checks, and leaks where the caller chose no TTL. */
  strict?: boolean;
  /** The oldest Redis server the scripts run on (`"6.2"`), for `min-redis-version`. */
  redisVersion?: string;
}

/**
 * The file `lua-lint.config.json` as written (exported from `eslint-plugin-redis-ttl/lua-lint`, to
 * type a config written from a script). Any other property is an error naming it.
 */
export interface LuaLintConfigFile {
  /** A JSON schema reference for editors; allowed and ignored. */
  $schema?: string;
  /** Severity per rule id: `'off'` / 0, `'warn'` / 1, `'error'` / 2. Rules not named keep their default. */
  rules?: Partial<Record<LuaRuleId, Severity | SeverityName>>;
  /**
   * Keys persistent on purpose: 1-based `KEYS` indices (`2` is `KEYS[2]`) or spellings with `*`
   * (`'job_key'`, `'KEYS[*]'`), as `--persistent`. Default `[]`.
   */
  persistentKeys?: Array<string | number>;
  /**
   * Globs of files not to lint, relative to the config file's folder (`'vendor/**'`); no `!`
   * negation. Default `[]`.
   */
  ignores?: string[];
  /** Where `--- @include` files are also looked up, relative to the config file's folder, as `--include-root`. */
  includeRoot?: string;
  /**
   * Leave out a leak that happens only where the caller passed no TTL. Default `true` (`false` in
   * strict mode); `false` reports it.
   */
  allowOptionalTtl?: boolean;
  /** Strict mode, as `--strict`: also report an ARGV TTL the script never checks. Default `false`. */
  strict?: boolean;
  /** The oldest Redis server the scripts run on (`'6.2'`, `'7.0.15'`), as `--redis-version`. Default: unset. */
  redisVersion?: string;
}

/** The properties of {@link LuaLintConfigFile} besides `$schema`: any other is an error. */
export const CONFIG_PROPERTIES = ['rules', 'persistentKeys', 'ignores', 'includeRoot', 'allowOptionalTtl', 'strict', 'redisVersion'] as const satisfies ReadonlyArray<keyof LuaLintConfigFile>;
const ALLOWED_PROPERTIES = CONFIG_PROPERTIES;

/** An empty config whose ignores (none) are relative to `cwd`. */
export function emptyConfig(cwd: string): LuaLintConfig {
  return { filePath: undefined, rules: {}, persistentKeys: [], ignores: [], baseDir: cwd };
}

/**
 * The nearest `lua-lint.config.json` in `startDir` or one of its ancestors.
 * @returns its absolute path, or `undefined` when there is none up to the file-system root.
 */
export function findConfigFile(startDir: string): string | undefined {
  let dir = path.resolve(startDir);
  for (;;) {
    const candidate = path.join(dir, CONFIG_FILE_NAME);
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
    const parent = path.dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

/**
 * Reads and validates a config file.
 * @throws CliError naming the file, the place (`<file>:<line>:<column>`), the property and the
 *   problem, for an unreadable file, invalid JSON or a wrong shape (all shape problems at once,
 *   one per line).
 */
export async function loadConfig(filePath: string): Promise<LuaLintConfig> {
  let text: string;
  try {
    text = await readFile(filePath, 'utf8');
  } catch (error) {
    throw new CliError(`Cannot read config file "${filePath}": ${describeFsError(error)}.`);
  }
  let value: unknown;
  const json = text.replace(/^\uFEFF/, '');
  try {
    value = JSON.parse(json);
  } catch (error) {
    throw new CliError(`Invalid config ${describeJsonError(filePath, text, error as Error)}`);
  }
  return validateConfig(value, filePath, json);
}

/**
 * Validates a parsed config object; `filePath` is used in messages and as the base of `ignores`.
 * `text`, the JSON it was parsed from, places each problem at a line and column.
 * @throws CliError as {@link loadConfig} documents.
 */
export function validateConfig(value: unknown, filePath: string, text?: string): LuaLintConfig {
  const problems: OptionProblem[] = [];
  const problem = (at: ReadonlyArray<string | number>, message: string, inName = false): void => {
    problems.push({ path: at, inName, text: message });
  };
  const config: LuaLintConfig = { ...emptyConfig(path.dirname(filePath)), filePath };
  if (!isPlainObject(value)) {
    throw new CliError(`Invalid config ${filePath}: expected a JSON object at the top level, got ${describeValue(value)}.`);
  }
  for (const key of Object.keys(value)) {
    if (key === '$schema' || (ALLOWED_PROPERTIES as readonly string[]).includes(key)) continue;
    const nearest = nearestName(key, ALLOWED_PROPERTIES);
    problem([key], `unknown property "${key}"${nearest ? `; did you mean "${nearest}"?` : ` (allowed: ${ALLOWED_PROPERTIES.join(', ')})`}`, true);
  }
  const { ignores, includeRoot } = value;
  const checked = checkOptions(value);
  problems.push(...checked.problems);
  const { allowOptionalTtl, strict, redisVersion } = checked.options;
  config.rules = checked.options.rules;
  config.persistentKeys = checked.options.persistentKeys;
  if (allowOptionalTtl !== undefined) config.allowOptionalTtl = allowOptionalTtl;
  if (strict !== undefined) config.strict = strict;
  if (redisVersion !== undefined) config.redisVersion = redisVersion;
  if (includeRoot !== undefined) {
    if (typeof includeRoot !== 'string' || includeRoot === '') problem(['includeRoot'], `includeRoot: expected a directory (a non-empty string), got ${describeValue(includeRoot)}`);
    else config.includeRoot = path.resolve(path.dirname(filePath), includeRoot);
  }
  if (ignores !== undefined) {
    if (!Array.isArray(ignores)) problem(['ignores'], `ignores: expected an array of globs, got ${describeValue(ignores)}`);
    else {
      ignores.forEach((glob: unknown, index) => {
        const wrong = checkGlob(glob);
        if (wrong) problem(['ignores', index], `ignores[${index}]: ${wrong}`);
        else config.ignores.push(glob as string);
      });
    }
  }
  if (problems.length > 0) throw new CliError(describeProblems(filePath, problems, text));
  return config;
}

/**
 * `Invalid config <file>:<line>:<column>: <problem>.`, or for several problems a line each
 * (`  - <file>:<line>:<column>: <problem>`); the place only when `text` is known.
 */
function describeProblems(filePath: string, problems: readonly OptionProblem[], text: string | undefined): string {
  const document = text === undefined ? undefined : parseDocument(text);
  const lines = text === undefined ? undefined : lineIndex(text);
  const place = (problem: OptionProblem): string => {
    const offset = document && offsetOf(document, problem.path, problem.inName);
    if (offset === undefined || !lines) return '';
    const { line, column } = lines.position(offset);
    return `:${line}:${column}`;
  };
  if (problems.length === 1) return `Invalid config ${filePath}${place(problems[0]!)}: ${sentence(problems[0]!.text)}`;
  return `Invalid config ${filePath}:\n${problems
    .map((problem) => {
      const at = place(problem);
      return `  - ${at ? `${filePath}${at}: ` : ''}${problem.text}`;
    })
    .join('\n')}`;
}

/** The JSON's syntax tree with offsets (momoa), or undefined when it does not parse. */
function parseDocument(text: string): ValueNode | undefined {
  try {
    return parseJson(text, { mode: 'json' }).body;
  } catch {
    return undefined;
  }
}

/**
 * The 0-based offset of the property at `at` (object keys and array indices from the top), of its
 * name when `inName`; the last of duplicate keys, as JSON.parse keeps the last. Undefined when the
 * path is not in the tree.
 */
function offsetOf(root: ValueNode, at: ReadonlyArray<string | number>, inName: boolean): number | undefined {
  let node: ValueNode = root;
  for (let i = 0; i < at.length; i++) {
    const step = at[i]!;
    const last = i === at.length - 1;
    if (typeof step === 'number') {
      if (node.type !== 'Array') return undefined;
      const element = node.elements[step];
      if (!element) return undefined;
      node = element.value;
      continue;
    }
    if (node.type !== 'Object') return undefined;
    const member = node.members.findLast((m) => (m.name.type === 'String' ? m.name.value : m.name.name) === step);
    if (!member) return undefined;
    if (last && inName) return member.name.loc.start.offset;
    node = member.value;
  }
  return node.loc.start.offset;
}

function checkGlob(glob: unknown): string | undefined {
  if (typeof glob !== 'string' || glob === '') return `expected a non-empty glob string, got ${describeValue(glob)}`;
  if (glob.startsWith('!')) return 'negated patterns ("!...") are not supported';
  try {
    compileIgnoreGlob(glob);
  } catch (error) {
    return `invalid glob "${glob}": ${(error as Error).message}`;
  }
  return undefined;
}

/** `<path>:<line>:<column>: <reason>` for a JSON syntax error, with the position when V8 gives one. */
function describeJsonError(filePath: string, text: string, error: Error): string {
  const position = /at position (\d+)/.exec(error.message);
  const reason = error.message
    .replace(/\s*in JSON at position \d+.*$/s, '')
    .replace(/,?\s*".*" is not valid JSON$/s, '');
  if (!position) return `${filePath}: invalid JSON: ${reason}.`;
  const offset = Number(position[1]);
  const before = text.replace(/^\uFEFF/, '').slice(0, offset);
  const line = before.split('\n').length;
  const column = offset - before.lastIndexOf('\n');
  return `${filePath}:${line}:${column}: invalid JSON: ${reason}.`;
}
