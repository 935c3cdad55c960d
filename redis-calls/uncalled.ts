/**
 * Writes in code that never runs: a method or function of an APPLICATION whose name nothing else
 * in the application names.
 *
 * ```ts
 * // redis.service.ts (src/ of a `"private": true` package)
 * export class RedisService {
 *   async mset(entries: Record<string, string>) { await this.redis.mset(Object.entries(entries).flat()); }
 * }
 * ```
 *
 * No module of the application (tests left out) writes `mset` anywhere but in the method itself:
 * the MSET never runs, and a maintainer would delete the method rather than give its keys a TTL.
 * `recommended` (`allowUncalledCode`) leaves such a write out; `strict` reports it and its message
 * says that its function is named nowhere else. What counts, conservatively (a false "never runs"
 * would hide a real leak):
 *
 * - the linted file belongs to an **application** ({@link applicationRoot}): its nearest
 *   `package.json` (not under `node_modules`) says `"private": true`, or its `main` is one of its
 *   `bin` (a server shipped through npm), or its own `start` script starts one of its files
 *   (`"start": "node dist/server.js"`) and it writes none of the fields of a published package
 *   (`exports`, `module`, `types`, `files`, `publishConfig`, `bin`: a server, whether or not it
 *   says `private`); any other package without `private` is taken for a library even
 *   when it has no entry field (umami, a Next.js application without `private` started by `next
 *   start`, keeps a triaged leak in a method nothing calls: the tuning set's maintainers judged
 *   such code by what it does);
 *   and that package is no workspace member of a project above it
 *   (`workspaces`, `pnpm-workspace.yaml`, `lerna.json`: another package could import it), and does
 *   not depend on a framework whose templates call code by name from files that are not
 *   JavaScript (`vue`, `svelte`, `astro`, `@angular/core`). A library's function is its API: kept;
 * - the write is inside a **top-level declaration** of its module (not at top level, which runs on
 *   import): a function declaration or a `const` holding a function (not a default export), or a
 *   method (or arrow-function property, static or not; not a constructor, getter or setter, not
 *   computed, not decorated) of a top-level class that extends nothing but Node's `EventEmitter`
 *   ({@link emitterBase}, which calls no method by name; any other base class out of sight
 *   may call it: a Durable Object's `alarm`, BullMQ's `process`), has no decorator but
 *   `@Injectable()` or a container's registration ({@link CONTAINER_DECORATORS}: TypeDI's
 *   `@Service()`, tsyringe's and InversifyJS's `@injectable()`, imported from that container), and implements only interfaces of the project (whose members its text names)
 *   or lifecycle-hook interfaces named `On<Event>` (Nest's `OnModuleDestroy`); object-literal
 *   methods never count (handler maps are called by computed names);
 * - the linted file is one of the files its package lists (`project.ts` packageFiles), and its
 *   text is the file's on disk (the words are read from disk): not an editor's unsaved buffer,
 *   nor text linted under the name of a file that does not exist or holds other text;
 * - the write is in no **request handler or middleware**, a function (or a function inside one)
 *   with a parameter named `req`, `request`, `res`, `response`, `reply`, `next` or `ctx` (a
 *   promise's `.then((res) => ...)` callback is none): the
 *   router it is mounted on calls it, through mounts a word search does not read reliably
 *   (`app.use(require('./limits'))`, route tables); an unmounted rate-limit middleware is judged
 *   by what it does (the tuning set's maintainers triaged such middlewares as leaks);
 * - its **name** is not one a framework calls by convention (`on<Event>` / `handle<Event>` /
 *   `after<Event>` / `before<Event>` hooks, `ng<Hook>`, `fetch`, `alarm`, `scheduled`, `queue`,
 *   `webSocket*`, `toJSON`, `then`...: {@link CONVENTION_NAME});
 * - that name (as a word: calls, references, destructuring, a string naming it, a comment) occurs
 *   nowhere in its module outside the declaration itself; for a method, nowhere in the code (not
 *   the comments: {@link namedInCodeElsewhere}) of the other source files of the package, unless
 *   its only calls are its own class's `this.name(...)` in methods judged uncalled in turn
 *   ({@link ownCallersUncalled}: `updateUserStats` called only from a `warmupCache` nothing calls)
 *   (tests, mocks and fixtures left out: `test-paths.ts`
 *   testOnlyModule, a test path no module off test paths imports; its instance may reach code
 *   that never imports its class); for an exported
 *   function, nowhere in the modules importing its module, directly or through barrels, outside
 *   their import declarations and export lists (`import-callers.ts` namedByImporters: a module
 *   that does not import it cannot call it; a workspace root, whose members are listed apart, keeps
 *   the package-wide search); nor in a deployment file at the package root
 *   (`unreached-modules.ts` deploymentFile: serverless.yml's `handler: src/jobs.sweep`; for a
 *   monorepo application, also at its workspace's root); the module makes no dynamic
 *   member access on `this` (`this[name]`), and no module importing it calls a member by a computed
 *   name, read from its syntax tree (`svc[action](...)`, `svc[kind as keyof Svc](...)`; not on a binding imported from a
 *   module that neither is nor imports its module: {@link importedFromElsewhere}) or hands its namespace on as a value
 *   (`Object.values(functions)` of `import * as functions`: `import-callers.ts`); for a method of
 *   a container-registered class, no module of the package at all calls a member by a computed
 *   name (the container hands its instances to modules that import nothing of the class's:
 *   `container.resolve('Jobs')[name]()`);
 * - for a method, no instance of its class is handed to a library ({@link instanceEscapes}:
 *   `rateLimit({ store: new RedisStore() })`), which calls it by its interface's names (for a
 *   static method, which no instance carries: the class itself is written as a value nowhere,
 *   {@link classHandedOn}, `class-values.ts`: `register(RedisStore)`, `extends RedisStore`); a
 *   singleton of its own module (`export const limiter = new Limiter()`) leaves it only when
 *   written bare there or named by its importers; stored by another class in a field of its own
 *   name (`this.limiter = limiter`), it stays in the code, its uses as `this.limiter` read as any;
 * - a method or an exported function counts only when some module of the package imports its
 *   module (`importers.ts` importersOf): a module nobody imports may be an entry point (a
 *   serverless handler, a worker started by a script, a Next.js route) whose exports a framework
 *   calls by name;
 * - the other half of this kind: a write in any function or method of a **module no entry point
 *   reaches** (`unreached-modules.ts`: no module of the package off test paths imports it, or only
 *   unreached ones do, no
 *   text of the package names its file, it is not at the package root nor under a directory whose
 *   files run by their place (`app/`, `pages/`, `api/`, `scripts/`...), its top level only
 *   declares, and no module of the package loads modules by a computed path or a glob), in a
 *   package that says how it starts (a `main` or a `start` script), is no workspace root and
 *   declares no subpath imports. Its message names the
 *   module's path. A top-level write of such a module stays reported (a file that runs when
 *   started is a script).
 *
 * The word search reads every source file of the package once per listing (`project.ts`
 * packageFiles, at most `MAX_FILES`), keeping each file's words per modification time, and the
 * answer per function per lint run; nothing is read for a library or for a write the other
 * exemptions leave out.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, sep } from 'node:path';
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { classWrittenAsValue } from './class-values.js';
import { fileMemo } from './file-memo.js';
import { TEST_PATH, testOnlyModule } from './test-paths.js';
import { namedByImporters } from './import-callers.js';
import { ownClassCalls } from './own-class-calls.js';
import { importersOf, resolved } from './importers.js';
import { moduleSpecifier } from './module-specifiers.js';
import { moduleText, parsedModule } from './parsed-modules.js';
import { LISTING_TTL_MS, manifestOf, packageFiles, packageOf, type PackageInfo } from './project.js';
import { listedAsWorkspace, workspaceRootOfStandaloneMember } from './resolve.js';
import { deploymentFile, unreachedModule } from './unreached-modules.js';
import { enclosingFunction, requiredModule, walkParsed, type AnyContext } from './static.js';

/** A top-level declaration a write is in, and the name it is called by. */
interface Declared {
  /** The name other code calls it by. */
  name: string;
  /** How messages name it: `RedisService.mset`, `incrementCounter`. */
  label: string;
  /** The source range of the whole declaration (its name included). */
  range: readonly [number, number];
  /** Whether code outside its module can reach it: a method (its instances travel), or an exported function. */
  outside: boolean;
  /** A method of a class (dynamic `this[name]` calls matter). */
  method: boolean;
  /** The class a method belongs to (its instances may be handed to a library that calls the method). */
  owner?: string;
  /** A method's function (its own class's `this.name(...)` calls are read from it: `own-class-calls.ts`). */
  fn?: TSESTree.Node;
  /** A method of a class a dependency-injection container registers (its instances reach any module, by token). */
  container?: true;
  /** A static method: a member of the class object, which no instance carries (`class-values.ts`). */
  static?: true;
}

