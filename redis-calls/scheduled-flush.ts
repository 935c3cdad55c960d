/**
 * Keys bounded by a **scheduled wipe of the whole keyspace**: the application runs, on a recurring
 * schedule, a FLUSHDB / FLUSHALL, or a DEL of every key a `KEYS '*'` listing returned, on the
 * database its writes go to; so no key outlives the schedule's period, whatever its TTL.
 *
 * ```js
 * // app/schedule/init.js (Egg.js): at start and every midnight
 * class Init extends Subscription {
 *   static get schedule() { return { cron: '0 0 0 * * *', immediate: true, type: 'worker' }; }
 *   async subscribe() {
 *     const keys = await this.app.redis.keys('*');
 *     for (const key of keys) await this.app.redis.del(key);
 *   }
 * }
 * // app/controller/home.js
 * await app.redis.set(token, JSON.stringify(user)); // not reported by `recommended`
 * ```
 *
 * What counts, in any module of the linted file's package (`project.ts`: its nearest
 * `package.json`; tests and `scripts/` left out: a test's cleanup and an operator's script run by
 * hand are no schedule):
 *
 * - **a wipe** (`semantics/keyspace-wipes.ts`): FLUSHDB or FLUSHALL through a client, with no
 *   argument but ASYNC / SYNC (a queue's `flushAll(error)` is another method); or KEYS with a
 *   pattern matching every key (`'*'`), whose reply (`const keys = await redis.keys('*')`, or the
 *   loop `for (const key of await redis.keys('*'))`) the same function hands to a DEL / UNLINK /
 *   GETDEL (the `delete` effect of `semantics/commands.ts`)
 *   whole (`del(...keys)`, `del(keys)`) or key by key (`for (const key of keys) del(key)`,
 *   `keys.forEach((key) => pipeline.del(key))`, with no `return` before the DEL in the callback), the
 *   listing's own variable (never reassigned: `keys = keys.filter(...)` keeps some keys; an inner
 *   `keys` shadowing it is another list); never through an ioredis client with a `keyPrefix`
 *   (it prefixes the DEL's keys, not the KEYS pattern: nothing is deleted). SCAN is not read;
 * - **unconditional** in its function: no `if`, `?:`, `&&` / `||`, `switch` or `catch` between the
 *   function and the wipe (a test of the listing itself, `if (keys.length)`, aside), and no
 *   `return` / `throw` / `continue` / `break` before it (`if (!config.flush) return;`: a wipe behind
 *   a flag; `if (key === KEEP) continue;`: a sweep of some keys);
 * - **on a recurring schedule**: the function is
 *   - the `subscribe()` of an Egg.js schedule class whose static `schedule` has a `cron` or an
 *     `interval` (and no `disable` other than `false`, no `env` list without `'prod'`), or the `task` of an Egg.js schedule object
 *     (`{ schedule: { interval: '1d' }, async task(ctx) {...} }`);
 *   - a method decorated `@Cron(...)` or `@Interval(...)` (`@nestjs/schedule`), with no `disabled`
 *     option but `false`;
 *   - the callback of `setInterval(fn, ms)`, node-cron's `cron.schedule(expression, fn)`,
 *     node-schedule's `scheduleJob([name,] rule, fn)` with a rule that is no `new Date(...)` (a
 *     date runs once), the cron package's `new CronJob(expression, fn)`, `CronJob.from({ onTick })`
 *     or `new CronJob({ onTick })`, itself registered unconditionally; a job built stopped (cron's
 *     default `start`, node-cron's `{ scheduled: false }`) only when started: `start: true` / a
 *     `true` fourth argument, or `.start()` called on it or on the name it is kept under in some
 *     module of the package; and the registration in code that may run (not in a function
 *     nothing calls: `uncalled.ts`, `export function startResetLoop()` no module calls);
 *   - or a function of the same module such a function calls unconditionally by name
 *     (`setInterval(() => this.reset(), DAY)`, `setInterval(reset, DAY)`), two calls deep at most
 *     (a method through `this`, an instance of its class or its object literal: `this.local.clear()`
 *     of a `Map` calls no `clear()` method of the class);
 * - **on the database of the writes**: FLUSHALL deletes every database; FLUSHDB and KEYS only the
 *   selected one, so they count when the package names no database but 0 (no `select(n)`, no
 *   `db:` / `database:` option and no `redis://host/n` URL with another number): a client on
 *   another database keeps its keys.
 *
 * The package's clients must all be made with one connection (`new Redis()` beside `new Redis({ db: 2 })`
 * is one server, `new Redis(CACHE_URL)` beside `new Redis()` may be two: a wipe of the cache server,
 * even a FLUSHALL, leaves the store's keys).
 *
 * Never: a wipe at start-up only (a long-running process keeps its keys until the next deploy), in
 * a route handler or a CLI, behind a flag, after a one-off `setTimeout`, or a wipe of one prefix
 * (`KEYS 'session:*'`: `pattern-drains.ts` reads the drains of a key family). BullMQ repeatable
 * jobs are not read.
 */
