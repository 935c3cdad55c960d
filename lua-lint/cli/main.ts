/**
 * The `lua-lint` command, as a function that tests call in-process: arguments and streams in,
 * exit code out. `bin.ts` only wires it to `process`.
 *
 * Exit codes: 0 = no errors (and warnings within `--max-warnings`); 1 = errors, parse errors, a
 * file or folder that cannot be read (one fatal problem of that path) or too many warnings; 2 =
 * usage error, invalid or missing config file, an output file that cannot be written, or a
 * pattern matching nothing.
 */
import { parseRedisVersion } from '../../semantics/versions.js';
import { statSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Command, InvalidArgumentError, Option } from 'commander';
import { analyzeLuaWithIncludes, type IncludeResolver } from '../index.js';
import { createIncludeResolver } from './includes.js';
import { RULE_IDS, isLuaRuleId, nearestRuleId, parseSeverity } from '../rules.js';
import type { AnalyzeOptions, LuaRuleId, Severity } from '../types.js';
import { shouldUseColor } from './color.js';
import { CONFIG_FILE_NAME, type LuaLintConfig, emptyConfig, findConfigFile, loadConfig } from './config.js';
import { CliError, describeFsError } from '../../cli/errors.js';
import { makeDirectories } from '../../cli/directories.js';
import { type LintTarget, decodeSource, expandPatterns, readSourceFile, readStream } from './files.js';
import { FORMAT_NAMES, loadFormatter, type FormatName } from './formatters/load.js';
import { createIgnoreMatcher } from './ignore.js';
import { packageVersion } from '../../cli/package-info.js';
import { CLI_DOCS_URL } from './package-info.js';
import { displayPath } from './paths.js';
import { chooseOptimization } from './tiering.js';
import { hostLanguageOf } from '../hosts/extensions.js';
import { type CliStreams, finishProgram, parseArguments, reportUserErrors } from '../../cli/process.js';
import { type LintMessage, type LintResult, STDIN_FILE_PATH, createResult, errorsOnly, ignoredFileMessage, totals, withCounts } from './results.js';

export type { CliOutput } from '../../cli/process.js';

/**
 * Everything the CLI touches outside the file system. Colors are used by default only when
 * `stdout.isTTY`; `env` is read for `NO_COLOR` / `FORCE_COLOR` and defaults to `process.env`.
 */
export interface CliIo extends CliStreams {
  /** Read only when `-` is among the patterns. */
  stdin: AsyncIterable<string | Uint8Array>;
  /** Patterns, `--config`, `--output-file` and the config lookup are relative to it. */
  cwd: string;
}

interface ParsedOptions {
  format: FormatName;
  outputFile?: string;
  rule?: string[];
  persistent?: string[];
  strict?: boolean;
  redisVersion?: string;
  includeRoot?: string;
  maxWarnings?: number;
  quiet?: true;
  config?: string;
  configLookup: boolean;
  stdinFilename?: string;
  color?: boolean;
  errorOnUnmatchedPattern: boolean;
  ignore: boolean;
  warnIgnored: boolean;
}

const USAGE = '[options] <files, directories or globs...>';

/** Breaks `text` at spaces into lines of at most `width` characters, each prefixed with `indent`. */
function wrap(text: string, width: number, indent: string): string {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line !== '' && indent.length + line.length + 1 + word.length > width) {
      lines.push(indent + line);
      line = word;
    } else {
      line = line === '' ? word : `${line} ${word}`;
    }
  }
  return [...lines, indent + line].join('\n');
}

const EXAMPLES = `
Examples:
  $ lua-lint scripts/                      lint every .lua file under scripts/
  $ lua-lint src/                          and the scripts in its .go, .py, .rb, .php, .java, .cs, .js, .ts files
  $ lua-lint "src/**/*.lua" --quiet        a glob (quoted), errors only
  $ lua-lint limiter.lua --rule key-must-come-from-keys=off
  $ lua-lint scripts --persistent 2        KEYS[2] is persistent on purpose
  $ lua-lint scripts --format sarif -o lua-lint.sarif
  $ lua-lint scripts --format github       annotations in a GitHub Actions job
  $ cat script.lua | lua-lint - --stdin-filename script.lua

Rules (each documented in docs/rules/<id>.md):
${wrap(RULE_IDS.join(', '), 76, '  ')}

Config: the nearest ${CONFIG_FILE_NAME} up from the working directory, e.g.
  { "rules": { "key-must-come-from-keys": "off" }, "persistentKeys": [2], "ignores": ["vendor/**"] }
Exit codes: 0 no errors, 1 errors (an unreadable file is one) or too many warnings, 2 usage or
config error, an output file that cannot be written, or a pattern matching nothing.
Docs: ${CLI_DOCS_URL}
`;

