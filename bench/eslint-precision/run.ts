/**
 * Precision and recall of the `recommended` config on code none of us wrote, in two sets of
 * codebases kept apart (README.md beside this file says why):
 *
 * - the **tuning set** (`tuning/`): the codebases the rules' heuristics were tuned on; read its
 *   findings as much as you like while changing a rule.
 * - the **validation set** (`validation/`): codebases chosen, and given their `persistentKeys`,
 *   before any rule change and before any finding was read. Nobody changing a rule reads its
 *   findings; its figures are the ones quoted.
 *
 * A set is a folder with `packages.json`, `applications.json`, `triage.json` and, for the recall
 * sample, `missed.json`. Each set has two corpora:
 *
 * - **packages**: published npm packages that use Redis, pinned in `packages.json`, installed at
 *   bench time into `.bench-tmp/eslint-precision/<set>/` (gitignored), their published sources
 *   linted as a user would. The included files are copied, with the `.d.ts` files and
 *   `package.json` files of the package, into `<scratch>/corpus/<package>/` and linted typed with a
 *   TypeScript program (`allowJs`) whose imports resolve to the installed dependencies (ioredis,
 *   redis, @upstash/redis types included), and untyped.
 * - **applications**: open-source applications pinned by repository and commit in
 *   `applications.json`. The bench cannot reach GitHub: it reads the git directory the search
 *   tool's `fetch` leaves at `<mirror>/<owner>+<name>/repo` (bare, or a clone's `repo/.git`; `--mirror <dir>`, default
 *   `/work/.mirror`), extracts the pinned commit's source files, with every `package.json`,
 *   `pnpm-workspace.yaml`, `lerna.json` and tsconfig the rules read, into `<scratch>-apps/<owner>+<name>/`
 *   (beside the scratch, not in it: a module lookup walking up from an application must not reach the
 *   packages' installs, whose hoisted versions depend on install order),
 *   and says which applications it skipped because no snapshot (or not that commit) is present.
 *   Their dependencies are not installed. An application whose spec names `clients` (its Redis
 *   client packages, pinned) gets them installed into `<scratch>-apps/<owner>+<name>.clients/`, linked as its `node_modules`,
 *   and is linted typed too, with a program (`allowJs`, bundler resolution) over its linted files:
 *   imports of the clients and relative imports resolve, path aliases and workspace packages do not
 *   (their types are `any`; the rules' own analysis follows them, untyped and typed). Applications without `clients` are linted untyped in both runs.
 *   Linted: every `.ts` / `.tsx` / `.js` / `.jsx` / `.mjs` / `.cjs` / `.mts` / `.cts` source file
 *   that is not a test, a declaration file, generated or vendored code, and in which the rules'
 *   untyped analysis looks for a client at all (the file mentions `redis` / `valkey`, or a client
 *   constructor, factory or type name, or imports a module of the code that makes or passes on a
 *   client: every other file gives no finding by construction, which `--all-files` checks by
 *   linting them all).
 *
 * Each codebase gets `recommended` plus its own `persistentKeys`, at most three. Every finding must
 * be triaged in `triage.json` as `leak` (a maintainer would fix it), `debatable`, or `false`
 * (nobody would fix it), with a kind and a one-line reason. Printed per corpus (packages,
 * applications, both) and per run (untyped, typed): findings, leak / debatable / false, precision
 * strict (leak / findings) and lenient ((leak + debatable) / findings), crashes, and recall on the
 * set's sample: `missed.json` names the sampled codebases (chosen before reading any finding) and
 * the real leaks found by reading every unreported Redis write of them; recall = leak findings
 * reported in the run / (every leak triaged in the sample + the missed ones), counted by finding.
 *
 *   node --import tsx bench/eslint-precision/run.ts [--set tuning|validation] [--typed | --untyped]
 *     [--untriaged] [--package <name> ...] [--app <owner/name> ...] [--packages-only] [--apps-only]
 *     [--all-files] [--mirror <dir>] [--list] [--no-install] [--plugin <dir>]
 *
 * Codebases are linted in child processes (this script with `--worker <file>`, the same Node
 * options and `--plugin`): the packages in one, the applications eight at a time.
 * Both runs by default (untyped, then typed); `--typed` or `--untyped` makes one. `--plugin <dir>`
 * lints with the plugin of another checkout (`<dir>/rules/index.ts`), e.g. the commit before a
 * change extracted with `git archive <commit> rules semantics lua-lint redis-calls text | tar -x -C
 * .bench-tmp/baseline`, to measure before and after with the same corpus and triage.
 *
 * A file the parser rejects (merge-conflict markers, syntax it does not read) is listed as "not
 * parsed" with file:line:column, apart from crashes: no rule ran on it, and it fails nothing.
 * Exit code 1 when a finding is not triaged, a file crashes a rule, a codebase
 * has more than three persistentKeys or is in both sets, or a finding triaged `leak` is no longer
 * reported (a lost leak) in a run it is expected in: the entry's `runs`, by default the typed run
 * for packages (their reference: untyped, some receivers are not known to be clients) and every run
 * for applications. `--untriaged` prints each untriaged finding with its message and source line,
 * `--list` every finding with its verdict. Skipped applications are not an error.
 * CI does not run it (it needs the npm registry and the fetched snapshots).
 */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, lstatSync, mkdirSync, readFileSync, readdirSync, readlinkSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import tsParser from '@typescript-eslint/parser';
import { Linter } from 'eslint';
import { globSync } from 'tinyglobby';
import type ownPlugin from '../../rules/index.js';
import { importSpecifiers } from '../../redis-calls/importers.js';
import { makesOrPassesClient, mayPassOnClient } from '../../redis-calls/passed-on-clients.js';

const pluginDir = process.argv.includes('--plugin') ? process.argv[process.argv.indexOf('--plugin') + 1] : undefined;
// the frozen rules of --plugin alone are loaded: this checkout's rules may not even load then
const plugin = (
  (await import(pluginDir ? pathToFileURL(resolve(process.cwd(), pluginDir, 'rules', 'index.ts')).href : '../../rules/index.js')) as { default: typeof ownPlugin }
).default;

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');

const SETS = ['tuning', 'validation'] as const;
type SetName = (typeof SETS)[number];
type Mode = 'untyped' | 'typed';
type Corpus = 'packages' | 'applications';

interface PackageSpec {
  name: string;
  version: string;
  kind: string;
  /** Globs relative to the installed package (a leading `!` excludes). */
  include: string[];
  /** At most three key patterns, as the package's maintainer would configure them. */
  persistentKeys: string[];
}