import { isAbsolute, relative } from 'node:path';
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { EFFECTS_THAT_DELETE_KEY } from '../semantics/commands.js';
import { isWipeMode, KEYSPACE_WIPES, matchesEveryKey } from '../semantics/keyspace-wipes.js';
import { fileIndexOf } from './file-index.js';
import { loadModule, moduleContext, readModule, specifierOf } from './modules.js';
import type { RedisCall } from './normalize.js';
import { LISTING_TTL_MS, packageFiles, packageOf } from './project.js';
import { enclosingFunction, findVariable, pick, propertyName, referenceName, staticValue, unwrap, walkParsed, type AnyContext } from './static.js';
import { testOnlyModule } from './test-paths.js';
import { uncalledDeclaration } from './uncalled.js';

type Variable = TSESLint.Scope.Variable;

/** What the scheduled wipes of a package delete: every database, the selected one, or nothing. */
type WipeScope = 'all' | 'database' | undefined;

/** Text a module must hold to be parsed: a wipe and a scheduler. */
const MAY_WIPE = /flush(?:db|all)|\bkeys\b/i;
const MAY_SCHEDULE = /setInterval|\bschedule|CronJob|@(?:Cron|Interval)\b/;
/** Modules of one package parsed for wipes, at most. */
const MAX_WIPING_MODULES = 100;
/** An operator's script, run by hand. */
const SCRIPT_PATH = /(?:^|[\\/])scripts?[\\/]/;
/** Database numbers a package names: `select(2)`, `db: 1`, `database: 3`, `redis://host:6379/4`. */
const DATABASE_NUMBER = /\bselect\(\s*(\d+)\s*[,)]|\b(?:db|database)\s*:\s*(\d+)|\brediss?:\/\/[^\s'"`/]*\/(\d+)\b/gi;
/** Statements that may end a run, or a turn of the loop over the keys, before the wipe. */
const EXITS: ReadonlySet<string> = new Set(['ReturnStatement', 'ThrowStatement', 'ContinueStatement', 'BreakStatement']);
/** How deep a function is followed to the scheduled function calling it. */
const MAX_CALL_DEPTH = 2;

/**
 * A client made with its connection written out: `new Redis(process.env.CACHE_URL)`, `createClient({ url })`
 * (group 1 or 2: the arguments, one level of parentheses deep).
 */
const CLIENT_CONSTRUCTION = /\bnew\s+(?:Redis|IORedis|Valkey|Cluster)\s*\(((?:[^()]|\([^()]*\))*)\)|\bcreate(?:Client|Cluster)\s*\(((?:[^()]|\([^()]*\))*)\)/g;

const scopes = new Map<string, { at: number; scope: WipeScope; otherDatabase: boolean }>();
/** The text of the package's modules while {@link readPackage} reads it: where a stopped job's `.start()` is looked for. */
let packageText = '';

/**
 * Whether every key the linted file writes is deleted by a scheduled wipe of the whole keyspace of
 * its database (see the module comment): its package runs a FLUSHALL on a recurring schedule, or a
 * FLUSHDB / a DEL of every key `KEYS '*'` lists while naming no database but 0.
 */
export function flushedOnSchedule(context: AnyContext): boolean {
  const file = context.physicalFilename ?? context.filename;
  if (!file || !isAbsolute(file)) return false;
  const root = packageOf(file)?.root;
  if (root === undefined) return false;
  const now = Date.now();
  let cached = scopes.get(root);
  if (!cached || now - cached.at >= LISTING_TTL_MS) {
    cached = { at: now, ...readPackage(context, file, root) };
    scopes.set(root, cached);
  }
  return cached.scope === 'all' || (cached.scope === 'database' && !cached.otherDatabase);
}

/**
 * The server a client construction's arguments name, as text: the first argument (a URL, a port),
 * or of an options object only its `url`, `host`, `port` and `path` (`{ ...opts, maxRetriesPerRequest:
 * null }` and a `db` name the same server; another database is read by {@link DATABASE_NUMBER}).
 */
function serverOf(args: string): string {
  let depth = 0;
  let end = args.length;
  for (let i = 0; i < args.length; i++) {
    const c = args[i]!;
    if ('([{'.includes(c)) depth++;
    else if (')]}'.includes(c)) depth--;
    else if (c === ',' && depth === 0) {
      end = i;
      break;
    }
  }
  const first = args.slice(0, end).replace(/[\s!]/g, '');
  if (!first.startsWith('{')) return first;
  return [...first.matchAll(/\b(url|host|port|path)\b(?::([^,}]+))?/g)].map((m) => `${m[1]}:${m[2] ?? m[1]}`).sort().join(',');
}

