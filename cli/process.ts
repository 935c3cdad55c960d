/**
 * The plumbing the `lua-lint` and `redis-ttl-audit` commands share: the streams their `main()`
 * writes to, commander wired to those streams, the usage-error handling around `main()`, and the
 * `bin.ts` wiring of `main()` to `process`. Exit codes: 2 for a usage, file, connection or install
 * problem and for a bug; 1 stays free for each command's findings.
 */
import nodeModule from 'node:module';
import { type Command, CommanderError, Option } from 'commander';
import { CliError } from './errors.js';
import { PACKAGE_NAME, packageVersion } from './package-info.js';

/** A stream a CLI writes to (`process.stdout`, or a collector in tests). */
export interface CliOutput {
  write(text: string): unknown;
  /** Whether it is a terminal; each command says what it uses this for. */
  isTTY?: boolean;
}

/** The part of a CLI's io that every command has. */
export interface CliStreams {
  stdout: CliOutput;
  stderr: CliOutput;
  /** Defaults to `process.env`. */
  env?: Readonly<Record<string, string | undefined>>;
}

/** The process's streams and environment, as {@link runAsProcess} hands them to `main()`. */
export interface ProcessIo {
  stdout: NodeJS.WriteStream;
  stderr: NodeJS.WriteStream;
  stdin: NodeJS.ReadStream;
  env: NodeJS.ProcessEnv;
}

/**
 * The end of every command's commander definition: the package version on `-v`, `-V` and
 * `--version` (both CLIs take all three: `versionFlags`, e.g. `'-v, --version'`, is the spelling
 * the help shows, and the other short flag works too), `-h, --help` with `examples` after the
 * help, and commander throwing instead of exiting, writing to `io` and leaving error messages to
 * `main()`.
 */
export function finishProgram(program: Command, io: CliStreams, versionFlags: string, examples: string): Command {
  const version = packageVersion();
  const shown = /(?:^|[\s,|])-([vV])\b/.exec(versionFlags)?.[1] ?? 'V';
  const other = shown === 'v' ? 'V' : 'v';
  program.version(version, `-${shown}, --version`, `print the version (also -${other})`);
  // commander takes one short flag per option: the other one is a hidden option doing the same.
  program.addOption(new Option(`-${other}`).hideHelp());
  program.on(`option:${other}`, () => {
    io.stdout.write(`${version}\n`);
    throw new CommanderError(0, 'commander.version', version);
  });
  return program
    .helpOption('-h, --help', 'show this help')
    .addHelpText('after', examples)
    .exitOverride()
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(text),
      outputError: () => undefined, // reported by main() in its own format
    });
}

/**
 * Parses `argv` (without `node` and the script path) with a program set up by {@link finishProgram}.
 *
 * @returns false when `--help` or `--version` was printed (exit code 0), true otherwise.
 * @throws {CliError} on a usage error, with a pointer to `--help`; an empty positional argument
 *   (`lua-lint "$SRC"` with SRC unset) is one.
 */
export function parseArguments(program: Command, argv: readonly string[]): boolean {
  try {
    program.parse([...argv], { from: 'user' });
  } catch (error) {
    if (!(error instanceof CommanderError)) throw error;
    if (error.exitCode === 0) return false; // --help, --version
    throw new CliError(`${error.message.replace(/^error: /, '')}\nRun "${program.name()} --help" for usage.`);
  }
  // `lua-lint "$SRC"` with SRC unset: an empty argument would name the working directory
  if (program.args.some((arg) => arg.trim() === '')) {
    throw new CliError(`An empty argument where a file, directory or glob belongs (an unset shell variable?).\nRun "${program.name()} --help" for usage.`);
  }
  return true;
}

/**
 * Runs `run` and turns a {@link CliError} (or an error `isUserError` accepts) into one
 * `<name>: <message>` line on `io.stderr` and exit code 2. Any other exception is a bug: rethrown.
 */
export async function reportUserErrors(
  name: string,
  io: CliStreams,
  run: () => Promise<number>,
  isUserError?: (error: unknown) => error is Error,
): Promise<number> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof CliError || (isUserError !== undefined && isUserError(error))) {
      io.stderr.write(`${name}: ${error.message}\n`);
      return 2;
    }
    throw error;
  }
}

/** The `main()` of a command: arguments (without `node` and the script) and streams in, exit code out. */
export type CliMain = (argv: readonly string[], io: ProcessIo) => Promise<number>;

/**
 * The body of a `bin.ts`: loads the command with `load` (a dynamic `import()`, so that a module
 * that fails to load, e.g. a dependency missing from a broken install, is reported by this code
 * instead of ending the process with Node's exit code 1), runs it on the process's arguments and
 * streams, sets the exit code, turns an unexpected exception (a bug) into a report on standard
 * error and exit code 2, and stops quietly when standard output is closed early
 * (`<name> ... | head`: EPIPE). Before loading, it turns on Node's compile cache where Node has one
 * ({@link enableCompileCache}).
 */
export function runAsProcess(name: string, load: () => Promise<CliMain>): void {
  enableCompileCache();
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw error;
  });

  load()
    .then((main) =>
      main(process.argv.slice(2), {
        stdout: process.stdout,
        stderr: process.stderr,
        stdin: process.stdin,
        env: process.env,
      }),
    )
    .then(
      (code) => {
        process.exitCode = code;
      },
      (error: unknown) => {
        process.stderr.write(describeCrash(name, error));
        process.exitCode = 2;
      },
    );
}

/**
 * Turns on Node's on-disk cache of compiled code for the modules loaded from here on
 * (`module.enableCompileCache()`, Node >= 22.1: https://nodejs.org/api/module.html#moduleenablecompilecachecachedir;
 * its directory is `NODE_COMPILE_CACHE` or one under the OS's temporary directory), as the
 * executables of ESLint and TypeScript do: a second run then skips most of the parse and compile
 * of the command's own modules. On Node 20, which has no such function, nothing happens.
 * @param host the `node:module` namespace (a stand-in in tests)
 * @returns whether the function existed and was called
 */
export function enableCompileCache(host: { enableCompileCache?: () => unknown } = nodeModule as { enableCompileCache?: () => unknown }): boolean {
  if (typeof host.enableCompileCache !== 'function') return false;
  // It does not throw: a cache it cannot set up is reported in its return value, and only costs speed.
  host.enableCompileCache();
  return true;
}

/** The report of an exception that escaped `main()`: a broken install in one line, a bug with its stack. */
export function describeCrash(name: string, error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') {
    return (
      `${name}: ${(error as Error).message.split('\n')[0]}\n` +
      `${name}: the installation of ${PACKAGE_NAME} is incomplete; reinstall it (npm install --save-dev ${PACKAGE_NAME}).\n`
    );
  }
  return (
    `${name}: internal error, please report it at https://github.com/eslint-plugin-redis-ttl/eslint-plugin-redis-ttl/issues\n` +
    `${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`
  );
}
