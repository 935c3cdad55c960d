/**
 * The key inventory of a codebase (`redis-ttl-keys`, `redis-ttl-audit --source`): every key shape
 * the code writes, with each write site and what it does about the TTL, and the reads of those
 * shapes. JS/TS files go through ESLint's `Linter` with the plugin's key rules and a collector rule
 * (keys/collect.ts): the shapes, the client detection and the TTL verdicts are the rules' own.
 * Lua files and the scripts embedded in Go, Python, Ruby, PHP, Java and C# files go through
 * lua-lint (keys/lua-writes.ts); a script passed by an `eval` in a JS/TS file has its `KEYS`
 * replaced by the shapes of the keys that call passes.
 *
 * The result is an inventory document of inventory/format.ts, the format `redis-ttl-audit
 * --inventory` reads.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Linter } from 'eslint';
import {
  INVENTORY_VERSION,
  type InventoryDocument,
  type InventoryShape,
  type Lifecycle,
  type LifecycleReading,
  type Site,
  type TtlStatus,
  type UnresolvedWrite,
  type WriteSite,
} from '../inventory/format.js';
import { CliError } from '../cli/errors.js';
import { packageVersion } from '../cli/package-info.js';
import { EFFECTS_THAT_WRITE_WITHOUT_TTL, EXPIRY_EFFECTS } from '../semantics/commands.js';
import { keyPatternMatcher } from '../semantics/key-patterns.js';
import { lineIndex } from '../text/lines.js';
import { expandPatterns } from '../lua-lint/cli/files.js';
import { hostLanguageOf } from '../lua-lint/hosts/extensions.js';
import { extractHostScripts } from '../lua-lint/hosts/index.js';
import { rules as pluginRules } from '../rules/index.js';
import { collectorRule, COLLECTOR_RULE, type Collected, type CollectedKey } from './collect.js';
import { isWriteEffect, luaKeyUses, unreportedStatus } from './lua-writes.js';

/** Options of {@link buildInventory}. Every field is optional. */
export interface InventoryOptions {
  /** The directory file names are relative to (and paths are resolved against). Default: `process.cwd()`. */
  cwd?: string;
  /**
   * An ESLint flat config file to read `settings['redis-ttl']` from (`persistentKeys`,
   * `clientNames`, ...). Default: the config ESLint finds for each file (`eslint.config.js` up
   * from it); none found means the defaults.
   */
  config?: string;
  /** `false`: read no ESLint config at all (then only {@link settings} count). */
  useConfig?: boolean;
  /** `settings['redis-ttl']`, used instead of any config's. */
  settings?: Record<string, unknown>;
}

/** A file that was skipped, or a script in it that could not be read: where and why. */
export interface SourceProblem {
  /** Relative to `cwd`, `/` separators. */
  file: string;
  /** 1-based. */
  line: number;
  /** 1-based. */
  column: number;
  message: string;
}

/** What {@link buildInventory} returns. */
export interface InventoryResult {
  /** The inventory, `root` being `cwd` relative to itself (`"."`): every `file` is relative to `cwd`. */
  document: InventoryDocument;
  /** Files that do not parse or cannot be read, and scripts lua-lint cannot read: each was skipped. */
  problems: SourceProblem[];
  /** How many files were read. */
  files: number;
  /**
   * Shapes the code spells a TTL for beyond what the document's write statuses say: an expiry
   * command of the shape (EXPIRE, PEXPIRE, ..., in JS or in a script, on any path), or a write
   * whose TTL its client drops (node-redis `set(k, v, 300)`). Such keys are meant to expire:
   * `--persistent-config` never offers them (keys/format.ts `persistentCandidates`).
   */
  ttlSpelled: ReadonlySet<string>;
}