function readPackage(context: AnyContext, file: string, root: string): { scope: WipeScope; otherDatabase: boolean } {
  const files = packageFiles(root);
  if (files === undefined) return { scope: undefined, otherDatabase: true };
  let scope: WipeScope;
  let otherDatabase = false;
  const connections = new Set<string>();
  let parsed = 0;
  const texts: Array<{ specifier: string; text: string }> = [];
  for (const path of files) {
    if (testOnlyModule(root, path) || SCRIPT_PATH.test(relative(root, path))) continue;
    const specifier = specifierOf(file, path);
    const text = readModule(file, specifier)?.entry.text;
    if (text !== undefined) texts.push({ specifier, text });
  }
  // a job built stopped runs once something starts it, in any module (`job.start()`)
  packageText = texts.map((t) => t.text).join('\n');
  for (const { specifier, text } of texts) {
    for (const match of text.matchAll(DATABASE_NUMBER)) if (Number(match[1] ?? match[2] ?? match[3]) !== 0) otherDatabase = true;
    for (const match of text.matchAll(CLIENT_CONSTRUCTION)) connections.add(serverOf(match[1] ?? match[2] ?? ''));
    // past the cap, modules are still read for their database numbers, not parsed
    if (scope === 'all' || parsed >= MAX_WIPING_MODULES || !MAY_WIPE.test(text) || !MAY_SCHEDULE.test(text)) continue;
    parsed++;
    const module = loadModule(context, specifier);
    if (!module) continue;
    const found = moduleWipe(moduleContext(context, module));
    if (found === 'all' || (found === 'database' && scope === undefined)) scope = found;
  }
  packageText = '';
  // clients made with different connections (`new Redis(CACHE_URL)` beside `new Redis()`) may be
  // different servers: a wipe of one, even a FLUSHALL, leaves the other's keys
  return { scope: connections.size > 1 ? undefined : scope, otherDatabase };
}

