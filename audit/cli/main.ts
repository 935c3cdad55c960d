/**
 * The `redis-ttl-audit` command, as a function that tests call in-process: arguments and streams
 * in, exit code out. `bin.ts` only wires it to `process`.
 *
 * Exit codes: 0 = audited (findings or not); 1 = a `--fail-on-persistent` pattern has keys without
 * TTL, or a pattern grew by more than `--fail-on-growth` keys without TTL since the `--baseline`
 * (each such pattern is named on standard error, whatever the format); 2 = usage error, an
 * unreadable or invalid `--inventory` or `--baseline` file,
 * connection or authentication failure, a command refused by the server; 3 = the `--fix-ttl`
 * confirmation was declined (nothing was changed or audited).
 */
import { writeFile } from 'node:fs/promises';
import { makeDirectories } from '../../cli/directories.js';
import path from 'node:path';
import { Command, InvalidArgumentError, Option } from 'commander';
import { InventoryError, readInventoryFile } from '../../inventory/format.js';
import type { InventoryInput } from '../attribution.js';
import { readBaselineFile } from '../baseline.js';
import { AuditError, type AuditOptions, DEFAULT_AUDIT_OPTIONS, DEFAULT_TIMEOUT_MS, KEY_TYPES, type KeyType, MAX_FIX_TTL_SECONDS, runAudit } from '../audit.js';
import { FORMAT_NAMES, type FormatName, formatReport } from '../format.js';
import { redactUrl } from '../url.js';
import { CliError, describeFsError } from '../../cli/errors.js';
import { docsUrl, packageVersion } from '../../cli/package-info.js';
import { type CliOutput, type CliStreams, finishProgram, parseArguments, reportUserErrors } from '../../cli/process.js';
import { createProgressBar } from './progress.js';

export type { CliOutput } from '../../cli/process.js';

/** A stream the CLI reads the `--fix-ttl` confirmation from. */
export interface CliInput extends AsyncIterable<string | Uint8Array> {
  isTTY?: boolean;
}

/**
 * Everything the CLI touches outside Redis. The progress bar and the confirmation prompt need
 * `stderr.isTTY`; `env` is read for `REDIS_URL` and defaults to `process.env`.
 */
export interface CliIo extends CliStreams {
  /** Read only for the `--fix-ttl` confirmation, and only when it is a terminal. */
  stdin?: CliInput;
}

interface ParsedOptions {
  url?: string;
  cluster?: true;
  match?: string[];
  count: number;
  type?: KeyType;
  timeout: number;
  maxOpsPerSecond: number;
  sample?: number;
  memory?: true;
  idle?: true;
  format: FormatName;
  top: number;
  failOnPersistent?: string[];
  inventory?: string[];
  source?: string[];
  baseline?: string;
  failOnGrowth?: number;
  output?: string;
  fixTtl?: number;
  yes?: true;
  verbose?: true;
  progress: boolean;
}

const DEFAULT_URL = 'redis://127.0.0.1:6379';

/** The exit code when the user answers no to the `--fix-ttl` confirmation. */
export const EXIT_DECLINED = 3;


/** The audit's docs page at the installed version's tag. */
const AUDIT_DOCS_URL = docsUrl('docs/redis-ttl-audit.md');

const EXAMPLES = `
Examples:
  $ redis-ttl-audit --url redis://localhost:6379            every key, grouped by pattern
  $ redis-ttl-audit --match 'rl:*' --memory --idle          limiter keys, with sizes and idle times
  $ redis-ttl-audit --url rediss://audit:secret@cache.example.com:6380 --sample 100000
  $ redis-ttl-audit --cluster --url redis://10.0.0.5:7000 --format json > audit.json
  $ redis-ttl-audit --fail-on-persistent 'session:*' --fail-on-persistent 'rl:*'   CI: exit 1 on leaks
  $ redis-ttl-audit --match 'session:*' --fix-ttl 86400 --yes --verbose
  $ redis-ttl-audit --source src --format html --output audit.html   the code that wrote each pattern
  $ redis-ttl-audit --inventory keys.json --format html --output audit.html   the same, from redis-ttl-keys --format json
  $ redis-ttl-audit --inventory keys.json --baseline last.json --fail-on-growth 1000 --format json

Read-only unless --fix-ttl, which only runs EXPIRE <key> <seconds> NX (Redis 7+); never deletes.
URL: redis[s]://[[user]:password@]host[:port][/db], also from REDIS_URL (default ${DEFAULT_URL}).
Exit codes: 0 audited, 1 --fail-on-persistent found keys without TTL or --fail-on-growth was
exceeded, 2 usage, file, connection, timeout or permission error, 3 the --fix-ttl confirmation
was declined (nothing changed).
Docs: ${AUDIT_DOCS_URL}
`;