/**
 * Names a framework or the runtime calls by convention, never written by the application: Nest
 * and TypeORM hooks (`onModuleInit`, `handleConnection`, `afterInsert`, `beforeApplicationShutdown`),
 * Angular hooks (`ngOnInit`), Nest's guards, interceptors, pipes, middleware and strategies, which
 * Nest calls by these names whether or not the class writes `implements CanActivate`
 * (`canActivate`, `intercept`, `transform`, `use`, `resolve`, `validate`: `{ provide: APP_GUARD,
 * useClass: ThrottleGuard }` names the class, never the method), Cloudflare Workers and Durable Objects handlers (`fetch`, `alarm`,
 * `scheduled`, `queue`, `email`, `tail`, `webSocketMessage`), thenables and conversions.
 */
const CONVENTION_NAME =
  /^(?:(?:on|handle|after|before|ng|webSocket)[A-Z$_]\w*|canActivate|intercept|transform|use|resolve|validate|fetch|alarm|scheduled|queue|email|tail|trace|toJSON|toString|valueOf|then|catch|finally|main|handler|default|GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS)$/;

/** Frameworks whose templates (`.vue`, `.svelte`, `.astro`, `.html`) call code by name from files the word search does not read. */
const TEMPLATE_FRAMEWORKS = ['vue', 'nuxt', 'svelte', '@sveltejs/kit', 'astro', '@angular/core'];

/**
 * A member called by a computed name: `svc[action](...)`, `this.service[name](...)`,
 * `handlers[type].call(...)`; group 1 is the object's last name when it is one (`svc`, `service`).
 */
