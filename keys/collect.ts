/**
 * The collector the inventory runs next to the plugin's rules in one ESLint `Linter` pass: an
 * ESLint rule that reports nothing and records, for every Redis call the rules see (the same
 * `keyCallsOf` normalisation, the same `keyShapeOf` shapes, the same `exemption` policy), the keys
 * it writes and reads, and the Lua scripts it passes with the shapes of their `KEYS`. Whether a
 * write leaves a TTL comes from the rules' own reports at that call (keys/inventory.ts), never
 * from a second analysis.
 */
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import type { LifecycleReading } from '../inventory/format.js';
import { createdWithTtlElsewhere, deletedElsewhere, drainedElsewhere, keptStream } from '../redis-calls/lifecycle.js';
import { fileOfNode } from '../redis-calls/modules.js';
import type { RedisCall } from '../redis-calls/normalize.js';
import { keyCallsOf, exemption, type Exemption } from '../redis-calls/policy.js';
import { keyShapeOf } from '../redis-calls/key-shape.js';
import { embeddedScriptsOf, type EmbeddedScript } from '../redis-calls/lua.js';
import { reportLoc } from '../redis-calls/report.js';
import { pick, propertyName, resolveConstExpression, staticValue, unwrap } from '../redis-calls/static.js';
import type { KeyEffect } from '../semantics/commands.js';

/** One key of one Redis command at a call of the file. */
export interface CollectedKey {
  /** 1-based line and column where the rules report the call (its method name). */
  line: number;
  column: number;
  command: string;
  /** The client library whose syntax the call follows: `ioredis`, `node-redis`, `upstash`, `unknown`. */
  client: string;
  /** The key's shape (`session:*`). */
  shape: string;
  effect: KeyEffect;
  /** Why the key rules leave this write alone, if they do. */
  exemption: Exemption | undefined;
  /** The atomic unit the command runs in: its own round trip, a MULTI, or a pipeline (not atomic). */
  unitKind: 'single' | 'multi' | 'pipeline';
  /** The client drops the TTL the code spells (`valid-ttl-args` reports it): the key gets none. */
  ttlDropped: boolean;
  /** The code spells a TTL the write does not send: {@link ttlDropped}, or node-redis' bare number where it reads options (`set(k, v, 300)`). */
  ttlMeant: boolean;
  /**
   * For a write the rules judge (no exemption): the call that the reading of `redis-calls/lifecycle.ts`
   * finds for this key (the DEL of another function or module, the pop of the queue's consumer,
   * the creation of the record with a TTL; `undefined` for an ID sequence, or none found). Asked
   * only for a write the key rules report as managed by the code, after the file's lint.
   */
  lifecycleCall?: (reading: LifecycleReading) => LifecycleCall | undefined;
}

/** A call that ends or creates a key whose life the code manages (its file absolute). */
export interface LifecycleCall {
  file: string;
  line: number;
  column: number;
  command: string;
}

/** A Lua script a call of the file passes to Redis. */
export interface CollectedScript {
  source: string;
  /** 1-based line and column of the call that runs it. */
  line: number;
  column: number;
  /** The shape of each `KEYS[n]` passed at the call (index 0 is `KEYS[1]`), when the call spells them. */
  keyShapes: string[] | undefined;
  /** The file position of a 0-based offset into {@link source}: for a script of an imported module, that module's (`file` relative to this file's folder). */
  position(offset: number): { line: number; column: number; file?: string };
}

/** What the collector found in one file. */
export interface Collected {
  keys: CollectedKey[];
  scripts: CollectedScript[];
}

/** The name of the collector rule inside its own plugin namespace. */
export const COLLECTOR_RULE = 'collect';

/**
 * A collector rule writing into `sink` (one `Collected` per linted file, replaced on each run).
 * @param sink receives the file's keys and scripts when the file's walk ends
 */
