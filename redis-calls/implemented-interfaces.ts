/**
 * Whether an interface of the code is implemented by a class of the code: `interface KV { set(...);
 * incr(...); expire(...) }` with `class RedisKV implements KV` (and `class MemoryKV implements
 * KV`). Such an interface is the application's own facade, which its classes implement and whose
 * methods decide what is sent; it is not the description of a client the code is handed (a
 * duck-typed client, `redis-calls/client-syntax.ts` duckTypedCommands), so a receiver typed with
 * it is no client (`redis-calls/client-annotations.ts`), and its calls are read through the
 * implementing class's methods (`redis-calls/facades.ts`).
 *
 * The implementing classes are looked for in the interface's module and in the modules importing
 * it, directly or through at most four more (`redis-calls/importers.ts`: bounded by depth and by
 * count), only in those whose text says `implements ... <name>`; a class on a test path (a mock)
 * counts only for an interface declared on one, and a class extending a client (`class Cache
 * extends Redis implements Store`) not at all: the commands it inherits are the client's, and
 * the interface describes a client. Cached per interface and package listing.
 */
import { relative, resolve } from 'node:path';
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import type { ClientDetector } from './clients.js';
import { walkImporters } from './importers.js';
import { loadModule, readModule, specifierOf } from './modules.js';
import { packageFiles, packageOf } from './project.js';
import { unwrap } from './static.js';
import { TEST_PATH } from './test-paths.js';

/**
 * Whether a method of `declaration` takes an options object (`opts?: { ex?: number; nx?: boolean }`,
 * a type literal, or a name of one declared in the same file): the interface then has an argument
 * grammar of its own, which a client's (positional `EX`, seconds) cannot judge. An interface whose
 * methods take only keys, values and numbers forwards a client's grammar and is read as one.
 */
export function declaresOptionsObject(declaration: TSESTree.TSInterfaceDeclaration): boolean {
  const program = programOf(declaration);
  const literalNamed = (name: string) =>
    program?.body.some((statement) => {
      const node = statement.type === AST_NODE_TYPES.ExportNamedDeclaration ? statement.declaration : statement;
      return (node?.type === AST_NODE_TYPES.TSInterfaceDeclaration && node.id.name === name) || (node?.type === AST_NODE_TYPES.TSTypeAliasDeclaration && node.id.name === name && node.typeAnnotation.type === AST_NODE_TYPES.TSTypeLiteral);
    }) ?? false;
  const isOptions = (type: TSESTree.TypeNode | undefined): boolean =>
    type?.type === AST_NODE_TYPES.TSTypeLiteral ||
    (type?.type === AST_NODE_TYPES.TSTypeReference && type.typeName.type === AST_NODE_TYPES.Identifier && literalNamed(type.typeName.name));
  return declaration.body.body.some((member) => {
    const params = member.type === AST_NODE_TYPES.TSMethodSignature ? member.params : member.type === AST_NODE_TYPES.TSPropertySignature && member.typeAnnotation?.typeAnnotation.type === AST_NODE_TYPES.TSFunctionType ? member.typeAnnotation.typeAnnotation.params : [];
    return params.some((param) => param.type === AST_NODE_TYPES.Identifier && isOptions(param.typeAnnotation?.typeAnnotation));
  });
}

/** The program holding `node`. */
function programOf(node: TSESTree.Node): TSESTree.Program | undefined {
  let current: TSESTree.Node | undefined = node;
  while (current && current.type !== AST_NODE_TYPES.Program) current = current.parent;
  return current;
}

/** Verdicts per interface (file and position), kept as long as the package listing they were read from. */
const verdicts = new Map<string, { files: readonly string[]; implemented: boolean }>();

/**
 * Whether a class of the code implements `declaration`, an interface of the module `detector`
 * judges in (see the module comment). `false` when the module is not a file of a package that can
 * be listed.
 * @param detector the client detector of the interface's module
 * @param declaration the interface
 */
export function implementedInCode(detector: ClientDetector, declaration: TSESTree.TSInterfaceDeclaration): boolean {
  const context = detector.contextOf;
  const linted = context.physicalFilename ?? context.filename;
  const own = detector.moduleOf?.path ?? linted;
  if (!own || !linted) return false;
  const info = packageOf(own);
  const files = info && packageFiles(info.root);
  if (!info || !files) return false;
  const ownPath = resolve(own);
  const key = `${ownPath}\0${declaration.range[0]}`;
  const cached = verdicts.get(key);
  if (cached && cached.files === files) return cached.implemented;
  const name = declaration.id.name;
  const mention = new RegExp(`\\bimplements\\b[^{]*\\b${name.replace(/[^\w$]/g, '\\$&')}\\b`);
  const ownIsTest = TEST_PATH.test(relative(info.root, ownPath));
  const implementedHere = (program: TSESTree.Program, moduleDetector: ClientDetector): boolean =>
    program.body.some((statement) => {
      const cls = statement.type === AST_NODE_TYPES.ExportNamedDeclaration || statement.type === AST_NODE_TYPES.ExportDefaultDeclaration ? statement.declaration : statement;
      if (cls?.type !== AST_NODE_TYPES.ClassDeclaration) return false;
      // `class Cache extends Redis implements Store`: its methods are the client's, so it is a client
      if (cls.superClass && moduleDetector.classifyConstruction(cls.superClass).redis) return false;
      return (cls.implements ?? []).some((clause) => {
        const id = unwrap(clause.expression);
        return id.type === AST_NODE_TYPES.Identifier && id.name === name && namesInterface(moduleDetector, id, ownPath, declaration.range[0], 0);
      });
    });
  const implemented = walkImporters(
    [ownPath],
    (path) => {
      if (path === ownPath) return implementedHere(detector.moduleOf?.program ?? context.sourceCode.ast, detector) ? 'found' : 'read';
      const text = readModule(linted, specifierOf(linted, path))?.entry.text;
      if (text === undefined || !mention.test(text)) return 'passed';
      const module = loadModule(context, specifierOf(linted, path));
      if (!module) return 'passed';
      return implementedHere(module.program, detector.detectorOf(module)) ? 'found' : 'read';
    },
    (path) => path !== ownPath && !ownIsTest && TEST_PATH.test(relative(info.root, path)),
  );
  if (verdicts.size > 2000) verdicts.clear();
  verdicts.set(key, { files, implemented });
  return implemented;
}

/** Whether `id` (of the module `detector` judges in) names the interface at `start` of the file `file`, here or through imports. */
function namesInterface(detector: ClientDetector, id: TSESTree.Identifier, file: string, start: number, depth: number): boolean {
  if (depth > 4) return false;
  const origin = detector.identifierOrigin(id);
  if (origin.kind === 'local') {
    const where = detector.moduleOf?.path ?? detector.contextOf.physicalFilename ?? detector.contextOf.filename;
    return origin.typeNode?.type === AST_NODE_TYPES.TSInterfaceDeclaration && resolve(where) === file && origin.typeNode.range[0] === start;
  }
  if (origin.kind !== 'import' || !origin.own) return false;
  const exported = detector.exported(origin);
  const node = exported && unwrap(exported.node);
  if (!exported || !node) return false;
  if (node.type === AST_NODE_TYPES.TSInterfaceDeclaration) {
    const where = exported.detector.moduleOf?.path ?? exported.detector.contextOf.physicalFilename ?? exported.detector.contextOf.filename;
    return resolve(where) === file && node.range[0] === start;
  }
  return node.type === AST_NODE_TYPES.Identifier && namesInterface(exported.detector, node, file, start, depth + 1);
}