/** The key rules whose reports decide a JS/TS write's TTL status. */
const KEY_RULES = ['set-requires-ttl-or-keepttl', 'no-getset', 'incr-needs-expire-on-create', 'no-persist'] as const;
/** incr-needs-expire-on-create's messages for an expiry that exists but is not atomic with the write. */
const SEPARATE_MESSAGES = new Set(['separateRoundTrip', 'pipelineNotAtomic', 'staleGuard', 'setThenExpire']);
/**
 * The key rules' messages for a write without TTL of a key whose life the code manages
 * (`redis-calls/lifecycle.ts`), and the reading each names. `recommended` leaves these writes
 * alone; the inventory runs the rules with those allowances off ({@link LIFECYCLE_OFF}), so that
 * such a write is reported with its reading instead of passing for one that sets a TTL.
 */
const LIFECYCLE_MESSAGES: ReadonlyMap<string, LifecycleReading> = new Map([
  ['deletedElsewhere', 'deleted'],
  ['consumedElsewhere', 'drained'],
  ['keptStream', 'stream'],
  ['updatesTtlRecord', 'ttl-record'],
  ['idSequence', 'id-sequence'],
]);
/** The key rules' options that turn the lifecycle allowances of `recommended` off (the rest stay `recommended`'s). */
const LIFECYCLE_OFF: Partial<Record<(typeof KEY_RULES)[number], Record<string, boolean>>> = {
  'set-requires-ttl-or-keepttl': { allowDeletedKeys: false },
  'incr-needs-expire-on-create': { allowDeletedKeys: false, allowIdSequences: false, allowConsumedQueues: false, allowTtlRecordUpdates: false },
};
const JS_EXTENSIONS = new Set(['.js', '.mjs', '.cjs', '.jsx', '.ts', '.mts', '.cts', '.tsx']);

/**
 * Builds the key inventory of the files under `paths`.
 *
 * @param paths files, directories (walked for JS/TS, Lua and the other host languages' files;
 *   node_modules, .git and declaration files left out) or globs, relative to `cwd`
 * @param options see {@link InventoryOptions}
 * @returns the document (shapes sorted by shape, sites by file, line and column), the files
 *   skipped with the reason, the number of files read. A file that does not parse is a problem,
 *   never an exception.
 * @throws {CliError} when a path matches no file, the ESLint config cannot be loaded, or its
 *   `settings['redis-ttl']` is invalid (the message names the setting)
 */
export async function buildInventory(paths: readonly string[], options: InventoryOptions = {}): Promise<InventoryResult> {
  const cwd = path.resolve(options.cwd ?? process.cwd());
  const targets = await expandPatterns(paths.length === 0 ? ['.'] : paths, { cwd, isIgnored: () => false, errorOnUnmatchedPattern: true });
  const relative = (file: string) => (path.relative(cwd, file) || path.basename(file)).split(path.sep).join('/');
  const problems: SourceProblem[] = [];
  const builder = new ShapeBuilder();
  const settingsFor = await settingsReader(cwd, options);
  let linter: JsLinter | undefined;
  let files = 0;
  for (const target of targets) {
    if (target.kind === 'unreadable') {
      problems.push({ file: relative(target.path), line: 1, column: 1, message: target.reason });
      continue;
    }
    if (target.kind !== 'file') continue;
    const file = target.path;
    const rel = relative(file);
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (error) {
      problems.push({ file: rel, line: 1, column: 1, message: `cannot read the file (${(error as Error).message})` });
      continue;
    }
    files += 1;
    const settings = await settingsFor(file);
    const persistent = persistentMatcher(settings);
    const extension = path.extname(file).toLowerCase();
    if (extension === '.lua') {
      const lines = lineIndex(text);
      addScript(builder, problems, text, undefined, (offset) => ({ file: rel, ...lines.position(offset) }), 'lua', persistent);
    } else if (JS_EXTENSIONS.has(extension)) {
      linter ??= await createLinter();
      const result = linter.run(file, text, settings);
      if ('fatal' in result) {
        problems.push({ file: rel, line: result.line, column: result.column, message: result.fatal });
        continue;
      }
      addJsKeys(builder, rel, result.collected, result.reports, persistent, relative);
      for (const script of result.collected.scripts) {
        const via = { file: rel, line: script.line, column: script.column };
        addScript(
          builder,
          problems,
          script.source,
          script.keyShapes ?? [],
          (offset) => {
            const at = script.position(offset);
            return { file: at.file === undefined ? rel : relative(path.resolve(path.dirname(file), at.file)), line: at.line, column: at.column };
          },
          'lua',
          persistent,
          via,
        );
      }
    } else {
      const language = hostLanguageOf(file);
      if (language === undefined || language === 'javascript' || language === 'typescript') continue;
      let extraction;
      try {
        extraction = await extractHostScripts(language, text);
      } catch (error) {
        problems.push({ file: rel, line: 1, column: 1, message: `cannot read the scripts of this file (${(error as Error).message})` });
        continue;
      }
      for (const script of extraction.scripts) {
        addScript(builder, problems, script.source, undefined, (offset) => ({ file: rel, ...script.position(offset) }), 'lua', persistent);
      }
    }
  }
  return { document: builder.document(), problems, files, ttlSpelled: builder.ttlSpelled };
}