// No default value for repeatable options: commander would print "(default: [])" in the help.
const collect = (value: string, previous: string[] | undefined): string[] => [...(previous ?? []), value];

function parseCount(value: string): number {
  if (!/^\d+$/.test(value)) throw new InvalidArgumentError('expected a whole number >= 0.');
  return Number(value);
}

function buildProgram(io: CliIo): Command {
  const program = new Command('lua-lint')
    .usage(USAGE)
    .description(
      'Checks Redis Lua scripts (EVAL scripts and Redis 7 function libraries) for keys left without a TTL: .lua files, and the scripts embedded in Go, Python, Ruby, PHP, Java, C#, JavaScript and TypeScript files.',
    )
    .argument('[patterns...]', 'files, directories (their **/*.lua and host-language files) or quoted globs; "-" reads standard input')
    .addOption(new Option('-f, --format <name>', 'output format').choices(FORMAT_NAMES).default('stylish'))
    .option('-o, --output-file <path>', 'write the report to a file instead of standard output')
    .option('--rule <id=severity>', 'set a rule to off, warn or error (repeatable)', collect)
    .option('--include-root <dir>', 'where "--- @include" files are also looked up, and what ~/ and <name>/ in them mean (default: next to the including file)')
    .option('--strict', 'strict mode: also report a TTL taken from ARGV that the script never checks before the expiry, and leaks where the caller chose no TTL (unless the config sets allowOptionalTtl)')
    .option('--redis-version <version>', 'the oldest Redis server the scripts run on (e.g. 6.2): min-redis-version reports newer commands and options')
    .option('--persistent <key>', 'a key that is persistent on purpose: a KEYS index (2 = KEYS[2]) or a key pattern with * (repeatable)', collect)
    .option('--max-warnings <n>', 'exit with 1 when there are more than n warnings', parseCount)
    .option('--quiet', 'report errors only; warnings are neither printed nor counted')
    .option('-c, --config <file>', `use this config file instead of the nearest ${CONFIG_FILE_NAME}`)
    .option('--no-config-lookup', `do not look for ${CONFIG_FILE_NAME}`)
    .option('--stdin-filename <name>', 'the file name to report for standard input ("-")')
    .option('--color', 'force colored output')
    .option('--no-color', 'disable colored output (default: color only on a terminal; NO_COLOR and FORCE_COLOR are respected)')
    .option('--no-ignore', `lint the files the "ignores" of ${CONFIG_FILE_NAME} match too`)
    .option('--no-warn-ignored', 'no warning for a file named on the command line that "ignores" match (for lint-staged with --max-warnings 0)')
    .option('--no-error-on-unmatched-pattern', 'skip patterns that match no file instead of failing');
  return finishProgram(program, io, '-v, --version', EXAMPLES);
}

/**
 * Runs `lua-lint` with the given arguments (without `node` and the script path).
 *
 * @returns the exit code: 0, 1 or 2 (see the module comment). User errors are printed on
 *   `io.stderr` as one `lua-lint: ...` message, never as a stack trace.
 * @throws only on a bug in lua-lint itself.
 */
export async function main(argv: readonly string[], io: CliIo): Promise<number> {
  return reportUserErrors('lua-lint', io, () => run(argv, io));
}

