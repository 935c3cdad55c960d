/**
 * Keys of a **Redis server the package starts itself**, as a child process of its normal run: the
 * server lives and dies with the program (or its container), so every key written through the
 * client connected to it is process-scoped scratch, gone with the process, whatever its TTL.
 *
 * ```ts
 * // src/crawler.ts
 * launchRedis() { return child_process.spawn('redis-server', args, { cwd: os.tmpdir() }); }
 * async bootstrap() {
 *   const redisUrl = this.params.redisStoreUrl || 'redis://localhost:6379/0';
 *   if (redisUrl.startsWith('redis://localhost:')) subprocesses.push(this.launchRedis());
 * }
 * async initCrawlState() {
 *   const redisUrl = this.params.redisStoreUrl || 'redis://localhost:6379/0';
 *   const redis = await initRedisWaitForSuccess(redisUrl);   // new Redis(url) two calls down
 *   this.crawlState = new RedisCrawlState(redis, ...);
 * }
 * // src/util/state.ts
 * await this.redis.set(`${this.crawlId}:stopping`, '1');      // not reported by `recommended`
 * await this.dedupeRedis.hset(...);                           // another client: judged as before
 * ```
 *
 * **The server** (read once per package, `project.ts`; its test modules, `scripts/` and code
 * nothing calls, `uncalled.ts`, dev tooling under `bench/` or `tools/` and examples or demos under `examples/` / `demo/` left out: a test harness's server, an operator's script run by
 * hand and dead code start nothing when the program runs; a docker-compose file is no code):
 * a call of `spawn` / `spawnSync` / `execFile` / `execFileSync` (child_process), `execa` /
 * `execaSync`, whose command is a server binary (`semantics/server-processes.ts`: `redis-server`,
 * `valkey-server`, a path ending in one) written as a literal or a `const`, with its arguments an
 * array of literals or a variable only ever assigned such arrays; or `exec` / `execSync` /
 * `execaCommand` of a command line written out the same way; in a module importing child_process
 * or execa. The arguments must say where it listens, turn the default RDB snapshots off
 * (`--save ""`: otherwise the server saves its keys into its working directory and loads them at
 * its next start) and ask for nothing else that keeps its data (`serverArguments`: no
 * configuration file, no `--daemonize yes`, `--appendonly yes`, `--save` schedule, `--dir` ...). `redis-cli`, `redis-benchmark` and a systemd unit named `redis-server.service`
 * are not the server.
 *
 * **Started when**: the call is unconditional in its function, and so is each call of that
 * function by name in its module (`this.launchRedis()`); or one of those sits under an `if` / `?:`
 * whose test reads a loopback address (`redisUrl.startsWith('redis://localhost:')`): the server
 * is then started exactly when the URL that test reads, a `const` of the module, is the loopback
 * one. Under any other condition (`if (options.startRedis)`, a `catch`, an early `return` before
 * it, the `else` of a loopback test, a negated loopback test, one joined with a flag by `&&`) it is not counted, nor is a start in
 * a callback (a CLI subcommand's handler) or in a function no call of its module names (one
 * exported to another module's `if`); an immediately run function is read through its call.
 *
 * **The client** of a write (its receiver, through `const` bindings, `pipeline()` / `multi()`, a
 * member `this.redis` given a constructor argument at every `new` of its class in the package:
 * `constructor-arguments.ts`, and functions of the code returning the client they make of their
 * URL parameter, `initRedis(url)`, a few calls deep) must be made by ioredis / iovalkey `new
 * Redis(...)` or node-redis `createClient(...)` with
 *
 * - no server named (`new Redis()`, `createClient()`), a loopback URL literal
 *   (`'redis://localhost:6379/0'`, `semantics/server-processes.ts` loopbackPort) or a port number, on
 *   the started server's port, the server started unconditionally; or
 * - a configured URL with the loopback URL as its fallback (`opts.url || 'redis://localhost:6379'`,
 *   `??` too), the same expression (as written, a `const` of its module) as the URL the start's
 *   test reads: the client is connected to the server the program starts when, and only when, it
 *   starts it.
 *
 * Never: a client on another URL (a second store's `redisDedupeUrl`, a webhook's URL), a client
 * passed in from outside the package, a server started only by a test, a script or a
 * docker-compose file, a server started behind a flag. The configured URL of the second form may
 * name another server (the operator's); the program then starts none, and the keys are the
 * operator's deployment's: the reading accepts that, as the program's own default is the started
 * server. A spawn with `detached: true` is still a child: its parent's lifetime is not read.
 */
