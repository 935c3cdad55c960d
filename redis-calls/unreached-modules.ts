/**
 * Modules of an application that no entry point reaches: nothing imports them, and nothing names
 * their file.
 *
 * ```ts
 * // lib/account-lockout.ts (a `"private": true` Next.js application): no module imports it,
 * // no route, script or config names `account-lockout`
 * export async function recordFailedAttempt(email: string) {
 *   const attempts = await redis.incr(`lockout:${email}`);
 *   ...
 * }
 * ```
 *
 * `uncalled.ts` asks this module about a module of an application ({@link unreachedModule}): one
 * that no module of the package (tests left out: `importers.ts` importersOf) imports, or that only
 * unreached modules import (their code never runs, nor do their imports; a cycle of imports that
 * nothing outside it imports is unreached). What counts as an **entry point**, which is never unreached (conservatively: a module taken for
 * unreached hides its leaks):
 *
 * - a file at the package root (`server.ts`, `worker.js`, `next.config.js`), or one a framework
 *   runs by its name directly under `src/` (Next.js' `src/middleware.ts`, `src/instrumentation.ts`),
 *   or under a Nitro server's `server/middleware/`, `server/plugins/`, `server/tasks/`;
 * - a file under a directory a framework or a person runs files of by their place, not by an
 *   import: at the framework's place only (the package root or `src/`), file-based routes (`app/`,
 *   `pages/`, `api/`: Next.js, Remix, Vercel functions; `api/` also under `pages/`, `app/`,
 *   `server/`) and serverless function folders (`functions/`, `netlify/`, `supabase/`), where a
 *   Remix / React Router application's `app/` runs only `app/routes/**`, `root`, `entry.*` and
 *   `routes`, and a Next.js application's only its special files (`page`, `route`, `layout`...)
 *   and `app/api/` ({@link underEntryDirectory}); anywhere, `routes/` folders and
 *   scripts run by hand (`scripts/`, `bin/`, `cli/`, `migrations/`, `seeds/`, `prisma/`), and the
 *   configuration and extension folders a server framework loads (Strapi's `config/functions/cron.js`
 *   and `src/extensions/<plugin>/strapi-server.js`, Sails' `config/`);
 * - a module whose top level does more than declare: a statement that calls something
 *   (`main()`, `app.listen(3000)`, `await run()`) makes it a program, started by whatever names it;
 * - a module whose file another file of the package names: its name without extension (or, for
 *   an `index`, its directory's) written as text in a source file (comments left out; tests,
 *   mocks and fixtures left out, as for callers) or in any deployment or process file of the
 *   package (`package.json` scripts, `Dockerfile`, `Procfile`, `*.yml`, `*.toml`, `*.sh`,
 *   `ecosystem.config.js`...): a worker started by `node dist/workers/email.worker.js`, a
 *   handler named by serverless.yml, a processor passed by path (`queue.process(join(__dirname,
 *   'sandbox.js'))`), an import the resolver misses (an alias, a `#subpath`), or a source file
 *   of a package nested in it (`worker/package.json`), whose imports of the package's modules
 *   `importers.ts` does not read;
 * - every module of a package one of whose source files an entry point reaches (as if no load by a
 *   computed path ran) loads modules by a computed path
 *   (`import(\`./channels/${name}\`)`, `require(file)`, `require.context`, `import.meta.glob`,
 *   `files.forEach(require)`, a directory loader such as `@fastify/autoload` or `require-all`) or
 *   names source files by a glob under a loader's key (`entities: ['dist/**\/*.entity.js']`, whose
 *   suffix is matched; `**\/*.ts`, any file): its loads cannot be told. Configuration modules of test, lint and build
 *   tools (`jest.config.ts`, `vite.config.ts`, `stryker.config.mjs`...) glob files they never run:
 *   left out. A load whose path ends in a file name (`require(join(dir, id, 'index.js'))`) may load
 *   only the modules of that name ({@link loadReach}); a load written in a string is none.
 *
 * The texts are read once per file and modification time (`file-memo.ts`), the package's
 * deployment files once per listing, and each module's answer once per listing (`project.ts`
 * packageFiles): no file is read again per finding.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, extname, join, relative, sep } from 'node:path';
import type { TSESTree } from '@typescript-eslint/utils';
import { fileMemo } from './file-memo.js';
import { parsedModule } from './parsed-modules.js';
import { walkParsed } from './static.js';
import { manifestOf } from './project.js';
import { moduleSpecifier, specifierMayName } from './module-specifiers.js';
import { spawnsByComputedPath } from './process-spawns.js';
import { workspaceRootOfStandaloneMember } from './resolve.js';
import { testOnlyModule } from './test-paths.js';

/** Directories whose files a person or a server framework runs by their place, wherever they are (see the module comment). */
const ENTRY_DIRECTORY = /^(?:routes|scripts?|bin|cli|migrations?|seeds?|seeders|prisma|config|extensions)$/;