/** The widest scheduled wipe of a module's code. */
function moduleWipe(context: AnyContext): WipeScope {
  const calls = fileIndexOf(context).calls;
  let scope: WipeScope;
  for (const call of calls) {
    // FLUSHDB / FLUSHALL take no argument but ASYNC / SYNC: a `flushAll(error)` is some other method
    const wipe = Object.hasOwn(KEYSPACE_WIPES, call.command) && call.args.every((arg) => typeof arg === 'string' && isWipeMode(arg)) ? KEYSPACE_WIPES[call.command] : undefined;
    const deletion = wipe ? call.node : listedKeysDeletion(context, call, calls);
    // the function the wipe runs in: the listing's, for a DEL in a callback over its keys
    const fn = enclosingFunction(call.node);
    // the listing's DEL may sit under a test that the listing found keys (`if (keys.length) del(...keys)`)
    const listing = wipe ? undefined : { context, call: call.node };
    if (!deletion || !fn || !unconditional(call.node, fn) || !unconditional(deletion, fn, listing)) continue;
    // a DEL in a callback over the keys (`keys.forEach((key) => ...)`): a `return` before it skips a key
    const callback = enclosingFunction(deletion);
    if (callback !== fn && !unconditional(deletion, callback, listing)) continue;
    if (!scheduled(context, fn, 0)) continue;
    if ((wipe ?? 'database') === 'all') return 'all';
    scope = 'database';
  }
  return scope;
}

/**
 * The DEL / UNLINK / GETDEL of the keys `listing` returned, when it is a KEYS of every key (`'*'`) and the
 * same function deletes its reply whole or each of its keys in a loop over it.
 */
function listedKeysDeletion(context: AnyContext, listing: RedisCall, calls: readonly RedisCall[]): TSESTree.Node | undefined {
  if (listing.command !== 'KEYS' || listing.client.keyPrefix !== undefined || listing.node.type !== 'CallExpression') return undefined;
  const pattern = listing.argNodes[0] ? staticValue(context, listing.argNodes[0]) : undefined;
  if (typeof pattern !== 'string' || !matchesEveryKey(pattern)) return undefined;
  const fn = enclosingFunction(listing.node);
  const listed = listedVariables(context, listing.node);
  if (listed.size === 0) return undefined;
  return calls.find(
    (other) =>
      other.description.keys.some((action) => EFFECTS_THAT_DELETE_KEY.has(action.effect)) &&
      other.client.keyPrefix === undefined &&
      other.node.type === 'CallExpression' &&
      other.node.range[0] > listing.node.range[0] &&
      withinFunction(other.node, fn) &&
      other.node.arguments.some((arg) => {
        const bare = unwrap(arg.type === 'SpreadElement' ? arg.argument : arg);
        // the variable itself, not its name: an inner `keys` shadowing the listing is another list
        const variable = bare.type === 'Identifier' ? findVariable(context, bare) : null;
        return variable !== null && listed.has(variable);
      }),
  )?.node;
}

/**
 * The variables the keys of a listing go by: the one holding its reply (`const keys = await
 * redis.keys('*')`, never reassigned: `keys = keys.filter(...)` keeps some keys), and the loop
 * variables of its elements (`for (const key of keys)`, `for (const key of await redis.keys('*'))`,
 * `keys.forEach((key) => ...)`).
 */