interface ApplicationSpec {
  /** `owner/name` on GitHub. */
  repo: string;
  /** The pinned commit (40 hex digits). */
  commit: string;
  kind: string;
  /** Globs relative to the repository left out on top of {@link COMMON_EXCLUDES}. */
  exclude: string[];
  /** At most three key patterns, as the application's maintainer would configure them. */
  persistentKeys: string[];
  /**
   * The application's Redis client packages and their versions (`{ "ioredis": "5.4.1" }`),
   * installed beside its sources so that the typed run can resolve them. Absent: linted untyped
   * in both runs.
   */
  clients?: Record<string, string>;
}

type Verdict = 'leak' | 'debatable' | 'false';

interface TriageEntry {
  /** `<package or owner/name> <file>:<line>:<column> <rule>` */
  id: string;
  verdict: Verdict;
  /** A short label that groups findings of one kind (the per-kind table). */
  kind: string;
  reason: string;
  /**
   * The runs a `leak` must be reported in (else it is a lost leak). Default: `typed` for
   * packages, both for applications.
   */
  runs?: Mode[];
}

/** A real leak the rules do not report, found by reading a sampled codebase's Redis writes. */
interface MissedLeak {
  /** `<package or owner/name> <file>:<line>` */
  id: string;
  kind: string;
  reason: string;
}

interface Finding {
  id: string;
  /** The package name or the application's `owner/name`. */
  codebase: string;
  message: string;
  source: string;
}

/** One linted codebase: a package or an application. */
interface Codebase {
  name: string;
  corpus: Corpus;
  kind: string;
  /** Folder its files are linted in. */
  dir: string;
  /** Files, relative to `dir`. */
  files: string[];
  persistentKeys: string[];
  /** The TypeScript project of its typed run; undefined: linted untyped in both runs. */
  tsconfig: string | undefined;
  /**
   * An application's installed clients, linked as its `node_modules` for the typed run only
   * (`link` -> `target`); the untyped run lints without them ({@link linkClients}).
   */
  clients?: { link: string; target: string };
}

/** A set's data, read from `bench/eslint-precision/<set>/`. */
interface BenchSet {
  name: SetName;
  /** Where its packages are installed and its applications extracted (gitignored). */
  scratch: string;
  packages: PackageSpec[];
  applications: ApplicationSpec[];
  triage: TriageEntry[];
  /** The codebases whose unreported writes were all read; undefined when the set has no sample. */
  sample: string[] | undefined;
  missed: MissedLeak[];
}

function readJson<T>(file: string, fallback?: T): T {
  if (!existsSync(file) && fallback !== undefined) return fallback;
  return JSON.parse(readFileSync(file, 'utf8')) as T;
}

/**
 * Reads a set's files. The triage and the recall sample may be split by corpus (`triage.json` and
 * `triage.<part>.json`, `missed.json` and `missed.<part>.json`: two validators can work side by side);
 * a set reads the union. Throws when a required file is missing or not JSON.
 */
function loadSet(name: SetName): BenchSet {
  const dir = join(here, name);
  const parts = (stem: string): string[] =>
    readdirSync(dir)
      .filter((file) => file === `${stem}.json` || (file.startsWith(`${stem}.`) && file.endsWith('.json')))
      .sort()
      .map((file) => join(dir, file));
  const recalls = parts('missed').map((file) => readJson<{ sample?: string[]; missed?: MissedLeak[] }>(file));
  return {
    name,
    scratch: join(root, '.bench-tmp', 'eslint-precision', name),
    packages: readJson<{ packages: PackageSpec[] }>(join(dir, 'packages.json')).packages,
    applications: readJson<{ applications: ApplicationSpec[] }>(join(dir, 'applications.json')).applications,
    triage: parts('triage').flatMap((file) => readJson<{ findings: TriageEntry[] }>(file).findings),
    sample: recalls.some((recall) => recall.sample) ? recalls.flatMap((recall) => recall.sample ?? []) : undefined,
    missed: recalls.flatMap((recall) => recall.missed ?? []),
  };
}

function codebaseNames(set: BenchSet): string[] {
  return [...set.packages.map((p) => p.name), ...set.applications.map((a) => a.repo)];
}

/** Runs `npm install` of exact versions in `dir` (created with a private package.json if needed). */
function npmInstall(dir: string, specs: string[]): void {
  mkdirSync(dir, { recursive: true });
  if (!existsSync(join(dir, 'package.json'))) writeFileSync(join(dir, 'package.json'), '{ "name": "eslint-precision-corpus", "private": true }\n');
  console.log(`installing ${specs.join(' ')} into ${dir}`);
  execFileSync('npm', ['install', '--ignore-scripts', '--no-audit', '--no-fund', '--legacy-peer-deps', '--save-exact', ...specs], {
    cwd: dir,
    stdio: ['ignore', 'ignore', 'inherit'],
    // a dependency fetched from a Git host can hang npm for good
    timeout: NPM_INSTALL_TIMEOUT_MS,
  });
}

/** How long one `npm install` may take, in milliseconds. */
const NPM_INSTALL_TIMEOUT_MS = 15 * 60_000;

function installedVersion(dir: string, name: string): string | undefined {
  const file = join(dir, 'node_modules', name, 'package.json');
  // some packages publish `"version": "v0.2.1"`, which npm installs as 0.2.1
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version.replace(/^v/, '') : undefined;
}

/** The `dependencies` of the private package.json of an install folder (`{}` when there is none). */
function declaredDependencies(dir: string): Record<string, string> {
  const manifest = join(dir, 'package.json');
  if (!existsSync(manifest)) return {};
  return (JSON.parse(readFileSync(manifest, 'utf8')) as { dependencies?: Record<string, string> }).dependencies ?? {};
}

/**
 * Installs `name -> version` into `dir` (and nothing else: a folder holding other packages is
 * installed afresh; `belonging`: every package the folder may hold, when `wanted` is a part of
 * them, as for `--package`) unless that version is there already: all in one `npm
 * install`, and when that fails (a dependency the registry does not serve, a hung Git fetch),
 * one at a time, so one package that cannot be installed does not keep the others out. What is
 * still missing afterwards is the caller's to report (`prepareSet`'s problems: "not installed").
 */
