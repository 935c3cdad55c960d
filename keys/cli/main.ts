/**
 * The `redis-ttl-keys` command, as a function that tests call in-process: arguments and streams
 * in, exit code out. `bin.ts` only wires it to `process`.
 *
 * Exit codes: 0 = the inventory (or the `--persistent-config` block) was written and every file
 * was read; 1 = it was written, but some files or scripts were skipped (each named on standard
 * error as `file:line:column: problem`); 2 = usage error, no file matched, the ESLint config could
 * not be loaded, the output could not be written.
 */
import { writeFile } from 'node:fs/promises';
import { makeDirectories } from '../../cli/directories.js';
import path from 'node:path';
import { Command, InvalidArgumentError, Option } from 'commander';
import { CliError, describeFsError } from '../../cli/errors.js';
import { docsUrl } from '../../cli/package-info.js';
import { type CliStreams, finishProgram, parseArguments, reportUserErrors } from '../../cli/process.js';
import { formatInventory, KEYS_FORMATS, type KeysFormat, persistentCandidates, persistentConfig, tooBroadCandidates } from '../format.js';
import { configModuleFormat } from '../config-format.js';
import { buildInventory } from '../inventory.js';

/** Everything the CLI touches: its streams, and the directory paths are relative to (default `process.cwd()`). */
export interface KeysIo extends CliStreams {
  cwd?: string;
}

interface ParsedOptions {
  format: KeysFormat;
  output?: string;
  config?: string | false;
  persistentConfig?: true;
  only?: string[];
}

const EXAMPLES = `
Examples:
  $ redis-ttl-keys src                                   every key shape src/ writes, with its sites and TTL status
  $ redis-ttl-keys --format json src > keys.json         the inventory redis-ttl-audit --inventory reads
  $ redis-ttl-keys --format markdown . > KEYS.md
  $ redis-ttl-keys --persistent-config src               the persistentKeys block for the shapes written without TTL
  $ redis-ttl-keys --persistent-config --only 'queue:*' --only 'stats:*' src   only the shapes kept on purpose

TTL status of a write: atomic (set with the write, or in the same MULTI / script), separate (an
expiry in another round trip), none, keepttl (SET ... KEEPTTL: a missing key gets no TTL),
persistent (persistentKeys, or an annotation).
Settings (persistentKeys, clientNames) come from the ESLint config found for each file, or --config.
Exit codes: 0 written, 1 written but some files were skipped (named on standard error),
2 usage, config or file error.
Docs: ${docsUrl('docs/keys.md')}
`;

const collect = (value: string, previous: string[] | undefined): string[] => {
  if (value === '') throw new InvalidArgumentError('expected a non-empty pattern.');
  return [...(previous ?? []), value];
};

function buildProgram(io: KeysIo): Command {
  const program = new Command('redis-ttl-keys')
    .usage('[options] [paths...]')
    .description(
      'Lists the Redis key shapes a codebase writes (JS/TS through the ESLint rules, Lua files and scripts embedded in Go, Python, Ruby, PHP, Java, C#), each write site and whether it leaves a TTL.',
    )
    .argument('[paths...]', 'files, directories or globs (default: .)')
    .addOption(new Option('-f, --format <name>', 'output format (json: the inventory redis-ttl-audit --inventory reads)').choices(KEYS_FORMATS).default('table'))
    .option('-o, --output <file>', 'write to this file instead of standard output')
    .option('-c, --config <file>', "ESLint flat config to read settings['redis-ttl'] from (default: the one ESLint finds for each file)")
    .option('--no-config', 'read no ESLint config: default settings')
    .option('--persistent-config', "print the settings['redis-ttl'].persistentKeys block for the shapes written without TTL, instead of the inventory")
    .option('--only <pattern>', 'with --persistent-config: only shapes matching this pattern (persistentKeys syntax, * for any run; repeatable)', collect);
  return finishProgram(program, io, '-V, --version', EXAMPLES);
}

/**
 * Runs `redis-ttl-keys` with the given arguments (without `node` and the script path).
 * @returns the exit code (see the module comment); usage and config errors are one
 *   `redis-ttl-keys: ...` line on `io.stderr`, never a stack trace.
 * @throws only on a bug
 */
export async function main(argv: readonly string[], io: KeysIo): Promise<number> {
  return reportUserErrors('redis-ttl-keys', io, () => run(argv, io));
}

async function run(argv: readonly string[], io: KeysIo): Promise<number> {
  const program = buildProgram(io);
  if (!parseArguments(program, argv)) return 0;
  const options = program.opts<ParsedOptions>();
  if (options.only !== undefined && options.persistentConfig !== true) throw new CliError('--only needs --persistent-config: it chooses the shapes of the persistentKeys block.\nRun "redis-ttl-keys --help" for usage.');
  if (options.persistentConfig === true && options.format !== 'table') throw new CliError('--persistent-config prints a config block: it takes no --format.\nRun "redis-ttl-keys --help" for usage.');
  const cwd = io.cwd ?? process.cwd();
  const result = await buildInventory(program.args, {
    cwd,
    ...(options.config === false ? { useConfig: false } : typeof options.config === 'string' ? { config: options.config } : {}),
  });
  for (const p of result.problems) io.stderr.write(`redis-ttl-keys: ${p.file}:${p.line}:${p.column}: ${p.message} (skipped)\n`);
  const text =
    options.persistentConfig === true
      ? persistentConfig(persistentCandidates(result.document, options.only ?? [], result.ttlSpelled), options.only ?? [], {
          tooBroad: tooBroadCandidates(result.document, options.only ?? [], result.ttlSpelled),
          format: options.config === false ? configModuleFormat(cwd) : configModuleFormat(cwd, options.config),
        })
      : formatInventory(options.format, result.document);
  if (options.output === undefined) {
    io.stdout.write(`${text}\n`);
  } else {
    const file = path.resolve(cwd, options.output);
    try {
      await makeDirectories(path.dirname(file));
      await writeFile(file, `${text}\n`);
    } catch (error) {
      throw new CliError(`cannot write ${options.output}: ${describeFsError(error)}.`);
    }
  }
  return result.problems.length > 0 ? 1 : 0;
}