function listedVariables(context: AnyContext, listing: TSESTree.CallExpression): Set<Variable> {
  const variables = new Set<Variable>();
  let reply: TSESTree.Node = listing;
  while (reply.parent && (reply.parent.type === 'AwaitExpression' || reply.parent.type === 'TSAsExpression')) reply = reply.parent;
  const holder = reply.parent;
  if (holder?.type === 'VariableDeclarator' && holder.init === reply && holder.id.type === 'Identifier') {
    const variable = findVariable(context, holder.id);
    if (!variable || variable.references.some((ref) => ref.isWrite() && ref.identifier !== holder.id)) return variables;
    variables.add(variable);
    for (const ref of variable.references) {
      const use = ref.identifier as TSESTree.Node;
      const parent = use.parent;
      if (parent?.type === 'ForOfStatement' && parent.right === use) addLoopVariable(context, parent, variables);
      if (parent?.type === 'MemberExpression' && parent.object === use && ['forEach', 'map'].includes(propertyName(parent.property, parent.computed) ?? '')) {
        const callback = parent.parent?.type === 'CallExpression' ? parent.parent.arguments[0] : undefined;
        const param = callback && (callback.type === 'ArrowFunctionExpression' || callback.type === 'FunctionExpression') ? callback.params[0] : undefined;
        const element = param?.type === 'Identifier' ? findVariable(context, param) : null;
        if (element) variables.add(element);
      }
    }
  } else if (holder?.type === 'ForOfStatement' && holder.right === reply) {
    addLoopVariable(context, holder, variables);
  }
  return variables;
}

function addLoopVariable(context: AnyContext, loop: TSESTree.ForOfStatement, variables: Set<Variable>): void {
  const left = loop.left;
  const id = left.type === 'VariableDeclaration' && left.declarations[0]?.id.type === 'Identifier' ? left.declarations[0].id : left.type === 'Identifier' ? left : undefined;
  const variable = id ? findVariable(context, id) : null;
  if (variable) variables.add(variable);
}

/** Whether `node` is in `fn`'s own code, or in a callback of it (`keys.forEach((key) => del(key))`). */
function withinFunction(node: TSESTree.Node, fn: TSESTree.Node | undefined): boolean {
  if (!fn) return enclosingFunction(node) === undefined;
  return fn.range[0] <= node.range[0] && node.range[1] <= fn.range[1];
}

/** The KEYS call whose reply a deletion deletes, and the context of its module. */
interface Listing {
  context: AnyContext;
  call: TSESTree.Node;
}

/**
 * Whether `node` runs on every run of `fn`: no branch between them (aside, for the deletion of a
 * `listing`'s keys, the consequent of an `if` testing that the listing found keys: `if
 * (keys.length) del(...keys)`), and no `return`, `throw`, `continue` or `break` before it.
 */
function unconditional(node: TSESTree.Node, fn: TSESTree.Node | undefined, listing?: Listing): boolean {
  for (let child = node, parent = node.parent; parent && parent !== fn; child = parent, parent = parent.parent) {
    if (parent.type === 'IfStatement' && parent.test !== child && !(listing && parent.consequent === child && testsFound(listing, parent.test))) return false;
    if (parent.type === 'ConditionalExpression' && parent.test !== child) return false;
    if (parent.type === 'LogicalExpression' && parent.right === child) return false;
    if (parent.type === 'SwitchCase' || parent.type === 'CatchClause') return false;
  }
  if (!fn || !('body' in fn) || !fn.body) return true;
  return !walkParsed(
    fn.body as TSESTree.Node,
    (inner) => (EXITS.has(inner.type) && inner.range[0] < node.range[0] ? 'stop' : undefined),
    { skipFunctions: true },
  );
}

/**
 * Whether `test` holds exactly when the listing found keys: `keys.length`, `keys.length > 0`,
 * `keys.length !== 0` / `!= 0`, of the variable the listing's reply is stored in (`const keys =
 * await redis.keys('*')`); not `=== 0`, another list's length, nor another bound.
 */
function testsFound(listing: Listing, test: TSESTree.Node): boolean {
  let bare = unwrap(test);
  if (bare.type === 'BinaryExpression') {
    const right = unwrap(bare.right);
    if (!['>', '!==', '!='].includes(bare.operator) || right.type !== 'Literal' || right.value !== 0 || bare.left.type === 'PrivateIdentifier') return false;
    bare = unwrap(bare.left);
  }
  if (bare.type !== 'MemberExpression' || propertyName(bare.property, bare.computed) !== 'length' || bare.object.type !== 'Identifier') return false;
  const variable = findVariable(listing.context, bare.object);
  const def = variable?.defs.length === 1 ? variable.defs[0] : undefined;
  if (def?.type !== 'Variable' || !def.node.init) return false;
  const init = unwrap(def.node.init);
  return (init.type === 'AwaitExpression' ? unwrap(init.argument) : init) === listing.call;
}

