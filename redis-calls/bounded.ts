/**
 * Values a key can be built from that take few values: the facts `key-shape.ts` needs to tell a
 * bounded key (a handful of keys, like a constant) from a family of keys that grows with the data.
 *
 * - **Fixed once per instance**: a class member that is `readonly`, or that the class sets only by
 *   its initializer or in its constructor and only reads afterwards (`constructor(private readonly
 *   channelName: string)`, `private queueKey = 'events:queue'`, `this.key = options.key` in the
 *   constructor and nowhere else). One instance writes one key through it.
 * - **Fixed once per factory call**: a parameter of a factory function (one that returns an object
 *   literal with methods, or a function), or a `const` of its body, read by the functions it
 *   returns (`createHandler({ keyPrefix })` returning `{ set(key) {...} }`): the factory's
 *   configuration, one value per instance it makes.
 * - **Finite types**: a parameter or variable whose declared type is a union of literals
 *   (`'daily' | 'weekly'`), `boolean`, an enum, a type alias of those (of the module, or exported
 *   by a relatively imported one), `keyof typeof CONST` or `(typeof LIST)[number]`; with type
 *   information, also one whose type the checker finds to be such a union when the code does not
 *   annotate it. Enum members (`Frequency.Daily`) are their value.
 * - **Queue names**: a parameter named as the name of a queue, lane, stream or topic (`queueName`,
 *   `lane`, `streamName`: `names.ts` QUEUE_NAME_VALUE), bare, destructured (`{ queueName }`) or
 *   read off an options parameter (`params.queueName`): one of the few queues the code's
 *   configuration sets up, so `` `${queueName}:gq:paused-jobs` `` is one key per queue. Not when
 *   it comes from request input (a property of `req`, `input`, `body` ...: `names.ts`
 *   REQUEST_INPUT_NAME), nor when the module's own calls of the function, which key-shape.ts
 *   reads, pass it data; an id (`queueId`) or an entity's name (`name`, `userQueue`) never.
 */
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import type * as ts from 'typescript';
import { loadModule, type ImportedModule } from './modules.js';
import { QUEUE_NAME_VALUE, REQUEST_INPUT_NAME } from './names.js';
import { findVariable, propertyName, walkOwnNodes, type AnyContext } from './static.js';

type ClassNode = TSESTree.ClassDeclaration | TSESTree.ClassExpression;

/** What a class says of one instance member a key reads (`this.<name>`). */
export interface InstanceMember {
  /** The values the class gives it: its initializer, and what its constructor assigns to it. */
  values: TSESTree.Node[];
  /** The constructor's parameters (their values are fixed for the instance's life). */
  constructorParams: TSESTree.Identifier[];
  /**
   * The names its destructured parameters bind (`constructor({ prefix = 'q', client })`): fixed
   * for the instance's life too; a name with a default is the left of its `AssignmentPattern`.
   */
  destructuredParams: TSESTree.Identifier[];
  /** Declared `readonly` (a constructor parameter property `private readonly x` too). */
  readonly: boolean;
  /** The member's declaration (a property, or a constructor parameter property), for annotations. */
  declaration?: TSESTree.Node;
}

/**
 * The instance member `this.<name>` reads, in the class around `member`, when it is fixed once
 * per instance: declared `readonly`, or set only by its initializer or in the constructor.
 * `undefined` when `this` is not the class's (a static member, a nested `function`), or the class
 * writes the member outside its constructor (or never) and does not declare it `readonly`.
 */