// No default value for repeatable options: commander would print "(default: [])" in the help.
const collect = (value: string, previous: string[] | undefined): string[] => [...(previous ?? []), value];

/** A commander parser of a whole number in [min, max]; `aboveMax` is added when the value is too large. */
function wholeNumber(min: number, max = Number.MAX_SAFE_INTEGER, aboveMax = '') {
  return (value: string): number => {
    if (!/^\d+$/.test(value) || !Number.isSafeInteger(Number(value)) || Number(value) < min || Number(value) > max) {
      const range = max === Number.MAX_SAFE_INTEGER ? `>= ${min}` : `from ${min} to ${max.toLocaleString('en-US')}`;
      const tooLarge = /^\d+$/.test(value) && Number(value) > max;
      throw new InvalidArgumentError(`expected a whole number ${range}, got "${value}".${tooLarge ? aboveMax : ''}`);
    }
    return Number(value);
  };
}

const FIX_TTL_LIMIT =
  ` A TTL above ${MAX_FIX_TTL_SECONDS / 86_400} days is almost always milliseconds given as seconds, and a key meant to expire that lives for years still leaks.`;

function nonEmptyPattern(value: string, previous: string[] | undefined): string[] {
  if (value === '') throw new InvalidArgumentError('expected a non-empty pattern.');
  return collect(value, previous);
}

function buildProgram(io: CliIo): Command {
  const program = new Command('redis-ttl-audit')
    .usage('[options]')
    .description('Finds Redis keys without a TTL: walks the keyspace with SCAN (never KEYS), pipelines PTTL, reports per key pattern.')
    .option('-u, --url <url>', `server to audit, redis:// or rediss:// (TLS) with user:password@ (default: REDIS_URL, else ${DEFAULT_URL})`)
    .option('--cluster', 'the URL is a node of a Redis Cluster: walk every master')
    .option('-m, --match <pattern>', "only keys matching this glob (Redis MATCH syntax, e.g. 'rl:*'; repeatable)", nonEmptyPattern)
    .addOption(new Option('--type <type>', 'only keys of this type').choices(KEY_TYPES))
    .option('--count <n>', 'SCAN COUNT: buckets visited per SCAN call', wholeNumber(1), DEFAULT_AUDIT_OPTIONS.count)
    .option('--timeout <ms>', 'milliseconds to wait for the connection and for each reply before giving up', wholeNumber(1, 3_600_000), DEFAULT_TIMEOUT_MS)
    .option('--max-ops-per-second <n>', 'rate limit on all commands sent; 0 = unlimited', wholeNumber(0), DEFAULT_AUDIT_OPTIONS.maxOpsPerSecond)
    .option('--sample <n>', 'stop after n keys and extrapolate to DBSIZE (95% confidence interval)', wholeNumber(1))
    .option('--memory', 'measure each key with MEMORY USAGE (one more command per key)')
    .option('--idle', 'read each key\'s OBJECT IDLETIME (one more command per key)')
    .addOption(new Option('-f, --format <name>', 'output format').choices(FORMAT_NAMES).default('table'))
    .option('--top <n>', 'table: show the n largest patterns', wholeNumber(1), 50)
    .option('--fail-on-persistent <pattern>', 'exit 1 when keys matching this glob have no TTL (repeatable)', nonEmptyPattern)
    .option('--inventory <file>', 'key inventory (JSON, from redis-ttl-keys): group keys by the code\'s key shapes and name the lines that write them (repeatable)', collect)
    .option('--source <dir>', "source tree to build the key inventory of (as redis-ttl-keys does) and join like --inventory (repeatable)", collect)
    .option('--baseline <file>', 'an earlier --format json report: compare keys, keys without TTL and memory per pattern')
    .option('--fail-on-growth <n>', 'with --baseline: exit 1 when a pattern has more than n keys without TTL beyond the baseline\'s count', wholeNumber(0))
    .option('-o, --output <file>', 'write the report to this file instead of standard output (html: links relative to it)')
    .option(
      '--fix-ttl <seconds>',
      `add this TTL (1 to ${MAX_FIX_TTL_SECONDS} seconds) to keys without one (EXPIRE key seconds NX); needs --match`,
      wholeNumber(1, MAX_FIX_TTL_SECONDS, FIX_TTL_LIMIT),
    )
    .option('-y, --yes', 'do not ask before --fix-ttl')
    .option('--verbose', 'list the keys --fix-ttl changed, and more examples of violations')
    .option('--no-progress', 'no progress bar (it is only drawn when standard error is a terminal)');
  return finishProgram(program, io, '-V, --version', EXAMPLES);
}

