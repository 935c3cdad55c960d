/**
 * Precision of the `recommended` config on code none of us wrote, in two corpora:
 *
 * - **packages**: published npm packages that use Redis (queues, rate limiters, session and cache
 *   stores, locks, adapters), pinned in `packages.json`, installed at bench time into
 *   `.bench-tmp/eslint-precision/` (gitignored), their published sources linted as a user would.
 *   Published packages ship JavaScript (compiled from TypeScript for most, with `.d.ts` files
 *   beside it): the included files are copied, with the `.d.ts` files and `package.json` files of
 *   the package, into `.bench-tmp/eslint-precision/corpus/<package>/` and linted with type
 *   information from a TypeScript program (`allowJs`) whose imports resolve to the installed
 *   dependencies (ioredis, redis, @upstash/redis types included); `--untyped` lints the same files
 *   without type information.
 * - **applications**: open-source applications pinned by repository and commit in
 *   `applications.json`. The bench cannot reach GitHub: it reads the bare git directory the search
 *   tool's `fetch` leaves at `<mirror>/<owner>+<name>/repo` (`--mirror <dir>`, default
 *   `/work/.mirror`), extracts the pinned commit's source files with `git archive` into
 *   `.bench-tmp/eslint-precision/apps/<owner>+<name>/`, and says which applications it skipped
 *   because no snapshot (or not that commit) is present. Their dependencies are not installed, so
 *   they are linted without type information. Linted: every `.ts` / `.tsx` / `.js` / `.jsx` /
 *   `.mjs` / `.cjs` / `.mts` / `.cts` source file that is not a test, a declaration file, generated
 *   or vendored code, and in which the rules' untyped analysis looks for a client at all (the file
 *   mentions `redis` / `valkey`, or a client constructor, factory or type name: every other file
 *   gives no finding by construction, which `--all-files` checks by linting them all).
 *
 * Each codebase gets `recommended` plus its own `persistentKeys`, at most three. Every finding must
 * be triaged in `triage.json` as `leak` (a maintainer would fix it), `debatable`, or `false`
 * (nobody would fix it), with a kind and a one-line reason; precision is (leak + debatable) /
 * findings, printed for the packages, the applications and both together.
 *
 *   node --import tsx bench/eslint-precision/run.ts [--untyped] [--untriaged] [--package <name>]
 *     [--app <owner/name>] [--packages-only] [--apps-only] [--all-files] [--mirror <dir>] [--list]
 *     [--no-install] [--plugin <dir>]
 *
 * `--plugin <dir>` lints with the plugin of another checkout (`<dir>/rules/index.ts`), e.g. the
 * commit before a change extracted with `git archive <commit> rules semantics lua-lint | tar -x -C
 * .bench-tmp/baseline`, to measure before and after with the same corpus and triage.
 *
 * Exit code 1 when a finding is not triaged, a file crashes a rule or does not parse, a codebase
 * has more than three persistentKeys, or a finding triaged `leak` is no longer reported (a lost
 * leak; for packages only in the typed run, which is their reference). `--untriaged` prints each
 * untriaged finding with its message and source line, `--list` every finding with its
 * verdict. Skipped applications are not an error.
 * CI does not run it (it needs the npm registry and the fetched snapshots).
 */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import tsParser from '@typescript-eslint/parser';
import { Linter } from 'eslint';
import { globSync } from 'tinyglobby';
import ownPlugin from '../../rules/index.js';

const pluginDir = process.argv.includes('--plugin') ? process.argv[process.argv.indexOf('--plugin') + 1] : undefined;
const plugin = (pluginDir
  ? ((await import(pathToFileURL(join(process.cwd(), pluginDir, 'rules', 'index.ts')).href)) as { default: typeof ownPlugin }).default
  : ownPlugin);

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');
const scratch = join(root, '.bench-tmp', 'eslint-precision');

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
}

type Verdict = 'leak' | 'debatable' | 'false';

interface TriageEntry {
  /** `<package or owner/name> <file>:<line>:<column> <rule>` */
  id: string;
  verdict: Verdict;
  /** A short label that groups findings of one kind (the per-kind table). */
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
  corpus: 'packages' | 'applications';
  kind: string;
  /** Folder its files are linted in. */
  dir: string;
  /** Files, relative to `dir`. */
  files: string[];
  persistentKeys: string[];
  typed: boolean;
}

