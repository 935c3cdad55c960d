/**
 * The collector the inventory runs next to the plugin's rules in one ESLint `Linter` pass: an
 * ESLint rule that reports nothing and records, for every Redis call the rules see (the same
 * `keyCallsOf` normalisation, the same `keyShapeOf` shapes, the same `exemption` policy), the keys
 * it writes and reads, and the Lua scripts it passes with the shapes of their `KEYS`. Whether a
 * write leaves a TTL comes from the rules' own reports at that call (keys/inventory.ts), never
 * from a second analysis.
 */
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { keyCallsOf, exemption } from '../redis-calls/policy.js';
import { keyShapeOf } from '../redis-calls/key-shape.js';
import { embeddedScriptsOf } from '../redis-calls/lua.js';
import { reportLoc } from '../redis-calls/report.js';
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
  exemption: 'persistent' | 'constant' | 'optional-ttl' | 'pass-through' | undefined;
  /** The atomic unit the command runs in: its own round trip, a MULTI, or a pipeline (not atomic). */
  unitKind: 'single' | 'multi' | 'pipeline';
  /** The client drops the TTL the code spells (`valid-ttl-args` reports it): the key gets none. */
  ttlDropped: boolean;
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
      return {
        CallExpression(node: TSESTree.CallExpression) {
          for (const call of keyCallsOf(context, node, {})) {
            const at = reportLoc(call).start;
            const ttlDropped = call.dropped?.some((d) => d.ttl) ?? false;
            for (const action of call.description.keys) {
              const keyNode = call.argNodes[action.arg];
              if (!keyNode) continue;
              keys.push({
                line: at.line,
                column: at.column + 1,
                command: call.command,
                client: call.flavor,
                shape: keyShapeOf(context, keyNode).shape,
                effect: action.effect,
                exemption: action.effect === 'read' ? undefined : exemption(context, call, keyNode, {}),
                unitKind: call.unit.kind,
                ttlDropped,
              });
            }
          }
          for (const script of embeddedScriptsOf(context, node)) {
            const start = node.loc.start;
            scripts.push({
              source: script.source,
              line: start.line,
              column: start.column + 1,
              keyShapes: script.keyArgs?.map((arg) => keyShapeOf(context, arg).shape),
              position(offset) {
                if (script.modulePosition) return script.modulePosition(offset);
                const loc = sourceCode.getLocFromIndex(script.toFileOffset(offset));
                return { line: loc.line, column: loc.column + 1 };
              },
            });
          }
        },
        'Program:exit'() {
          sink({ keys, scripts });
        },
      };
    },
  };
}
