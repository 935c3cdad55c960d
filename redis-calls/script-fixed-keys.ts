/**
 * A script's `KEYS[i]` that every call of the script fixes to one key: the script mirror of the key
 * rules' bounded key (`allowConstantKeys`, `policy.ts` unexpiredBoundedKey). `redis.set(STATE_KEY, v)`
 * cannot pile up keys, and neither can `redis.eval(CAS, 1, STATE_KEY, v)` whose script SETs
 * `KEYS[1]`: the key argument is read with the key rules' own decision (a literal, a `const`, a
 * member of a const object, `getRedisKey('presence:records')` and other key builders called with
 * constants only, a member fixed once per instance, values of a finite type; not one per build,
 * and not a key the file gives a TTL elsewhere), at every call of the script.
 *
 * Every call must be known:
 *
 * - an `eval` (`evalRo`, `call('EVAL', ...)`, upstash `eval(script, keys, args)`) whose script is
 *   written at the call, or held by a `const` of this file that nothing reads but script calls
 *   whose `KEYS` can be read (a `const` passed to a function or put in an object may be run
 *   elsewhere, with other keys), and that is not exported, or exported by a module of an
 *   application no other module of which (tests left out) names it, re-exports it whole or takes
 *   the module whole (`exportReadByNoModule`);
 * - a script loaded once with `scriptLoad` whose digest only this file's `evalSha` calls run
 *   (`loaded-script-calls.ts`);
 * - a command `defineCommand` defines, in an application whose modules are read: its calls in the
 *   file and in the application's other modules (`defined-command-callers.ts`); a library's
 *   command is called by its users, with keys it cannot see.
 *
 * Not fixed (still judged by lua-lint): a `KEYS[i]` one call passes a key with a run-time part
 * (`` `user:${id}` ``, a parameter, a builder called with a run-time argument, a `let` assigned
 * again); a `KEYS[i]` the script itself gives a TTL somewhere, or any key the script expires
 * without the reading naming it (a TTL there says the key is meant to expire: a path that misses
 * it is a bug, as for a constant key the file expires); a stream the script appends to without
 * MAXLEN / MINID and does not trim (one key, but its entries pile up: `untrimmed-stream.ts`); a
 * `KEYS[i]` the script RENAMEs or COPYs to a key that is not fixed too (its value, with no TTL,
 * lands in one key per call: `RENAME KEYS[1] KEYS[1] .. ':' .. ARGV[1]`); a key
 * the script builds itself (`KEYS[1] .. ':' .. ARGV[1]`, never a `KEYS[i]`); scripts of imported
 * modules, node-redis `defineScript`, upstash `createScript` and GLIDE `Script`, whose calls are
 * not bound here.
 */
import { relative } from 'node:path';
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { definedCommandCallersElsewhere, inListedApplication } from './defined-command-callers.js';
import { embeddedScriptsOf, type EmbeddedScript } from './lua.js';
import { unexpiredBoundedKey } from './policy.js';
import { scriptKeyUses } from './script-consumers.js';
import { encloses, findVariable, unwrap, type AnyContext } from './static.js';
import { importersOf } from './importers.js';
import { moduleText } from './parsed-modules.js';
import { TEST_PATH } from './test-paths.js';
import { applicationRoot } from './uncalled.js';

/** The key arguments of one call of a script, with the context of the module the call is in. */
interface ScriptCall {
  keys: readonly TSESTree.Node[];
  context: AnyContext;
}

/**
 * The 1-based `KEYS` indices of `script` that every call of it fixes to one bounded key the file
 * does not expire, and the script neither expires nor appends to as an untrimmed stream (see the
 * module comment): lua-lint then takes them as kept, as the key rules take `redis.set(CONST, v)`.
 * @param context the rule context
 * @param script a script of the file, as `embeddedScriptsOf` found it at `call`
 * @param call the script-taking call it was found at
 */
export function fixedScriptKeys(context: AnyContext, script: EmbeddedScript, call: TSESTree.CallExpression | TSESTree.NewExpression): number[] {
  const calls = scriptCalls(context, script, call);
  if (!calls || calls.length === 0) return [];
  const { uses, expiresUnnamedKey } = scriptKeyUses(script.source);
  if (expiresUnnamedKey) return [];
  const own = (index: number) => uses.filter((use) => 'index' in use.key && use.key.index === index);
  const count = Math.min(...calls.map((c) => c.keys.length));
  const fixed: number[] = [];
  for (let index = 1; index <= count; index++) {
    const used = own(index);
    if (used.some((use) => use.expires)) continue;
    if (used.some((use) => use.appendsUncapped) && !used.some((use) => use.removesEntries)) continue;
    if (calls.every(({ keys, context: at }) => unexpiredBoundedKey(at, keys[index - 1]!))) fixed.push(index);
  }
  // a fixed key the script RENAMEs or COPYs to another key hands its value, with no TTL, to that
  // key: one key per call when that key is not fixed too (`RENAME KEYS[1] KEYS[1] .. ':' .. ARGV[1]`)
  for (let changed = true; changed; ) {
    changed = false;
    for (const index of [...fixed]) {
      const moved = own(index).some((use) => use.movesTo && !(use.movesTo.key && 'index' in use.movesTo.key && fixed.includes(use.movesTo.key.index)));
      if (moved) {
        fixed.splice(fixed.indexOf(index), 1);
        changed = true;
      }
    }
  }
  return fixed;
}

