/**
 * Values a package's configuration modules give by name, for `key-shape.ts`: a key read from the
 * application's configuration object (`const { config: { appsKey } } = this.app`,
 * `this.app.config.logsKey`) is spelled by the literal its configuration files assign it.
 *
 * Configuration modules are the code files (`.js`, `.ts`, `.cjs`, `.mjs`) of the package's
 * `config/` and `src/config/` folders (the convention of Egg.js and Midway, whose `app.config`
 * merges `config/config.default.js` with the environment's `config.<env>.js`, and of node-config's
 * `config/default.js`). A name counts as configured when, across every such file, each assignment
 * of it (`config.appsKey = 'XTRANSIT_APP'`) and each object property of that name (`{ appsKey:
 * 'XTRANSIT_APP' }`) is one and the same string literal: one value whatever the environment. A
 * name given two literals (an environment override), a computed value or nothing has no spelling
 * here; a file that does not parse makes every name unknown.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { loadModule, specifierOf } from './modules.js';
import { LISTING_TTL_MS, packageOf } from './project.js';
import { propertyName, walkParsed, type AnyContext } from './static.js';

/** The folders of a package root its configuration modules are read from. */
const CONFIG_FOLDERS = ['config', join('src', 'config')];
/** Code files a configuration folder's listing keeps (declaration files left out). */
const CODE_FILE = /^(?!.*\.d\.[cm]?ts$).*\.(?:[cm]?js|[cm]?ts)$/;
/** At most this many configuration files are read per package: a larger folder is no configuration. */
const MAX_CONFIG_FILES = 40;

/** Per package root: when it was read, and each configured name's literals (`null`: a value that is no literal). */
const configured = new Map<string, { at: number; values: Map<string, Set<string> | null> | undefined }>();

/** The configuration files of the package root `root`, or `undefined` when there are too many. */
function configFiles(root: string): string[] | undefined {
  const files: string[] = [];
  for (const folder of CONFIG_FOLDERS) {
    const dir = join(root, folder);
    if (!existsSync(dir)) continue;
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      continue;
    }
    for (const name of names.sort()) if (CODE_FILE.test(name)) files.push(join(dir, name));
  }
  return files.length > MAX_CONFIG_FILES ? undefined : files;
}

/** Records the value `value` given to the name `name`: its text when a string literal, else `null` (no spelling). */
function record(values: Map<string, Set<string> | null>, name: string, value: TSESTree.Node): void {
  const known = values.get(name);
  if (known === null) return;
  if (value.type !== AST_NODE_TYPES.Literal || typeof value.value !== 'string') {
    values.set(name, null);
    return;
  }
  if (known) known.add(value.value);
  else values.set(name, new Set([value.value]));
}

/** Per package root: when its configuration modules were read, and their programs (`undefined`: one does not parse, or too many). */
const programs = new Map<string, { at: number; programs: TSESTree.Program[] | undefined }>();

/**
 * The parsed configuration modules of the linted file's package (see the module's comment), for
 * readings of the configuration other than a name's literal (egg-redis' `redis.clients`:
 * `redis-calls/client-registries.ts`); `undefined` when the file is in no package, a module does
 * not parse, or the folder holds too many files.
 * @param context the rule context of the file that reads the configuration
 */
export function configurationPrograms(context: AnyContext): TSESTree.Program[] | undefined {
  const file = context.physicalFilename ?? context.filename;
  const pkg = packageOf(file);
  if (!pkg) return undefined;
  const now = Date.now();
  const cached = programs.get(pkg.root);
  if (cached && now - cached.at < LISTING_TTL_MS) return cached.programs;
  const files = configFiles(pkg.root);
  let found: TSESTree.Program[] | undefined = files ? [] : undefined;
  for (const path of files ?? []) {
    const module = loadModule(context, specifierOf(file, path));
    if (!module) {
      found = undefined;
      break;
    }
    found!.push(module.program);
  }
  programs.set(pkg.root, { at: now, programs: found });
  return found;
}

/** Every name the configuration modules of the linted file's package assign or declare, with its values; `undefined` when one does not parse. */
function configuredValues(context: AnyContext): Map<string, Set<string> | null> | undefined {
  const file = context.physicalFilename ?? context.filename;
  const pkg = packageOf(file);
  if (!pkg) return undefined;
  const now = Date.now();
  const cached = configured.get(pkg.root);
  if (cached && now - cached.at < LISTING_TTL_MS) return cached.values;
  const modules = configurationPrograms(context);
  const values = modules ? new Map<string, Set<string> | null>() : undefined;
  for (const program of modules ?? []) {
    walkParsed(program, (node) => {
      if (node.type === AST_NODE_TYPES.AssignmentExpression && node.left.type === AST_NODE_TYPES.MemberExpression) {
        const name = propertyName(node.left.property, node.left.computed);
        if (name !== undefined) record(values!, name, node.right);
      } else if (node.type === AST_NODE_TYPES.Property && node.parent?.type === AST_NODE_TYPES.ObjectExpression) {
        const name = propertyName(node.key, node.computed);
        if (name !== undefined) record(values!, name, node.value);
      }
    });
  }
  configured.set(pkg.root, { at: now, values });
  return values;
}

/**
 * The one string literal the configuration modules of the linted file's package give the
 * configuration property `name` (see the module's comment), or `undefined` when they give it
 * none, several, or a value that is no literal.
 * @param context the rule context of the file that reads the configuration
 * @param name the configuration property's name (`appsKey`)
 */
export function configuredLiteral(context: AnyContext, name: string): string | undefined {
  const values = configuredValues(context)?.get(name);
  return values && values.size === 1 ? [...values][0] : undefined;
}