const COMPUTED_CALL = /([\w$]+|[\])])\s*(?:\?\.)?\[(?!\s*(?:(['"])[^'"\n]*\2|\d+)\s*\])(?:[^[\]\n]|\[[^[\]\n]*\])+\]\s*(?:\(|\?\.\(|\.(?:call|apply|bind)\b)/g;
const THIS_COMPUTED = /\bthis\s*(?:\?\.)?\[(?!\s*(['"])[^'"\n]*\1\s*\])/;
const WORD = /[A-Za-z_$][\w$]*/g;

/** What a package.json says, as far as this module needs it (whether it is private or a server is `project.ts` packageOf's). */
interface Manifest {
  workspaces?: unknown;
  dependencies?: Record<string, unknown>;
  devDependencies?: Record<string, unknown>;
  scripts?: Record<string, unknown>;
  [field: string]: unknown;
}

/** Fields of a manifest that only a package published for others to import or install writes. */
const PUBLISHING_FIELDS = ['exports', 'module', 'types', 'typings', 'files', 'publishConfig', 'bin', 'browser'];

/** A word of a `start` script naming a JavaScript or TypeScript file (`dist/index.js`, `./src/server.ts`). */
const STARTED_FILE = /^(?:\.\/)?(?!-)[\w@./-]+\.(?:[cm]?[jt]s|tsx)$/;

/**
 * Whether the manifest describes a server its own `start` script starts from one of its files
 * (`"start": "node dist/server.js"`, `"NODE_ENV=production node dist/index.js"`, `"tsx server.ts"`)
 * and writes none of the fields of a package published for others ({@link PUBLISHING_FIELDS}:
 * `exports`, `types`, `files`, `bin`...): a process, not a library, whether or not it says
 * `"private": true`. `next start` names no file: a Next.js application without `private` stays a
 * library (umami keeps a triaged leak in a method nothing calls).
 */
function startsItsOwnServer(manifest: Manifest): boolean {
  if (PUBLISHING_FIELDS.some((field) => manifest[field] !== undefined && manifest[field] !== null)) return false;
  const start = manifest.scripts?.start;
  if (typeof start !== 'string') return false;
  return start
    .split(/[\s;&|]+/)
    .map((word) => word.replace(/^['"]|['"]$/g, ''))
    .some((word) => STARTED_FILE.test(word) && !/(?:^|\/)node_modules\//.test(word) && !word.startsWith('../') && !word.startsWith('/'));
}

/** The package.json at `dir`, as `project.ts` manifestOf reads it (once per modification time). */
function readManifest(dir: string): Manifest | undefined {
  return manifestOf(dir) as Manifest | undefined;
}

const applications = new Map<string, boolean>();

/**
 * The root of the application the file at `file` belongs to (see the module comment: a private
 * package, a server whose `main` is its `bin`, or one its own `start` script starts from one of its
 * files with no field of a published package; no workspace member; no template framework), or
 * `undefined` when its package is a library or cannot be told from one. Cached per package root.
 */
export function applicationRoot(file: string): string | undefined {
  const info = packageOf(file);
  if (!info) return undefined;
  let known = applications.get(info.root);
  if (known === undefined) {
    known = isApplication(info);
    if (applications.size > 1000) applications.clear();
    applications.set(info.root, known);
  }
  return known ? info.root : undefined;
}

/**
 * Whether the package is an application (`project.ts` PackageInfo's `application`: private, or its
 * `main` one of its `bin`; or a server its `start` script starts) outside `node_modules`, with no
 * template framework, and either no workspace member or one no other package of its workspace
 * depends on.
 */
function isApplication(info: PackageInfo): boolean {
  // an installed dependency is a published package
  if (/[\\/]node_modules[\\/]/.test(info.root)) return false;
  const manifest = readManifest(info.root);
  if (!manifest || (!info.application && !startsItsOwnServer(manifest))) return false;
  const dependencies = { ...(manifest.dependencies ?? {}), ...(manifest.devDependencies ?? {}) };
  if (TEMPLATE_FRAMEWORKS.some((name) => name in dependencies)) return false;
  return !workspaceMember(info.root, manifest);
}

/**
 * Whether `root` is a package other packages may import: under a lerna project, or listed by the
 * nearest workspace root (npm / yarn `workspaces`, pnpm: `resolve.ts` `listedAsWorkspace`) unless
 * it is a monorepo's process: a `start` script of its own, and no package of the workspace (nor
 * its root) depending on it by name (`resolve.ts` workspaceRootOfStandaloneMember; `apps/api` started by
 * `node dist/index.js`). A member without `start` may be a library its siblings reach through a
 * path alias without declaring it.
 */
function workspaceMember(root: string, manifest: Manifest): boolean {
  for (let dir = dirname(root); dir !== dirname(dir); dir = dirname(dir)) {
    if (existsSync(join(dir, 'lerna.json'))) return true;
  }
  if (!listedAsWorkspace(root)) return false;
  return typeof manifest.scripts?.start !== 'string' || workspaceRootOfStandaloneMember(root) === undefined;
}

/** The words of a file's text, per modification time (none for an unreadable file). */
const wordsOf = fileMemo((path): ReadonlySet<string> => {
  let text = '';
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    // unreadable: no words
  }
  return new Set(text.match(WORD) ?? []);
}, new Set<string>());

/** Per package root: the listing it was built from, and in how many of its source files (tests left out) each word occurs. */
const wordCounts = new Map<string, { files: readonly string[]; counts: Map<string, number> }>();

function wordCountsOf(root: string, files: readonly string[]): Map<string, number> {
  const cached = wordCounts.get(root);
  if (cached && cached.files === files) return cached.counts;
  const counts = new Map<string, number>();
  for (const path of files) {
    if (testOnlyModule(root, path)) continue;
    for (const word of wordsOf(path)) counts.set(word, (counts.get(word) ?? 0) + 1);
  }
  wordCounts.set(root, { files, counts });
  return counts;
}

/** The top-level declaration `node` is inside (see the module comment), or `undefined`. */
function declarationOf(node: TSESTree.Node): Declared | undefined {
  let child: TSESTree.Node = node;
  while (child.parent && child.parent.type !== AST_NODE_TYPES.Program) child = child.parent;
  if (!child.parent) return undefined;
  const exported = child.type === AST_NODE_TYPES.ExportNamedDeclaration;
  if (child.type === AST_NODE_TYPES.ExportDefaultDeclaration) return undefined;
  const statement = exported ? (child as TSESTree.ExportNamedDeclaration).declaration : child;
  if (!statement || !encloses(statement, node)) return undefined;
  if (statement.type === AST_NODE_TYPES.FunctionDeclaration) {
    if (!statement.id || !encloses(statement.body, node)) return undefined;
    return { name: statement.id.name, label: statement.id.name, range: child.range, outside: exported, method: false };
  }
  if (statement.type === AST_NODE_TYPES.VariableDeclaration) {
    const declarator = statement.declarations.find((d) => encloses(d, node));
    const init = declarator?.init;
    if (!declarator || declarator.id.type !== AST_NODE_TYPES.Identifier || !init) return undefined;
    if (init.type !== AST_NODE_TYPES.ArrowFunctionExpression && init.type !== AST_NODE_TYPES.FunctionExpression) return undefined;
    if (!encloses(init.body, node)) return undefined;
    return { name: declarator.id.name, label: declarator.id.name, range: child.range, outside: exported, method: false };
  }
  if (statement.type === AST_NODE_TYPES.ClassDeclaration) return methodOf(statement, node);
  return undefined;
}

function encloses(outer: TSESTree.Node, inner: TSESTree.Node): boolean {
  return outer.range[0] <= inner.range[0] && inner.range[1] <= outer.range[1];
}

/** Modules whose `EventEmitter` calls no method of a subclass by name: it calls the listeners it is given (https://nodejs.org/api/events.html). */
const EMITTER_MODULE = /^(?:(?:node:)?events|eventemitter3)$/;

/**
 * Whether a class's base is an `EventEmitter` of Node's `events` (or `eventemitter3`), imported or
 * required in its module (`extends EventEmitter`, `extends events.EventEmitter`): a base class that
 * calls none of its subclass's methods, so the subclass's methods are called only by the code.
 */
function emitterBase(cls: TSESTree.ClassDeclaration): boolean {
  const base = cls.superClass;
  let program: TSESTree.Node | undefined = cls.parent;
  while (program && program.type !== AST_NODE_TYPES.Program) program = program.parent;
  if (!base || !program) return false;
  if (base.type === AST_NODE_TYPES.Identifier) return bindsEmitter(program, base.name, false);
  if (base.type === AST_NODE_TYPES.MemberExpression && !base.computed && base.object.type === AST_NODE_TYPES.Identifier && base.property.type === AST_NODE_TYPES.Identifier && base.property.name === 'EventEmitter') {
    return bindsEmitter(program, base.object.name, true);
  }
  return false;
}

/**
 * Whether the module binds `local` at its top level to an emitter module ({@link EMITTER_MODULE}):
 * as the module itself when `asModule` (`import * as events`, `const events = require('events')`),
 * else as its `EventEmitter` (`import { EventEmitter }`, `import EventEmitter from 'events'`,
 * `const EventEmitter = require('events')`, `const { EventEmitter } = require('events')`,
 * `require('events').EventEmitter`).
 */
function bindsEmitter(program: TSESTree.Program, local: string, asModule: boolean): boolean {
  for (const statement of program.body) {
    if (statement.type === AST_NODE_TYPES.ImportDeclaration) {
      if (!EMITTER_MODULE.test(statement.source.value)) continue;
      for (const specifier of statement.specifiers) {
        if (specifier.local.name !== local) continue;
        if (specifier.type === AST_NODE_TYPES.ImportNamespaceSpecifier) return asModule;
        if (specifier.type === AST_NODE_TYPES.ImportDefaultSpecifier) return true;
        const imported = specifier.imported.type === AST_NODE_TYPES.Identifier ? specifier.imported.name : specifier.imported.value;
        return !asModule && imported === 'EventEmitter';
      }
    } else if (statement.type === AST_NODE_TYPES.VariableDeclaration) {
      for (const declarator of statement.declarations) {
        const init = declarator.init;
        if (!init) continue;
        const member = init.type === AST_NODE_TYPES.MemberExpression && !init.computed && init.property.type === AST_NODE_TYPES.Identifier && init.property.name === 'EventEmitter';
        const source = requiredModule(member ? (init as TSESTree.MemberExpression).object : init);
        if (source === undefined || !EMITTER_MODULE.test(source)) continue;
        if (declarator.id.type === AST_NODE_TYPES.Identifier && declarator.id.name === local) return member ? !asModule : true;
        if (declarator.id.type === AST_NODE_TYPES.ObjectPattern && !member && !asModule) {
          for (const property of declarator.id.properties) {
            if (property.type === AST_NODE_TYPES.Property && property.key.type === AST_NODE_TYPES.Identifier && property.key.name === 'EventEmitter' && property.value.type === AST_NODE_TYPES.Identifier && property.value.name === local) return true;
          }
        }
      }
    }
  }
  return false;
}

function methodOf(cls: TSESTree.ClassDeclaration, node: TSESTree.Node): Declared | undefined {
  if (!cls.id || (cls.superClass && !emitterBase(cls)) || cls.abstract) return undefined;
  // espree (JavaScript) leaves out `decorators` and `implements`
  if ((cls.decorators ?? []).some((d) => decoratorName(d) !== 'Injectable' && !containerRegistration(d))) return undefined;
  if (!(cls.implements ?? []).every((clause) => projectInterface(clause))) return undefined;
  const member = cls.body.body.find((m) => encloses(m, node));
  if (!member || (member.type !== AST_NODE_TYPES.MethodDefinition && member.type !== AST_NODE_TYPES.PropertyDefinition)) return undefined;
  if (member.computed || (member.decorators ?? []).length > 0) return undefined;
  let body: TSESTree.Node | undefined;
  if (member.type === AST_NODE_TYPES.MethodDefinition) {
    if (member.kind !== 'method') return undefined;
    body = member.value.body ?? undefined;
  } else if (member.type === AST_NODE_TYPES.PropertyDefinition) {
    const value = member.value;
    if (value?.type !== AST_NODE_TYPES.ArrowFunctionExpression && value?.type !== AST_NODE_TYPES.FunctionExpression) return undefined;
    body = value.body;
  }
  if (!body || !encloses(body, node)) return undefined;
  const key = member.key;
  const name = key.type === AST_NODE_TYPES.Identifier || key.type === AST_NODE_TYPES.PrivateIdentifier ? key.name : undefined;
  if (name === undefined) return undefined;
  const fn = member.type === AST_NODE_TYPES.MethodDefinition ? member.value : undefined;
  const container = (cls.decorators ?? []).some((d) => containerRegistration(d));
  return {
    name,
    label: `${cls.id.name}.${name}`,
    range: member.range,
    outside: key.type !== AST_NODE_TYPES.PrivateIdentifier,
    method: true,
    owner: cls.id.name,
    fn,
    ...(container ? { container: true as const } : {}),
    ...(member.static ? { static: true as const } : {}),
  };
}

function decoratorName(decorator: TSESTree.Decorator): string | undefined {
  const expression = decorator.expression.type === AST_NODE_TYPES.CallExpression ? decorator.expression.callee : decorator.expression;
  return expression.type === AST_NODE_TYPES.Identifier ? expression.name : undefined;
}

/**
 * The class decorators of dependency-injection containers that register a class for the container
 * to construct and inject, per package: the container calls the constructor, never a method by
 * name (TypeDI's `@Service()`, https://docs.typestack.community/typedi/; tsyringe's `@injectable()`,
 * `@singleton()`, `@scoped()`, `@autoInjectable()`, https://github.com/microsoft/tsyringe#decorators;
 * InversifyJS's `@injectable()`).
 */
const CONTAINER_DECORATORS: Readonly<Record<string, readonly string[]>> = {
  typedi: ['Service'],
  tsyringe: ['injectable', 'singleton', 'scoped', 'autoInjectable'],
  inversify: ['injectable'],
};

/**
 * Whether a class decorator is a container's registration ({@link CONTAINER_DECORATORS}) imported
 * from that container's package in the decorator's module (`import { Service } from 'typedi'`,
 * renamed or not). The same name from any other package (`moleculer-decorators`' `@Service()`
 * turns methods into actions called by name) or from the code is not one.
 */
function containerRegistration(decorator: TSESTree.Decorator): boolean {
  const local = decoratorName(decorator);
  if (local === undefined) return false;
  let program: TSESTree.Node = decorator;
  while (program.parent) program = program.parent;
  if (program.type !== AST_NODE_TYPES.Program) return false;
  for (const statement of program.body) {
    if (statement.type !== AST_NODE_TYPES.ImportDeclaration) continue;
    const specifier = statement.specifiers.find((s) => s.local.name === local);
    if (!specifier) continue;
    if (specifier.type !== AST_NODE_TYPES.ImportSpecifier) return false;
    const imported = specifier.imported.type === AST_NODE_TYPES.Identifier ? specifier.imported.name : specifier.imported.value;
    return Object.hasOwn(CONTAINER_DECORATORS, statement.source.value) && CONTAINER_DECORATORS[statement.source.value]!.includes(imported);
  }
  return false;
}

/**
 * Whether an `implements` clause names an interface of the project (declared in the module, or
 * imported from a module of the code: its member names are then words of the package), or a
 * lifecycle-hook interface `On<Event>` whose one member `on<Event>` is a convention name.
 */
function projectInterface(clause: TSESTree.TSClassImplements): boolean {
  const expression = clause.expression;
  if (expression.type !== AST_NODE_TYPES.Identifier) return false;
  if (/^On[A-Z]\w*$/.test(expression.name)) return true;
  let program: TSESTree.Node = clause;
  while (program.parent) program = program.parent;
  for (const statement of (program as TSESTree.Program).body) {
    const declared = statement.type === AST_NODE_TYPES.ExportNamedDeclaration ? statement.declaration : statement;
    if (declared?.type === AST_NODE_TYPES.TSInterfaceDeclaration && declared.id.name === expression.name) return true;
    if (statement.type === AST_NODE_TYPES.ImportDeclaration && statement.specifiers.some((s) => s.local.name === expression.name)) {
      return statement.source.value.startsWith('.') || statement.source.value.startsWith('/');
    }
  }
  return false;
}

const verdicts = new WeakMap<TSESTree.Node, string | null>();
/** Declarations being judged: a caller met again while judging its callee (`a` calls `b` calls `a`) counts as called. */
const judging = new WeakSet<TSESTree.Node>();

/**
 * Whether the method whose function is `fn` is called only by `this.name(...)` calls of its own
 * class (`own-class-calls.ts` ownClassCalls: every other file names it only in an interface's
 * signature, no other class declares a method of that name; comments name nothing), each inside a method or function
 * judged uncalled itself ({@link uncalledDeclaration}): `updateUserStats` called only from
 * `warmupCache`, which nothing calls. A call in a constructor, a field initializer or a request
 * handler runs.
 */
function ownCallersUncalled(context: AnyContext, fn: TSESTree.Node, root: string): boolean {
  const calls = ownClassCalls(context, fn, root);
  return calls !== undefined && calls.every((call) => uncalledDeclaration(context, call) !== undefined);
}

/**
 * How messages name the function or method around `node` when nothing in its application calls
 * it (see the module comment: `RedisService.mset`), or `undefined` when it may run (or that
 * cannot be told). Cached per declaration for the lint run.
 */
export function uncalledDeclaration(context: AnyContext, node: TSESTree.Node): string | undefined {
  const file = context.physicalFilename ?? context.filename;
  if (!file || !isAbsolute(file)) return undefined;
  const root = applicationRoot(file);
  if (root === undefined || TEST_PATH.test(relative(root, file))) return undefined;
  // a request handler or middleware is called by the router it is mounted on, which a word search
  // does not read reliably (`app.use(require('./limits'))`, route tables): never taken for uncalled
  if (inRequestHandler(node)) return undefined;
  const declared = declarationOf(node);
  if (declared && !CONVENTION_NAME.test(declared.name)) {
    const key = declaredNode(node, declared);
    if (key && judging.has(key)) return undefined;
    let verdict = key ? verdicts.get(key) : undefined;
    if (verdict === undefined) {
      if (key) judging.add(key);
      try {
        verdict = judge(context, file, root, declared) ? declared.label : null;
      } finally {
        if (key) judging.delete(key);
      }
      if (key) verdicts.set(key, verdict);
    }
    if (verdict !== null) return verdict;
  }
  // a module no entry point reaches: no function of it ever runs
  return inFunction(node) ? moduleNobodyReaches(context, file, root) : undefined;
}

/** Parameter names of a request handler or middleware (Express / Koa / Fastify: `(req, res, next)`, `(request, reply)`, `(ctx, next)`). */
const HANDLER_PARAMETER = /^(?:req|request|res|response|reply|next|ctx)$/;

/**
 * Whether `node` is inside a function one of whose parameters is named as a request handler's
 * ({@link HANDLER_PARAMETER}). A promise's callback (`.then(res => ...)`, `.catch(...)`,
 * `.finally(...)`) is no handler whatever its parameter's name: the promise calls it with the
 * result of the call before it, so it runs only when the function around it runs.
 */
function inRequestHandler(node: TSESTree.Node): boolean {
  for (let current = enclosingFunction(node); current; current = enclosingFunction(current)) {
    if (promiseCallback(current)) continue;
    for (const param of (current as TSESTree.FunctionLike).params) {
      const id = param.type === AST_NODE_TYPES.AssignmentPattern ? param.left : param;
      if (id.type === AST_NODE_TYPES.Identifier && HANDLER_PARAMETER.test(id.name)) return true;
    }
  }
  return false;
}

/** Whether the function `fn` is an argument of a `.then(...)`, `.catch(...)` or `.finally(...)` call (a promise's callback). */
function promiseCallback(fn: TSESTree.Node): boolean {
  const call = fn.parent;
  if (call?.type !== AST_NODE_TYPES.CallExpression || !call.arguments.includes(fn as TSESTree.Expression)) return false;
  const callee = call.callee;
  return callee.type === AST_NODE_TYPES.MemberExpression && !callee.computed && callee.property.type === AST_NODE_TYPES.Identifier && /^(?:then|catch|finally)$/.test(callee.property.name);
}

/**
 * Whether the package's manifest says how the application starts (a `main`, or a `start` script:
 * `node dist/server.js`, `next start`): its entry points are then its started files and its
 * framework's conventions, and a module none of them reaches is dead. A package that says
 * neither may be run in ways its manifest does not show.
 */
function saysHowItStarts(root: string): boolean {
  const manifest = readManifest(root);
  return typeof manifest?.main === 'string' || typeof manifest?.scripts?.start === 'string';
}

/** Whether `node` is inside a function or method (not at a module's top level, which runs on import). */
function inFunction(node: TSESTree.Node): boolean {
  return enclosingFunction(node) !== undefined;
}

const unreachedModules = new WeakMap<object, string | null>();

/**
 * The path (from its package root) of the linted module when no entry point reaches it
 * (`unreached-modules.ts`): no module of the package off test paths imports it (or only unreached ones do), it is no entry
 * point, and its package is no workspace root and declares no subpath imports. Cached per lint
 * of the file.
 */
function moduleNobodyReaches(context: AnyContext, file: string, root: string): string | undefined {
  const program = context.sourceCode.ast;
  let verdict = unreachedModules.get(program);
  if (verdict === undefined) {
    verdict = null;
    const files = packageFiles(root);
    const info = packageOf(file);
    if (files && files.includes(file) && asSaved(context, file) && info?.root === root && !info.subpathImports && !workspaceRoot(root) && saysHowItStarts(root)) {
      const importers = (path: string) => importersOf(path, root).filter((importer) => !TEST_PATH.test(relative(root, importer)));
      if (unreachedModule(root, files, file, program as TSESTree.Program, importers)) verdict = relative(root, file).split(sep).join('/');
    }
    unreachedModules.set(program, verdict);
  }
  return verdict ?? undefined;
}

/** The node whose range is the declaration's (the cache key). */
function declaredNode(node: TSESTree.Node, declared: Declared): TSESTree.Node | undefined {
  for (let current: TSESTree.Node | undefined = node; current; current = current.parent) {
    if (current.range[0] === declared.range[0] && current.range[1] === declared.range[1]) return current;
  }
  return undefined;
}

function judge(context: AnyContext, file: string, root: string, declared: Declared): boolean {
  // only a file of the package's listing, as saved: not text linted under a name with no file
  // (an editor's unsaved buffer, --stdin-filename), not a file the listing leaves out
  const files = packageFiles(root);
  if (!files || !files.includes(file) || !asSaved(context, file)) return false;
  const text = context.sourceCode.text;
  const outside = text.slice(0, declared.range[0]) + '\n' + text.slice(declared.range[1]);
  // a method whose only calls are its own class's `this.name(...)` in methods nothing calls
  let ownOnly: boolean | undefined;
  const onlyUncalledOwnCallers = () => (ownOnly ??= declared.fn !== undefined && ownCallersUncalled(context, declared.fn, root));
  if (new RegExp(`(?<![\\w$])${declared.name.replace(/\$/g, '\\$')}(?![\\w$])`).test(outside) && !onlyUncalledOwnCallers()) return false;
  if (declared.method && THIS_COMPUTED.test(text)) return false;
  if (!declared.outside) return true;
  // a workspace root: its sibling packages (listed apart) may import any module of it
  if (declared.method || workspaceRoot(root)) {
    const counts = wordCountsOf(root, files);
    const own = wordsOf(file).has(declared.name) ? 1 : 0;
    if ((counts.get(declared.name) ?? 0) - own > 0 && namedInCodeElsewhere(root, files, file, declared.name) && !onlyUncalledOwnCallers()) return false;
    // a function is reached only through its module's importers (`import-callers.ts`)
  } else if (namedByImporters(file, root, declared.name, wordsOf)) return false;
  // a name written only in a deployment file (serverless.yml's handler: src/jobs.sweep)
  if (configWords(root).has(declared.name)) return false;
  // an instance handed to a library, which calls its methods by name (express-rate-limit's store.increment);
  // a static method is a member of the class object, which no instance carries: only the class
  // itself handed on as a value (`register(CacheService)`) may reach a caller of it
  if (declared.owner && (declared.static ? classHandedOn(root, files, declared.owner) : instanceEscapes(root, files, declared.owner, file))) return false;
  // a module nobody imports may be an entry point: its exports may be called by name by a framework
  const importers = importersOf(file, root).filter((path) => !TEST_PATH.test(relative(root, path)));
  if (importers.length === 0) return false;
  for (const importer of importers) {
    const importerText = moduleText(importer);
    if (importerText === undefined || callsByComputedName(importerText, importer, file, root)) return false;
  }
  // a container hands its instances to any module, by a token (`container.resolve('Jobs')[name]()`)
  // that imports nothing of the class's module: a computed call in any of them may call the method
  if (declared.container) {
    for (const path of files) {
      if (path === file || importers.includes(path) || testOnlyModule(root, path)) continue;
      const text = moduleText(path);
      if (text === undefined || callsByComputedName(text, path, file, root)) return false;
    }
  }
  return true;
}

/**
 * The names a module writes in its code, not in comments: its identifiers (JSX and `#private`
 * names too) and the words (runs of `[A-Za-z0-9_$]`) of its strings and templates; `undefined`
 * when it does not parse. A module specifier (`from '../follow/count'`, `require('./mset')`,
 * `import('./count')`: `module-specifiers.ts`) names a module, never a function: its words are
 * left out (an import of the function's own module is read through its bindings, by
 * `import-callers.ts`). Read once per file and modification time.
 */
const codeWordsOf = fileMemo((path): ReadonlySet<string> | undefined => {
  const parsed = parsedModule(path);
  if (typeof parsed === 'string') return undefined;
  const words = new Set<string>();
  const addWords = (text: string) => {
    for (const word of text.match(/[\w$]+/g) ?? []) words.add(word);
  };
  // a node is visited before its children: a specifier is known before its literal is reached
  const specifiers = new Set<TSESTree.Node>();
  walkParsed(parsed.program, (node) => {
    const specifier = moduleSpecifier(node);
    if (specifier) specifiers.add(specifier);
    if (node.type === AST_NODE_TYPES.Identifier || node.type === AST_NODE_TYPES.JSXIdentifier || node.type === AST_NODE_TYPES.PrivateIdentifier) words.add(node.name);
    else if (node.type === AST_NODE_TYPES.Literal && typeof node.value === 'string' && !specifiers.has(node)) addWords(node.value);
    else if (node.type === AST_NODE_TYPES.TemplateElement) addWords(node.value.raw);
    return undefined;
  });
  return words;
}, undefined);

/**
 * Whether a source file of the package other than `file` (tests left out) writes `name` in its
 * code, not only in comments: an identifier, a JSX name, or a word of a string or template (a
 * computed member `svc['mset']`). A file that does not parse counts.
 */
function namedInCodeElsewhere(root: string, files: readonly string[], file: string, name: string): boolean {
  for (const path of files) {
    if (path === file || testOnlyModule(root, path) || !wordsOf(path).has(name)) continue;
    const words = codeWordsOf(path);
    if (words === undefined || words.has(name)) return true;
  }
  return false;
}

/** Whether the package at `root` is a workspace root (`workspaces`, `pnpm-workspace.yaml`, `lerna.json`): packages under it, outside its listing, may import its modules. */
function workspaceRoot(root: string): boolean {
  if (existsSync(join(root, 'pnpm-workspace.yaml')) || existsSync(join(root, 'lerna.json'))) return true;
  return readManifest(root)?.workspaces !== undefined;
}

/**
 * The words of the deployment and process files (`unreached-modules.ts` deploymentFile:
 * serverless.yml, wrangler.toml, Procfile, package.json scripts...) at the package root, and at
 * its workspace's root for a monorepo application (`resolve.ts` workspaceRootOfStandaloneMember).
 * Read once per root for {@link LISTING_TTL_MS} milliseconds, as the package's listing is.
 */
function configWords(root: string): ReadonlySet<string> {
  const now = Date.now();
  const cached = configWordCache.get(root);
  if (cached && now - cached.at < LISTING_TTL_MS) return cached.words;
  const words = new Set<string>();
  for (const dir of [root, workspaceRootOfStandaloneMember(root)]) {
    if (dir === undefined) continue;
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      continue;
    }
    for (const name of names) if (deploymentFile(name)) for (const word of wordsOf(join(dir, name))) words.add(word);
  }
  if (configWordCache.size > 1000) configWordCache.clear();
  configWordCache.set(root, { at: now, words });
  return words;
}

/** Per package root: the words of its deployment files ({@link configWords}) and when they were read. */
const configWordCache = new Map<string, { at: number; words: ReadonlySet<string> }>();

/**
 * Whether an instance of class `owner` leaves the application's hands in some source file of the
 * package (tests left out): `new Owner(...)` written as an argument, an array element, a property
 * value or a returned value (`rateLimit({ store: new RedisStore() })`), or held by a name (`const
 * store = new RedisStore()`, `this.store = ...`) that is then written bare, not as the receiver of a
 * member (`rateLimit({ store })`, `register(store)`). A library holding it calls its methods by the
 * names of its own interface (express-rate-limit's `increment`, a session store's `touch`), names
 * the application never writes; JavaScript and duck-typed TypeScript write no `implements`. Handed
 * to a function or class of the application (declared in the file or imported from a relative
 * module: `new Counter(store)`), it stays in code whose words are searched.
 */
function instanceEscapes(root: string, files: readonly string[], owner: string, file: string): boolean {
  const escaped = owner.replace(/\$/g, '\\$');
  for (const path of files) {
    if (testOnlyModule(root, path) || !wordsOf(path).has(owner)) continue;
    const text = textOf(path);
    if (text === undefined) return true;
    for (const match of text.matchAll(new RegExp(`((?:this\\.)?[\\w$]+\\s*=|[^\\s])\\s*new\\s+${escaped}(?![\\w$])`, 'g'))) {
      const before = match[1]!;
      if (/[(,:[{]$/.test(before) && !handedToOwnCode(text, match.index! + before.length)) return true;
      if (/[?|&>]$/.test(before) || /(?:^|[^\w$])return$/.test(text.slice(0, match.index! + before.length).trimEnd().slice(-7))) return true;
      const held = /^(?:this\.)?([\w$]+)\s*=$/.exec(before)?.[1];
      // a singleton of the class's own module (`export const limiter = new Limiter()`): it leaves
      // the module only through the importers naming it
      const lineStart = text.lastIndexOf('\n', match.index!) + 1;
      if (held && path === file && /^(?:export\s+)?(?:const|let|var)\s+$/.test(text.slice(lineStart, match.index!))) {
        if (writtenBare(file, held)) return true;
        if (!namedByImporters(file, root, held, wordsOf)) continue;
      }
      if (held && files.some((other) => !testOnlyModule(root, other) && wordsOf(other).has(held) && writtenBare(other, held))) return true;
    }
  }
  return false;
}

/**
 * Whether some source file of the package (tests left out) writes the class named `owner` as a
 * value that may reach other code (`class-values.ts` classWrittenAsValue: an argument, a property
 * value, a returned or assigned value, a superclass, a JSX element, a computed member read), not
 * only as `Owner.member`, `new Owner()`, a type, or an import or export: a library holding the
 * class may call its static methods by names the application never writes.
 */
function classHandedOn(root: string, files: readonly string[], owner: string): boolean {
  return files.some((path) => !testOnlyModule(root, path) && wordsOf(path).has(owner) && classWrittenAsValue(path, owner));
}

/** A source file's text with its comments blanked (a comment hands nothing over), offsets kept. */
function textOf(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8').replace(/\/\*[\s\S]*?\*\/|(?<![:'"`\\])\/\/[^\n]*/g, (comment) => comment.replace(/[^\n]/g, ' '));
  } catch {
    return undefined;
  }
}

/** Whether `name` is written in the file at `path` other than as a member's receiver, declared, assigned, imported, exported or handed to the application's own code. */
function writtenBare(path: string, name: string): boolean {
  const text = textOf(path);
  if (text === undefined) return true;
  const escaped = name.replace(/\$/g, '\\$');
  // one walk of the module per (file, name), not one per occurrence of the name
  let bound: ((offset: number) => 'bound' | 'renamed' | undefined) | undefined;
  for (const match of text.matchAll(new RegExp(`(?<![\\w$])${escaped}(?![\\w$])`, 'g'))) {
    const start = match.index!;
    bound ??= boundOrExported(path, name);
    const reading = bound(start);
    // destructured under another name (`const { limiter: rl } = require(...)`): the instance goes on as `rl`
    if (reading === 'renamed') return true;
    if (reading === 'bound') continue;
    const line = text.slice(text.lastIndexOf('\n', start) + 1, (text.indexOf('\n', start) + 1 || text.length + 1) - 1);
    if (/^\s*(?:import\b|export\s*(?:type\s*)?\{|export\s+default\s+[\w$]+\s*;?\s*$)/.test(line)) continue;
    const before = text.slice(Math.max(0, start - 16), start);
    if (/\.$/.test(before) && !/(?:^|[^\w$.])this\.$/.test(before) && !moduleObjectMember(text, before)) continue;
    if (/(?:const|let|var|readonly|private|public|protected)\s+$/.test(before)) continue;
    // destructured (const { mark } = store): its members are read, the instance stays here
    if (/\}\s*=\s*$/.test(before)) continue;
    // stored in a field of its own name (`this.presence = presence`, a plain class's constructor
    // injection): its uses as `this.presence` are occurrences of the same name, read here too
    if (new RegExp(`(?:^|[^\\w$.])this\\.${escaped}\\s*=\\s*$`).test(text.slice(Math.max(0, start - name.length - 40), start))) continue;
    if (/^\s*(?:\?\.|\.|\[|!?\.|=(?![=>])|\??:)/.test(text.slice(start + name.length, start + name.length + 8))) continue;
    if (handedToOwnCode(text, start)) continue;
    return true;
  }
  return false;
}

/**
 * Whether the text before an identifier ends in `<module>.`, `<module>` a binding of a whole module
 * in that file (`const utils = require('./utils')`, `import * as utils from './utils'`): a member
 * of the module object is the export itself (`rateLimit({ store: utils.limiter })` hands on the
 * instance `module.exports = { limiter }` exports).
 */
function moduleObjectMember(text: string, before: string): boolean {
  const object = /(?:^|[^\w$.])([\w$]+)\.$/.exec(before)?.[1];
  if (object === undefined) return false;
  const escaped = object.replace(/\$/g, '\\$');
  return new RegExp(`(?:const|let|var)\\s+${escaped}\\s*=\\s*require\\s*\\(|import\\s*\\*\\s*as\\s+${escaped}(?![\\w$])`).test(text);
}

/**
 * The offsets of the identifiers `name` that the module at `path` writes only to bind or to export
 * it under its own name, read from its syntax tree: a destructured binding of a `require` or an
 * object (`const {\n  limiter,\n} = require('./cache')`, `{ limiter: limiter }`), and a CommonJS
 * export (`module.exports = { limiter }`, `module.exports.limiter = limiter`, `exports.limiter =
 * limiter`), as `export { limiter }` is. Neither hands the instance to anything: the importers that
 * name it are judged apart. A renamed binding or export (`{ limiter: rl }`, `{ store: limiter }`)
 * is not among them: the key of a destructured binding renamed (`{ limiter: rl }`) answers
 * `'renamed'` (the instance goes on under another name). The word inside a module specifier
 * (`require('./middleware/limiter')`, `from './limiter'`) names a file, not the binding: `'bound'`
 * too. Answers what the identifier (or word) at an offset is; nothing when the module does not parse.
 */
function boundOrExported(path: string, name: string): (offset: number) => 'bound' | 'renamed' | undefined {
  const offsets = new Set<number>();
  const renamed = new Set<number>();
  const specifiers: Array<readonly [number, number]> = [];
  const answer = (offset: number) => (renamed.has(offset) ? 'renamed' : offsets.has(offset) || specifiers.some(([from, to]) => from < offset && offset < to) ? 'bound' : undefined);
  const parsed = parsedModule(path);
  if (typeof parsed === 'string') return answer;
  const sameName = (property: TSESTree.Node): TSESTree.Identifier | undefined => {
    if (property.type !== AST_NODE_TYPES.Property || property.computed) return undefined;
    const value = property.value.type === AST_NODE_TYPES.AssignmentPattern ? property.value.left : property.value;
    if (property.key.type !== AST_NODE_TYPES.Identifier || property.key.name !== name || value.type !== AST_NODE_TYPES.Identifier || value.name !== name) return undefined;
    return value;
  };
  const mark = (property: TSESTree.Node) => {
    const id = sameName(property);
    if (!id || property.type !== AST_NODE_TYPES.Property) return;
    offsets.add(property.key.range[0]);
    offsets.add(id.range[0]);
  };
  walkParsed(parsed.program, (node) => {
    const source = moduleSpecifier(node);
    if (source) specifiers.push(source.range);
    if (node.type === AST_NODE_TYPES.VariableDeclarator && node.id.type === AST_NODE_TYPES.ObjectPattern) {
      for (const property of node.id.properties) {
        mark(property);
        if (property.type === AST_NODE_TYPES.Property && !property.computed && property.key.type === AST_NODE_TYPES.Identifier && property.key.name === name && !sameName(property)) renamed.add(property.key.range[0]);
      }
    }
    if (node.type !== AST_NODE_TYPES.AssignmentExpression || node.operator !== '=') return undefined;
    if (commonJsExports(node.left) && node.right.type === AST_NODE_TYPES.ObjectExpression) node.right.properties.forEach(mark);
    const target = node.left;
    if (target.type === AST_NODE_TYPES.MemberExpression && !target.computed && target.property.type === AST_NODE_TYPES.Identifier && target.property.name === name && commonJsExports(target.object) && node.right.type === AST_NODE_TYPES.Identifier && node.right.name === name) {
      offsets.add(target.property.range[0]);
      offsets.add(node.right.range[0]);
    }
    return undefined;
  });
  return answer;
}

/** Whether `node` is CommonJS's exports object: `module.exports` or `exports`. */
function commonJsExports(node: TSESTree.Node): boolean {
  if (node.type === AST_NODE_TYPES.Identifier) return node.name === 'exports';
  return node.type === AST_NODE_TYPES.MemberExpression && !node.computed && node.object.type === AST_NODE_TYPES.Identifier && node.object.name === 'module' && node.property.type === AST_NODE_TYPES.Identifier && node.property.name === 'exports';
}

/**
 * Whether the expression at `index` of `text` is an argument (or inside an object or array
 * argument) of a call or `new` whose callee is a function or class of the application: declared
 * in the file (`function` / `class`) or imported from a relative module.
 */
function handedToOwnCode(text: string, index: number): boolean {
  let depth = 0;
  for (let i = index - 1; i >= 0; i--) {
    const c = text[i]!;
    if (c === ')' || c === ']' || c === '}') depth++;
    else if (c === '(' || c === '[' || c === '{') {
      if (depth > 0) {
        depth--;
        continue;
      }
      // an object or array literal: the call is further out
      if (c !== '(') continue;
      const callee = /([\w$]+)\s*$/.exec(text.slice(Math.max(0, i - 100), i))?.[1];
      if (!callee || /^(?:if|for|while|switch|catch|return|await|typeof|function)$/.test(callee)) return false;
      const escaped = callee.replace(/\$/g, '\\$');
      if (new RegExp(`(?:^|[^\\w$.])(?:function\\*?|class)\\s+${escaped}(?![\\w$])`).test(text)) return true;
      return new RegExp(`(?:import\\s[^;]*?(?<![\\w$])${escaped}(?![\\w$])[^;]*?from\\s*|(?<![\\w$])${escaped}(?![\\w$])[^;\\n]*=\\s*require\\(\\s*)['"]\\.`).test(text);
    } else if (c === ';' && depth === 0) return false;
  }
  return false;
}

const saved = new WeakMap<object, boolean>();

/** Whether the linted text is the file's text on disk (the words of the package are read from disk). */
function asSaved(context: AnyContext, file: string): boolean {
  let same = saved.get(context.sourceCode);
  if (same === undefined) {
    try {
      same = readFileSync(file, 'utf8').replace(/^\uFEFF/, '') === context.sourceCode.text;
    } catch {
      same = false;
    }
    saved.set(context.sourceCode, same);
  }
  return same;
}

/**
 * Whether a module's text calls a member by a computed name on something that may hold an
 * instance of another module (`svc[action](id)`), not on an object or array literal it declares
 * itself (`const effects = { ... }; effects[type]?.(level)`: a handler map of its own). The calls
 * are read from the module's syntax tree (`parsed-modules.ts`): brackets in a regular expression,
 * a string or a comment (`/(\d{2})[T ](\d{2})/`) call nothing; a module that does not parse is
 * read by its text.
 */
function callsByComputedName(text: string, importer: string, file: string, root: string): boolean {
  const parsed = parsedModule(importer);
  const objects = typeof parsed === 'string' || parsed.text !== text ? computedCallObjectsInText(text) : computedCallObjects(parsed.program);
  for (const object of objects) {
    if (object === undefined || !/^[\w$]+$/.test(object)) return true;
    const literal = new RegExp(`\\b(?:const|let|var)\\s+${object.replace(/\$/g, '\\$')}\\s*(?::[^\\n]*?)?=\\s*[{[]`);
    if (literal.test(text)) continue;
    if (!importedFromElsewhere(text, object, importer, file, root)) return true;
  }
  return false;
}

/** The objects of a text's computed-name calls as {@link COMPUTED_CALL} finds them: their last name, or `undefined` when none. */
function computedCallObjectsInText(text: string): Array<string | undefined> {
  return [...text.matchAll(COMPUTED_CALL)].map((match) => (/^[\w$]+$/.test(match[1]!) ? match[1] : undefined));
}

/**
 * The objects of a program's calls by a computed member name (`svc[action](...)`,
 * `this.service[name]?.(...)`, `handlers[type].call(...)`; not `svc['get'](...)` nor `list[0](...)`):
 * the object's last name (`svc`, `service`, `this`), or `undefined` when it has none (a call's
 * result, an element).
 */
function computedCallObjects(program: TSESTree.Program): Array<string | undefined> {
  const objects: Array<string | undefined> = [];
  walkParsed(program, (node) => {
    if (node.type !== AST_NODE_TYPES.CallExpression) return undefined;
    let callee: TSESTree.Node = node.callee;
    if (callee.type === AST_NODE_TYPES.MemberExpression && !callee.computed && callee.property.type === AST_NODE_TYPES.Identifier && /^(?:call|apply|bind)$/.test(callee.property.name)) callee = callee.object;
    while (callee.type === AST_NODE_TYPES.TSNonNullExpression || callee.type === AST_NODE_TYPES.ChainExpression) callee = callee.expression;
    if (callee.type !== AST_NODE_TYPES.MemberExpression || !callee.computed) return undefined;
    const property = callee.property;
    if (property.type === AST_NODE_TYPES.Literal && (typeof property.value === 'string' || typeof property.value === 'number')) return undefined;
    const object = callee.object;
    if (object.type === AST_NODE_TYPES.Identifier) objects.push(object.name);
    else if (object.type === AST_NODE_TYPES.ThisExpression) objects.push('this');
    else if (object.type === AST_NODE_TYPES.MemberExpression && !object.computed && object.property.type === AST_NODE_TYPES.Identifier) objects.push(object.property.name);
    else objects.push(undefined);
    return undefined;
  });
  return objects;
}

/** How far {@link importedFromElsewhere} follows a module's importers (past it: the binding may hold anything). */
const MAX_ELSEWHERE_MODULES = 200;

/**
 * Whether `object` is bound in the importer's text by an import (`import { logger } from
 * '../utils/logger'`, `import logger from ...`) of a module of the package that neither is the
 * defining module `file` nor imports it, directly or through others: such a binding holds none of
 * the defining module's instances (`logger[level](...)` calls the logger's methods).
 */
function importedFromElsewhere(text: string, object: string, importer: string, file: string, root: string): boolean {
  const escaped = object.replace(/\$/g, '\\$');
  const declaration = new RegExp(`\\bimport\\s+(?:type\\s+)?(?:[\\w$]+\\s*,\\s*)?(?:\\{[^}]*\\}|[\\w$]+)\\s+from\\s*(['"])([^'"\\n]+)\\1`, 'g');
  for (const match of text.matchAll(declaration)) {
    const clause = match[0].slice(0, match[0].lastIndexOf('from'));
    // the local name: `logger`, `{ logger }`, `{ log as logger }`, not `{ logger as log }`
    if (!new RegExp(`(?<![\\w$.])${escaped}(?![\\w$])(?!\\s+as\\b)`).test(clause.slice('import'.length))) continue;
    const source = resolved(importer, match[2]!);
    if (source === undefined || source === file) return false;
    const seen = new Set<string>([file]);
    let frontier = [file];
    while (frontier.length > 0) {
      const next: string[] = [];
      for (const path of frontier) {
        for (const up of importersOf(path, root)) {
          if (seen.has(up)) continue;
          if (up === source) return false;
          seen.add(up);
          next.push(up);
        }
      }
      if (seen.size > MAX_ELSEWHERE_MODULES) return false;
      frontier = next;
    }
    return true;
  }
  return false;
}