/** Persistent-key patterns of the settings, as one test of a shape. */
function persistentMatcher(settings: Record<string, unknown> | undefined): (shape: string) => boolean {
  const patterns = Array.isArray(settings?.persistentKeys) ? (settings.persistentKeys as unknown[]).filter((p): p is string => typeof p === 'string') : [];
  const matchers = patterns.map((p) => keyPatternMatcher(p));
  return (shape) => matchers.some((m) => m(shape));
}

/** The JS/TS writes and reads the collector found, with the TTL status the rules' reports give. */
function addJsKeys(
  builder: ShapeBuilder,
  file: string,
  collected: Collected,
  reports: Map<string, Set<string>>,
  persistent: (shape: string) => boolean,
  relative: (file: string) => string,
): void {
  for (const key of collected.keys) {
    const site: Site = { file, line: key.line, column: key.column, command: key.command, client: key.client };
    if (key.effect === 'read') {
      builder.read(key.shape, site);
      continue;
    }
    // an expiry of the shape, or a write whose TTL the client drops: the code means the key to expire
    if (EXPIRY_EFFECTS.has(key.effect) || (key.ttlMeant && isWriteEffect(key.effect))) builder.spellsTtl(key.shape);
    if (!isWriteEffect(key.effect)) continue;
    // the facade's own call: its callers are the write sites, with their keys
    if (key.exemption === 'pass-through') continue;
    const { ttl, reading } = jsStatus(key, reports.get(`${key.line}:${key.column}`));
    const status = ttl !== 'atomic' && persistent(key.shape) ? 'persistent' : ttl;
    // the no-TTL arm of a TTL the caller chooses (`if (ttl) ... else set(k, v)`): an optional TTL
    const optional = status === 'none' && key.exemption === 'optional-ttl';
    const lifecycle = reading !== undefined && status !== 'persistent' ? lifecycleOf(key, reading, relative) : undefined;
    builder.write(key.shape, { ...site, ttl: status, ...(optional ? { optionalTtl: true as const } : {}), ...(lifecycle ? { lifecycle } : {}) });
  }
}

/** The lifecycle of a write the rules name as managed by the code, with the call they found (its file relative). */
function lifecycleOf(key: CollectedKey, reading: LifecycleReading, relative: (file: string) => string): Lifecycle {
  const by = reading === 'id-sequence' ? undefined : key.lifecycleCall?.(reading);
  return { reading, ...(by ? { by: { file: relative(by.file), line: by.line, column: by.column, command: by.command } } : {}) };
}

/**
 * The TTL status of a JS/TS write from the key rules' reports at its call, and, for a write the
 * rules report only as a key whose life the code manages (deleted elsewhere, a drained queue ...:
 * what `recommended` leaves alone), that reading.
 */