/** Whether the function `fn` runs on a recurring schedule (see the module comment). */
function scheduled(context: AnyContext, fn: TSESTree.Node, depth: number): boolean {
  const parent = fn.parent;
  if (parent?.type === 'MethodDefinition' || parent?.type === 'Property') {
    const name = propertyName(parent.key, parent.computed);
    if (parent.type === 'MethodDefinition' && recurringDecorator(parent)) return true;
    if (name === 'subscribe' && parent.type === 'MethodDefinition' && parent.parent.type === 'ClassBody' && eggClassSchedule(parent.parent)) return true;
    if (name === 'task' && parent.type === 'Property' && parent.parent.type === 'ObjectExpression') {
      const schedule = pick(parent.parent, 'schedule');
      if (schedule && recurringEggSchedule(schedule)) return true;
    }
  }
  if (parent?.type === 'CallExpression' || parent?.type === 'NewExpression' || parent?.type === 'Property') {
    const registration = schedulerRegistration(parent, fn);
    // registered in code that never runs (`startResetLoop()` nothing calls: uncalled.ts), it schedules nothing
    if (registration) return unconditional(registration, enclosingFunction(registration)) && uncalledDeclaration(context, registration) === undefined;
  }
  if (depth >= MAX_CALL_DEPTH) return false;
  const name = functionName(fn);
  if (name === undefined) return false;
  let program: TSESTree.Node = fn;
  while (program.parent) program = program.parent;
  // a scheduler handed the function by name (`setInterval(reset, ms)`, `setInterval(this.reset.bind(this), ms)`)
  // or a scheduled function calling it (`setInterval(() => this.reset(), ms)`)
  return walkParsed(program, (node) => {
    if (node.type !== 'CallExpression' && node.type !== 'NewExpression') return undefined;
    for (const arg of node.arguments) {
      if (namesFunction(context, arg, name, fn) && schedulerRegistration(node, arg) && unconditional(node, enclosingFunction(node)) && uncalledDeclaration(context, node) === undefined) return 'stop';
    }
    if (node.type !== 'CallExpression' || !namesFunction(context, node.callee, name, fn)) return undefined;
    const caller = enclosingFunction(node);
    return caller && caller !== fn && unconditional(node, caller) && scheduled(context, caller, depth + 1) ? 'stop' : undefined;
  });
}

/** The name a function is called by: its declaration's, its method's or property's, the `const` holding it. */
function functionName(fn: TSESTree.Node): string | undefined {
  if (fn.type === 'FunctionDeclaration') return fn.id?.name;
  const parent = fn.parent;
  if (parent?.type === 'MethodDefinition' || parent?.type === 'Property' || parent?.type === 'PropertyDefinition') return propertyName(parent.key, parent.computed);
  if (parent?.type === 'VariableDeclarator' && parent.id.type === 'Identifier') return parent.id.name;
  return undefined;
}

/**
 * Whether `node` names the function `fn` called `name`: `name` for a function of the module;
 * for a method, `this.name`, or `obj.name` where `obj` is a `const` holding an instance of its
 * class (`new Cache()`) or the object literal it belongs to; any of them `.bind(...)`. Another
 * object's method of the same name (`this.local.clear()` of a `Map`) is not it.
 */
