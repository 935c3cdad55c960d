/**
 * Every call of a method that only its own class calls, for `key-shape.ts`: the parameter of such a
 * method takes the values its class's `this.method(...)` calls pass, as the parameter of a function
 * only its module calls takes its calls' arguments.
 *
 * ```js
 * class IpTaskService extends Service {
 *   async run() {
 *     const apps = await this.ctx.model.System.distinct('app_id').exec();
 *     apps.forEach((appId) => this.runOne(appId));        // the one call of runOne
 *   }
 *   async runOne(appId) { ... this.saveCursor(appId, at); }
 *   saveCursor(appId, at) { this.app.redis.set(`ip_task_begin_time_${appId}`, at); }
 * }
 * ```
 *
 * What counts, conservatively (a call missed would give a parameter a value it does not only take):
 *
 * - an instance method (not static, not computed, not a getter or setter) of a class of an
 *   **application** (`uncalled.ts` applicationRoot: a library's methods are its users' to call, a
 *   workspace member's a sibling package's too, a template framework's its templates'), that its
 *   class calls at least once;
 * - in its module, the method's name is written only as the method's own key and as the callee of
 *   `this.name(...)` in a method or arrow field of its class (where `this` is an instance of it),
 *   nowhere else: not read without a call, not on another receiver, not in a string, and the
 *   class makes no `this[expr]` access;
 * - in every other source file of the package (tests left out: `test-paths.ts`) that writes the
 *   name, it is written only as a method key of a class and as `this.name(...)` inside a class that
 *   declares a method of that name itself (a sibling service with a method of the same name calls
 *   its own); a file that does not parse counts as a caller;
 * - anywhere, the key of an interface's or type literal's signature (`bump(user: string): void;`)
 *   declares the name and calls nothing; a call through that interface is a call on another receiver.
 */
import type { TSESTree } from '@typescript-eslint/utils';
import { collectOwnCalls } from './own-class-calls.js';
import { applicationRoot } from './uncalled.js';
import type { AnyContext } from './static.js';

const cache = new WeakMap<TSESTree.Node, readonly TSESTree.CallExpression[] | null>();

/**
 * The `this.name(...)` calls of the method whose function is `fn`, when they are all of its calls
 * (see the module comment), else `undefined`.
 * @param context the rule context of the file `fn` is written in
 */
export function ownMethodCalls(context: AnyContext, fn: TSESTree.Node): readonly TSESTree.CallExpression[] | undefined {
  let found = cache.get(fn);
  if (found === undefined) {
    const file = context.physicalFilename ?? context.filename;
    const root = file ? applicationRoot(file) : undefined;
    found = (root === undefined ? undefined : collectOwnCalls(context, fn, root)) ?? null;
    cache.set(fn, found);
  }
  return found ?? undefined;
}