/**
 * Runs `redis-ttl-audit` with the given arguments (without `node` and the script path).
 *
 * @returns the exit code: 0, 1 or 2 (see the module comment). Usage, connection and server errors
 *   are printed on `io.stderr` as one `redis-ttl-audit: ...` line, never as a stack trace.
 * @throws only on a bug in the audit itself.
 */
export async function main(argv: readonly string[], io: CliIo): Promise<number> {
  return reportUserErrors('redis-ttl-audit', io, () => run(argv, io), (error) => error instanceof AuditError);
}

/** Whether an error comes from Redis or the network rather than from a bug in this code. */
function isRedisError(error: unknown): error is Error {
  return error instanceof Error && !(error instanceof TypeError || error instanceof RangeError || error instanceof ReferenceError || error instanceof SyntaxError);
}

async function run(argv: readonly string[], io: CliIo): Promise<number> {
  const program = buildProgram(io);
  if (!parseArguments(program, argv)) return 0; // --help, --version
  if (program.args.length > 0) {
    throw new CliError(`unexpected argument "${program.args[0]}": give the server with --url.\nRun "redis-ttl-audit --help" for usage.`);
  }
  const options = program.opts<ParsedOptions>();
  const env = io.env ?? process.env;
  const url = options.url ?? (env.REDIS_URL || DEFAULT_URL);
  const match = options.match ?? [];

  if (options.fixTtl !== undefined) {
    if (match.length === 0) throw new CliError('--fix-ttl needs --match: say which keys may get an expiry.');
    if (options.sample !== undefined) throw new CliError('--fix-ttl cannot be combined with --sample: it must see every matching key.');
    if (!options.yes) {
      if (io.stdin?.isTTY !== true || io.stderr.isTTY !== true) {
        throw new CliError('--fix-ttl changes keys: pass --yes, or run it on a terminal to confirm.');
      }
      const question =
        `This runs EXPIRE <key> ${options.fixTtl} NX on every key without TTL matching ${match.map((m) => `'${m}'`).join(' or ')} ` +
        `on ${redactUrl(url)}${options.cluster ? ' (every master)' : ''}. Continue? [y/N] `;
      if (!(await confirm(io.stdin, io.stderr, question))) {
        io.stderr.write('redis-ttl-audit: nothing changed.\n');
        return EXIT_DECLINED;
      }
    }
  }

  if (options.failOnGrowth !== undefined && options.baseline === undefined) throw new CliError('--fail-on-growth needs --baseline: the report of an earlier run to compare with.');
  if (options.failOnGrowth !== undefined && options.sample !== undefined) {
    throw new CliError('--fail-on-growth cannot be combined with --sample: a sample\'s counts are estimates, and a CI verdict needs exact ones.');
  }
  // Files before the server: a bad inventory or baseline stops the run before any command is sent.
  const inventory = await inventoryInputs(options, io);
  let baseline;
  try {
    baseline = options.baseline === undefined ? undefined : await readBaselineFile(options.baseline);
  } catch (error) {
    if (error instanceof AuditError) throw new CliError(`--baseline ${error.message}`);
    throw error;
  }

  const auditOptions: AuditOptions = {
    ...DEFAULT_AUDIT_OPTIONS,
    match,
    count: options.count,
    maxOpsPerSecond: options.maxOpsPerSecond,
    memory: options.memory === true,
    idle: options.idle === true,
    failOnPersistent: options.failOnPersistent ?? [],
    verbose: options.verbose === true,
    ...(options.type === undefined ? {} : { type: options.type }),
    ...(options.sample === undefined ? {} : { sample: options.sample }),
    ...(options.fixTtl === undefined ? {} : { fixTtl: options.fixTtl }),
    ...(inventory.length === 0 ? {} : { inventory }),
    ...(baseline === undefined ? {} : { baseline }),
    ...(options.failOnGrowth === undefined ? {} : { failOnGrowth: options.failOnGrowth }),
  };
  const bar = options.progress && io.stderr.isTTY === true ? createProgressBar(io.stderr) : undefined;
  if (bar !== undefined) auditOptions.onProgress = bar.update;

  // Loaded only now: --help, --version and usage errors never need the Redis client.
  const { connect } = await import('../connect.js');
  const connection = await connect(url, { cluster: options.cluster === true, timeoutMs: options.timeout });
  let report;
  let failed = false;
  try {
    report = await runAudit(connection.nodes, auditOptions);
  } catch (error) {
    failed = true;
    if (error instanceof AuditError || !isRedisError(error)) throw error;
    throw new CliError(`${redactUrl(url)}: ${error.message.split('\n')[0]}`);
  } finally {
    bar?.done();
    await connection.close(failed);
  }

  const output = formatReport(options.format, report, {
    version: packageVersion(),
    target: redactUrl(url),
    cluster: options.cluster === true,
    top: options.top,
    ...(options.output === undefined ? {} : { linkBase: path.relative(process.cwd(), path.dirname(path.resolve(options.output))) || '.' }),
  });
  if (options.output === undefined) {
    io.stdout.write(`${output}\n`);
  } else {
    try {
      await makeDirectories(path.dirname(path.resolve(options.output)));
      await writeFile(options.output, `${output}\n`);
    } catch (error) {
      throw new CliError(`cannot write the report to ${options.output}: ${describeFsError(error)}.`);
    }
  }
  // The reason for exit code 1 goes to standard error too: json and csv carry it only as data.
  const leaking = report.violations.filter((v) => v.keys > 0);
  for (const v of leaking) {
    io.stderr.write(
      `redis-ttl-audit: --fail-on-persistent '${v.pattern}': ${v.keys.toLocaleString('en-US')} ${v.keys === 1 ? 'key' : 'keys'} without TTL ` +
        `(e.g. ${v.examples.join(', ')}): give them an expiry (or --fix-ttl <seconds> with --match '${v.pattern}').\n`,
    );
  }
  const grown = report.growth?.patterns.filter((r) => r.exceeded) ?? [];
  for (const r of grown) {
    io.stderr.write(
      `redis-ttl-audit: --fail-on-growth ${options.failOnGrowth}: '${r.pattern}' has ${(r.noTtlGrowth).toLocaleString('en-US')} more keys without TTL than ` +
        `${options.baseline} (${r.noTtlBefore.toLocaleString('en-US')} -> ${r.noTtl.toLocaleString('en-US')}): they pile up; find the write that leaves them without TTL.\n`,
    );
  }
  return leaking.length > 0 || grown.length > 0 ? 1 : 0;
}