export function collectorRule(sink: (collected: Collected) => void): TSESLint.RuleModule<string, []> {
  return {
    meta: { type: 'suggestion', schema: [], messages: {} },
    defaultOptions: [],
    create(context) {
      const keys: CollectedKey[] = [];
      const scripts: CollectedScript[] = [];
      const sourceCode = context.sourceCode;
      // ioredis `defineCommand(name, { numberOfKeys, lua })`: the script runs at each `x.<name>(...)` call
      const mayDefine = sourceCode.text.includes('defineCommand');
      const defined = new Map<string, Array<{ script: EmbeddedScript; numberOfKeys: number; node: TSESTree.CallExpression }>>();
      const memberCalls = new Map<string, TSESTree.CallExpression[]>();
      const push = (script: EmbeddedScript, at: TSESTree.CallExpression, keyArgs: readonly TSESTree.Node[] | undefined) => {
        scripts.push({
          source: script.source,
          line: at.loc.start.line,
          column: at.loc.start.column + 1,
          keyShapes: keyArgs?.map((arg) => keyShapeOf(context, arg).shape),
          position(offset) {
            if (script.modulePosition) return script.modulePosition(offset);
            const loc = sourceCode.getLocFromIndex(script.toFileOffset(offset));
            return { line: loc.line, column: loc.column + 1 };
          },
        });
      };
      return {
        CallExpression(node: TSESTree.CallExpression) {
          const callee = unwrap(node.callee);
          const method = callee.type === 'MemberExpression' ? propertyName(callee.property, callee.computed) : undefined;
          if (mayDefine && method !== undefined) {
            const list = memberCalls.get(method);
            if (list) list.push(node);
            else memberCalls.set(method, [node]);
          }
          for (const call of keyCallsOf(context, node, {})) {
            const at = reportLoc(call).start;
            const ttlDropped = call.dropped?.some((d) => d.ttl) ?? false;
            // a bare number where node-redis reads an options object (`set(k, v, 300)`): a TTL the code means, never sent
            const ttlMeant = ttlDropped || (call.dropped?.some((d) => d.kind === 'number-as-options') ?? false);
            for (const action of call.description.keys) {
              const keyNode = call.argNodes[action.arg];
              if (!keyNode) continue;
              const exempt = action.effect === 'read' ? undefined : exemption(context, call, keyNode, {});
              const arg = action.arg;
              keys.push({
                line: at.line,
                column: at.column + 1,
                command: call.command,
                client: call.flavor,
                shape: keyShapeOf(context, keyNode).shape,
                effect: action.effect,
                exemption: exempt,
                unitKind: call.unit.kind,
                ttlDropped,
                ttlMeant,
                ...(action.effect === 'read' || exempt !== undefined ? {} : { lifecycleCall: (reading: LifecycleReading) => lifecycleCallOf(context, call, arg, reading) }),
              });
            }
          }
          for (const script of embeddedScriptsOf(context, node)) {
            // a script built at run time: embedded-lua reports it (unanalyzable-command); no key to list
            if ('unreadable' in script) continue;
            const command = method === 'defineCommand' ? definedCommand(context, node) : undefined;
            if (command === undefined) {
              push(script, node, script.keyArgs);
              continue;
            }
            const list = defined.get(command.name);
            const entry = { script, numberOfKeys: command.numberOfKeys, node };
            if (list) list.push(entry);
            else defined.set(command.name, [entry]);
          }
        },
        'Program:exit'() {
          for (const [name, definitions] of defined) {
            const calls = (memberCalls.get(name) ?? []).filter((call) => call.arguments.slice(0, definitions[0]!.numberOfKeys).every((a) => a.type !== 'SpreadElement'));
            for (const { script, numberOfKeys, node } of definitions) {
              // no call of the command in this file: its KEYS stay unresolved, the definition is the place
              if (calls.length === 0) push(script, node, undefined);
              for (const call of calls) push(script, call, call.arguments.length >= numberOfKeys ? call.arguments.slice(0, numberOfKeys) : undefined);
            }
          }
          sink({ keys, scripts });
        },
      };
    },
  };
}

/**
 * The call the lifecycle reading `reading` of `redis-calls/lifecycle.ts` finds for the key at
 * argument `arg` of the write `call` (the same functions the key rules ask), with its file.
 */
function lifecycleCallOf(context: Parameters<TSESLint.RuleModule<string, []>['create']>[0], call: RedisCall, arg: number, reading: LifecycleReading): LifecycleCall | undefined {
  const other =
    reading === 'deleted'
      ? deletedElsewhere(context, call, arg)
      : reading === 'drained'
        ? drainedElsewhere(context, call, arg)
        : reading === 'stream'
          ? keptStream(context, call, arg)
          : reading === 'ttl-record'
            ? createdWithTtlElsewhere(context, call, arg)
            : undefined;
  if (other === undefined) return undefined;
  const file = fileOfNode(context, other.node);
  if (file === undefined) return undefined;
  const at = reportLoc(other).start;
  return { file, line: at.line, column: at.column + 1, command: other.command };
}

/**
 * The name and `numberOfKeys` of an ioredis `defineCommand('name', { numberOfKeys: 1, lua })`
 * call, when both are constants of the file.
 */
function definedCommand(context: Parameters<TSESLint.RuleModule<string, []>['create']>[0], node: TSESTree.CallExpression): { name: string; numberOfKeys: number } | undefined {
  const [nameNode, optionsNode] = node.arguments;
  if (!nameNode || !optionsNode || nameNode.type === 'SpreadElement' || optionsNode.type === 'SpreadElement') return undefined;
  const name = staticValue(context, nameNode);
  const options = resolveConstExpression(context, optionsNode);
  const keysNode = pick(options, 'numberOfKeys');
  const numberOfKeys = keysNode === undefined ? undefined : staticValue(context, keysNode);
  if (typeof name !== 'string' || typeof numberOfKeys !== 'number' || !Number.isInteger(numberOfKeys) || numberOfKeys < 0) return undefined;
  return { name, numberOfKeys };
}