/**
 * Directories whose files a framework or a platform runs by their place only at its fixed place:
 * the package root or `src/` (Next.js' `app/` and `pages/`, Remix's `app/`, Vercel's `api/`,
 * Firebase's `functions/`, `netlify/`, `supabase/`). `src/backend/api/` is a folder like any other.
 */
const PLACED_DIRECTORY = /^(?:app|pages|api|functions|netlify|supabase)$/;

/** Parents under which an `api/` directory holds routes: Next.js' `pages/api`, `app/api`, Nitro's `server/api`. */
const API_PARENT = /^(?:pages|app|server)$/;

/**
 * Files of an `app/` directory a Remix or React Router framework runs by their place: its route
 * modules (`app/routes/**`), `root`, `entry.client` / `entry.server` and the `routes` config
 * (https://remix.run/docs/en/main/file-conventions, https://reactrouter.com/explanation/special-files).
 * Its other modules (`app/lib/chat.server.ts`) run only when imported.
 */
const REMIX_APP_FILE = /^(?:routes\/.*|(?:root|routes|entry\.client|entry\.server)\.[cm]?[jt]sx?)$/;

/**
 * Files of a Next.js `app/` directory the framework runs by their name: its special files
 * (https://nextjs.org/docs/app/api-reference/file-conventions); any other module of it runs only
 * when imported. `api/` below it keeps every file (a route's helpers beside it).
 */
const NEXT_APP_FILE = /(?:^|\/)(?:page|layout|template|loading|error|global-error|global-not-found|not-found|forbidden|unauthorized|default|route|middleware|instrumentation|opengraph-image|twitter-image|icon|apple-icon|sitemap|robots|manifest)\.[cm]?[jt]sx?$|^api\//;

/** Packages whose presence says which framework runs an `app/` directory's files (see {@link appDirectoryEntry}). */
const REMIX_PACKAGES = /^(?:@remix-run\/(?:dev|node|serve|react|cloudflare|deno)|@react-router\/(?:dev|node|serve|cloudflare))$/;

/**
 * Whether the file at `path` below the package root (`/`-separated) is under a directory whose
 * files run by their place ({@link ENTRY_DIRECTORY} anywhere, {@link PLACED_DIRECTORY} at the root
 * or under `src/`, `api/` under `pages/`, `app/` or `server/`). A root `app/` (or `src/app/`) of a
 * package that depends on Remix / React Router's framework or on Next.js (and not both) counts only
 * for the files that framework runs ({@link REMIX_APP_FILE}, {@link NEXT_APP_FILE}); of any other
 * package, for all its files.
 */
function underEntryDirectory(rel: string, root: string): boolean {
  const directories = rel.split('/').slice(0, -1);
  if (directories.some((directory) => ENTRY_DIRECTORY.test(directory))) return true;
  for (let i = 0; i < directories.length; i++) {
    const directory = directories[i]!;
    const placed = i === 0 || (i === 1 && directories[0] === 'src');
    if (directory === 'api' && i > 0 && API_PARENT.test(directories[i - 1]!)) return true;
    if (!placed || !PLACED_DIRECTORY.test(directory)) continue;
    if (directory !== 'app') return true;
    const inApp = directories.slice(i + 1).concat(rel.split('/').slice(-1)).join('/');
    const framework = appFramework(root);
    if (framework === 'remix' ? REMIX_APP_FILE.test(inApp) : framework === 'next' ? NEXT_APP_FILE.test(inApp) : true) return true;
  }
  return false;
}

/** Which framework runs a package's `app/` directory, told by its dependencies: Remix / React Router, Next.js, or none known (both: none). */
function appFramework(root: string): 'remix' | 'next' | undefined {
  const manifest = manifestOf(root) as { dependencies?: Record<string, unknown>; devDependencies?: Record<string, unknown> } | undefined;
  const names = Object.keys({ ...(manifest?.dependencies ?? {}), ...(manifest?.devDependencies ?? {}) });
  const remix = names.some((name) => REMIX_PACKAGES.test(name));
  const next = names.includes('next');
  return remix === next ? undefined : remix ? 'remix' : 'next';
}

