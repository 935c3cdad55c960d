/**
 * Two readings of "a subclass may replace this method", side by side (no behaviour is changed
 * here; the test pins both): redis-calls/helper-read.ts helperOf, which takes no `this.name(...)`
 * helper whose name a class of the file extending the caller's class (by name, class declarations
 * only, any depth, any staticness) declares, and redis-calls/overridden-methods.ts
 * methodOverridden (the file's classes and class expressions, resolved by binding through `const`
 * aliases, a mixin or member `extends` naming the class, 8 levels deep, the same staticness, abstract
 * members too, a replacement of the member by assignment or `Object.assign` anywhere in the file,
 * subclasses in importing modules; never a `private` method). Each case below is an input on which
 * helper-read calling methodOverridden would give another answer, and one where the two agree.
 * A probe rule reports, for `this.getActive(id)` in class `Actions`, whether helperOf finds the
 * helper and whether methodOverridden calls `Actions.getActive` overridden: the two agree when
 * exactly one is true.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import tsParser from '@typescript-eslint/parser';
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { Linter, type Rule } from 'eslint';
import { afterAll, describe, expect, it } from 'vitest';
import { helperOf } from '../../redis-calls/helper-read.js';
import { methodOverridden } from '../../redis-calls/overridden-methods.js';
import { propertyName, type AnyContext } from '../../redis-calls/static.js';
import { writeProject } from '../helpers/lint.js';
import { nodeRedis } from './tester.js';

/** `Actions`, whose `complete` awaits the helper `getActive` that reads the key it then writes; `mod` goes before `async getActive`. */
const base = (mod = '') => `export class Actions {
  async start(id: string) {
    await client.hSet(\`action:\${id}\`, 'a', '1');
    await client.expire(\`action:\${id}\`, 3600);
  }
  ${mod}async getActive(id: string) {
    const data = await client.hGet(\`action:\${id}\`, 'a');
    if (data === null) return null;
    return data;
  }
  async complete(id: string) {
    const action = await this.getActive(id);
    if (!action) return false;
    await client.hSet(\`action:\${id}\`, 'status', 'done');
    await client.expire(\`action:\${id}\`, 60);
    return true;
  }
}
`;
const OVERRIDE = '  async getActive(id: string) { return id; }\n';
const chain = (length: number) =>
  'class C1 extends Actions {}\n' + Array.from({ length: length - 2 }, (_, i) => `class C${i + 2} extends C${i + 1} {}\n`).join('') + `export class C${length} extends C${length - 1} {\n${OVERRIDE}}\n`;

/** What the probe saw: helperOf found the helper; methodOverridden called `Actions.getActive` overridden. */
interface Seen {
  helper?: boolean;
  overridden?: boolean;
}

function probe(seen: Seen): Rule.RuleModule {
  return {
    meta: { type: 'problem', schema: [] },
    create(context) {
      const ctx = context as unknown as AnyContext;
      return {
        CallExpression(node) {
          const call = node as unknown as TSESTree.CallExpression;
          if (call.callee.type === AST_NODE_TYPES.MemberExpression && call.callee.object.type === AST_NODE_TYPES.ThisExpression && propertyName(call.callee.property) === 'getActive') {
            seen.helper = helperOf(ctx, call) !== undefined;
          }
        },
        MethodDefinition(node) {
          const method = node as unknown as TSESTree.MethodDefinition;
          const cls = method.parent.parent;
          if (propertyName(method.key) === 'getActive' && cls.type === AST_NODE_TYPES.ClassDeclaration && cls.id?.name === 'Actions') seen.overridden = methodOverridden(ctx, cls, method);
        },
      };
    },
  };
}

const roots: string[] = [];
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

/** [helperOf found the helper, methodOverridden] on `file` of a project of `files` (one file `app.ts` when `files` is a string). */
function see(files: string | Record<string, string>, file = 'app.ts'): [boolean | undefined, boolean | undefined] {
  const project = typeof files === 'string' ? { 'package.json': JSON.stringify({ name: 'app', private: true }), [file]: nodeRedis(files) } : files;
  const root = writeProject(roots, project);
  const seen: Seen = {};
  const linter = new Linter({ configType: 'flat', cwd: root });
  const config = [{ files: ['**/*.ts'], languageOptions: { parser: tsParser }, plugins: { t: { rules: { probe: probe(seen) } } }, rules: { 't/probe': 'error' } as Linter.RulesRecord }];
  const messages = linter.verify(project[file]!, config, { filename: join(root, file) });
  expect(messages.filter((m) => m.fatal)).toEqual([]);
  return [seen.helper, seen.overridden];
}