function namesFunction(context: AnyContext, node: TSESTree.Node, name: string, fn: TSESTree.Node): boolean {
  const bare = unwrap(node);
  if (bare.type === 'CallExpression' && bare.callee.type === 'MemberExpression' && propertyName(bare.callee.property, bare.callee.computed) === 'bind') return namesFunction(context, bare.callee.object, name, fn);
  const member = fn.parent?.type === 'MethodDefinition' || fn.parent?.type === 'PropertyDefinition' || fn.parent?.type === 'Property' ? fn.parent : undefined;
  if (bare.type === 'Identifier') return !member && bare.name === name;
  if (bare.type !== 'MemberExpression' || !member || propertyName(bare.property, bare.computed) !== name) return false;
  const object = unwrap(bare.object);
  if (object.type === 'ThisExpression') return true;
  if (object.type !== 'Identifier') return false;
  const def = findVariable(context, object)?.defs[0];
  const init = def?.type === 'Variable' && def.node.init ? unwrap(def.node.init) : undefined;
  if (!init) return false;
  // the object literal the method is a property of
  if (member.type === 'Property') return init === member.parent;
  // an instance of the method's class
  const cls = member.parent.parent;
  const id = cls && (cls.type === 'ClassDeclaration' || cls.type === 'ClassExpression') ? cls.id : undefined;
  return init.type === 'NewExpression' && id !== undefined && id !== null && init.callee.type === 'Identifier' && init.callee.name === id.name;
}

/**
 * The call registering `handler` with a recurring scheduler, when `site` is one: `setInterval(handler,
 * ms)`, `cron.schedule(expression, handler)`, `scheduleJob([name,] rule, handler)` (no `new Date`
 * rule), `new CronJob(expression, handler)`, or the `onTick` of `CronJob.from({...})` /
 * `new CronJob({...})` (`site` then the property).
 */
function schedulerRegistration(site: TSESTree.Node, handler: TSESTree.Node): TSESTree.Node | undefined {
  if (site.type === 'Property') {
    if (propertyName(site.key, site.computed) !== 'onTick' || site.value !== handler) return undefined;
    const call = site.parent.type === 'ObjectExpression' ? site.parent.parent : undefined;
    if (!call || (call.type !== 'CallExpression' && call.type !== 'NewExpression') || !/^(?:CronJob|from)$/.test(referenceName(call.callee) ?? '')) return undefined;
    // cron's job object runs only with `start: true` or once started (`job.start()`)
    const start = pick(site.parent, 'start');
    return (start && literalTrue(start)) || startedLater(call) ? call : undefined;
  }
  if (site.type !== 'CallExpression' && site.type !== 'NewExpression') return undefined;
  const args = site.arguments;
  const index = args.indexOf(handler as TSESTree.CallExpressionArgument);
  const name = referenceName(site.callee);
  if (index < 0 || name === undefined) return undefined;
  if (name === 'setInterval') return index === 0 ? site : undefined;
  // cron's `new CronJob(expression, onTick, onComplete, start)`: stopped unless `start` is true or the job is started later
  if (name === 'CronJob') return site.type === 'NewExpression' && index === 1 && ((args[3] && literalTrue(args[3])) || startedLater(site)) ? site : undefined;
  if (name === 'schedule' && site.callee.type === 'MemberExpression') {
    // node-cron's `{ scheduled: false }` builds a stopped task (`task.start()` runs it)
    const options = args[2] && unwrap(args[2]);
    const scheduledOption = options?.type === 'ObjectExpression' ? pick(options, 'scheduled') : undefined;
    const stopped = scheduledOption !== undefined && !literalTrue(scheduledOption);
    return index === 1 && recurringRule(args[0]) && (!stopped || startedLater(site)) ? site : undefined;
  }
  if (name === 'scheduleJob') return index === args.length - 1 && index > 0 && recurringRule(args[index - 1]) ? site : undefined;
  return undefined;
}

function literalTrue(node: TSESTree.Node): boolean {
  const bare = unwrap(node);
  return bare.type === 'Literal' && bare.value === true;
}

/**
 * Whether a job built stopped is started: `.start()` called on it (`new CronJob(...).start()`), or
 * on the name it is kept under (`const job = new CronJob(...)`, `this.job = ...`, `{ job: ... }`),
 * in some module of the package (`job.start()`, `this.job.start()`).
 */