function ensureInstalled(dir: string, wanted: Array<[string, string]>, belonging: readonly string[] = wanted.map(([name]) => name)): void {
  // a scratch that still holds packages the set no longer names (an earlier validation set's, now
  // in tuning/) resolves imports differently from a fresh one: npm hoists another version of a
  // shared dependency (ioredis 5 above a package that asks for 4), and the typed run reads other
  // types. The figures must not depend on what the scratch held before: start it afresh.
  const names = new Set(belonging);
  const stale = Object.keys(declaredDependencies(dir)).filter((name) => !names.has(name));
  if (stale.length > 0) {
    console.log(`${dir} holds ${stale.length} packages the set no longer names (${stale.slice(0, 3).join(', ')}${stale.length > 3 ? ', ...' : ''}): installing afresh`);
    for (const entry of ['node_modules', 'package-lock.json', 'package.json']) rmSync(join(dir, entry), { recursive: true, force: true });
  }
  const missing = wanted.filter(([name, version]) => installedVersion(dir, name) !== version);
  if (missing.length === 0) return;
  try {
    npmInstall(dir, missing.map(([name, version]) => `${name}@${version}`));
  } catch {
    if (missing.length === 1) {
      console.log(`could not install ${missing[0]![0]}@${missing[0]![1]} into ${dir}`);
      return;
    }
    for (const [name, version] of missing) {
      try {
        npmInstall(dir, [`${name}@${version}`]);
      } catch {
        console.log(`could not install ${name}@${version} into ${dir}`);
      }
    }
  }
}

/**
 * ES module or CommonJS, as Node (or the package's bundler entry, for `.js` files written with
 * import / export in a package without `"type": "module"`) would load the file: the nearest
 * `package.json` below `top` decides (`top`'s own is not read: a package's or an application's root).
 */