import { isAbsolute, relative } from 'node:path';
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { DEFAULT_SERVER_PORT, LOOPBACK_IN_TEXT, SERVER_BINARIES, isLoopbackHost, loopbackPort, serverArguments, serverBinary } from '../semantics/server-processes.js';
import { constructorArgumentSites } from './constructor-arguments.js';
import { instanceConstant } from './instance-constants.js';
import { importedBinding, loadModule, moduleContext, readModule, specifierOf, topLevelDeclaration, type ImportedModule } from './modules.js';
import type { RedisCall } from './normalize.js';
import { LISTING_TTL_MS, packageFiles, packageOf } from './project.js';
import { constInitializer, enclosingFunction, findVariable, pick, propertyName, referenceName, returnedExpressions, staticValue, unwrap, walkParsed, type AnyContext } from './static.js';
import { TEST_PATH } from './test-paths.js';
import { importersOf } from './importers.js';
import { uncalledDeclaration } from './uncalled.js';

/** A server the package starts: the port it listens on, and the URL texts whose loopback value decides the start (none: unconditional). */
interface StartedServer {
  port: number;
  gated: boolean;
  decidingUrls: ReadonlySet<string>;
}

/** Text a module must hold to be parsed: a server binary and a process start. */
const MAY_START_SERVER = new RegExp(`\\b(?:${[...SERVER_BINARIES].join('|')})\\b`);
const MAY_SPAWN = /\bchild_process\b|['"]execa['"]/;
/** An operator's script run by hand, dev tooling (benchmarks, tools) or an example / demo of the package: not the program's normal run. */
const SCRIPT_PATH = /(?:^|[\\/])(?:scripts?|bench(?:marks?)?|tools?|examples?|demos?)[\\/]/;

/**
 * Whether the module at `path` (of the package at `root`) is outside the program's normal run: an
 * operator's script or dev tooling ({@link SCRIPT_PATH}), or a module on a test path imported only
 * from tests and dev tooling (a test helper that starts a server for the package's benchmarks too).
 */
function outsideTheRun(root: string, path: string): boolean {
  const offRun = (file: string) => SCRIPT_PATH.test(relative(root, file)) || TEST_PATH.test(relative(root, file));
  if (SCRIPT_PATH.test(relative(root, path))) return true;
  return TEST_PATH.test(relative(root, path)) && importersOf(path, root).every(offRun);
}
/** Modules of one package parsed for server starts, at most. */
const MAX_STARTING_MODULES = 20;
/** Process starts whose first argument is the binary and the second its arguments (child_process, execa). */
const FILE_SPAWNERS = new Set(['spawn', 'spawnSync', 'execFile', 'execFileSync', 'execa', 'execaSync']);
/** Process starts of one command line (child_process `exec`, execa's `execaCommand`). */
const LINE_SPAWNERS = new Set(['exec', 'execSync', 'execaCommand', 'execaCommandSync']);
/** Client constructors taking a URL, a port or options first (ioredis, iovalkey). */
const CLIENT_CLASSES = new Set(['Redis', 'IORedis', 'Valkey']);
/** Client factories taking an options object with `url` (node-redis). */
const CLIENT_FACTORIES = new Set(['createClient']);
/** How many bindings, members and calls a client is followed through. */
const MAX_DEPTH = 8;

const serversCache = new Map<string, { at: number; servers: readonly StartedServer[] }>();

/**
 * Whether the key write `call` goes through a client connected to a Redis server the linted file's
 * package starts itself as a child process, so that its keys end with the process (see the module
 * comment). `false` when the package starts none, or the client cannot be followed to it.
 */
export function writesToSpawnedServer(context: AnyContext, call: RedisCall): boolean {
  const servers = startedServers(context);
  if (servers.length === 0) return false;
  const callee = call.node.type === AST_NODE_TYPES.CallExpression ? unwrap(call.node.callee) : undefined;
  if (callee?.type !== AST_NODE_TYPES.MemberExpression) return false;
  const sources = clientUrls(context, callee.object, 0);
  return sources !== undefined && sources.length > 0 && sources.every((source) => covered(source, servers));
}

/** The servers the package of the linted file starts (see the module comment), read once per package for {@link LISTING_TTL_MS}. */
function startedServers(context: AnyContext): readonly StartedServer[] {
  const file = context.physicalFilename ?? context.filename;
  if (!file || !isAbsolute(file)) return [];
  const root = packageOf(file)?.root;
  if (root === undefined) return [];
  const now = Date.now();
  const cached = serversCache.get(root);
  if (cached && now - cached.at < LISTING_TTL_MS) return cached.servers;
  const servers = readServers(context, file, root);
  serversCache.set(root, { at: now, servers });
  return servers;
}

function readServers(context: AnyContext, file: string, root: string): StartedServer[] {
  const files = packageFiles(root);
  if (files === undefined) return [];
  const servers: StartedServer[] = [];
  let parsed = 0;
  for (const path of files) {
    if (outsideTheRun(root, path)) continue;
    const specifier = specifierOf(file, path);
    const text = readModule(file, specifier)?.entry.text;
    if (text === undefined || !MAY_START_SERVER.test(text) || !MAY_SPAWN.test(text)) continue;
    if (++parsed > MAX_STARTING_MODULES) return [];
    const module = loadModule(context, specifier);
    if (!module) continue;
    const at = moduleContext(context, module);
    walkParsed(module.program, (node) => {
      if (node.type !== AST_NODE_TYPES.CallExpression) return;
      const server = startedServer(at, module, node);
      if (server) servers.push(server);
    });
  }
  return servers;
}

/** The name a callee ends with (`spawn` of `child_process.spawn(...)`). */
function calleeName(callee: TSESTree.Node): string | undefined {
  return referenceName(unwrap(callee));
}

/** The server a process start `node` starts, or `undefined` (another program, arguments not read, not started when the program runs). */
function startedServer(context: AnyContext, module: ImportedModule, node: TSESTree.CallExpression): StartedServer | undefined {
  const name = calleeName(node.callee);
  if (name === undefined) return undefined;
  let argLists: string[][] | undefined;
  if (FILE_SPAWNERS.has(name)) {
    const command = node.arguments[0] ? staticValue(context, node.arguments[0]) : undefined;
    if (typeof command !== 'string' || serverBinary(command) === undefined) return undefined;
    argLists = argumentLists(context, node.arguments[1]);
  } else if (LINE_SPAWNERS.has(name)) {
    const line = node.arguments[0] ? staticValue(context, node.arguments[0]) : undefined;
    if (typeof line !== 'string') return undefined;
    const [command, ...args] = line.trim().split(/\s+/);
    if (command === undefined || serverBinary(command) === undefined) return undefined;
    argLists = [args];
  } else {
    return undefined;
  }
  if (!argLists || argLists.length === 0) return undefined;
  const read = argLists.map(serverArguments);
  const port = read[0]?.port;
  if (read.some((args) => !args || args.keepsData || args.port !== port) || port === undefined || port === 0) return undefined;
  if (uncalledDeclaration(context, node) !== undefined) return undefined;
  const gates = startGates(context, module, node);
  if (!gates) return undefined;
  return { port, gated: gates.size > 0, decidingUrls: gates };
}

/**
 * The argument lists a process start's second argument may be: none (`[]`), an options object
 * (`spawn('redis-server', { cwd })`: `[]`), an array of literals, or a variable whose declaration
 * and every assignment are such arrays (one list each); `undefined` otherwise.
 */
function argumentLists(context: AnyContext, node: TSESTree.Node | undefined): string[][] | undefined {
  if (!node) return [[]];
  const bare = unwrap(node);
  if (bare.type === AST_NODE_TYPES.ObjectExpression) return [[]];
  if (bare.type === AST_NODE_TYPES.ArrayExpression) {
    const list = literalList(context, bare);
    return list ? [list] : undefined;
  }
  if (bare.type !== AST_NODE_TYPES.Identifier) return undefined;
  const variable = findVariable(context, bare);
  const def = variable?.defs[0];
  if (!variable || variable.defs.length !== 1 || def?.type !== 'Variable') return undefined;
  const values: TSESTree.Node[] = [];
  if (def.node.init) values.push(def.node.init);
  for (const reference of variable.references) {
    if (!reference.isWrite() || reference.init) continue;
    // `args = [...]`; `args.push(...)` is a read of the variable, caught below
    if (!reference.writeExpr || reference.identifier.parent?.type !== AST_NODE_TYPES.AssignmentExpression || reference.identifier.parent.operator !== '=') return undefined;
    values.push(reference.writeExpr);
  }
  // `args.push('--port', p)`: a list built otherwise
  if (variable.references.some((reference) => reference.identifier.parent?.type === AST_NODE_TYPES.MemberExpression && reference.identifier.parent.object === reference.identifier)) return undefined;
  const lists: string[][] = [];
  for (const value of values) {
    const array = unwrap(value);
    const list = array.type === AST_NODE_TYPES.ArrayExpression ? literalList(context, array) : undefined;
    if (!list) return undefined;
    lists.push(list);
  }
  return lists.length > 0 ? lists : undefined;
}

/** The strings of an array of literals (`['--port', '6380']`, numbers as written), or `undefined`. */
function literalList(context: AnyContext, array: TSESTree.ArrayExpression): string[] | undefined {
  const list: string[] = [];
  for (const element of array.elements) {
    const value = element && element.type !== AST_NODE_TYPES.SpreadElement ? staticValue(context, element) : undefined;
    if (typeof value !== 'string' && typeof value !== 'number') return undefined;
    list.push(String(value));
  }
  return list;
}

/**
 * The URL texts whose loopback value decides a start (empty: unconditional), or `undefined` when
 * the start runs under another condition: the conditions between the start and its function, and
 * between each call of that function by name in its module and the caller's function.
 */
function startGates(context: AnyContext, module: ImportedModule, node: TSESTree.Node): Set<string> | undefined {
  const urls = new Set<string>();
  if (!gatesOf(context, node, urls)) return undefined;
  let fn = enclosingFunction(node);
  // `(async () => { spawn(...) })()`: the gates of the call running it
  while (fn?.parent?.type === AST_NODE_TYPES.CallExpression && fn.parent.callee === fn) {
    if (!gatesOf(context, fn.parent, urls)) return undefined;
    fn = enclosingFunction(fn.parent);
  }
  if (!fn) return urls;
  // a callback, or a function no call of its module names (a CLI subcommand's handler, a start
  // exported to another module's `if (opts.startRedis)`): run when something unread decides
  const name = functionNameOf(fn);
  if (name === undefined) return undefined;
  let ok = true;
  let calls = 0;
  walkParsed(module.program, (other) => {
    if (other.type !== AST_NODE_TYPES.CallExpression || calleeName(other.callee) !== name || !ok) return;
    calls++;
    if (!gatesOf(context, other, urls)) ok = false;
  });
  return ok && calls > 0 ? urls : undefined;
}

/** Whether `statement` may leave its function early (a `return` / `throw` outside nested functions). */
function exitsEarly(statement: TSESTree.Node): boolean {
  return walkParsed(statement, (node) => (node.type === AST_NODE_TYPES.ReturnStatement || node.type === AST_NODE_TYPES.ThrowStatement ? 'stop' : undefined), { skipFunctions: true });
}

/** The name a function is called by: its own, a method's key, or the `const` it is assigned to. */
function functionNameOf(fn: TSESTree.Node): string | undefined {
  if ((fn.type === AST_NODE_TYPES.FunctionDeclaration || fn.type === AST_NODE_TYPES.FunctionExpression) && fn.id) return fn.id.name;
  const parent = fn.parent;
  if (parent?.type === AST_NODE_TYPES.MethodDefinition || parent?.type === AST_NODE_TYPES.Property || parent?.type === AST_NODE_TYPES.PropertyDefinition) return propertyName(parent.key, parent.computed);
  if (parent?.type === AST_NODE_TYPES.VariableDeclarator && parent.id.type === AST_NODE_TYPES.Identifier) return parent.id.name;
  return undefined;
}

/**
 * Adds to `urls` the URL texts of the loopback tests `node` runs under, up to its function; `false`
 * when it runs under another condition (a test that reads no loopback address, a `catch`, a
 * `switch` case, the right of `&&` / `||` / `??`).
 */
function gatesOf(context: AnyContext, node: TSESTree.Node, urls: Set<string>): boolean {
  for (let child = node, parent = node.parent; parent; child = parent, parent = parent.parent) {
    switch (parent.type) {
      case AST_NODE_TYPES.FunctionDeclaration:
      case AST_NODE_TYPES.FunctionExpression:
      case AST_NODE_TYPES.ArrowFunctionExpression:
        return true;
      case AST_NODE_TYPES.IfStatement:
      case AST_NODE_TYPES.ConditionalExpression:
        if (parent.test === child) break;
        // the `else` branch runs when the URL is not the loopback one
        if (parent.alternate === child || !loopbackTest(context, parent.test, urls)) return false;
        break;
      case AST_NODE_TYPES.BlockStatement:
      case AST_NODE_TYPES.Program: {
        // `if (!process.env.START_REDIS) return;` before the start: a condition too
        const index = (parent.body as TSESTree.Node[]).indexOf(child);
        if (parent.body.slice(0, Math.max(index, 0)).some(exitsEarly)) return false;
        break;
      }
      case AST_NODE_TYPES.LogicalExpression:
        if (parent.right === child) return false;
        break;
      case AST_NODE_TYPES.SwitchCase:
      case AST_NODE_TYPES.CatchClause:
        return false;
      default:
        break;
    }
  }
  return true;
}

/** Whether a test reads a loopback address (`url.startsWith('redis://localhost:')`); adds the `const` URLs it tests to `urls`. */
function loopbackTest(context: AnyContext, test: TSESTree.Node, urls: Set<string>): boolean {
  let loopback = false;
  const tested: string[] = [];
  let negated = false;
  walkParsed(test, (node) => {
    // `!url.startsWith('redis://localhost')`, `url !== 'redis://localhost:6379'`: the start runs off the loopback URL
    if ((node.type === AST_NODE_TYPES.UnaryExpression && node.operator === '!') || (node.type === AST_NODE_TYPES.BinaryExpression && (node.operator === '!==' || node.operator === '!='))) negated = true;
    if (node.type === AST_NODE_TYPES.Literal && typeof node.value === 'string' && LOOPBACK_IN_TEXT.test(node.value)) loopback = true;
    if (node.type !== AST_NODE_TYPES.Identifier) return;
    const parent = node.parent;
    if (parent?.type === AST_NODE_TYPES.MemberExpression && parent.property === node && !parent.computed) return;
    const init = constInitializer(context, node);
    if (init) tested.push(urlText(context, init));
  });
  if (negated || !loopbackOnly(test)) return false;
  if (loopback) for (const text of tested) urls.add(text);
  return loopback;
}

/** Whether every operand of a test's `&&` / `||` reads a loopback address (`isLocal && process.env.START_REDIS`: a flag too). */
function loopbackOnly(test: TSESTree.Node): boolean {
  const node = unwrap(test);
  if (node.type === AST_NODE_TYPES.LogicalExpression) return loopbackOnly(node.left) && loopbackOnly(node.right);
  return walkParsed(node, (inner) => (inner.type === AST_NODE_TYPES.Literal && typeof inner.value === 'string' && LOOPBACK_IN_TEXT.test(inner.value) ? 'stop' : undefined));
}

/** An expression's text, without spaces and with one kind of quote, for comparing URL expressions of two modules. */
function urlText(context: AnyContext, node: TSESTree.Node): string {
  return context.sourceCode.getText(node).replace(/\s+/g, '').replace(/['`]/g, '"');
}

/** Where a client was made to connect: the default server, a port, a URL expression, or a parameter of the function making it. */
type UrlSource =
  | { kind: 'port'; port: number }
  | { kind: 'url'; node: TSESTree.Node; context: AnyContext }
  | { kind: 'param'; fn: TSESTree.Node; index: number };

/** Whether a client connected through `source` is connected to one of `servers` (see the module comment). */
function covered(source: UrlSource, servers: readonly StartedServer[]): boolean {
  if (source.kind === 'param') return false;
  if (source.kind === 'port') return servers.some((server) => !server.gated && server.port === source.port);
  let url = unwrap(source.node);
  for (let depth = 0; url.type === AST_NODE_TYPES.Identifier && depth < MAX_DEPTH; depth++) {
    const init = constInitializer(source.context, url);
    if (!init) return false;
    url = unwrap(init);
  }
  const literal = staticValue(source.context, url);
  if (typeof literal === 'string') {
    const port = loopbackPort(literal);
    return port !== undefined && servers.some((server) => !server.gated && server.port === port);
  }
  if (url.type !== AST_NODE_TYPES.LogicalExpression || (url.operator !== '||' && url.operator !== '??')) return false;
  const fallback = staticValue(source.context, url.right);
  const port = typeof fallback === 'string' ? loopbackPort(fallback) : undefined;
  const text = urlText(source.context, url);
  return port !== undefined && servers.some((server) => server.gated && server.port === port && server.decidingUrls.has(text));
}

/**
 * Where the client `node` (read in `context`) was made to connect, one source per way it may have
 * been made; `undefined` when some way is not read (a parameter, another package's client, a
 * construction of another kind).
 */
function clientUrls(context: AnyContext, node: TSESTree.Node, depth: number): UrlSource[] | undefined {
  if (depth > MAX_DEPTH) return undefined;
  const bare = unwrap(node.type === AST_NODE_TYPES.AwaitExpression ? node.argument : node);
  if (bare.type === AST_NODE_TYPES.AwaitExpression) return clientUrls(context, bare.argument, depth + 1);
  if (bare.type === AST_NODE_TYPES.Identifier) {
    const init = constInitializer(context, bare);
    return init ? clientUrls(context, init, depth + 1) : undefined;
  }
  if (bare.type === AST_NODE_TYPES.MemberExpression) {
    if (unwrap(bare.object).type !== AST_NODE_TYPES.ThisExpression) return undefined;
    // `this.redis = new Redis()` (or a `const` of one); a constructor parameter is read at the `new` sites
    const value = instanceConstant(context, bare);
    const held = value ? unwrap(value) : undefined;
    if (value && !(held?.type === AST_NODE_TYPES.Identifier && findVariable(context, held)?.defs[0]?.type === 'Parameter')) return clientUrls(context, value, depth + 1);
    // the package starts its own server: a program, whose `new` sites are its own even when its
    // package.json does not say it is an application
    const sites = constructorArgumentSites(context, bare, true);
    if (!sites) return undefined;
    const sources: UrlSource[] = [];
    for (const site of sites) {
      const found = clientUrls(site.module ? moduleContext(context, site.module) : context, site.node, depth + 1);
      if (!found) return undefined;
      sources.push(...found);
    }
    return sources;
  }
  if (bare.type === AST_NODE_TYPES.NewExpression) {
    const name = calleeName(bare.callee);
    return name !== undefined && CLIENT_CLASSES.has(name) ? constructorUrl(context, bare.arguments) : undefined;
  }
  if (bare.type !== AST_NODE_TYPES.CallExpression) return undefined;
  const callee = unwrap(bare.callee);
  // `this.redis.pipeline()`, `client.multi()`: the client's
  if (callee.type === AST_NODE_TYPES.MemberExpression) {
    const method = propertyName(callee.property, callee.computed);
    return method === 'pipeline' || method === 'multi' ? clientUrls(context, callee.object, depth + 1) : undefined;
  }
  if (callee.type !== AST_NODE_TYPES.Identifier) return undefined;
  if (CLIENT_FACTORIES.has(callee.name)) return factoryUrl(context, bare.arguments[0]);
  const own = ownFunction(context, callee);
  if (!own) return undefined;
  const returned = returnedExpressions(own.fn);
  if (returned.length === 0) return undefined;
  const sources: UrlSource[] = [];
  for (const value of returned) {
    const found = clientUrls(own.context, value, depth + 1);
    if (!found) return undefined;
    for (const source of found) {
      if (source.kind !== 'param' || source.fn !== own.fn) {
        sources.push(source);
        continue;
      }
      // the function's URL parameter: the caller's argument
      const arg = bare.arguments[source.index];
      if (!arg || arg.type === AST_NODE_TYPES.SpreadElement) return undefined;
      sources.push(urlSource(context, arg));
    }
  }
  return sources;
}

/** A function of the code a callee names: declared in this module, or imported from another module of the code. */
function ownFunction(context: AnyContext, callee: TSESTree.Identifier): { fn: TSESTree.FunctionDeclaration | TSESTree.FunctionExpression | TSESTree.ArrowFunctionExpression; context: AnyContext } | undefined {
  const isFunction = (node: TSESTree.Node | undefined): node is TSESTree.FunctionDeclaration | TSESTree.FunctionExpression | TSESTree.ArrowFunctionExpression =>
    node?.type === AST_NODE_TYPES.FunctionDeclaration || node?.type === AST_NODE_TYPES.FunctionExpression || node?.type === AST_NODE_TYPES.ArrowFunctionExpression;
  const def = findVariable(context, callee)?.defs[0];
  if (def?.type === 'FunctionName' && isFunction(def.node)) return { fn: def.node, context };
  if (def?.type === 'Variable' && def.node.init && isFunction(unwrap(def.node.init))) return { fn: unwrap(def.node.init) as TSESTree.ArrowFunctionExpression, context };
  if (def?.type !== 'ImportBinding') return undefined;
  const imported = importedBinding(context, callee);
  if (!imported || imported.module.path.includes('node_modules')) return undefined;
  const fn = topLevelDeclaration(imported.module.program, imported.name);
  return isFunction(fn) ? { fn, context: moduleContext(context, imported.module) } : undefined;
}

/** A URL argument as a source: a parameter of the function it is read in, or the expression. */
function urlSource(context: AnyContext, node: TSESTree.Node): UrlSource {
  const bare = unwrap(node);
  if (bare.type === AST_NODE_TYPES.Identifier) {
    const def = findVariable(context, bare)?.defs[0];
    if (def?.type === 'Parameter') {
      const fn = def.node as TSESTree.FunctionDeclaration;
      const index = fn.params.findIndex((param) => {
        const id = param.type === AST_NODE_TYPES.AssignmentPattern ? param.left : param;
        return id.type === AST_NODE_TYPES.Identifier && id.name === bare.name;
      });
      if (index !== -1) return { kind: 'param', fn, index };
    }
  }
  return { kind: 'url', node, context };
}

/** Where `new Redis(...)` connects (https://github.com/redis/ioredis#connect-to-redis): nothing or options without a server (the default), a port, a URL, options with `host` / `port`. */
function constructorUrl(context: AnyContext, args: readonly TSESTree.CallExpressionArgument[]): UrlSource[] | undefined {
  const first = args[0];
  if (!first) return [{ kind: 'port', port: DEFAULT_SERVER_PORT }];
  if (first.type === AST_NODE_TYPES.SpreadElement) return undefined;
  const bare = unwrap(first);
  if (bare.type === AST_NODE_TYPES.ObjectExpression) return optionsUrl(context, bare, 'host');
  const value = staticValue(context, bare);
  if (typeof value === 'number') {
    // `new Redis(6380)`, `new Redis(6380, 'localhost')`
    const host = args[1] && args[1].type !== AST_NODE_TYPES.SpreadElement ? staticValue(context, args[1]) : undefined;
    const options = args[1] ? unwrap(args[1]) : undefined;
    if (options && options.type !== AST_NODE_TYPES.ObjectExpression && (typeof host !== 'string' || !isLoopbackHost(host))) return undefined;
    // `new Redis(6379, { host: 'redis.internal' })`: the options' host (a path, sentinels) is where it connects
    if (options?.type === AST_NODE_TYPES.ObjectExpression && !optionsUrl(context, options, 'host')) return undefined;
    return [{ kind: 'port', port: value }];
  }
  return [urlSource(context, first)];
}

/** Where node-redis `createClient(options)` connects (https://github.com/redis/node-redis/blob/master/docs/client-configuration.md): `url`, or `socket.host` / `socket.port`, or the default. */
function factoryUrl(context: AnyContext, options: TSESTree.CallExpressionArgument | undefined): UrlSource[] | undefined {
  if (!options) return [{ kind: 'port', port: DEFAULT_SERVER_PORT }];
  const bare = unwrap(options);
  if (bare.type !== AST_NODE_TYPES.ObjectExpression) return undefined;
  const url = pick(bare, 'url');
  if (url) return [urlSource(context, url)];
  const socket = pick(bare, 'socket');
  if (!socket) return optionsUrl(context, bare, 'none');
  const inner = unwrap(socket);
  return inner.type === AST_NODE_TYPES.ObjectExpression ? optionsUrl(context, inner, 'host') : undefined;
}

/**
 * Where an options object connects: its `port` (a number) on a loopback `host` (or none), or the
 * default server when it names none; `undefined` for a spread, a socket `path`, sentinels or
 * anything not written out.
 */
function optionsUrl(context: AnyContext, options: TSESTree.ObjectExpression, hostKey: 'host' | 'none'): UrlSource[] | undefined {
  if (options.properties.some((p) => p.type !== AST_NODE_TYPES.Property)) return undefined;
  for (const key of ['path', 'sentinels', 'url']) if (pick(options, key)) return undefined;
  const host = hostKey === 'host' ? pick(options, 'host') : undefined;
  if (host) {
    const value = staticValue(context, host);
    if (typeof value !== 'string' || !isLoopbackHost(value)) return undefined;
  }
  const portNode = pick(options, 'port');
  const port = portNode ? staticValue(context, portNode) : DEFAULT_SERVER_PORT;
  return typeof port === 'number' ? [{ kind: 'port', port }] : undefined;
}