function jsStatus(key: CollectedKey, messages: Set<string> | undefined): { ttl: TtlStatus; reading?: LifecycleReading } {
  if (key.exemption === 'persistent') return { ttl: 'persistent' };
  if (key.ttlDropped) return { ttl: 'none' };
  if (messages !== undefined && messages.size > 0) {
    const ids = [...messages].map((m) => m.slice(m.indexOf(':') + 1));
    if (ids.some((id) => SEPARATE_MESSAGES.has(id))) return { ttl: 'separate' };
    // SET ... KEEPTTL without XX: keeps an existing TTL, creates a missing key without one
    if (ids.every((id) => id === 'keepTtlMayCreate')) return { ttl: 'keepttl' };
    // a key the code manages: written without TTL all the same; an update of a record created with
    // a TTL keeps it, but recreates a record that expired just before without one
    const reading = ids.length === 1 ? LIFECYCLE_MESSAGES.get(ids[0]!) : undefined;
    if (reading !== undefined) return { ttl: reading === 'ttl-record' ? 'keepttl' : 'none', reading };
    return { ttl: 'none' };
  }
  // left alone by the rules for being one key, the no-TTL arm of a TTL the caller chooses, or an
  // opaque key nothing says is meant to expire, or the key its operator named: written without TTL
  if ((key.exemption === 'constant' || key.exemption === 'optional-ttl' || key.exemption === 'opaque' || key.exemption === 'user-named') && EFFECTS_THAT_WRITE_WITHOUT_TTL.has(key.effect)) return { ttl: 'none' };
  // the rules found its expiry in the same unit: atomic in a MULTI, not in a pipeline
  if (key.unitKind === 'pipeline' && EFFECTS_THAT_WRITE_WITHOUT_TTL.has(key.effect)) return { ttl: 'separate' };
  return { ttl: unreportedStatus(key.effect) };
}

/** Adds the writes and reads of one Lua script. */
function addScript(
  builder: ShapeBuilder,
  problems: SourceProblem[],
  source: string,
  keyShapes: ReadonlyArray<string | undefined> | undefined,
  position: (offset: number) => { file: string; line: number; column: number },
  client: string,
  persistent: (shape: string) => boolean,
  via?: { file: string; line: number; column: number },
): void {
  const uses = luaKeyUses(source, keyShapes);
  if (!uses.ok) {
    const at = position(uses.offset);
    problems.push({ file: at.file, line: at.line, column: at.column, message: `the script does not parse: ${uses.message}` });
    return;
  }
  for (const write of uses.writes) {
    const at = position(write.offset);
    const site: WriteSite = {
      file: at.file,
      line: at.line,
      column: at.column,
      command: write.command,
      client,
      ttl: write.ttl !== 'atomic' && write.shape !== undefined && persistent(write.shape) ? 'persistent' : write.ttl!,
      ...(write.optionalTtl && !(write.shape !== undefined && persistent(write.shape)) ? { optionalTtl: true as const } : {}),
      ...(via ? { via: { ...via, key: write.keyText } } : {}),
    };
    if (write.shape === undefined) builder.unresolved({ ...site, key: write.keyText });
    else builder.write(write.shape, site);
  }
  for (const expiry of uses.expiries) if (expiry.shape !== undefined) builder.spellsTtl(expiry.shape);
  for (const read of uses.reads) {
    if (read.shape === undefined) continue;
    const at = position(read.offset);
    builder.read(read.shape, { file: at.file, line: at.line, column: at.column, command: read.command, client });
  }
}

/** Collects sites by shape, without duplicates, and makes the sorted document. */
class ShapeBuilder {
  private readonly writes = new Map<string, Map<string, WriteSite>>();
  private readonly reads = new Map<string, Map<string, Site>>();
  private readonly unresolvedWrites = new Map<string, UnresolvedWrite>();
  /** Shapes the code spells a TTL for ({@link InventoryResult.ttlSpelled}). */
  readonly ttlSpelled = new Set<string>();