export function instanceMember(member: TSESTree.MemberExpression): InstanceMember | undefined {
  const name = memberName(member.property, member.computed);
  const cls = name === undefined ? undefined : classOfThis(member);
  if (!cls || name === undefined) return undefined;
  const values: TSESTree.Node[] = [];
  const constructorParams: TSESTree.Identifier[] = [];
  const destructuredParams: TSESTree.Identifier[] = [];
  let readonly = false;
  let declaration: TSESTree.Node | undefined;
  let writtenElsewhere = false;
  let writtenInConstructor = false;
  for (const element of cls.body.body) {
    if (element.type === AST_NODE_TYPES.PropertyDefinition && !element.static && memberName(element.key, element.computed) === name) {
      declaration = element;
      readonly ||= element.readonly;
      if (element.value) values.push(element.value);
      continue;
    }
    if (element.type !== AST_NODE_TYPES.MethodDefinition && element.type !== AST_NODE_TYPES.PropertyDefinition) continue;
    if (element.type === AST_NODE_TYPES.MethodDefinition && element.kind === 'constructor') {
      for (const param of element.value.params) {
        const id = param.type === AST_NODE_TYPES.TSParameterProperty ? param.parameter : param;
        const binding = id.type === AST_NODE_TYPES.AssignmentPattern ? id.left : id;
        if (binding.type === AST_NODE_TYPES.Identifier) constructorParams.push(binding);
        // the names of `{ prefix = 'q', client }` destructured from the options
        else destructuredParams.push(...boundNames(binding));
        if (param.type === AST_NODE_TYPES.TSParameterProperty && binding.type === AST_NODE_TYPES.Identifier && binding.name === name) {
          declaration = param;
          readonly ||= param.readonly;
          values.push(binding); // the argument the instance was made with
          writtenInConstructor = true;
        }
      }
      if (element.value.body) forEachThisWrite(element.value.body, name, (value) => {
        writtenInConstructor = true;
        if (value) values.push(value);
        else writtenElsewhere = true; // `this.key += ...`: not one value
      });
      continue;
    }
    // another method, an accessor, or an arrow-function property
    const body = element.type === AST_NODE_TYPES.MethodDefinition ? element.value.body : element.value;
    if (body) forEachThisWrite(body, name, () => (writtenElsewhere = true));
  }
  // set once: by its initializer (`private queueKey = 'events:queue'`) or in the constructor, and
  // only read afterwards
  const initialized = declaration?.type === AST_NODE_TYPES.PropertyDefinition && declaration.value !== null;
  if (!readonly && ((!writtenInConstructor && !initialized) || writtenElsewhere)) return undefined;
  return { values, constructorParams, destructuredParams, readonly, ...(declaration ? { declaration } : {}) };
}

/** The identifiers a parameter binds: itself, or every name of a destructuring pattern (defaults and rest included). */
function boundNames(node: TSESTree.Node): TSESTree.Identifier[] {
  switch (node.type) {
    case AST_NODE_TYPES.Identifier:
      return [node];
    case AST_NODE_TYPES.AssignmentPattern:
      return boundNames(node.left);
    case AST_NODE_TYPES.RestElement:
      return boundNames(node.argument);
    case AST_NODE_TYPES.ArrayPattern:
      return node.elements.flatMap((element) => (element ? boundNames(element) : []));
    case AST_NODE_TYPES.ObjectPattern:
      return node.properties.flatMap((property) => boundNames(property.type === AST_NODE_TYPES.Property ? property.value : property));
    default:
      return [];
  }
}

/**
 * What `this` is at a node: the nearest class, through arrow functions (which share `this`) but
 * not through other functions, with whether the node is in a static context (a static member or
 * a `static {}` block, where `this` is the class itself) and whether it is in the member's
 * computed key (`[this.x]`, evaluated outside the member). `undefined` outside classes and in a
 * nested `function`.
 */
export function thisBinding(node: TSESTree.Node): { cls: ClassNode; isStatic: boolean; inKey: boolean } | undefined {
  let current: TSESTree.Node = node;
  let child: TSESTree.Node = node;
  while (current.parent) {
    const parent: TSESTree.Node = current.parent;
    if (parent.type === AST_NODE_TYPES.ClassBody) {
      if (current.type === AST_NODE_TYPES.StaticBlock) return { cls: parent.parent, isStatic: true, inKey: false };
      const member = current.type === AST_NODE_TYPES.MethodDefinition || current.type === AST_NODE_TYPES.PropertyDefinition ? current : undefined;
      return { cls: parent.parent, isStatic: member?.static ?? false, inKey: member?.key === child };
    }
    if (
      (current.type === AST_NODE_TYPES.FunctionExpression && parent.type !== AST_NODE_TYPES.MethodDefinition) ||
      current.type === AST_NODE_TYPES.FunctionDeclaration
    ) {
      return undefined;
    }
    child = current;
    current = parent;
  }
  return undefined;
}

/**
 * The class whose instance `this` is at a node ({@link thisBinding}): not in a static member or a
 * static block.
 */
export function classOfThis(node: TSESTree.Node): ClassNode | undefined {
  const binding = thisBinding(node);
  return binding && !binding.isStatic ? binding.cls : undefined;
}

/**
 * Calls `visit` for each write of `this.<name>` in a body (arrow functions included, other
 * functions and classes not: their `this` differs): with the value of a plain `=`, with nothing
 * for `+=`, `++`, `delete` and destructuring targets.
 */
export function forEachThisWrite(root: TSESTree.Node, name: string, visit: (value: TSESTree.Node | undefined) => void): void {
  walkOwnNodes(
    root,
    (node) => {
      if (node.type !== AST_NODE_TYPES.MemberExpression || node.object.type !== AST_NODE_TYPES.ThisExpression || memberName(node.property, node.computed) !== name) return;
      const parent = node.parent;
      if (parent?.type === AST_NODE_TYPES.AssignmentExpression && parent.left === node) visit(parent.operator === '=' ? parent.right : undefined);
      else if (parent?.type === AST_NODE_TYPES.UpdateExpression) visit(undefined);
      else if (parent?.type === AST_NODE_TYPES.UnaryExpression && parent.operator === 'delete') visit(undefined);
      // `[this.a] = xs`, `({ k: this.a } = o)` write it; `{ k: this.a }` of an object literal reads it
      else if (parent && (parent.type === AST_NODE_TYPES.ArrayPattern || (parent.type === AST_NODE_TYPES.Property && parent.value === node && parent.parent?.type === AST_NODE_TYPES.ObjectPattern))) visit(undefined);
    },
    true,
  );
}