describe('helper-read overriddenInFile and overridden-methods methodOverridden agree', () => {
  it.each([
    ['no subclass', base()],
    ['a subclass declaration of the file declaring the method', base() + `export class Quiet extends Actions {\n${OVERRIDE}}\n`],
    ['a subclass 8 classes down declaring it', base() + chain(8)],
    ['a subclass declaring a getter of the name', base() + 'export class Quiet extends Actions {\n  get getActive() { return async () => null; }\n}\n'],
  ])('%s', (_, code) => {
    const [helper, overridden] = see(code);
    expect(helper).toBe(!overridden);
  });

  it('an importer extending the class without declaring the name', () => {
    const files = {
      'package.json': JSON.stringify({ name: 'app', private: true }),
      'src/actions.ts': nodeRedis(base()),
      'src/quiet.ts': "import { Actions } from './actions';\nexport class Quiet extends Actions {\n  other() { return 1; }\n}\n",
    };
    expect(see(files, 'src/actions.ts')).toEqual([true, false]);
  });
});

describe('inputs on which helper-read calling methodOverridden would answer otherwise', () => {
  // helper-read takes the helper (not overridden); methodOverridden says overridden, so the
  // caller's write after `if (!action) return` would be reported (incr-needs-expire-on-create
  // separateRoundTrip at complete's HSET)
  it.each([
    ['a subclass that is a class expression', base() + `export const Quiet = class extends Actions {\n${OVERRIDE}};\n`],
    ['a subclass extending a const alias of the class', base() + `const Base = Actions;\nexport class Quiet extends Base {\n${OVERRIDE}}\n`],
    ['a subclass extending a mixin call of the class', base() + `const Logged = <T,>(c: T) => c;\nexport class Quiet extends Logged(Actions) {\n${OVERRIDE}}\n`],
    ['a subclass extending a member naming the class', base() + `const ns = { Actions };\nexport class Quiet extends ns.Actions {\n${OVERRIDE}}\n`],
    ['an anonymous subclass declaration (export default class extends)', base() + `export default class extends Actions {\n${OVERRIDE}}\n`],
    ['a subclass redeclaring the method abstract', base() + 'export abstract class Quiet extends Actions {\n  abstract getActive(id: string): Promise<string>;\n}\n'],
    ['the method assigned on the prototype', base() + 'Actions.prototype.getActive = async (id: string) => id;\n'],
    ['the method bound in the constructor', base('constructor() {\n    this.getActive = this.getActive.bind(this);\n  }\n  ')],
    ['an instance\'s method replaced (a test double)', base() + 'export function stub(a: Actions) {\n  a.getActive = async () => null;\n}\n'],
    ['a member of that name assigned on any other object', base() + 'export const handlers: Record<string, unknown> = {};\nhandlers.getActive = () => null;\n'],
    ['Object.assign onto any prototype of the file', base() + 'class Other {}\nObject.assign(Other.prototype, { hello() { return 1; } });\n'],
  ])('%s: helper taken, methodOverridden true', (_, code) => {
    expect(see(code)).toEqual([true, true]);
  });

  it('a subclass in a module importing the class: helper taken, methodOverridden true', () => {
    const files = {
      'package.json': JSON.stringify({ name: 'app', private: true }),
      'src/actions.ts': nodeRedis(base()),
      'src/quiet.ts': `import { Actions } from './actions';\nexport class Quiet extends Actions {\n${OVERRIDE}}\n`,
    };
    expect(see(files, 'src/actions.ts')).toEqual([true, true]);
  });

  // helper-read drops the helper (overridden); methodOverridden says not overridden, so the
  // caller's write would no longer be reported
  it.each([
    ['a subclass\'s static member of the name', base() + 'export class Quiet extends Actions {\n  static getActive(id: string) { return id; }\n}\n'],
    ['a private method a subclass declares again (TypeScript rejects it)', base('private ') + `export class Quiet extends Actions {\n${OVERRIDE}}\n`],
    ['a subclass 9 classes down (methodOverridden looks 8 up)', base() + chain(9)],
    ['a subclass of another class of the same name (in a function)', base() + `export function make() {\n  class Actions {}\n  class Quiet extends Actions {\n  ${OVERRIDE}  }\n  return Quiet;\n}\n`],
  ])('%s: no helper, methodOverridden false', (_, code) => {
    expect(see(code)).toEqual([false, false]);
  });
});