/** Every call of the script with its `KEYS`, or `undefined` when they cannot all be known (see the module comment). */
function scriptCalls(context: AnyContext, script: EmbeddedScript, call: TSESTree.CallExpression | TSESTree.NewExpression): ScriptCall[] | undefined {
  if (script.importedFrom || call.type !== AST_NODE_TYPES.CallExpression) return undefined;
  if (script.callerKeys) {
    // a defined command: in an application, its calls here and in the other modules
    if (!inListedApplication(context)) return undefined;
    const others = definedCommandCallersElsewhere(context, call);
    if (!others) return undefined;
    return [...script.callerKeys.map((keys) => ({ keys, context })), ...others];
  }
  // a script loaded once (SCRIPT LOAD): the EVALSHAs of its digest in this file (`loaded-script-calls.ts`)
  if (script.loadedCallerKeys) return script.loadedCallerKeys.map((keys) => ({ keys, context }));
  if (!script.keyArgs) return undefined;
  // written at the call: this call is its only one
  if (encloses(call, script.literal)) return [{ keys: script.keyArgs, context }];
  const holder = holderOf(context, script.literal);
  if (!holder) return undefined;
  const calls: ScriptCall[] = [];
  for (const reference of holder.references) {
    if (reference.init) continue;
    const at = scriptCallOf(reference.identifier as TSESTree.Node);
    const found = at ? embeddedScriptsOf(context, at).find((s): s is EmbeddedScript => !('unreadable' in s) && s.literal === script.literal) : undefined;
    if (!found?.keyArgs) return undefined;
    calls.push({ keys: found.keyArgs, context });
  }
  return calls;
}

/**
 * The `const` of this file whose initializer holds the script literal (`const CAS = \`...\``,
 * `String.raw\`...\``), when it is declared once and not exported.
 */
function holderOf(context: AnyContext, literal: TSESTree.Node) {
  let node: TSESTree.Node | undefined = literal;
  while (node && node.type !== AST_NODE_TYPES.VariableDeclarator) {
    if (node.type === AST_NODE_TYPES.CallExpression || node.type === AST_NODE_TYPES.Program || node.type.includes('Function') || node.type === AST_NODE_TYPES.Property) return undefined;
    node = node.parent;
  }
  if (!node || node.id.type !== AST_NODE_TYPES.Identifier || !node.init || !encloses(node.init, literal)) return undefined;
  const declaration = node.parent;
  if (declaration?.type !== AST_NODE_TYPES.VariableDeclaration || declaration.kind !== 'const') return undefined;
  // exported: its calls elsewhere are unknown, unless no other module of the application reads it
  if (declaration.parent?.type === AST_NODE_TYPES.ExportNamedDeclaration && !exportReadByNoModule(context, node.id.name)) return undefined;
  const variable = findVariable(context, node.id);
  return variable && variable.defs.length === 1 ? variable : undefined;
}

/** The call a reference of the script's `const` is an argument of (`redis.eval(SCRIPT, ...)`, `call('EVAL', SCRIPT, ...)`, `sendCommand(['EVAL', SCRIPT, ...])`). */
function scriptCallOf(identifier: TSESTree.Node): TSESTree.CallExpression | undefined {
  let node = identifier;
  while (node.parent && unwrap(node.parent) === unwrap(identifier) && node.parent.type !== AST_NODE_TYPES.CallExpression) node = node.parent;
  let parent = node.parent;
  if (parent?.type === AST_NODE_TYPES.ArrayExpression) {
    node = parent;
    parent = parent.parent;
  }
  return parent?.type === AST_NODE_TYPES.CallExpression && parent.arguments.includes(node as TSESTree.CallExpressionArgument) ? parent : undefined;
}

/**
 * Whether the `const` the linted module exports as `name` is read by no other module: the module is
 * part of an application (`uncalled.ts` applicationRoot: nobody outside imports it), and none of the
 * modules of the package that import it (`importers.ts` importersOf; tests left out: a test reading
 * the script's text runs no eval in production) writes the name, re-exports the whole module
 * (`export * from`) or takes it whole (`import * as`, a bare `require`), through which the name could
 * travel unwritten. Its calls are then this module's alone. An importer that cannot be read counts
 * as one that reads it.
 */
function exportReadByNoModule(context: AnyContext, name: string): boolean {
  const file = context.physicalFilename ?? context.filename;
  const root = file ? applicationRoot(file) : undefined;
  if (!file || root === undefined) return false;
  const word = new RegExp(`(?<![\\w$])${name.replace(/[^\w$]/g, '\\$&')}(?![\\w$])`);
  for (const importer of importersOf(file, root)) {
    if (TEST_PATH.test(relative(root, importer))) continue;
    const text = moduleText(importer);
    if (text === undefined) return false;
    if (word.test(text) || /\bexport\s*\*/.test(text) || /\bimport\s*\*/.test(text) || /(?<![\w$.])require\s*\(/.test(text)) return false;
  }
  return true;
}