/** `name` of `x.name` / `this.#name` (`#name`); `undefined` when computed. */
function memberName(key: TSESTree.Node, computed: boolean): string | undefined {
  if (key.type === AST_NODE_TYPES.PrivateIdentifier) return `#${key.name}`;
  return propertyName(key, computed);
}

/**
 * The value of an enum member (`Frequency.Daily` with `enum Frequency { Daily = 'daily' }`): its
 * string or number initializer, `null` for a member without one (a number: still one of a few
 * values), `undefined` when `member` is no member of an enum of this module.
 */
export function enumMemberValue(context: AnyContext, member: TSESTree.MemberExpression): string | null | undefined {
  if (member.object.type !== AST_NODE_TYPES.Identifier) return undefined;
  const def = findVariable(context, member.object)?.defs[0];
  if (def?.type !== 'TSEnumName' || def.node.type !== AST_NODE_TYPES.TSEnumDeclaration) return undefined;
  const name = propertyName(member.property, member.computed);
  const found = name === undefined ? undefined : enumMember(def.node, name);
  if (!found) return undefined;
  const init = found.initializer;
  return init?.type === AST_NODE_TYPES.Literal && (typeof init.value === 'string' || typeof init.value === 'number') ? String(init.value) : null;
}

/** The member named `name` of an enum declaration (`Daily` of `enum Frequency { Daily = 'daily' }`), or `undefined`. */
export function enumMember(declaration: TSESTree.TSEnumDeclaration, name: string): TSESTree.TSEnumMember | undefined {
  const members = declaration.body?.members ?? (declaration as unknown as { members: TSESTree.TSEnumMember[] }).members;
  return members.find((m) => propertyName(m.id) === name);
}

/**
 * Whether a parameter or variable can only hold a few values: its declared type is finite (see
 * the module comment), or, with type information and no annotation, the checker's type of it is.
 */
export function hasFiniteType(context: AnyContext, id: TSESTree.Identifier): boolean {
  const annotation = id.typeAnnotation?.typeAnnotation;
  if (annotation) return finiteType(context, annotation, undefined, 0);
  return checkerSaysFinite(context, id);
}

/** A declared type that admits only a few values, read in the linted file or in an imported module. */
function finiteType(context: AnyContext, type: TSESTree.TypeNode, module: ImportedModule | undefined, depth: number): boolean {
  if (depth > 6) return false;
  switch (type.type) {
    case AST_NODE_TYPES.TSLiteralType:
      return type.literal.type !== AST_NODE_TYPES.TemplateLiteral || type.literal.expressions.length === 0;
    case AST_NODE_TYPES.TSBooleanKeyword:
    case AST_NODE_TYPES.TSUndefinedKeyword:
    case AST_NODE_TYPES.TSNullKeyword:
      return true;
    case AST_NODE_TYPES.TSUnionType:
      return type.types.every((member) => finiteType(context, member, module, depth + 1));
    case AST_NODE_TYPES.TSTypeOperator:
      // keyof typeof LIMITS
      return type.operator === 'keyof' && type.typeAnnotation?.type === AST_NODE_TYPES.TSTypeQuery;
    case AST_NODE_TYPES.TSIndexedAccessType:
      // (typeof FREQUENCIES)[number]
      return type.objectType.type === AST_NODE_TYPES.TSTypeQuery && type.indexType.type === AST_NODE_TYPES.TSNumberKeyword;
    case AST_NODE_TYPES.TSTypeReference: {
      if (type.typeName.type !== AST_NODE_TYPES.Identifier || type.typeArguments) return false;
      const declaration = module ? topLevelType(module, type.typeName.name) : typeOfThisFile(context, type.typeName);
      if (!declaration) return false;
      if (declaration.node.type === AST_NODE_TYPES.TSEnumDeclaration) return true;
      return finiteType(context, declaration.node.typeAnnotation, declaration.module, depth + 1);
    }
    default:
      return false;
  }
}

type TypeDeclaration = { node: TSESTree.TSTypeAliasDeclaration | TSESTree.TSEnumDeclaration; module: ImportedModule | undefined };