  /** Notes that the code spells a TTL for `shape` (an expiry of it, a write whose TTL is dropped). */
  spellsTtl(shape: string): void {
    this.ttlSpelled.add(shape);
  }

  write(shape: string, site: WriteSite): void {
    let sites = this.writes.get(shape);
    if (!sites) this.writes.set(shape, (sites = new Map()));
    sites.set(siteId(site), site);
  }

  read(shape: string, site: Site): void {
    let sites = this.reads.get(shape);
    if (!sites) this.reads.set(shape, (sites = new Map()));
    sites.set(siteId(site), site);
  }

  unresolved(site: UnresolvedWrite): void {
    this.unresolvedWrites.set(`${siteId(site)}\u0000${site.key}`, site);
  }

  document(): InventoryDocument {
    // shapes only read too: the audit shows where their keys are read ("written by no code")
    const names = [...new Set([...this.writes.keys(), ...this.reads.keys()])].sort();
    const shapes: InventoryShape[] = names.map((shape) => {
      const reads = [...(this.reads.get(shape)?.values() ?? [])].sort(bySite);
      return { shape, writes: [...(this.writes.get(shape)?.values() ?? [])].sort(bySite), ...(reads.length > 0 ? { reads } : {}) };
    });
    const unresolved = [...this.unresolvedWrites.values()].sort(bySite);
    return { version: INVENTORY_VERSION, tool: `redis-ttl-keys ${packageVersion()}`, root: '.', shapes, ...(unresolved.length > 0 ? { unresolved } : {}) };
  }
}

function siteId(site: Site & { via?: { file: string; line: number; column: number } }): string {
  const via = site.via ? `@${site.via.file}:${site.via.line}:${site.via.column}` : '';
  return `${site.file}:${site.line}:${site.column}:${site.command}${via}`;
}

function bySite(a: Site & { via?: { file: string; line: number; column: number } }, b: Site & { via?: { file: string; line: number; column: number } }): number {
  return a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line || a.column - b.column || (a.command < b.command ? -1 : a.command > b.command ? 1 : 0) || siteId(a).localeCompare(siteId(b));
}

/** The result of linting one JS/TS file: what the collector found and the key rules' reports, or why it does not parse. */
type JsResult = { collected: Collected; reports: Map<string, Set<string>> } | { fatal: string; line: number; column: number };

interface JsLinter {
  run(file: string, text: string, settings: Record<string, unknown> | undefined): JsResult;
}

