/**
 * Precision of the `recommended` config on code none of us wrote: published npm packages that use
 * Redis (queues, rate limiters, session and cache stores, locks, adapters), pinned in
 * `packages.json`, installed at bench time into `.bench-tmp/eslint-precision/` (gitignored), their
 * published sources linted as a user would (`recommended`, plus the package's own `persistentKeys`,
 * at most three). Published packages ship JavaScript (compiled from TypeScript for most, with
 * `.d.ts` files beside it): the included files are copied, with the `.d.ts` files and
 * `package.json` files of the package, into `.bench-tmp/eslint-precision/corpus/<package>/` and
 * linted with type information from a TypeScript program (`allowJs`) whose imports resolve to the
 * installed dependencies (ioredis, redis, @upstash/redis types included), the way the package's own
 * tsconfig would see them; `--untyped` lints the same files without type information. Every finding must be triaged in `triage.json`
 * as `leak` (a maintainer would fix it), `debatable`, or `false` (nobody would fix it), with a kind
 * and a one-line reason; precision is (leak + debatable) / findings.
 *
 *   node --import tsx bench/eslint-precision/run.ts [--untyped] [--untriaged] [--package <name>] [--no-install] [--plugin <dir>]
 *
 * `--plugin <dir>` lints with the plugin of another checkout (`<dir>/rules/index.ts`), e.g. the
 * commit before a change extracted with `git archive <commit> rules semantics lua-lint | tar -x -C
 * .bench-tmp/baseline`, to measure before and after with the same corpus and triage.
 *
 * Exit code 1 when a finding is not triaged, a file crashes a rule or does not parse, a package
 * has more than three persistentKeys, or (typed) a finding triaged `leak` is no longer reported
 * (a lost leak). `--untriaged` prints each untriaged finding with its message and source line.
 * CI does not run it (it needs the npm registry).
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

type Verdict = 'leak' | 'debatable' | 'false';

interface TriageEntry {
  /** `<package> <file>:<line>:<column> <rule>` */
  id: string;
  verdict: Verdict;
  /** A short label that groups findings of one kind (the per-kind table). */
  kind: string;
  reason: string;
}

interface Finding {
  id: string;
  pkg: string;
  message: string;
  source: string;
}

const packages = (JSON.parse(readFileSync(join(here, 'packages.json'), 'utf8')) as { packages: PackageSpec[] }).packages;
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
 * import / export in a package without `"type": "module"`) would load the file.
 */