function startedLater(job: TSESTree.Node): boolean {
  let holder: TSESTree.Node = job;
  while (holder.parent && (holder.parent.type === 'TSAsExpression' || holder.parent.type === 'TSNonNullExpression')) holder = holder.parent;
  const parent = holder.parent;
  if (parent?.type === 'MemberExpression' && parent.object === holder && propertyName(parent.property, parent.computed) === 'start') return true;
  let name: string | undefined;
  if (parent?.type === 'VariableDeclarator' && parent.id.type === 'Identifier') name = parent.id.name;
  else if (parent?.type === 'AssignmentExpression' && parent.right === holder) name = parent.left.type === 'Identifier' ? parent.left.name : parent.left.type === 'MemberExpression' ? propertyName(parent.left.property, parent.left.computed) : undefined;
  else if ((parent?.type === 'Property' || parent?.type === 'PropertyDefinition') && parent.value === holder) name = propertyName(parent.key, parent.computed);
  return name !== undefined && new RegExp(`(?<![\\w$])${name.replace(/\$/g, '\\$')}\\s*[?!]?\\.\\s*start\\s*\\(`).test(packageText);
}

/** A scheduler's rule that recurs: anything but a `Date` (node-schedule runs a job given a date once). */
function recurringRule(rule: TSESTree.Node | undefined): boolean {
  if (!rule || rule.type === 'SpreadElement') return false;
  const bare = unwrap(rule);
  return !(bare.type === 'NewExpression' && referenceName(bare.callee) === 'Date');
}


/** `@Cron(...)` or `@Interval(...)` (`@nestjs/schedule`) on a method. */
function recurringDecorator(method: TSESTree.MethodDefinition): boolean {
  return (method.decorators ?? []).some((decorator) => {
    const expression = decorator.expression;
    if (expression.type !== 'CallExpression' || !/^(?:Cron|Interval)$/.test(referenceName(expression.callee) ?? '')) return false;
    // `@Cron(expression, { disabled: ... })` (@nestjs/schedule): a job that may be disabled never runs there
    const options = expression.arguments[1] && unwrap(expression.arguments[1]);
    const disabled = options?.type === 'ObjectExpression' ? pick(options, 'disabled') : undefined;
    return disabled === undefined || (disabled.type === 'Literal' && disabled.value === false);
  });
}

/** The static `schedule` of an Egg.js schedule class (`static get schedule() { return {...}; }` or `static schedule = {...}`), when it recurs. */
function eggClassSchedule(body: TSESTree.ClassBody): boolean {
  return body.body.some((member) => {
    if (!('static' in member) || !member.static || !('key' in member) || propertyName(member.key, member.computed) !== 'schedule') return false;
    if (member.type === 'PropertyDefinition') return member.value !== null && recurringEggSchedule(member.value);
    if (member.type !== 'MethodDefinition' || member.kind !== 'get') return false;
    const returned = member.value.body?.body.find((statement) => statement.type === 'ReturnStatement');
    return returned?.type === 'ReturnStatement' && returned.argument !== null && recurringEggSchedule(returned.argument);
  });
}

/** An Egg.js `schedule` object that recurs: a `cron` or an `interval`, and no `disable` but `false`. */
function recurringEggSchedule(node: TSESTree.Node): boolean {
  const bare = unwrap(node);
  if (bare.type !== 'ObjectExpression') return false;
  const disable = pick(bare, 'disable');
  if (disable && !(disable.type === 'Literal' && disable.value === false)) return false;
  // `env: ['local', 'unittest']`: the schedule starts only in those environments; production is `prod`
  const env = pick(bare, 'env');
  if (env && !(env.type === 'ArrayExpression' && env.elements.some((e) => e?.type === 'Literal' && e.value === 'prod'))) return false;
  return pick(bare, 'cron') !== undefined || pick(bare, 'interval') !== undefined;
}