function sourceType(file: string, top: string): 'module' | 'commonjs' {
  if (/\.m[jt]s$/.test(file)) return 'module';
  if (/\.c[jt]s$/.test(file)) return 'commonjs';
  const text = readFileSync(file, 'utf8');
  if (/^\s*(import\s*[\w{*'"]|export\s)/m.test(text)) return 'module';
  // minified bundles put every statement on one line: `...;export{i as RedisStore}`
  if (/[;}]export\s*(\{|\*|default\b|(const|let|var|function|class|async)\s)/.test(text)) return 'module';
  if (/\.tsx?$/.test(file)) return 'module';
  for (let dir = dirname(file); dir.length > top.length; dir = dirname(dir)) {
    const manifest = join(dir, 'package.json');
    if (!existsSync(manifest)) continue;
    // a nested manifest of an application can be a template (`"name": {{name}}`), not JSON
    try {
      return (JSON.parse(readFileSync(manifest, 'utf8')) as { type?: string }).type === 'module' ? 'module' : 'commonjs';
    } catch {
      return 'commonjs';
    }
  }
  return 'commonjs';
}

/** The included files of a package installed in `scratch`, relative to it. */
function includedFiles(scratch: string, spec: PackageSpec): string[] {
  return globSync(spec.include, { cwd: join(scratch, 'node_modules', spec.name), ignore: ['**/node_modules/**', '**/*.d.ts', '**/*.d.*ts'] }).sort();
}

/** Compiler options of every typed program: JavaScript read with its `.d.ts`, nothing emitted. */
const TYPED_OPTIONS = { allowJs: true, checkJs: false, noEmit: true, target: 'ES2022', skipLibCheck: true, strict: false, types: [] };

/**
 * Copies every package's included files, its declaration files and package.json files out of
 * node_modules (which ESLint ignores) into `<scratch>/corpus`, and writes the tsconfig of the
 * typed program over them (`<scratch>/tsconfig.json`). Imports of dependencies resolve upwards to
 * the scratch node_modules. Returns the path of the tsconfig.
 */
function prepareCorpus(scratch: string, specs: PackageSpec[]): string {
  const corpus = join(scratch, 'corpus');
  rmSync(corpus, { recursive: true, force: true });
  const included: string[] = [];
  for (const spec of specs) {
    const dir = join(scratch, 'node_modules', spec.name);
    const support = globSync(['**/*.d.ts', '**/*.d.*ts', '**/package.json'], { cwd: dir, ignore: ['**/node_modules/**'] });
    for (const file of [...includedFiles(scratch, spec), ...support]) {
      mkdirSync(dirname(join(corpus, spec.name, file)), { recursive: true });
      cpSync(join(dir, file), join(corpus, spec.name, file));
    }
    included.push(...includedFiles(scratch, spec).map((file) => `corpus/${spec.name}/${file}`));
  }
  const tsconfig = join(scratch, 'tsconfig.json');
  const config = { compilerOptions: { ...TYPED_OPTIONS, module: 'NodeNext', moduleResolution: 'NodeNext' }, files: included };
  replaceFile(tsconfig, `${JSON.stringify(config, null, 2)}\n`);
  return tsconfig;
}

/** Source files of an application, as git pathspecs (extensions the rules lint). */
const SOURCE_EXTENSIONS = ['ts', 'tsx', 'js', 'jsx', 'mjs', 'cjs', 'mts', 'cts'];

/**
 * Left out of every application: tests and their fixtures and mocks, declaration files, generated,
 * built and vendored code, stories. What is left is the code that runs in production (and its
 * scripts), which is what a team lints in CI.
 */
const COMMON_EXCLUDES = [
  '**/node_modules/**',
  '**/dist/**',
  '**/build/**',
  '**/.next/**',
  '**/out/**',
  '**/coverage/**',
  '**/vendor/**',
  '**/public/**',
  '**/generated/**',
  '**/*.d.ts',
  '**/*.d.*ts',
  '**/*.min.js',
  '**/*.test.*',
  '**/*.spec.*',
  '**/*.e2e.*',
  '**/*.stories.*',
  '**/*.mock.*',
  '**/__tests__/**',
  '**/__mocks__/**',
  '**/__fixtures__/**',
  '**/test/**',
  '**/tests/**',
  '**/e2e/**',
  '**/fixtures/**',
  '**/testing/**',
];

/**
 * Whether the rules' untyped analysis looks at a file at all, first test: it mentions `redis`,
 * `valkey` or `@vercel/kv` (an import, a client package, a `clientNames` match), or a client
 * constructor, factory or type name. The second is {@link importsClientModule}. Without either,
 * every receiver is unknown and the rules report nothing (the file's `mayUseRedis()` is false), so
 * leaving such files out loses no finding (`--all-files` checks it).
 */
const MAY_USE_REDIS =
  /redis|valkey|@vercel\/kv|\b(?:Cluster|createClient|createCluster|createSentinel|ChainableCommander|Pipeline|RedisClientMultiCommandType|RedisClusterMultiCommandType|fromEnv|defineScript)\b/i;

/**
 * What the rules read to resolve modules and tell packages apart, at any depth outside
 * `node_modules`: every `package.json` (a workspace package's `name` and entries, whether it is
 * private, its `redis` version, its `type`), `pnpm-workspace.yaml` and `lerna.json` (the workspace
 * declarations), and the tsconfig / jsconfig files with those they extend by a relative path
 * (`apps/web/tsconfig.base.json`, `_tsconfig.base.json`, `tsconfig-base.json`), whose `paths`
 * aliases the rules follow (a missing `extends` target makes get-tsconfig drop the whole config).
 */
/**
 * Whether the rules' untyped analysis looks at a file at all, second test: the file imports a module
 * of the code whose text imports a client package, or that passes a binding or exports a
 * declaration on from one that does: the rules' own file-level test (`mayPassOnClient`,
 * `redis-calls/passed-on-clients.ts`), so a file that reaches its client only through the code's
 * own modules (`this.client.cache.set(...)`, `import cache from '../lib/cache'`) is linted.
 * @param file the file's absolute path; `text` its text
 */
function importsClientModule(file: string, text: string): boolean {
  return importSpecifiers(text).some((specifier) => mayPassOnClient(file, specifier, makesOrPassesClient));
}

const PROJECT_FILE = /(?:^|\/)(?:package\.json|pnpm-workspace\.yaml|lerna\.json|[\w.-]*(?:tsconfig|jsconfig)[\w.-]*\.json)$/;

/**
 * Writes the source files (by extension) and the {@link PROJECT_FILE} files of a commit into `dir`,
 * read from the git directory with `git ls-tree` and one `git cat-file --batch` (symbolic links and
 * submodules are left out; a blob the snapshot does not hold, which `fetch` does for its largest
 * files, is named on stderr).
 */
function extractSources(gitDir: string, commit: string, dir: string): void {
  const listing = execFileSync('git', ['--git-dir', gitDir, 'ls-tree', '-r', '-z', commit], { maxBuffer: 2 ** 30 }).toString('utf8');
  const wanted: Array<{ oid: string; path: string }> = [];
  for (const entry of listing.split('\0')) {
    const match = /^100\d{3} blob ([0-9a-f]+)\t(.+)$/s.exec(entry);
    // a nested package.json also gives its folder's .js files their sourceType, as Node would
    // (sourceType reads none at the root, whose manifest was extracted before)
    const path = match?.[2];
    if (path && (SOURCE_EXTENSIONS.some((ext) => path.endsWith(`.${ext}`)) || (PROJECT_FILE.test(path) && !/(?:^|\/)node_modules\//.test(path)))) wanted.push({ oid: match[1]!, path });
  }
  const output = execFileSync('git', ['--git-dir', gitDir, 'cat-file', '--batch'], {
    input: wanted.map((w) => w.oid).join('\n') + '\n',
    maxBuffer: 2 ** 31 - 1,
  });
  let offset = 0;
  const missing: string[] = [];
  for (const { path } of wanted) {
    const newline = output.indexOf(10, offset);
    const header = output.subarray(offset, newline).toString('latin1');
    // `<oid> missing`: a snapshot can leave out its largest blobs; the file is not linted, and said so
    if (header.endsWith(' missing')) {
      missing.push(path);
      offset = newline + 1;
      continue;
    }
    const size = Number(header.split(' ')[2]);
    const content = output.subarray(newline + 1, newline + 1 + size);
    offset = newline + 1 + size + 1;
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
  if (missing.length > 0) {
    process.stderr.write(`${gitDir}: ${missing.length} file(s) of ${commit.slice(0, 12)} absent from the snapshot, not linted: ${missing.slice(0, 5).join(', ')}${missing.length > 5 ? ', ...' : ''}\n`);
  }
}

/**
 * The git directory `fetch` leaves for `owner/name`: `<mirror>/<owner>+<name>/repo`, a bare
 * repository, or its `.git` when the snapshot is a clone with a work tree (some are).
 */
function snapshotOf(mirror: string, repo: string): string {
  const snapshot = join(mirror, repo.replace('/', '+'), 'repo');
  const clone = join(snapshot, '.git');
  return existsSync(clone) ? clone : snapshot;
}

/**
 * Extracts the pinned commit's source and project files of an application into `<scratch>-apps`
 * (once per commit, {@link extractSources}) and returns the files to lint, or why the application is skipped. With `typed` and
 * `spec.clients`, installs the clients beside the sources and writes the typed program's
 * tsconfig (`.bench-tsconfig.json` in the application's folder). Untyped, an application whose
 * package.json names no `redis` gets the node-redis major of this repository's package.json (5,
 * read as 4+, the rules' default), whatever the packages' installs hoisted, and never the
 * clients an earlier typed run linked in (the link is removed, so the order of runs does not
 * change a figure).
 */
function prepareApplication(
  scratch: string,
  spec: ApplicationSpec,
  options: { mirror: string; allFiles: boolean; typed: boolean; install: boolean },
): { dir: string; files: string[]; tsconfig: string | undefined; problem?: string } | { skipped: string } {
  const gitDir = snapshotOf(options.mirror, spec.repo);
  if (!existsSync(gitDir)) return { skipped: `no snapshot at ${gitDir} (bring it with the search tool's fetch github:${spec.repo})` };
  try {
    execFileSync('git', ['--git-dir', gitDir, 'cat-file', '-e', `${spec.commit}^{commit}`], { stdio: 'ignore' });
  } catch {
    return { skipped: `the snapshot at ${gitDir} has no commit ${spec.commit} (fetch a newer snapshot, or pin a commit it has)` };
  }
  const dir = join(`${scratch}-apps`, spec.repo.replace('/', '+'));
  const stamp = join(dir, '.bench-commit');
  // the stamp names what was extracted: an extraction of fewer files is redone
  const extracted = `${spec.commit} with package.json, workspace and tsconfig files at any depth`;
  if (!existsSync(stamp) || readFileSync(stamp, 'utf8') !== extracted) {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    extractSources(gitDir, spec.commit, dir);
    writeFileSync(stamp, extracted);
  }
  const files = globSync(
    SOURCE_EXTENSIONS.map((ext) => `**/*.${ext}`),
    { cwd: dir, ignore: [...COMMON_EXCLUDES, ...spec.exclude], dot: false },
  )
    .filter((file) => {
      if (options.allFiles) return true;
      const text = readFileSync(join(dir, file), 'utf8');
      return MAY_USE_REDIS.test(text) || importsClientModule(join(dir, file), text);
    })
    .sort();
  const clients = `${dir}.clients`;
  const link = join(dir, 'node_modules');
  if (!options.typed || !spec.clients) {
    // a typed run before this one left the installed clients linked: an untyped run must not
    // read them, or its figures depend on which run came first (node_redis 3 vs 4+ syntax)
    if (isLinkTo(link, join(clients, 'node_modules'))) rmSync(link);
    return { dir, files, tsconfig: undefined };
  }
  // the application's own package.json is extracted (it says how Node loads its .js files):
  // npm must not read it (workspace: dependencies, devEngines), so the clients go into a
  // private folder beside it, linked as the application's node_modules for module resolution
  if (options.install) ensureInstalled(clients, Object.entries(spec.clients));
  linkInstalled(link, join(clients, 'node_modules'));
  const absent = Object.entries(spec.clients).filter(([name, version]) => installedVersion(clients, name) !== version);
  const tsconfig = join(dir, '.bench-tsconfig.json');
  const config = {
    compilerOptions: { ...TYPED_OPTIONS, module: 'ESNext', moduleResolution: 'Bundler', jsx: 'preserve', resolveJsonModule: true },
    files,
  };
  replaceFile(tsconfig, `${JSON.stringify(config, null, 2)}\n`);
  // linted typed all the same (the other applications' typed runs go on), but its figures lack
  // the client's types: a problem to fix in applications.json (a published version)
  const problem =
    absent.length > 0
      ? `${spec.repo}: clients not installed for the typed run (${absent.map(([name, version]) => `${name}@${version}`).join(', ')}): pin versions npm can install`
      : undefined;
  return { dir, files, tsconfig, ...(problem ? { problem } : {}) };
}

/**
 * Links `target` (an application's installed clients) as `link` (its `node_modules`) unless
 * `link` already is that link or a real folder of the application's own. A dangling link (its
 * clients' install failed on an earlier run, or the scratch was moved) is replaced; nothing is
 * linked while `target` does not exist.
 */
function linkInstalled(link: string, target: string): void {
  if (isLinkTo(link, target) && existsSync(target)) return;
  let symbolic = false;
  try {
    symbolic = lstatSync(link).isSymbolicLink();
  } catch {
    // absent
  }
  if (symbolic && !existsSync(link)) rmSync(link);
  else if (symbolic && isLinkTo(link, target)) return;
  if (!existsSync(link) && existsSync(target)) symlinkSync(target, link, 'dir');
}

/** Whether `path` is a symbolic link to `target`. */
function isLinkTo(path: string, target: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink() && readlinkSync(path) === target;
  } catch {
    return false;
  }
}

/**
 * Lints one codebase's files with `recommended` and its `persistentKeys`.
 * @returns the plugin's findings; `crashes`, a rule that threw or an ESLint message of no rule that
 *   is not a parse error (`<codebase> <file>:<line>: <message>`); `unparsed`, the files the parser
 *   rejected (`<codebase> <file>:<line>:<column>: <message>`: a merge-conflict marker, syntax the
 *   parser does not read), where no rule ran: the codebase's own defect, as ESLint reports it in
 *   the codebase's CI, listed apart so that it neither passes for a rule crash nor goes unseen.
 */
function lintCodebase(linter: Linter, codebase: Codebase, mode: Mode): { findings: Finding[]; crashes: string[]; unparsed: string[] } {
  const findings: Finding[] = [];
  const crashes: string[] = [];
  const unparsed: string[] = [];
  const tsconfig = mode === 'typed' ? codebase.tsconfig : undefined;
  for (const file of codebase.files) {
    const path = join(codebase.dir, file);
    const text = readFileSync(path, 'utf8');
    const typescript = /\.(c|m)?tsx?$/.test(file);
    // JSX in .jsx / .tsx, and in plain JavaScript too (Next.js and React apps write it in .js files;
    // JavaScript has no `<T>x` cast for JSX to be confused with)
    const jsx = /x$/.test(file) || /\.[cm]?js$/.test(file);
    const type = sourceType(path, codebase.dir);
    const parserOptions = {
      ...(tsconfig ? { project: tsconfig, tsconfigRootDir: dirname(tsconfig) } : {}),
      ...(jsx ? { ecmaFeatures: { jsx: true } } : {}),
    };
    const config: Linter.Config[] = [
      {
        files: ['**/*.{js,cjs,mjs,jsx,ts,cts,mts,tsx}'],
        languageOptions:
          typescript || tsconfig || jsx ? { parser: tsParser, sourceType: type, parserOptions } : { sourceType: type, ecmaVersion: 'latest' },
        settings: { 'redis-ttl': { persistentKeys: codebase.persistentKeys } },
        // the codebases' own eslint-disable comments name rules this config does not load
        linterOptions: { reportUnusedDisableDirectives: 'off' },
      },
      plugin.configs.recommended,
    ];
    try {
      for (const message of linter.verify(text, config, { filename: path })) {
        if (message.fatal && message.ruleId === null && message.message.startsWith('Parsing error')) {
          unparsed.push(`${codebase.name} ${file}:${message.line}:${message.column}: ${message.message}`);
          continue;
        }
        if (message.fatal || message.ruleId === null) {
          crashes.push(`${codebase.name} ${file}:${message.line}: ${message.message}`);
          continue;
        }
        // an eslint-disable comment of the codebase naming a rule this config does not load
        if (!message.ruleId.startsWith('redis-ttl/')) continue;
        const rule = message.ruleId.replace(/^redis-ttl\//, '');
        const line = text.split(/\r\n|\r|\n/)[message.line - 1] ?? '';
        findings.push({
          id: `${codebase.name} ${file}:${message.line}:${message.column} ${rule}`,
          codebase: codebase.name,
          message: message.message,
          source: line.trim().slice(0, 160),
        });
      }
    } catch (error) {
      crashes.push(`${codebase.name} ${file}: ${(error as Error).message.split('\n')[0]}`);
    }
  }
  return { findings, crashes, unparsed };
}

function pct(part: number, whole: number): string {
  return whole === 0 ? '-' : `${((100 * part) / whole).toFixed(1)}%`;
}

function option(args: string[], name: string): string | undefined {
  return args.includes(name) ? args[args.indexOf(name) + 1] : undefined;
}

/** Every value of an option that may be repeated (`--app a/b --app c/d`), in order; `[]` when absent. */
function optionValues(args: string[], name: string): string[] {
  return args.flatMap((arg, i) => {
    const value = args[i + 1];
    return arg === name && value !== undefined ? [value] : [];
  });
}

/** What one run (untyped or typed) of every codebase gave. */
interface RunResult {
  mode: Mode;
  /** Findings per codebase name. */
  findings: Map<string, Finding[]>;
  /** Crashes per codebase name. */
  crashes: Map<string, string[]>;
  /** Files the parser rejected, per codebase name (see lintCodebase). */
  unparsed: Map<string, string[]>;
}

/** The codebase part of a triage or missed id (`<codebase> <file>:...`). */
function codebaseOf(id: string): string {
  return id.slice(0, id.indexOf(' '));
}

/**
 * Prepares the codebases of a set (installs and copies the packages, extracts the applications)
 * and returns them, with the applications skipped and the problems met (a wrong version).
 */
function prepareSet(set: BenchSet, args: string[], typed: boolean): { codebases: Codebase[]; skipped: string[]; problems: string[] } {
  // --package and --app name codebases (each repeatable, together too): only those are run
  const onlyPackages = optionValues(args, '--package');
  const onlyApps = optionValues(args, '--app');
  const named = onlyPackages.length > 0 || onlyApps.length > 0;
  const withPackages = !args.includes('--apps-only') && (!named || onlyPackages.length > 0);
  const withApps = !args.includes('--packages-only') && (!named || onlyApps.length > 0);
  const specs = withPackages ? set.packages.filter((spec) => !named || onlyPackages.includes(spec.name)) : [];
  const appSpecs = withApps ? set.applications.filter((spec) => !named || onlyApps.includes(spec.repo)) : [];
  const install = !args.includes('--no-install');
  const codebases: Codebase[] = [];
  const problems: string[] = [];
  const skipped: string[] = [];
  if (specs.length > 0) {
    if (install) ensureInstalled(set.scratch, specs.map((spec) => [spec.name, spec.version]), set.packages.map((spec) => spec.name));
    const tsconfig = prepareCorpus(set.scratch, specs);
    for (const spec of specs) {
      const version = installedVersion(set.scratch, spec.name);
      if (version !== spec.version) {
        problems.push(`${spec.name}: ${version ?? 'not installed'} instead of ${spec.version}`);
        continue;
      }
      codebases.push({
        name: spec.name,
        corpus: 'packages',
        kind: `${spec.kind}, ${spec.version}`,
        dir: join(set.scratch, 'corpus', spec.name),
        files: includedFiles(set.scratch, spec),
        persistentKeys: spec.persistentKeys,
        tsconfig,
      });
    }
  }
  const mirror = option(args, '--mirror') ?? '/work/.mirror';
  for (const spec of appSpecs) {
    const prepared = prepareApplication(set.scratch, spec, { mirror, allFiles: args.includes('--all-files'), typed, install });
    if ('skipped' in prepared) {
      skipped.push(`${spec.repo}: ${prepared.skipped}`);
      continue;
    }
    if (prepared.problem) problems.push(prepared.problem);
    codebases.push({
      name: spec.repo,
      corpus: 'applications',
      kind: `${spec.kind}, ${spec.commit.slice(0, 10)}`,
      dir: prepared.dir,
      files: prepared.files,
      persistentKeys: spec.persistentKeys,
      tsconfig: prepared.tsconfig,
      ...(prepared.tsconfig ? { clients: { link: join(prepared.dir, 'node_modules'), target: `${prepared.dir}.clients/node_modules` } } : {}),
    });
  }
  return { codebases, skipped, problems };
}

/**
 * Links the applications' installed clients as their `node_modules` for a typed run, and removes
 * the links for an untyped one: in a run of both modes the applications are prepared once, and
 * an untyped run that resolves the pinned clients reads node_redis 3 where it would read 4+
 * (the figures must not depend on which modes run together).
 */
function linkClients(codebases: readonly Codebase[], mode: Mode): void {
  for (const { clients } of codebases) {
    if (!clients) continue;
    if (mode === 'typed') linkInstalled(clients.link, clients.target);
    if (mode === 'untyped' && isLinkTo(clients.link, clients.target)) rmSync(clients.link);
  }
}

/** Applications linted per child process (packages share one TypeScript project: one child). */
const APPLICATIONS_PER_CHILD = 8;

/** What a child process is given: the codebases of one chunk and the run. */
interface WorkerInput {
  mode: Mode;
  codebases: Codebase[];
}

/** What a child process gives back, per codebase name. */
type WorkerOutput = Record<string, { findings: Finding[]; crashes: string[]; unparsed: string[] }>;

/**
 * Lints the codebases in child processes, a chunk each (the packages, which share one TypeScript
 * project, then the applications {@link APPLICATIONS_PER_CHILD} at a time): one process keeps
 * every typed program and the rules' per-module caches of every codebase it has linted, and the
 * whole tuning set outgrew a 7 GiB heap. Each child is this script with `--worker <file>` and the
 * same Node options and `--plugin`; it writes `<file>.out.json`.
 * @throws Error when a child exits non-zero (its output is on stderr).
 */
function lintInChildren(codebases: Codebase[], mode: Mode, scratch: string): WorkerOutput {
  const packages = codebases.filter((c) => c.corpus === 'packages');
  const applications = codebases.filter((c) => c.corpus === 'applications');
  const chunks: Codebase[][] = packages.length > 0 ? [packages] : [];
  for (let i = 0; i < applications.length; i += APPLICATIONS_PER_CHILD) chunks.push(applications.slice(i, i + APPLICATIONS_PER_CHILD));
  const output: WorkerOutput = {};
  mkdirSync(scratch, { recursive: true });
  chunks.forEach((chunk, index) => {
    // the parent's pid in the name: a second run in this checkout must not take this run's chunks
    const file = join(scratch, `worker-${mode}-${process.pid}-${index}.json`);
    replaceFile(file, JSON.stringify({ mode, codebases: chunk } satisfies WorkerInput));
    rmSync(`${file}.out.json`, { force: true });
    execFileSync(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), '--worker', file, ...(pluginDir ? ['--plugin', pluginDir] : [])], {
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    Object.assign(output, JSON.parse(readFileSync(`${file}.out.json`, 'utf8')) as WorkerOutput);
    rmSync(file, { force: true });
    rmSync(`${file}.out.json`, { force: true });
  });
  return output;
}

/**
 * Writes `content` to `file` as a new file: the old one is unlinked first, never rewritten in
 * place. A scratch directory copied with hard links (`cp -al`, to share an install between
 * checkouts) shares its files' inodes, so an in-place write would change the other checkout's
 * worker chunks and tsconfig under a run of its own.
 */
function replaceFile(file: string, content: string): void {
  rmSync(file, { force: true });
  writeFileSync(file, content);
}

/** The child process of {@link lintInChildren}: lints the chunk written in `file`. */
function worker(file: string): void {
  const { mode, codebases } = JSON.parse(readFileSync(file, 'utf8')) as WorkerInput;
  const linter = new Linter({ configType: 'flat' });
  const output: WorkerOutput = {};
  for (const codebase of codebases) output[codebase.name] = lintCodebase(linter, codebase, mode);
  replaceFile(`${file}.out.json`, JSON.stringify(output));
}

const USAGE = `Usage: npm run bench:eslint-precision -- [options]

Lints the tuning or validation set with the plugin's recommended config and prints precision
(strict and lenient) and recall against the triage (bench/eslint-precision/README.md).

Options:
  --set <tuning|validation>  which set to run (default tuning)
  --untyped | --typed        one run only (default both)
  --packages-only            only the published packages
  --apps-only                only the applications
  --package <name>           one package (repeat the option for several; with --app, both)
  --app <owner/name>         one application (repeat the option for several)
  --plugin <dir>             lint with the plugin in <dir> (a frozen copy of rules/ and semantics/)
  --mirror <dir>             where application snapshots are (default /work/.mirror)
  --all-files                lint every source file of an application, not only its globs
  --no-install               do not install the packages (use what is installed)
  --untriaged                list the findings the triage has no verdict for
  --list                     list every finding with its verdict
  --help                     print this help

Files the parser rejects are listed as "not parsed" (no rule ran on them) and fail nothing.
Exit code: 0 when every finding is triaged, no triaged leak is lost and nothing crashed; 1
otherwise; 2 for a usage error.`;

/** The command line, checked against the options USAGE lists; exits 2 on anything else. */
function checkArguments(args: string[]): boolean {
  try {
    const { values } = parseArgs({
      args,
      strict: true,
      allowPositionals: false,
      options: {
        worker: { type: 'string' },
        set: { type: 'string' },
        untyped: { type: 'boolean' },
        typed: { type: 'boolean' },
        'packages-only': { type: 'boolean' },
        'apps-only': { type: 'boolean' },
        package: { type: 'string' },
        app: { type: 'string', multiple: true },
        plugin: { type: 'string' },
        mirror: { type: 'string' },
        'all-files': { type: 'boolean' },
        'no-install': { type: 'boolean' },
        untriaged: { type: 'boolean' },
        list: { type: 'boolean' },
        help: { type: 'boolean' },
      },
    });
    if (values.help) {
      console.log(USAGE);
      return false;
    }
    return true;
  } catch (error) {
    console.error(`${(error as Error).message}\n\n${USAGE}`);
    process.exitCode = 2;
    return false;
  }
}

function main(): void {
  const args = process.argv.slice(2);
  if (!checkArguments(args)) return;
  const workerFile = option(args, '--worker');
  if (workerFile) {
    worker(workerFile);
    return;
  }
  const setName = (option(args, '--set') ?? 'tuning') as SetName;
  if (!SETS.includes(setName)) {
    console.error(`--set takes ${SETS.join(' or ')}, not ${setName}`);
    process.exitCode = 2;
    return;
  }
  const set = loadSet(setName);
  const unknownApps = optionValues(args, '--app').filter((repo) => !set.applications.some((spec) => spec.repo === repo));
  if (unknownApps.length > 0) {
    console.error(`the ${setName} set has no application ${unknownApps.join(', ')} (names are owner/name as in ${setName}/applications.json)`);
    process.exitCode = 2;
    return;
  }
  const unknownPackages = optionValues(args, '--package').filter((name) => !set.packages.some((spec) => spec.name === name));
  if (unknownPackages.length > 0) {
    console.error(`the ${setName} set has no package ${unknownPackages.join(', ')} (names are npm names as in ${setName}/packages.json)`);
    process.exitCode = 2;
    return;
  }
  const modes: Mode[] = args.includes('--untyped') ? ['untyped'] : args.includes('--typed') ? ['typed'] : ['untyped', 'typed'];
  const { codebases, skipped, problems } = prepareSet(set, args, modes.includes('typed'));

  // the two sets never share a codebase: a codebase tuned on says nothing about code nobody tuned on
  const others = new Set(SETS.filter((name) => name !== setName).flatMap((name) => codebaseNames(loadSet(name))));
  for (const name of codebaseNames(set)) if (others.has(name)) problems.push(`${name} is in both the tuning and the validation set`);
  for (const codebase of codebases) {
    if (codebase.persistentKeys.length > 3) problems.push(`${codebase.name}: ${codebase.persistentKeys.length} persistentKeys (at most 3)`);
  }

  const runs: RunResult[] = modes.map((mode) => {
    const result: RunResult = { mode, findings: new Map(), crashes: new Map(), unparsed: new Map() };
    linkClients(codebases, mode);
    const linted = lintInChildren(codebases, mode, set.scratch);
    for (const codebase of codebases) {
      const { findings, crashes, unparsed } = linted[codebase.name]!;
      result.findings.set(codebase.name, findings);
      result.crashes.set(codebase.name, crashes);
      result.unparsed.set(codebase.name, unparsed);
      problems.push(...crashes.map((c) => `crash (${mode}): ${c}`));
    }
    return result;
  });

  const byId = new Map(set.triage.map((entry) => [entry.id, entry]));
  const verdictOf = (f: Finding) => byId.get(f.id)?.verdict;
  const count = (findings: Finding[], verdict: Verdict) => findings.filter((f) => verdictOf(f) === verdict).length;
  const linted = new Map(codebases.map((c) => [c.name, c]));
  // one codebase with many findings (a monorepo) moves the pooled precision; the mean of each
  // codebase's own precision weighs every codebase with findings once
  const perCodebaseMean = (lists: Finding[][]): string => {
    const withFindings = lists.filter((list) => list.length > 0);
    if (withFindings.length === 0) return '-';
    const mean = (share: (list: Finding[]) => number) => withFindings.reduce((sum, list) => sum + share(list), 0) / withFindings.length;
    const strict = mean((list) => count(list, 'leak') / list.length);
    const lenient = mean((list) => (count(list, 'leak') + count(list, 'debatable')) / list.length);
    return `${(100 * strict).toFixed(1)}% / ${(100 * lenient).toFixed(1)}% (${withFindings.length})`;
  };
  const inScope = (id: string) => linted.has(codebaseOf(id));

  // per-codebase tables, one per corpus
  const cell = (findings: Finding[]) => `${findings.length} (${count(findings, 'leak')} / ${count(findings, 'debatable')} / ${count(findings, 'false')})`;
  for (const corpus of ['packages', 'applications'] as const) {
    const list = codebases.filter((c) => c.corpus === corpus);
    if (list.length === 0) continue;
    const files = list.reduce((sum, c) => sum + c.files.length, 0);
    const typedCount = list.filter((c) => c.tsconfig).length;
    console.log(`${set.name} set, ${corpus}: ${list.length}, ${files} files, recommended; typed run: ${typedCount} of ${list.length} with type information`);
    console.log(`\n| codebase | kind | files | persistentKeys | typed | ${modes.map((m) => `${m}: findings (leak / debatable / false)`).join(' | ')} |`);
    console.log(`| --- | --- | --: | --: | --- |${modes.map(() => ' --: |').join('')}`);
    for (const c of list) {
      const cells = runs.map((run) => cell(run.findings.get(c.name)!));
      console.log(`| ${c.name} | ${c.kind} | ${c.files.length} | ${c.persistentKeys.length} | ${c.tsconfig ? 'yes' : 'no'} | ${cells.join(' | ')} |`);
    }
    console.log('');
  }
  if (skipped.length > 0) console.log(`skipped applications (no snapshot):\n${skipped.map((s) => `  ${s}`).join('\n')}\n`);

  // the summary: per corpus and run, precision strict and lenient, recall on the sample, crashes
  const sample = new Set((set.sample ?? []).filter((name) => linted.has(name)));
  const sampleLeaks = set.triage.filter((entry) => entry.verdict === 'leak' && sample.has(codebaseOf(entry.id)));
  const sampleMissed = set.missed.filter((entry) => sample.has(codebaseOf(entry.id)));
  console.log(
    `recall sample: ${set.sample ? `${sample.size} codebases (${[...sample].join(', ')}), ${sampleLeaks.length} leaks triaged, ${sampleMissed.length} missed` : 'none in this set'}\n`,
  );
  console.log(
    '| corpus | run | codebases | findings | leak | debatable | false | untriaged | strict (leak) | lenient (leak + debatable) | recall (sample) | crashes | per-codebase mean strict / lenient (codebases with findings) |',
  );
  console.log('| --- | --- | --: | --: | --: | --: | --: | --: | --: | --: | --: | --: | --: |');
  const corpora: Array<[string, (c: Codebase) => boolean]> = [
    ['packages', (c) => c.corpus === 'packages'],
    ['applications', (c) => c.corpus === 'applications'],
    ['together', () => true],
  ];
  for (const [label, belongs] of corpora) {
    const members = codebases.filter(belongs);
    if (members.length === 0 || (label === 'together' && members.every((c) => c.corpus === members[0]!.corpus))) continue;
    for (const run of runs) {
      const findings = members.flatMap((c) => run.findings.get(c.name)!);
      const crashes = members.reduce((sum, c) => sum + run.crashes.get(c.name)!.length, 0);
      const leaks = count(findings, 'leak');
      const debatable = count(findings, 'debatable');
      const names = new Set(members.map((c) => c.name));
      const reported = new Set(findings.map((f) => f.id));
      const universe = sampleLeaks.filter((e) => names.has(codebaseOf(e.id))).length + sampleMissed.filter((e) => names.has(codebaseOf(e.id))).length;
      const found = sampleLeaks.filter((e) => names.has(codebaseOf(e.id)) && reported.has(e.id)).length;
      const typedNote = run.mode === 'typed' ? ` (${members.filter((c) => c.tsconfig).length} typed)` : '';
      console.log(
        `| ${label} | ${run.mode}${typedNote} | ${members.length} | ${findings.length} | ${leaks} | ${debatable} | ${count(findings, 'false')} | ` +
          `${findings.filter((f) => !byId.has(f.id)).length} | ${pct(leaks, findings.length)} | ${pct(leaks + debatable, findings.length)} | ` +
          `${set.sample && universe > 0 ? `${pct(found, universe)} (${found} / ${universe})` : '-'} | ${crashes} | ${perCodebaseMean(members.map((c) => run.findings.get(c.name)!))} |`,
      );
    }
  }

  // files no rule ran on: listed, not failed (ESLint reports them the same way in the codebase's CI)
  for (const run of runs) {
    const unparsed = codebases.flatMap((c) => run.unparsed.get(c.name)!);
    if (unparsed.length > 0) console.log(`\nfiles not parsed (${run.mode}; no rule ran on them): ${unparsed.length}\n${unparsed.map((u) => `  ${u}`).join('\n')}`);
  }

  // findings per kind (each finding once, whichever runs reported it), and missed leaks per kind
  const union = new Map<string, Finding>();
  for (const run of runs) for (const list of run.findings.values()) for (const f of list) if (!union.has(f.id)) union.set(f.id, f);
  const seenIn = (id: string) => runs.filter((run) => run.findings.get(codebaseOf(id))?.some((f) => f.id === id)).map((run) => run.mode);
  const tally = (labels: string[]) => {
    const counts = new Map<string, number>();
    for (const label of labels) counts.set(label, (counts.get(label) ?? 0) + 1);
    return [...counts].sort((a, b) => a[0].split(' | ')[0]!.localeCompare(b[0].split(' | ')[0]!) || b[1] - a[1]);
  };
  console.log(`\nfindings by kind (${modes.join(' and ')} runs, each finding once)\n| verdict | kind | findings |\n| --- | --- | --: |`);
  const kindLabels = [...union.values()].flatMap((f) => (byId.has(f.id) ? [`${byId.get(f.id)!.verdict} | ${byId.get(f.id)!.kind}`] : []));
  for (const [key, n] of tally(kindLabels)) console.log(`| ${key} | ${n} |`);
  if (sampleMissed.length > 0) {
    console.log(`\nmissed leaks in the sample by kind\n| kind | leaks |\n| --- | --: |`);
    for (const [key, n] of tally(sampleMissed.map((e) => e.kind))) console.log(`| ${key} | ${n} |`);
  }
  const gone = set.triage.filter((entry) => inScope(entry.id) && !union.has(entry.id));
  if (gone.length > 0) {
    console.log(`\ntriaged findings no longer reported: ${gone.length}\n| verdict | kind | findings |\n| --- | --- | --: |`);
    for (const [key, n] of tally(gone.map((e) => `${e.verdict} | ${e.kind}`))) console.log(`| ${key} | ${n} |`);
  }
  // a missed leak the rules now report belongs in triage.json (else it would count twice)
  for (const entry of sampleMissed) {
    const found = [...union.values()].find((f) => f.id.startsWith(`${entry.id}:`));
    if (found) console.log(`\nmissed leak now reported, move it to triage.json: ${found.id}`);
  }

  for (const run of runs) {
    for (const entry of set.triage) {
      if (entry.verdict !== 'leak' || !inScope(entry.id)) continue;
      const expected = entry.runs ?? (linted.get(codebaseOf(entry.id))!.corpus === 'packages' ? ['typed'] : ['untyped', 'typed']);
      if (expected.includes(run.mode) && !run.findings.get(codebaseOf(entry.id))!.some((f) => f.id === entry.id)) {
        problems.push(`lost leak (${run.mode}): ${entry.id} (${entry.reason})`);
      }
    }
  }
  const untriaged = [...union.values()].filter((f) => !byId.has(f.id));
  if (untriaged.length > 0) problems.push(`${untriaged.length} untriaged findings${args.includes('--untriaged') ? ':' : ' (run with --untriaged to list them)'}`);
  if (args.includes('--list')) {
    console.log('\nevery finding:');
    for (const f of union.values()) console.log(`  ${verdictOf(f) ?? 'untriaged'}\t${f.id} [${seenIn(f.id).join(', ')}]\n\t\t${f.source}`);
  }
  if (args.includes('--untriaged')) {
    for (const f of untriaged) console.log(`\n${f.id} [${seenIn(f.id).join(', ')}]\n  ${f.source}\n  ${f.message}`);
  }
  if (problems.length > 0) {
    console.error(`\nFAILED:\n${problems.map((p) => `  ${p}`).join('\n')}`);
    process.exitCode = 1;
  }
}

main();