function sourceType(file: string): 'module' | 'commonjs' {
  if (file.endsWith('.mjs') || file.endsWith('.mts')) return 'module';
  if (file.endsWith('.cjs') || file.endsWith('.cts')) return 'commonjs';
  if (/^\s*(import\s*[\w{*'"]|export\s)/m.test(readFileSync(file, 'utf8'))) return 'module';
  for (let dir = dirname(file); dir.length > corpus.length; dir = dirname(dir)) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest)) return (JSON.parse(readFileSync(manifest, 'utf8')) as { type?: string }).type === 'module' ? 'module' : 'commonjs';
  }
  return 'commonjs';
}

const corpus = join(scratch, 'corpus');

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

function lintPackage(linter: Linter, spec: PackageSpec, typed: boolean): { files: number; findings: Finding[]; crashes: string[] } {
  const files = includedFiles(spec);
  const findings: Finding[] = [];
  const crashes: string[] = [];
  for (const file of files) {
    const path = join(corpus, spec.name, file);
    const text = readFileSync(path, 'utf8');
    const typescript = /\.(c|m)?ts$/.test(file);
    const type = sourceType(path);
    const parserOptions = typed ? { project: join(scratch, 'tsconfig.json'), tsconfigRootDir: scratch } : {};
    const config: Linter.Config[] = [
      {
        files: ['**/*.{js,cjs,mjs,ts,cts,mts}'],
        languageOptions:
          typescript || typed
            ? { parser: tsParser, sourceType: type, parserOptions }
            : { sourceType: type, ecmaVersion: 'latest' },
        settings: { 'redis-ttl': { persistentKeys: spec.persistentKeys } },
        // the packages' own eslint-disable comments name rules this config does not load
        linterOptions: { reportUnusedDisableDirectives: 'off' },
      },
      plugin.configs.recommended,
    ];
    const filename = path;
    try {
      for (const message of linter.verify(text, config, { filename })) {
        if (message.fatal || message.ruleId === null) {
          crashes.push(`${spec.name} ${file}:${message.line}: ${message.message}`);
          continue;
        }
        const rule = message.ruleId.replace(/^redis-ttl\//, '');
        const line = text.split(/\r\n|\r|\n/)[message.line - 1] ?? '';
        findings.push({
          id: `${spec.name} ${file}:${message.line}:${message.column} ${rule}`,
          pkg: spec.name,
          message: message.message,
          source: line.trim().slice(0, 160),
        });
      }
    } catch (error) {
      crashes.push(`${spec.name} ${file}: ${(error as Error).message.split('\n')[0]}`);
    }
  }
  return { files: files.length, findings, crashes };
}

function pct(part: number, whole: number): string {
  return whole === 0 ? '-' : `${((100 * part) / whole).toFixed(1)}%`;
}

function main(): void {
  const args = process.argv.slice(2);
  const only = args.includes('--package') ? args[args.indexOf('--package') + 1] : undefined;
  const specs = packages.filter((spec) => !only || spec.name === only);
  if (!args.includes('--no-install')) install(specs);
  const byId = new Map(triage.map((entry) => [entry.id, entry]));
  const linter = new Linter({ configType: 'flat' });
  const typed = !args.includes('--untyped');
  prepareCorpus(specs);
  const problems: string[] = [];
  const all: Finding[] = [];
  const rows: string[] = [];
  let fileCount = 0;
  for (const spec of specs) {
    if (spec.persistentKeys.length > 3) problems.push(`${spec.name}: ${spec.persistentKeys.length} persistentKeys (at most 3)`);
    const version = installedVersion(spec.name);
    if (version !== spec.version) {
      problems.push(`${spec.name}: ${version ?? 'not installed'} instead of ${spec.version}`);
      continue;
    }
    const result = lintPackage(linter, spec, typed);
    fileCount += result.files;
    all.push(...result.findings);
    problems.push(...result.crashes.map((c) => `crash: ${c}`));
    const count = (verdict: Verdict) => result.findings.filter((f) => byId.get(f.id)?.verdict === verdict).length;
    rows.push(
      `| ${spec.name}@${spec.version} | ${spec.kind} | ${result.files} | ${spec.persistentKeys.length} | ${result.findings.length} | ${count('leak')} | ${count('debatable')} | ${count('false')} |`,
    );
  }

  const untriaged = all.filter((f) => !byId.has(f.id));
  const reported = new Set(all.map((f) => f.id));
  const inScope = (entry: TriageEntry) => specs.some((spec) => entry.id.startsWith(`${spec.name} `));
  // Leaks are triaged from the typed run (the reference): without types some receivers are not
  // known to be clients, so the untyped run is not held to them.
  const lost = typed ? triage.filter((entry) => inScope(entry) && entry.verdict === 'leak' && !reported.has(entry.id)) : [];
  const gone = triage.filter((entry) => inScope(entry) && !reported.has(entry.id));

  console.log(`corpus: ${specs.length} packages, ${fileCount} files, config: recommended, ${typed ? 'with type information (allowJs program over the published files and their .d.ts)' : 'no type information'}\n`);
  console.log('| package | kind | files | persistentKeys | findings | leak | debatable | false |');
  console.log('| --- | --- | --: | --: | --: | --: | --: | --: |');
  for (const row of rows) console.log(row);
  const verdictOf = (f: Finding) => byId.get(f.id)?.verdict;
  const leaks = all.filter((f) => verdictOf(f) === 'leak').length;
  const debatable = all.filter((f) => verdictOf(f) === 'debatable').length;
  const falses = all.filter((f) => verdictOf(f) === 'false').length;
  console.log(
    `\nfindings: ${all.length} (leak ${leaks}, debatable ${debatable}, false ${falses}, untriaged ${untriaged.length}); ` +
      `precision (leak + debatable) / findings: ${pct(leaks + debatable, all.length)}`,
  );

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
  if (args.includes('--untriaged')) {
    for (const finding of untriaged) console.log(`\n${finding.id}\n  ${finding.source}\n  ${finding.message}`);
  }
  if (problems.length > 0) {
    console.error(`\nFAILED:\n${problems.map((p) => `  ${p}`).join('\n')}`);
    process.exitCode = 1;
  }
}

main();