/** The type alias or enum a type name of the linted file refers to (imported relatively too). */
function typeOfThisFile(context: AnyContext, name: TSESTree.Identifier): TypeDeclaration | undefined {
  const def = findVariable(context, name)?.defs[0];
  if (!def) return undefined;
  if (def.node.type === AST_NODE_TYPES.TSTypeAliasDeclaration || def.node.type === AST_NODE_TYPES.TSEnumDeclaration) {
    return { node: def.node, module: undefined };
  }
  if (def.type !== 'ImportBinding' || def.parent?.type !== AST_NODE_TYPES.ImportDeclaration || def.node.type !== AST_NODE_TYPES.ImportSpecifier) return undefined;
  const module = loadModule(context, def.parent.source.value);
  const imported = def.node.imported.type === AST_NODE_TYPES.Identifier ? def.node.imported.name : def.node.imported.value;
  return module ? topLevelType(module, imported) : undefined;
}

/** A type alias or enum declared at an imported module's top level (exported or not). */
function topLevelType(module: ImportedModule, name: string): TypeDeclaration | undefined {
  for (const statement of module.program.body) {
    const declaration = statement.type === AST_NODE_TYPES.ExportNamedDeclaration ? statement.declaration : statement;
    if (
      (declaration?.type === AST_NODE_TYPES.TSTypeAliasDeclaration || declaration?.type === AST_NODE_TYPES.TSEnumDeclaration) &&
      declaration.id.name === name
    ) {
      return { node: declaration, module };
    }
  }
  return undefined;
}

/** With type information: the checker's declared type of the binding is a union of literals, `boolean` or an enum. */
function checkerSaysFinite(context: AnyContext, id: TSESTree.Identifier): boolean {
  const services = context.sourceCode.parserServices;
  if (!services?.program || !services.esTreeNodeToTSNodeMap) return false;
  const tsNode = services.esTreeNodeToTSNodeMap.get(id as never);
  if (!tsNode) return false;
  const checker = services.program.getTypeChecker();
  const symbol = checker.getSymbolAtLocation(tsNode as ts.Node);
  if (!symbol) return false;
  // the declared type, without flow analysis (which would resolve the calls around it)
  const type = checker.getTypeOfSymbol(symbol);
  const parts = type.isUnion() ? type.types : [type];
  // ts.TypeFlags: StringLiteral 128, NumberLiteral 256, BooleanLiteral 512, EnumLiteral 1024,
  // Undefined 32768, Null 65536
  return parts.every((part) => (part.flags & (128 | 256 | 512 | 1024 | 32768 | 65536)) !== 0) && parts.some((part) => (part.flags & (32768 | 65536)) === 0);
}

/**
 * A property a route handler's argument holds request input in: the path's parameters (Next.js'
 * `POST(request, { params })`, Express / Koa `({ params: { queueName } }, res)`) and the query
 * string. A parameter so named (`pause(params: { queueName })`) is an options object; one
 * destructured under this name from an argument is the URL's.
 */
const ROUTE_INPUT_PROPERTY = /^(?:params|searchParams|query)$/;

/**
 * Whether a parameter, or the property `property` of one (`params.queueName`), names a queue by
 * its name, one of the few the configuration sets up (see the module comment): the name says a
 * queue, lane, stream or topic name (`names.ts` QUEUE_NAME_VALUE) and it is not request input (the
 * parameter, or a property it is destructured from, is not named `req`, `input`, `body` ...:
 * `names.ts` REQUEST_INPUT_NAME). Whether callers pass it data is key-shape.ts's to read.
 * @param param the parameter's identifier (a name a destructuring pattern binds, too)
 * @param property the property read off it, when the key reads `param.<property>`
 */
export function namesQueue(param: TSESTree.Identifier, property?: string): boolean {
  if (!QUEUE_NAME_VALUE.test(property ?? param.name)) return false;
  // ({ userId: queueName }): the property destructured says what the value is, not its local name
  const own = param.parent;
  if (own?.type === AST_NODE_TYPES.Property && own.value === param && !own.shorthand) {
    const key = propertyName(own.key, own.computed);
    if (key === undefined || !QUEUE_NAME_VALUE.test(key)) return false;
  }
  if (property !== undefined && REQUEST_INPUT_NAME.test(param.name)) return false;
  // ({ input: { queueName } }) of a tRPC handler: a property of the request's input
  for (let node: TSESTree.Node | undefined = param.parent; node; node = node.parent) {
    if (node.type === AST_NODE_TYPES.Property) {
      const key = propertyName(node.key, node.computed);
      if (key !== undefined && (REQUEST_INPUT_NAME.test(key) || ROUTE_INPUT_PROPERTY.test(key))) return false;
      continue;
    }
    if (node.type !== AST_NODE_TYPES.ObjectPattern && node.type !== AST_NODE_TYPES.ArrayPattern && node.type !== AST_NODE_TYPES.AssignmentPattern && node.type !== AST_NODE_TYPES.TSParameterProperty) break;
  }
  return true;
}