async function run(argv: readonly string[], io: CliIo): Promise<number> {
  const program = buildProgram(io);
  if (!parseArguments(program, argv)) return 0; // --help, --version
  const options = program.opts<ParsedOptions>();
  const patterns = program.args;
  if (patterns.length === 0) {
    throw new CliError(`No files given. Usage: lua-lint ${USAGE}\nRun "lua-lint --help" for usage.`);
  }
  if (options.stdinFilename !== undefined && !patterns.includes('-')) {
    throw new CliError('--stdin-filename names standard input, so "-" must be among the files.');
  }

  const cliRules = parseRuleOptions(options.rule ?? []);
  const cliPersistent = (options.persistent ?? []).map(parsePersistent);
  const config = await resolveConfig(options, io.cwd);
  if (options.redisVersion !== undefined && !parseRedisVersion(options.redisVersion)) {
    throw new CliError(`Invalid --redis-version "${options.redisVersion}": expected a Redis version such as 6.2 or 7.0.15.`);
  }
  const redisVersion = options.redisVersion ?? config.redisVersion;
  const analyzeOptions: AnalyzeOptions = {
    rules: { ...config.rules, ...cliRules },
    persistentKeys: [...config.persistentKeys, ...cliPersistent],
    ...(config.allowOptionalTtl !== undefined ? { allowOptionalTtl: config.allowOptionalTtl } : {}),
    ...(options.strict === true || config.strict === true ? { strict: true } : {}),
    ...(redisVersion !== undefined ? { redisVersion } : {}),
  };

  const isIgnored = options.ignore ? createIgnoreMatcher(config.ignores, config.baseDir) : () => false;
  const targets = await expandPatterns(patterns, {
    cwd: io.cwd,
    isIgnored,
    errorOnUnmatchedPattern: options.errorOnUnmatchedPattern,
  });

  const includeRoot = options.includeRoot !== undefined ? path.resolve(io.cwd, options.includeRoot) : config.includeRoot;
  const resolver = createIncludeResolver(includeRoot ?? io.cwd, includeRoot !== undefined);
  const lint = new LintRun(analyzeOptions, resolver, io.cwd);
  // standard input is read first, so that its size counts in the choice too
  let stdinText = targets.some((target) => target.kind === 'stdin') ? await readStream(io.stdin) : undefined;
  chooseOptimization(() => inputSize(targets) + (stdinText === undefined ? 0 : Buffer.byteLength(stdinText)));
  for (const target of targets) {
    if (target.kind === 'ignored') {
      if (options.warnIgnored) lint.addIgnored(target.path);
    } else if (target.kind === 'unreadable') {
      lint.addUnreadable(target.path, target.reason);
    } else if (target.kind === 'stdin') {
      const filePath = options.stdinFilename === undefined ? STDIN_FILE_PATH : path.resolve(io.cwd, options.stdinFilename);
      const text = stdinText ?? (await readStream(io.stdin));
      stdinText = undefined;
      // as ESLint's lintText: a --stdin-filename the "ignores" match is not linted
      if (filePath !== STDIN_FILE_PATH && isIgnored(filePath)) {
        if (options.warnIgnored) lint.addIgnored(filePath);
      } else await lint.addAny(filePath, text);
    } else {
      const read = readSourceFile(target.path);
      if (read.ok) await lint.addAny(target.path, read.bytes);
      else lint.addUnreadable(target.path, read.reason);
    }
  }
  let results = lint.results();
  if (options.quiet) results = errorsOnly(results);

  const useColor = shouldUseColor(options.color, io.env ?? process.env, options.outputFile === undefined && io.stdout.isTTY === true);
  const output = (await loadFormatter(options.format))(results, { cwd: io.cwd, color: useColor, version: packageVersion() });
  if (options.outputFile !== undefined) {
    await writeReport(path.resolve(io.cwd, options.outputFile), output, io.cwd);
  } else if (output !== '') {
    io.stdout.write(`${output}\n`);
  }

  const { errorCount, warningCount } = totals(results);
  if (errorCount > 0) return 1;
  if (options.maxWarnings !== undefined && warningCount > options.maxWarnings) {
    io.stderr.write(`lua-lint found too many warnings (maximum: ${options.maxWarnings}).\n`);
    return 1;
  }
  return 0;
}

/** The bytes the file targets hold (unreadable files count 0; standard input is counted by the caller). */
function inputSize(targets: readonly LintTarget[]): number {
  let bytes = 0;
  for (const target of targets) {
    if (target.kind !== 'file') continue;
    try {
      bytes += statSync(target.path).size;
    } catch {
      // reading it reports the error
    }
  }
  return bytes;
}

/**
 * The results of one run: each linted file once, in order, with the findings that `--- @include`
 * resolution places in included files added to those files (each finding once).
 */
class LintRun {
  private readonly byFile = new Map<string, LintMessage[]>();
  private readonly seen = new Map<string, Set<string>>();

  constructor(
    private readonly options: AnalyzeOptions,
    private readonly resolver: IncludeResolver,
    private readonly cwd: string,
  ) {}

  /** Decodes and analyses one file's bytes. */
  add(filePath: string, bytes: Uint8Array): void {
    const source = decodeSource(bytes, filePath);
    this.messages(filePath);
    if (!source.ok) {
      this.push(filePath, [{ ruleId: null, severity: 2, message: source.reason, line: 1, column: 1, endLine: 1, endColumn: 1, fatal: true }]);
      return;
    }
    const from = filePath === STDIN_FILE_PATH ? path.join(this.cwd, STDIN_FILE_PATH) : filePath;
    for (const { filePath: file, findings } of analyzeLuaWithIncludes(from, source.text, this.resolver, this.options)) {
      this.push(file === from ? filePath : file, createResult(file, findings).messages);
    }
  }