const packages = (JSON.parse(readFileSync(join(here, 'packages.json'), 'utf8')) as { packages: PackageSpec[] }).packages;
const applications = (JSON.parse(readFileSync(join(here, 'applications.json'), 'utf8')) as { applications: ApplicationSpec[] })
  .applications;
const triage = (JSON.parse(readFileSync(join(here, 'triage.json'), 'utf8')) as { findings: TriageEntry[] }).findings;

/** Installs the pinned versions into the scratch folder unless they are there already. */
function install(specs: PackageSpec[]): void {
  const missing = specs.filter((spec) => installedVersion(spec.name) !== spec.version);
  if (missing.length === 0) return;
  mkdirSync(scratch, { recursive: true });
  if (!existsSync(join(scratch, 'package.json'))) {
    writeFileSync(join(scratch, 'package.json'), '{ "name": "eslint-precision-corpus", "private": true }\n');
  }
  console.log(`installing ${missing.map((s) => `${s.name}@${s.version}`).join(' ')}`);
  execFileSync(
    'npm',
    ['install', '--ignore-scripts', '--no-audit', '--no-fund', '--legacy-peer-deps', '--save-exact', ...missing.map((s) => `${s.name}@${s.version}`)],
    { cwd: scratch, stdio: 'inherit' },
  );
}

function packageDir(name: string): string {
  return join(scratch, 'node_modules', name);
}

function installedVersion(name: string): string | undefined {
  const file = join(packageDir(name), 'package.json');
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version : undefined;
}

/**
 * ES module or CommonJS, as Node (or the package's bundler entry, for `.js` files written with
 * import / export in a package without `"type": "module"`) would load the file. `top` is the
 * folder above which no `package.json` is looked for.
 */