/** ESLint's Linter with the plugin's key rules and the collector (eslint and the TypeScript parser are loaded on first use). */
async function createLinter(): Promise<JsLinter> {
  let eslint: typeof import('eslint');
  let parser: Linter.Parser;
  try {
    eslint = await import('eslint');
    parser = (await import('@typescript-eslint/parser')) as unknown as Linter.Parser;
  } catch (error) {
    throw new CliError(`cannot load ESLint or @typescript-eslint/parser, which read JS/TS files (${(error as Error).message}): install eslint (9 or 10) next to this package.`);
  }
  const linter = new eslint.Linter({ configType: 'flat', cwd: path.parse(process.cwd()).root });
  let collected: Collected = { keys: [], scripts: [] };
  const collector = collectorRule((found) => (collected = found));
  const rules: Linter.RulesRecord = { [`redis-ttl-keys/${COLLECTOR_RULE}`]: 'error' };
  // `recommended`'s options, but for the lifecycle allowances: a write they leave alone is reported
  // with its reading, and listed as written without TTL (LIFECYCLE_MESSAGES)
  for (const name of KEY_RULES) rules[`redis-ttl/${name}`] = LIFECYCLE_OFF[name] ? ['error', LIFECYCLE_OFF[name]] : 'error';
  const plugin = { rules: pluginRules } as unknown as NonNullable<Linter.Config['plugins']>[string];
  const keysPlugin = { rules: { [COLLECTOR_RULE]: collector } } as unknown as NonNullable<Linter.Config['plugins']>[string];
  return {
    run(file, text, settings) {
      collected = { keys: [], scripts: [] };
      const jsx = /\.[jt]sx$/i.test(file);
      let messages: Linter.LintMessage[];
      try {
        messages = linter.verify(
          text,
          [
            {
              files: ['**/*.{js,mjs,cjs,jsx,ts,mts,cts,tsx}'],
              languageOptions: { parser, ecmaVersion: 'latest', sourceType: /\.c[jt]s$/i.test(file) ? 'commonjs' : 'module', parserOptions: { ecmaFeatures: { jsx } } },
              plugins: { 'redis-ttl': plugin, 'redis-ttl-keys': keysPlugin },
              settings: settings === undefined ? {} : { 'redis-ttl': settings },
              rules,
            },
          ],
          { filename: file },
        );
      } catch (error) {
        const message = (error as Error).message;
        if (/settings\['redis-ttl'\]/.test(message)) throw new CliError(message.split('\n').find((l) => l.includes("settings['redis-ttl']")) ?? message);
        // a bug of the analysis on odd input: this file is skipped and named, the run goes on
        const line = /Occurred while linting .*:(\d+)/.exec(message)?.[1];
        return { fatal: `the analysis failed on this file, please report it: ${message.split('\n')[0]}`, line: line === undefined ? 1 : Number(line), column: 1 };
      }
      const fatal = messages.find((m) => m.fatal);
      if (fatal) return { fatal: fatal.message, line: fatal.line, column: fatal.column };
      const reports = new Map<string, Set<string>>();
      for (const m of messages) {
        if (!m.ruleId?.startsWith('redis-ttl/') || m.messageId === undefined) continue;
        const id = `${m.line}:${m.column}`;
        let set = reports.get(id);
        if (!set) reports.set(id, (set = new Set()));
        set.add(`${m.ruleId}:${m.messageId}`);
      }
      return { collected, reports };
    },
  };
}

/**
 * `settings['redis-ttl']` per file: the given settings, else the ESLint config's (the `--config`
 * file, or the one ESLint finds for the file), else none.
 */
async function settingsReader(cwd: string, options: InventoryOptions): Promise<(file: string) => Promise<Record<string, unknown> | undefined>> {
  if (options.settings !== undefined) {
    const settings = options.settings;
    return async () => settings;
  }
  if (options.useConfig === false) return async () => undefined;
  const { ESLint } = await import('eslint').catch((error: Error) => {
    throw new CliError(`cannot load ESLint to read the config (${error.message}): install eslint (9 or 10), or pass --no-config.`);
  });
  const config = options.config === undefined ? undefined : path.resolve(cwd, options.config);
  const eslint = new ESLint({ cwd, ...(config === undefined ? {} : { overrideConfigFile: config }) });
  const found = new Map<string, boolean>();
  return async (file) => {
    const dir = path.dirname(file);
    if (config === undefined) {
      let has = found.get(dir);
      if (has === undefined) found.set(dir, (has = (await eslint.findConfigFile(file).catch(() => undefined)) !== undefined));
      if (!has) return undefined;
    }
    let calculated: { settings?: Record<string, unknown> } | undefined;
    try {
      calculated = (await eslint.calculateConfigForFile(file)) as { settings?: Record<string, unknown> } | undefined;
      // a file the config does not lint (a .ts file of a config without TypeScript `files`, an
      // ignored folder) still writes keys: it gets the settings a .js file of its folder would have
      calculated ??= (await eslint.calculateConfigForFile(path.join(dir, 'redis-ttl-keys.js'))) as { settings?: Record<string, unknown> } | undefined;
    } catch (error) {
      throw new CliError(`cannot read the ESLint config${config === undefined ? '' : ` ${options.config}`} for ${path.relative(cwd, file)}: ${(error as Error).message.split('\n')[0]}`);
    }
    const settings = calculated?.settings?.['redis-ttl'];
    return settings !== null && typeof settings === 'object' && !Array.isArray(settings) ? (settings as Record<string, unknown>) : undefined;
  };
}