  /** A file that could not be read: one fatal message (`reason`), as for a file that can not be Lua. */
  addUnreadable(filePath: string, reason: string): void {
    this.push(filePath, [{ ruleId: null, severity: 2, message: reason, line: 1, column: 1, endLine: 1, endColumn: 1, fatal: true }]);
  }

  /** A file named on the command line that `ignores` match: ESLint's warning, without a position. */
  addIgnored(filePath: string): void {
    this.push(filePath, [ignoredFileMessage()]);
  }

  /** Lints a Lua file, or the scripts embedded in a host-language file (Go, Python, ..., JS/TS). */
  async addAny(filePath: string, bytes: Uint8Array): Promise<void> {
    if (hostLanguageOf(filePath) === undefined) return this.add(filePath, bytes);
    const source = decodeSource(bytes);
    if (!source.ok) return this.add(filePath, bytes);
    const { lintHostSource } = await import('../hosts/index.js');
    this.push(filePath, createResult(filePath, await lintHostSource(filePath, source.text, this.options)).messages);
  }

  results(): LintResult[] {
    return [...this.byFile].map(([filePath, messages]) => withCounts(filePath, messages.sort((a, b) => a.line - b.line || a.column - b.column)));
  }

  private messages(filePath: string): LintMessage[] {
    let list = this.byFile.get(filePath);
    if (!list) this.byFile.set(filePath, (list = []));
    return list;
  }

  private push(filePath: string, messages: readonly LintMessage[]): void {
    const list = this.messages(filePath);
    let seen = this.seen.get(filePath);
    if (!seen) this.seen.set(filePath, (seen = new Set()));
    // A finding an earlier analysis placed here (an include shared by two scripts) is reported
    // once; findings of one analysis at one place (the unknown rule ids of one comment) are all kept.
    const added: string[] = [];
    for (const message of messages) {
      const key = `${message.ruleId}:${message.line}:${message.column}`;
      if (seen.has(key)) continue;
      added.push(key);
      list.push(message);
    }
    for (const key of added) seen.add(key);
  }
}

/** `--rule id=severity` (or `id:severity`), repeatable; later ones win. */
function parseRuleOptions(values: readonly string[]): Partial<Record<LuaRuleId, Severity>> {
  const rules: Partial<Record<LuaRuleId, Severity>> = {};
  for (const value of values) {
    const match = /^\s*([^=:\s]+)\s*[=:]\s*(\S+)\s*$/.exec(value);
    if (!match) throw new CliError(`Invalid --rule "${value}": expected <id>=off|warn|error, e.g. --rule no-persist=warn.`);
    const [, id = '', severityText = ''] = match;
    if (!isLuaRuleId(id)) {
      const nearest = nearestRuleId(id);
      throw new CliError(`Unknown rule "${id}" in --rule "${value}"${nearest ? `; did you mean "${nearest}"?` : `. Rule ids: ${RULE_IDS.join(', ')}.`}`);
    }
    const severity = parseSeverity(/^\d+$/.test(severityText) ? Number(severityText) : severityText);
    if (severity === undefined) throw new CliError(`Invalid severity "${severityText}" in --rule "${value}": expected off, warn or error.`);
    rules[id] = severity;
  }
  return rules;
}

/** `--persistent 2` is KEYS[2]; anything else is a key pattern. */
function parsePersistent(value: string): string | number {
  if (/^\d+$/.test(value)) {
    const index = Number(value);
    if (index < 1) throw new CliError(`Invalid --persistent "${value}": KEYS indices start at 1.`);
    return index;
  }
  if (value === '') throw new CliError('Invalid --persistent "": expected a KEYS index or a key pattern.');
  return value;
}

async function resolveConfig(options: ParsedOptions, cwd: string): Promise<LuaLintConfig> {
  if (options.config !== undefined) return loadConfig(path.resolve(cwd, options.config));
  if (!options.configLookup) return emptyConfig(cwd);
  const found = findConfigFile(cwd);
  return found === undefined ? emptyConfig(cwd) : loadConfig(found);
}

async function writeReport(filePath: string, output: string, cwd: string): Promise<void> {
  try {
    await makeDirectories(path.dirname(filePath));
    await writeFile(filePath, output === '' ? '' : `${output}\n`);
  } catch (error) {
    throw new CliError(`Cannot write the report to "${displayPath(filePath, cwd)}": ${describeFsError(error)}.`);
  }
}