function sourceType(file: string, top: string): 'module' | 'commonjs' {
  if (/\.m[jt]s$/.test(file)) return 'module';
  if (/\.c[jt]s$/.test(file)) return 'commonjs';
  const text = readFileSync(file, 'utf8');
  if (/^\s*(import\s*[\w{*'"]|export\s)/m.test(text)) return 'module';
  if (/\.tsx?$/.test(file)) return 'module';
  for (let dir = dirname(file); dir.length > top.length; dir = dirname(dir)) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest)) return (JSON.parse(readFileSync(manifest, 'utf8')) as { type?: string }).type === 'module' ? 'module' : 'commonjs';
  }
  return 'commonjs';
}

const corpus = join(scratch, 'corpus');
const appsDir = join(scratch, 'apps');

/** The included files of a package, relative to it. */
function includedFiles(spec: PackageSpec): string[] {
  return globSync(spec.include, { cwd: packageDir(spec.name), ignore: ['**/node_modules/**', '**/*.d.ts', '**/*.d.*ts'] }).sort();
}

/**
 * Copies every package's included files, its declaration files and package.json files out of
 * node_modules (which ESLint ignores) into the corpus folder, and writes the tsconfig of the typed
 * program over them. Imports of dependencies resolve upwards to the scratch node_modules.
 */
function prepareCorpus(specs: PackageSpec[]): void {
  rmSync(corpus, { recursive: true, force: true });
  const included: string[] = [];
  for (const spec of specs) {
    const dir = packageDir(spec.name);
    const support = globSync(['**/*.d.ts', '**/*.d.*ts', '**/package.json'], { cwd: dir, ignore: ['**/node_modules/**'] });
    for (const file of [...includedFiles(spec), ...support]) {
      mkdirSync(dirname(join(corpus, spec.name, file)), { recursive: true });
      cpSync(join(dir, file), join(corpus, spec.name, file));
    }
    included.push(...includedFiles(spec).map((file) => `corpus/${spec.name}/${file}`));
  }
  const tsconfig = {
    compilerOptions: {
      allowJs: true,
      checkJs: false,
      noEmit: true,
      target: 'ES2022',
      module: 'NodeNext',
      moduleResolution: 'NodeNext',
      skipLibCheck: true,
      strict: false,
      types: [],
    },
    files: included,
  };
  writeFileSync(join(scratch, 'tsconfig.json'), `${JSON.stringify(tsconfig, null, 2)}\n`);
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
 * Whether the rules' untyped analysis looks at a file at all: it mentions `redis` or `valkey`
 * (an import, a client package, a `clientNames` match), or a client constructor, factory or type
 * name. Without one of them every receiver is unknown and the rules report nothing (the file's
 * `mayUseRedis()` is false), so leaving such files out loses no finding (`--all-files` checks it).
 */
const MAY_USE_REDIS =
  /redis|valkey|\b(?:Cluster|createClient|createCluster|createSentinel|ChainableCommander|Pipeline|RedisClientMultiCommandType|RedisClusterMultiCommandType|fromEnv|defineScript)\b/i;

/**
 * Writes the source files (by extension) of a commit into `dir`, read from the git directory with
 * `git ls-tree` and one `git cat-file --batch` (symbolic links and submodules are left out).
 */
function extractSources(gitDir: string, commit: string, dir: string): void {
  const listing = execFileSync('git', ['--git-dir', gitDir, 'ls-tree', '-r', '-z', commit], { maxBuffer: 2 ** 30 }).toString('utf8');
  const wanted: Array<{ oid: string; path: string }> = [];
  for (const entry of listing.split('\0')) {
    const match = /^100\d{3} blob ([0-9a-f]+)\t(.+)$/s.exec(entry);
    if (match && SOURCE_EXTENSIONS.some((ext) => match[2]!.endsWith(`.${ext}`))) wanted.push({ oid: match[1]!, path: match[2]! });
  }
  const output = execFileSync('git', ['--git-dir', gitDir, 'cat-file', '--batch'], {
    input: wanted.map((w) => w.oid).join('\n') + '\n',
    maxBuffer: 2 ** 31 - 1,
  });
  let offset = 0;
  for (const { path } of wanted) {
    const newline = output.indexOf(10, offset);
    const size = Number(output.subarray(offset, newline).toString('latin1').split(' ')[2]);
    const content = output.subarray(newline + 1, newline + 1 + size);
    offset = newline + 1 + size + 1;
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
}

/** The bare git directory `fetch` leaves for `owner/name`. */
function snapshotOf(mirror: string, repo: string): string {
  return join(mirror, repo.replace('/', '+'), 'repo');
}

/**
 * Extracts the pinned commit's source files of an application into `.bench-tmp` (once per
 * commit), and returns the files to lint, or why the application is skipped.
 */
function prepareApplication(spec: ApplicationSpec, mirror: string, allFiles: boolean): { dir: string; files: string[] } | { skipped: string } {
  const gitDir = snapshotOf(mirror, spec.repo);
  if (!existsSync(gitDir)) return { skipped: `no snapshot at ${gitDir} (bring it with the search tool's fetch github:${spec.repo})` };
  try {
    execFileSync('git', ['--git-dir', gitDir, 'cat-file', '-e', `${spec.commit}^{commit}`], { stdio: 'ignore' });
  } catch {
    return { skipped: `the snapshot at ${gitDir} has no commit ${spec.commit} (fetch a newer snapshot, or pin a commit it has)` };
  }
  const dir = join(appsDir, spec.repo.replace('/', '+'));
  const stamp = join(dir, '.bench-commit');
  if (!existsSync(stamp) || readFileSync(stamp, 'utf8') !== spec.commit) {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    extractSources(gitDir, spec.commit, dir);
    writeFileSync(stamp, spec.commit);
  }
  const files = globSync(
    SOURCE_EXTENSIONS.map((ext) => `**/*.${ext}`),
    { cwd: dir, ignore: [...COMMON_EXCLUDES, ...spec.exclude], dot: false },
  )
    .filter((file) => allFiles || MAY_USE_REDIS.test(readFileSync(join(dir, file), 'utf8')))
    .sort();
  return { dir, files };
}

function lintCodebase(linter: Linter, codebase: Codebase): { findings: Finding[]; crashes: string[] } {
  const findings: Finding[] = [];
  const crashes: string[] = [];
  for (const file of codebase.files) {
    const path = join(codebase.dir, file);
    const text = readFileSync(path, 'utf8');
    const typescript = /\.(c|m)?tsx?$/.test(file);
    const jsx = /x$/.test(file);
    const type = sourceType(path, codebase.dir);
    const parserOptions = {
      ...(codebase.typed ? { project: join(scratch, 'tsconfig.json'), tsconfigRootDir: scratch } : {}),
      ...(jsx ? { ecmaFeatures: { jsx: true } } : {}),
    };
    const config: Linter.Config[] = [
      {
        files: ['**/*.{js,cjs,mjs,jsx,ts,cts,mts,tsx}'],
        languageOptions:
          typescript || codebase.typed || jsx
            ? { parser: tsParser, sourceType: type, parserOptions }
            : { sourceType: type, ecmaVersion: 'latest' },
        settings: { 'redis-ttl': { persistentKeys: codebase.persistentKeys } },
        // the codebases' own eslint-disable comments name rules this config does not load
        linterOptions: { reportUnusedDisableDirectives: 'off' },
      },
      plugin.configs.recommended,
    ];
    try {
      for (const message of linter.verify(text, config, { filename: path })) {
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
  return { findings, crashes };
}

function pct(part: number, whole: number): string {
  return whole === 0 ? '-' : `${((100 * part) / whole).toFixed(1)}%`;
}

function option(args: string[], name: string): string | undefined {
  return args.includes(name) ? args[args.indexOf(name) + 1] : undefined;
}

function main(): void {
  const args = process.argv.slice(2);
  const onlyPackage = option(args, '--package');
  const onlyApp = option(args, '--app');
  const withPackages = !args.includes('--apps-only') && !onlyApp;
  const withApps = !args.includes('--packages-only') && !onlyPackage;
  const specs = withPackages ? packages.filter((spec) => !onlyPackage || spec.name === onlyPackage) : [];
  const appSpecs = withApps ? applications.filter((spec) => !onlyApp || spec.repo === onlyApp) : [];
  const mirror = option(args, '--mirror') ?? '/work/.mirror';
  const typed = !args.includes('--untyped');
  const byId = new Map(triage.map((entry) => [entry.id, entry]));
  const linter = new Linter({ configType: 'flat' });
  const problems: string[] = [];
  const codebases: Codebase[] = [];

  if (specs.length > 0) {
    if (!args.includes('--no-install')) install(specs);
    prepareCorpus(specs);
  }
  for (const spec of specs) {
    const version = installedVersion(spec.name);
    if (version !== spec.version) {
      problems.push(`${spec.name}: ${version ?? 'not installed'} instead of ${spec.version}`);
      continue;
    }
    codebases.push({
      name: spec.name,
      corpus: 'packages',
      kind: `${spec.kind}, ${spec.version}`,
      dir: join(corpus, spec.name),
      files: includedFiles(spec),
      persistentKeys: spec.persistentKeys,
      typed,
    });
  }
  const skipped: string[] = [];
  for (const spec of appSpecs) {
    const prepared = prepareApplication(spec, mirror, args.includes('--all-files'));
    if ('skipped' in prepared) {
      skipped.push(`${spec.repo}: ${prepared.skipped}`);
      continue;
    }
    codebases.push({
      name: spec.repo,
      corpus: 'applications',
      kind: `${spec.kind}, ${spec.commit.slice(0, 10)}`,
      dir: prepared.dir,
      files: prepared.files,
      persistentKeys: spec.persistentKeys,
      typed: false,
    });
  }

  const all: Finding[] = [];
  const corpusOf = new Map<string, Codebase['corpus']>();
  const rows: Record<Codebase['corpus'], string[]> = { packages: [], applications: [] };
  const fileCounts = { packages: 0, applications: 0 };
  const verdictOf = (f: Finding) => byId.get(f.id)?.verdict;
  for (const codebase of codebases) {
    if (codebase.persistentKeys.length > 3) problems.push(`${codebase.name}: ${codebase.persistentKeys.length} persistentKeys (at most 3)`);
    const result = lintCodebase(linter, codebase);
    corpusOf.set(codebase.name, codebase.corpus);
    fileCounts[codebase.corpus] += codebase.files.length;
    all.push(...result.findings);
    problems.push(...result.crashes.map((c) => `crash: ${c}`));
    const count = (verdict: Verdict) => result.findings.filter((f) => verdictOf(f) === verdict).length;
    rows[codebase.corpus].push(
      `| ${codebase.name} | ${codebase.kind} | ${codebase.files.length} | ${codebase.persistentKeys.length} | ${result.findings.length} | ${count('leak')} | ${count('debatable')} | ${count('false')} |`,
    );
  }

  const untriaged = all.filter((f) => !byId.has(f.id));
  const reported = new Set(all.map((f) => f.id));
  const linted = new Set(codebases.map((c) => c.name));
  const inScope = (entry: TriageEntry) => [...linted].some((name) => entry.id.startsWith(`${name} `));
  // Package leaks are triaged from the typed run (the reference): without types some receivers
  // are not known to be clients, so the untyped run is not held to them. Applications are only
  // ever linted untyped.
  const lost = triage.filter(
    (entry) =>
      inScope(entry) &&
      entry.verdict === 'leak' &&
      !reported.has(entry.id) &&
      (typed || corpusOf.get(entry.id.split(' ')[0]!) === 'applications'),
  );
  const gone = triage.filter((entry) => inScope(entry) && !reported.has(entry.id));

  const header = '| codebase | kind | files | persistentKeys | findings | leak | debatable | false |\n| --- | --- | --: | --: | --: | --: | --: | --: |';
  if (rows.packages.length > 0) {
    console.log(
      `packages: ${rows.packages.length}, ${fileCounts.packages} files, recommended, ${typed ? 'with type information (allowJs program over the published files and their .d.ts)' : 'no type information'}\n`,
    );
    console.log(`${header}\n${rows.packages.join('\n')}\n`);
  }
  if (rows.applications.length > 0) {
    console.log(`applications: ${rows.applications.length}, ${fileCounts.applications} files, recommended, no type information\n`);
    console.log(`${header}\n${rows.applications.join('\n')}\n`);
  }
  if (skipped.length > 0) console.log(`skipped applications (no snapshot):\n${skipped.map((s) => `  ${s}`).join('\n')}\n`);

  const summary = (label: string, findings: Finding[]) => {
    const leaks = findings.filter((f) => verdictOf(f) === 'leak').length;
    const debatable = findings.filter((f) => verdictOf(f) === 'debatable').length;
    const falses = findings.filter((f) => verdictOf(f) === 'false').length;
    const open = findings.filter((f) => !byId.has(f.id)).length;
    console.log(
      `${label}: ${findings.length} findings (leak ${leaks}, debatable ${debatable}, false ${falses}, untriaged ${open}); ` +
        `precision (leak + debatable) / findings: ${pct(leaks + debatable, findings.length)}`,
    );
  };
  if (rows.packages.length > 0) summary(`packages (${typed ? 'typed' : 'untyped'})`, all.filter((f) => corpusOf.get(f.codebase) === 'packages'));
  if (rows.applications.length > 0) summary('applications (untyped)', all.filter((f) => corpusOf.get(f.codebase) === 'applications'));
  if (rows.packages.length > 0 && rows.applications.length > 0) summary('together', all);

  const kinds = new Map<string, { verdict: Verdict; count: number }>();
  for (const finding of all) {
    const entry = byId.get(finding.id);
    if (!entry) continue;
    const key = `${entry.verdict}\u0000${entry.kind}`;
    kinds.set(key, { verdict: entry.verdict, count: (kinds.get(key)?.count ?? 0) + 1 });
  }
  console.log('\n| verdict | kind | findings |\n| --- | --- | --: |');
  for (const [key, { verdict, count }] of [...kinds].sort((a, b) => a[1].verdict.localeCompare(b[1].verdict) || b[1].count - a[1].count)) {
    console.log(`| ${verdict} | ${key.split('\u0000')[1]} | ${count} |`);
  }
  if (gone.length > 0) {
    const goneKinds = new Map<string, number>();
    for (const entry of gone) goneKinds.set(`${entry.verdict} | ${entry.kind}`, (goneKinds.get(`${entry.verdict} | ${entry.kind}`) ?? 0) + 1);
    console.log(`\ntriaged findings no longer reported: ${gone.length}\n| verdict | kind | findings |\n| --- | --- | --: |`);
    for (const [key, count] of [...goneKinds].sort((a, b) => b[1] - a[1])) console.log(`| ${key} | ${count} |`);
  }

  for (const entry of lost) problems.push(`lost leak: ${entry.id} (${entry.reason})`);
  if (untriaged.length > 0) problems.push(`${untriaged.length} untriaged findings${args.includes('--untriaged') ? ':' : ' (run with --untriaged to list them)'}`);
  if (args.includes('--list')) {
    console.log('\nevery finding:');
    for (const finding of all) console.log(`  ${verdictOf(finding) ?? 'untriaged'}\t${finding.id}\n\t\t${finding.source}`);
  }
  if (args.includes('--untriaged')) {
    for (const finding of untriaged) console.log(`\n${finding.id}\n  ${finding.source}\n  ${finding.message}`);
  }
  if (problems.length > 0) {
    console.error(`\nFAILED:\n${problems.map((p) => `  ${p}`).join('\n')}`);
    process.exitCode = 1;
  }
}

main();