/** Files a framework runs by their name and place, below the package root: Next.js' `src/` special files, Nitro's server directories. */
const ENTRY_FILE = /^(?:src\/(?:middleware|instrumentation(?:-client)?)\.[cm]?[jt]sx?|server\/(?:middleware|plugins|tasks)\/.*)$/;

/** Deployment and process files, wherever they are in the package, whose text may name a module to start. */
const DEPLOYMENT_FILE = /^(?:.*\.ya?ml|.*\.toml|.*\.json|.*\.sh|Procfile(?:\..*)?|Dockerfile(?:\..*)?|.*\.Dockerfile|Makefile|.*\.conf|.*\.ini|.*\.env(?:\..*)?)$/;

/** Lock files: data, though their names end like deployment files. */
const LOCK_FILE = /^(?:package-lock\.json|npm-shrinkwrap\.json|pnpm-lock\.yaml|yarn\.lock)$/;

/**
 * Whether a file named `name` (a base name) is a deployment or process file whose text may name
 * a module to start or a function to call (`Dockerfile`, `Procfile`, `*.yml`, `*.toml`, `*.json`
 * but lock files, `*.sh`, `Makefile`, `*.conf`, `*.ini`, `.env*`). Shared with `uncalled.ts`.
 */
export function deploymentFile(name: string): boolean {
  return DEPLOYMENT_FILE.test(name) && !LOCK_FILE.test(name);
}

/** A source file of a package nested in the linted one (`project.ts` lists only the package's own), not a declaration file. */
const NESTED_SOURCE = /^(?!.*\.d\.[cm]?ts$).*\.(?:[cm]?[jt]s|[jt]sx)$/;

/** Beyond this many deployment files (or directories walked for them), a package's modules are all taken for reached. */
const MAX_DEPLOYMENT_FILES = 2000;