/**
 * The inventories to join with the keyspace: each `--inventory` file, read and validated, with
 * its directory as the base of its `root`; and for each `--source` directory, the inventory
 * redis-ttl-keys builds (keys/inventory.ts, loaded only then: it brings ESLint and the
 * TypeScript parser), its files relative to the working directory. Source files that do not
 * parse are named on standard error and skipped. The audit library takes these objects and never
 * reads files itself.
 * @throws {CliError} naming the file, the place and the problem, for a file that cannot be read or
 *   is not an inventory, a `--source` that matches no file, an ESLint config that cannot be loaded
 */
async function inventoryInputs(options: ParsedOptions, io: CliIo): Promise<InventoryInput[]> {
  const inputs: InventoryInput[] = [];
  if (options.source !== undefined) {
    const { buildInventory } = await import('../../keys/inventory.js');
    for (const dir of options.source) {
      let result;
      try {
        result = await buildInventory([dir]);
      } catch (error) {
        if (error instanceof CliError) throw new CliError(`--source ${dir}: ${error.message}`);
        throw error;
      }
      for (const p of result.problems) io.stderr.write(`redis-ttl-audit: --source ${dir}: ${p.file}:${p.line}:${p.column}: ${p.message} (skipped)\n`);
      inputs.push({ document: result.document, base: '.' });
    }
  }
  for (const file of options.inventory ?? []) {
    try {
      inputs.push({ document: await readInventoryFile(file), base: path.dirname(file) });
    } catch (error) {
      if (error instanceof InventoryError) throw new CliError(`--inventory ${error.message}`);
      throw error;
    }
  }
  return inputs;
}

/** Asks `question` on `out` and reads one line from `input`: true for y or yes. */
async function confirm(input: CliInput, out: CliOutput, question: string): Promise<boolean> {
  out.write(question);
  let answer = '';
  for await (const chunk of input) {
    answer += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
    if (answer.includes('\n')) break;
  }
  return /^\s*y(es)?\s*$/i.test(answer.split('\n')[0] ?? '');
}