/** A load by a computed path: `import(` / `require(` whose argument is not one plain string, `require.context`, `import.meta.glob`. */
const COMPUTED_LOAD = /(?<![\w$.])(?:import|require)\s*\(\s*(?!(['"])[^'"\n`$]*\1\s*[,)])|\brequire\.context\b|\bimport\.meta\.glob\b/;

const COMPUTED_LOADS = new RegExp(COMPUTED_LOAD.source, 'g');

/** An import of a package that loads every module of a directory (`@fastify/autoload`'s `dir`, `require-all`'s `dirname`, `require-directory`...). */
const DIRECTORY_LOADER = /(['"])(?:@fastify\/autoload|fastify-autoload|require-all|require-directory|require-dir|bulk-require|auto-load|import-modules)\1/;

/** `require` handed on as a function (`glob.sync('jobs/*.js').forEach(require)`, `files.map(require)`): it loads whatever paths it is given. */
const REQUIRE_AS_VALUE = /[(,]\s*require\s*\)/;

/** A path's end naming data, not a module: `./messages/${locale}.json`. */
const DATA_FILE = /\.(?:json|css|scss|sass|less|svg|png|jpe?g|gif|webp|md|mdx|txt|html|ya?ml|csv|wasm)$/;

/** Text that finds files on disk: a directory listing, a glob call, a path from the module's own place or the working directory. */
const FINDS_FILES = /\breaddir(?:Sync)?\b|\b(?:glob|globSync|fg|fastGlob)\s*\(|\b__dirname\b|\bimport\.meta\.(?:url|dirname)\b|\bprocess\.cwd\s*\(/;

/**
 * Whether the source text of the module at `path` (comments blanked) loads a module by a computed
 * path that may be one of the package's: a `require.context` or `import.meta.glob`; an `import()` /
 * `require()` of a template literal whose end names no data file (`./channels/${name}`, not
 * `./messages/${locale}.json`); or of any other expression where the code around the load finds
 * files on disk ({@link findsFilesAroundLoads}): a bare `import(moduleName)` elsewhere loads a
 * package by its name.
 */
function loadsByComputedPath(path: string, text: string): boolean {
  if (DIRECTORY_LOADER.test(text) || REQUIRE_AS_VALUE.test(text)) return true;
  let expressionLoad = false;
  for (const match of text.matchAll(COMPUTED_LOADS)) {
    if (/^(?:require\.context|import\.meta\.glob)$/.test(match[0])) return true;
    const argument = text.slice(match.index! + match[0].length).trimStart();
    if (argument.startsWith('`')) {
      const end = argument.indexOf('`', 1);
      const literal = end < 0 ? argument : argument.slice(0, end);
      if (!DATA_FILE.test(literal.slice(literal.lastIndexOf('}') + 1))) return true;
    } else expressionLoad = true;
  }
  return expressionLoad && FINDS_FILES.test(text) && findsFilesAroundLoads(path);
}

/** A top-level statement that only declares a function or a class (`function f() {}`, `export const f = () => {}`, `class C {}`): its body runs only when called. */
function declaresCode(statement: TSESTree.ProgramStatement): boolean {
  const declared = statement.type === 'ExportNamedDeclaration' || statement.type === 'ExportDefaultDeclaration' ? statement.declaration : statement;
  if (!declared) return false;
  if (/^(?:FunctionDeclaration|ClassDeclaration|TSDeclareFunction|FunctionExpression|ArrowFunctionExpression|ClassExpression)$/.test(declared.type)) return true;
  return declared.type === 'VariableDeclaration' && declared.declarations.every((d) => d.init !== null && /^(?:FunctionExpression|ArrowFunctionExpression|ClassExpression)$/.test(d.init.type));
}

/**
 * Whether, in the module at `path`, some `import()` / `require()` of a computed expression sits
 * where the code finds files on disk (`readdirSync`, a glob call, `__dirname`, `import.meta.url`,
 * `process.cwd()`): in the same top-level statement (the function or class holding the load), or
 * in the module's own top-level code (not its other functions and classes: a Worker's
 * `new URL('./w.js', import.meta.url)` in one function says nothing of a lazy component's
 * `import(componentPath)` in another). A module that cannot be read or parsed counts.
 */
function findsFilesAroundLoads(path: string): boolean {
  const parsed = parsedModule(path);
  if (typeof parsed === 'string') return true;
  const { text, program } = parsed;
  const moduleCode = program.body.filter((statement) => !declaresCode(statement)).map((statement) => text.slice(statement.range[0], statement.range[1]));
  if (moduleCode.some((code) => FINDS_FILES.test(code))) return true;
  return program.body.some((statement) => {
    const loads = walkParsed(statement, (node) => (computedLoad(node) ? 'stop' : undefined));
    return loads && FINDS_FILES.test(text.slice(statement.range[0], statement.range[1]));
  });
}

/** An `import(expression)` or `require(expression)` whose argument is neither a string nor a template literal. */
function computedLoad(node: TSESTree.Node): boolean {
  const argument = node.type === 'ImportExpression' ? node.source : node.type === 'CallExpression' && node.callee.type === 'Identifier' && node.callee.name === 'require' ? node.arguments[0] : undefined;
  return argument !== undefined && argument.type !== 'Literal' && argument.type !== 'TemplateLiteral';
}

/**
 * Configuration keys under which frameworks load the files a glob names (TypeORM's `entities` /
 * `migrations` / `subscribers`, type-graphql's `resolvers`, Sequelize's `models`, routers'
 * `controllers` / `routes`...): a glob elsewhere (a script auditing `src/**\/*.ts`) reads files, it
 * does not run them.
 */
const LOADER_KEY = /\b(?:entities|migrations|subscribers|resolvers|models|modelPaths|controllers|routes|handlers|plugins|commands|jobs|processors|events|listeners|modules)\s*:/;

/** A glob naming source files: group 1 is what follows its last `*` up to the extension (`.entity` of `*.entity.js`). */
const SOURCE_GLOB = /\*([\w.-]*)\.(?:\{[^}\n]*\}|[cm]?[jt]sx?)(?![\w$])/g;

/** Configuration modules of tools that glob source files to test, lint, bundle or style them, never to run them in the application. */
const TOOL_CONFIG = /^(?:jest|vitest|vite|eslint|prettier|tailwind|postcss|playwright|cypress|karma|webpack|rollup|tsup|babel|commitlint|lint-staged|stylelint|knip|nodemon|stryker)(?:\.[\w-]+)*\.[cm]?[jt]s$|^\.?eslintrc\.[cm]?js$/;

/** Deployment files past this size are data (a lock file, a fixture), not process definitions. */
const MAX_DEPLOYMENT_BYTES = 512 * 1024;

/** A source file's text with its comments blanked (a commented-out import reaches nothing), per modification time. */
const codeOf = fileMemo((path) => {
  try {
    return readFileSync(path, 'utf8').replace(/\/\*[\s\S]*?\*\/|(?<![:'"`\\])\/\/[^\n]*/g, ' ');
  } catch {
    return undefined;
  }
}, undefined);

/** A deployment file's text, per modification time. */
const rawTextOf = fileMemo((path) => {
  try {
    if (statSync(path).size > MAX_DEPLOYMENT_BYTES) return '';
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}, undefined);

/** Per package root: the listing the facts were found with, what the package's texts say of loads, and the answers per module. */
interface PackageFacts {
  files: readonly string[];
  /** Whether some text names all source files by a glob, or a file could not be read, or the package is past the bounds. */
  loadsAnything: boolean;
  /** The modules that load modules by a computed path, and which modules each may load ({@link loadReach}). */
  loaders: Map<string, LoadReach>;
  /** What the loaders some entry point reaches may load, once found ({@link liveReach}). */
  live?: LoadReach;
  /** Suffixes globs name (`.entity` of `*.entity.js`). */
  globSuffixes: Set<string>;
  /** The texts searched for a module's name: source files (comments blanked, tests left out) and deployment files. */
  texts: Array<{ path: string; text: string; source: boolean }>;
  answers: Map<string, boolean>;
}

const facts = new Map<string, PackageFacts>();

/**
 * What the package at `root` says about its modules (its deployment files and source texts,
 * whether it loads modules by a computed path, the globs its loaders name), read once per listing
 * `files` of the package (`project.ts` packageFiles) and kept until the listing changes.
 */
function factsOf(root: string, files: readonly string[]): PackageFacts {
  const cached = facts.get(root);
  if (cached && cached.files === files) return cached;
  const found: PackageFacts = { files, loadsAnything: false, loaders: new Map(), globSuffixes: new Set(), texts: [], answers: new Map() };
  const deployment = deploymentFiles(root);
  if (!deployment) found.loadsAnything = true;
  const add = (path: string, text: string | undefined, loader: boolean, source: boolean) => {
    if (text === undefined) {
      found.loadsAnything = true;
      return;
    }
    if (loader && loadsByComputedPath(path, text)) found.loaders.set(path, loadReach(path, text));
    // a thread or process started by a computed path (`new Worker(join(dir, file))`): it may run any module
    else if (loader && spawnsByComputedPath(path, text)) found.loaders.set(path, 'any');
    if (loader && LOADER_KEY.test(text)) for (const match of text.matchAll(SOURCE_GLOB)) {
      if (match[1] === '' || match[1] === '.') found.loadsAnything = true;
      else found.globSuffixes.add(match[1]!.startsWith('.') ? match[1]! : `.${match[1]!}`);
    }
    found.texts.push({ path, text, source });
  };
  for (const path of files) if (!testOnlyModule(root, path)) add(path, codeOf(path), !TOOL_CONFIG.test(basename(path)), true);
  for (const path of deployment ?? []) add(path, rawTextOf(path), false, NESTED_SOURCE.test(path) && !DEPLOYMENT_FILE.test(basename(path)));
  if (facts.size > 100) facts.clear();
  facts.set(root, found);
  return found;
}

/**
 * The deployment and process files of the package (`node_modules`, hidden directories left out),
 * and the source files of packages nested in it (`worker/package.json` beside the root's
 * `server.ts`: not the package's modules, but free to import them by a relative path, `import {
 * spend } from '../lib/quota'`), or `undefined` past the bound. For a monorepo application
 * (`resolve.ts` workspaceRootOfStandaloneMember) the walk starts at its workspace's root: the root's
 * `docker-compose.yml` may start `apps/api/dist/worker.js`, and the other members' sources count
 * as nested ones.
 */
function deploymentFiles(root: string): string[] | undefined {
  const found: string[] = [];
  const start = workspaceRootOfStandaloneMember(root) ?? root;
  const stack: Array<[string, boolean]> = [[start, false]];
  let visited = 0;
  while (stack.length > 0) {
    const [dir, nested] = stack.pop()!;
    if (++visited > MAX_DEPLOYMENT_FILES) return undefined;
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      continue;
    }
    const inNested = dir !== root && (nested || dir === start || entries.some((entry) => entry.isFile() && entry.name === 'package.json'));
    for (const entry of entries) {
      if (entry.name.startsWith('.') && !/^\.env/.test(entry.name)) continue;
      if (entry.name === 'node_modules') continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) stack.push([path, inNested]);
      else if (entry.isFile() && (deploymentFile(entry.name) || (inNested && NESTED_SOURCE.test(entry.name)))) {
        found.push(path);
        if (found.length > MAX_DEPLOYMENT_FILES) return undefined;
      }
    }
  }
  return found;
}

/** Whether the program's top level does more than declare: an expression statement that calls or awaits, a loop, a block (see the module comment). */
function runsSomething(program: TSESTree.Program): boolean {
  for (const statement of program.body) {
    if (statement.type === 'ExpressionStatement') {
      const expression = statement.expression;
      // `module.exports = ...`, `exports.x = ...`: declarations of CommonJS
      if (expression.type === 'AssignmentExpression') continue;
      // 'use strict'
      if (expression.type === 'Literal') continue;
      return true;
    }
    if (/^(?:For|ForIn|ForOf|While|DoWhile|If|Try|Block|Switch|Labeled)Statement$/.test(statement.type)) return true;
    if (statement.type === 'VariableDeclaration' && statement.declarations.some((d) => d.init?.type === 'AwaitExpression')) return true;
  }
  return false;
}

/** How deep, and through how many importers, {@link unreachedModule} follows the modules importing a module. */
const MAX_DEAD_IMPORTER_DEPTH = 4;
const MAX_DEAD_IMPORTERS = 40;

/**
 * Whether the module at `file`, of the application at `root` whose source files are `files`, is
 * one no entry point reaches: see the module comment for what counts as an entry point. `program`
 * is the module's AST; `importersOf` gives the modules of the package (tests left out) importing a
 * module (`importers.ts` importersOf). A module imported only by modules no entry point reaches is
 * unreached too (their code never runs, nor do their imports), followed
 * {@link MAX_DEAD_IMPORTER_DEPTH} levels and {@link MAX_DEAD_IMPORTERS} importers deep (past them:
 * reached); a cycle of imports nothing outside it imports is unreached. Cached per listing for a
 * module nothing imports.
 */
export function unreachedModule(root: string, files: readonly string[], file: string, program: TSESTree.Program, importersOf: (path: string) => readonly string[]): boolean {
  return unreachedFrom(root, files, file, program, importersOf, [], { left: MAX_DEAD_IMPORTERS }, false);
}

/**
 * {@link unreachedModule} from a module of the chain of importers `chain` (a cycle), within
 * `budget` importers; with `ignoreLoads`, as if no module loaded another by a computed path (to
 * tell whether a loader itself runs: {@link liveReach}).
 */
function unreachedFrom(root: string, files: readonly string[], file: string, program: TSESTree.Program, importersOf: (path: string) => readonly string[], chain: readonly string[], budget: { left: number }, ignoreLoads: boolean): boolean {
  const rel = relative(root, file);
  if (rel.startsWith('..') || !rel.includes(sep)) return false;
  const slashed = rel.split(sep).join('/');
  if (ENTRY_FILE.test(slashed) || underEntryDirectory(slashed, root)) return false;
  if (runsSomething(program)) return false;
  const package_ = factsOf(root, files);
  if (package_.loadsAnything) return false;
  if (!ignoreLoads) {
    const reach = liveReach(root, files, package_, importersOf);
    if (reach === 'any' || reach.has(basename(file, extname(file)))) return false;
  }
  const dead = new Set<string>();
  for (const importer of importersOf(file)) {
    // a cycle: reached only when something outside it is
    if (chain.includes(importer)) {
      dead.add(importer);
      continue;
    }
    if (chain.length + 1 >= MAX_DEAD_IMPORTER_DEPTH || --budget.left < 0) return false;
    const parsed = parsedModule(importer);
    if (typeof parsed === 'string') return false;
    if (!unreachedFrom(root, files, importer, parsed.program, importersOf, [...chain, file], budget, ignoreLoads)) return false;
    dead.add(importer);
  }
  if (dead.size > 0 || ignoreLoads) return !namedAnywhere(package_, file, rel, dead);
  let answer = package_.answers.get(file);
  if (answer === undefined) {
    answer = !namedAnywhere(package_, file, rel, dead);
    package_.answers.set(file, answer);
  }
  return answer;
}

/** Which modules a load by a computed path may load: any, or only those of these base names (`index` for `join(dir, id, 'index.js')`). */
type LoadReach = 'any' | ReadonlySet<string>;

/** A path's last segment naming a module file: group 1 is its base name (`index` of `/index.js`). */
const MODULE_FILE_END = /(?:^|\/)([\w.-]+)\.(?:[cm]?[jt]sx?)$/;

/**
 * Which modules the module at `path` (text `text`) may load by a computed path: any, for a
 * directory loader, a `require` handed on, `require.context`, `import.meta.glob`, or a module that
 * does not parse; else the base names its loads end with, each load's path being a template
 * literal ending in a module file (`\`./plugins/${id}/index.js\``), or a call whose last argument is
 * one (`join(dir, id, 'index.js')`, directly or through a variable so initialized that the load sees);
 * any other computed path may load any module. A load written in a string or a regular expression
 * (a codemod's `"await import('$1')"`) is no load.
 */
function loadReach(path: string, text: string): LoadReach {
  if (DIRECTORY_LOADER.test(text) || REQUIRE_AS_VALUE.test(text) || /\brequire\.context\b|\bimport\.meta\.glob\b/.test(text)) return 'any';
  const parsed = parsedModule(path);
  if (typeof parsed === 'string') return 'any';
  const scope: LoadScope = { functions: [], declarators: [] };
  const loads: TSESTree.Node[] = [];
  walkParsed(parsed.program, (node) => {
    if (node.type === 'VariableDeclarator' && node.id.type === 'Identifier' && node.init) scope.declarators.push({ name: node.id.name, start: node.range[0], init: node.init });
    else if (node.type === 'FunctionDeclaration' || node.type === 'FunctionExpression' || node.type === 'ArrowFunctionExpression') {
      scope.functions.push({ range: node.range, params: parsed.text.slice(node.params[0]?.range[0] ?? 0, node.params[node.params.length - 1]?.range[1] ?? 0) });
    }
    const argument = node.type === 'ImportExpression' ? node.source : node.type === 'CallExpression' && node.callee.type === 'Identifier' && node.callee.name === 'require' ? node.arguments[0] : undefined;
    if (argument !== undefined && argument.type !== 'Literal') loads.push(argument);
    return undefined;
  });
  const names = new Set<string>();
  for (const load of loads) {
    const ends = loadedNames(load, load.range[0], scope, 0);
    if (ends === undefined) return 'any';
    for (const name of ends) names.add(name);
  }
  return names;
}

/** The functions (range, parameters' text) and `name = init` declarators of a module, for {@link loadedNames}. */
interface LoadScope {
  functions: Array<{ range: readonly [number, number]; params: string }>;
  declarators: Array<{ name: string; start: number; init: TSESTree.Expression }>;
}

/**
 * The base names a load's path `node` (at offset `at`) may end with ({@link loadReach}), or
 * `undefined` when it may name any module; none for a data file. A name stands for every
 * initializer of that name the load can see (declared in the module's top level or in a function
 * around the load; a parameter of such a function of that name may be anything).
 */
function loadedNames(node: TSESTree.Node, at: number, scope: LoadScope, depth: number): string[] | undefined {
  if (node.type === 'TemplateLiteral') {
    const end = node.quasis[node.quasis.length - 1]!.value.cooked ?? '';
    if (DATA_FILE.test(end)) return [];
    const name = node.expressions.length > 0 && end.includes('/') ? MODULE_FILE_END.exec(end)?.[1] : undefined;
    return name === undefined ? undefined : [name];
  }
  if (node.type === 'CallExpression') {
    const last = node.arguments[node.arguments.length - 1];
    const name = last?.type === 'Literal' && typeof last.value === 'string' ? MODULE_FILE_END.exec(last.value)?.[1] : undefined;
    return name === undefined ? undefined : [name];
  }
  if (node.type !== 'Identifier' || depth >= 3) return undefined;
  const around = scope.functions.filter((f) => f.range[0] <= at && at < f.range[1]);
  const word = new RegExp(`(?<![\\w$])${node.name.replace(/\$/g, '\\$')}(?![\\w$])`);
  if (around.some((f) => word.test(f.params))) return undefined;
  const visible = scope.declarators.filter((d) => {
    if (d.name !== node.name) return false;
    const inner = scope.functions.filter((f) => f.range[0] <= d.start && d.start < f.range[1]).reduce<(typeof scope.functions)[number] | undefined>((a, f) => (a === undefined || f.range[0] > a.range[0] ? f : a), undefined);
    return inner === undefined || around.includes(inner);
  });
  if (visible.length === 0) return undefined;
  const names: string[] = [];
  for (const d of visible) {
    const ends = loadedNames(d.init, d.start, scope, depth + 1);
    if (ends === undefined) return undefined;
    names.push(...ends);
  }
  return names;
}

/**
 * What the package's loaders may load, counting only the loaders an entry point reaches (a loader
 * in a module nothing reaches, as if no module loaded another by a computed path, never runs):
 * found once per listing.
 */
function liveReach(root: string, files: readonly string[], package_: PackageFacts, importersOf: (path: string) => readonly string[]): LoadReach {
  if (package_.live !== undefined) return package_.live;
  let live: LoadReach = new Set<string>();
  for (const [loader, reach] of package_.loaders) {
    const parsed = parsedModule(loader);
    if (typeof parsed !== 'string' && unreachedFrom(root, files, loader, parsed.program, importersOf, [], { left: MAX_DEAD_IMPORTERS }, true)) continue;
    if (reach === 'any') {
      live = 'any';
      break;
    }
    live = new Set([...live, ...reach]);
  }
  package_.live = live;
  return live;
}

/**
 * Whether some text of the package other than the module's own (and those of the unreached
 * modules importing it, `dead`, whose text never runs) names its file (its name written whole:
 * {@link writesName}), or a glob names its suffix. An `index` is named by its directory's name, or by its path below its top directory
 * under another (`"main": "dist/index.js"` names `src/index.ts` compiled).
 */
function namedAnywhere(package_: PackageFacts, file: string, rel: string, dead: ReadonlySet<string>): boolean {
  const base = basename(file, extname(file));
  const name = base === 'index' ? basename(dirname(file)) : base;
  for (const suffix of package_.globSuffixes) if (base.endsWith(suffix)) return true;
  const parts = rel.split(sep);
  const compiled = base === 'index' ? `/${[...parts.slice(1, -1), 'index'].join('/')}.` : undefined;
  return package_.texts.some(({ path, text, source }) => {
    if (path === file || dead.has(path)) return false;
    if (!writesName(text, name) && (compiled === undefined || !text.includes(compiled))) return false;
    // a source file names a file only in its strings (a path, a specifier the resolver misses):
    // an identifier (`class PokerService` in EnhancedPokerService.js) names no file
    const strings = source ? stringsOf(path) : undefined;
    if (strings === undefined) return true;
    const names = (text: string) => writesName(text, name) || (compiled !== undefined && text.includes(compiled));
    if (names(strings.plain)) return true;
    // a module specifier names the module it resolves to, not another file of the same name
    // (`'../users/follow/count'` names no `clicks/count.ts`): only this module, or one the resolver misses
    return strings.specifiers.some((specifier) => names(specifier) && specifierMayName(path, specifier, file));
  });
}

/**
 * The strings and template texts of a source file, one a line (`` `dist/${name}.js` ``'s pieces,
 * `queue.process('./sandbox.js')`), in `plain`, and apart in `specifiers` the module specifiers
 * (`'./services/PokerService'` of an import, a re-export, `require` or `import()`:
 * `module-specifiers.ts`), which name only the module they resolve to; `undefined` when the file
 * does not parse. Per modification time.
 */
const stringsOf = fileMemo((path): { plain: string; specifiers: string[] } | undefined => {
  const parsed = parsedModule(path);
  if (typeof parsed === 'string') return undefined;
  const strings: string[] = [];
  const specifiers: string[] = [];
  // a node is visited before its children: a specifier is known before its literal is reached
  const specifierNodes = new Set<TSESTree.Node>();
  walkParsed(parsed.program, (node) => {
    const specifier = moduleSpecifier(node);
    if (specifier) specifierNodes.add(specifier);
    if (node.type === 'Literal' && typeof node.value === 'string') (specifierNodes.has(node) ? specifiers : strings).push(node.value);
    else if (node.type === 'TemplateElement') strings.push(node.value.raw);
    else if (node.type === 'JSXText') strings.push(node.value);
    return undefined;
  });
  return { plain: strings.join('\n'), specifiers };
}, undefined);

/** Characters that continue a file's name: a letter, digit, `_`, `$` or `-`. */
const NAME_CHARS = /[\w$-]/;

/**
 * Whether `text` writes the file name `name` whole, not as part of a longer name: `PokerService`
 * in `'./services/PokerService'` or `dist/PokerService.js`, not in `EnhancedPokerService` nor in
 * `poker-service-v2`.
 */
function writesName(text: string, name: string): boolean {
  for (let at = text.indexOf(name); at >= 0; at = text.indexOf(name, at + 1)) {
    if (!NAME_CHARS.test(text[at - 1] ?? ' ') && !NAME_CHARS.test(text[at + name.length] ?? ' ')) return true;
  }
  return false;
}
