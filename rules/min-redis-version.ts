/**
 * `min-redis-version`: a command or option newer than the oldest server the code runs against
 * (`settings['redis-ttl'].redisVersion`). The server answers "unknown command" / "syntax error":
 * inside MULTI the transaction is discarded, in a plain pipeline the other commands still run (an
 * INCR whose `EXPIRE ... NX` failed keeps no TTL). The versions are the Redis command docs'
 * "Available since" lines (`semantics/versions.ts`, read through the command table's `requires`).
 * Not in `recommended` or `strict`: it needs the setting, and without it the rule is a
 * configuration error.
 */
import type { TSESTree } from '@typescript-eslint/utils';
import { isTooNew } from '../semantics/versions.js';
import { createRule } from './create-rule.js';
import { redisCallsOf } from '../redis-calls/index.js';
import { reportLoc } from '../redis-calls/report.js';
import { pluginSettings } from '../redis-calls/settings.js';

/** Messages of the rule. */
export type MessageIds = 'tooNew';

/** What to write instead on an older server, per feature (the default names the command's page). */
const ALTERNATIVES: Record<string, string> = {
  'SET ... KEEPTTL': 'a Lua script that reads the PTTL and writes with SET ... PX',
  'SET ... GET': 'GET and SET ... EX in one MULTI',
  'SET ... EXAT': 'SET ... EX with the seconds left',
  'SET ... PXAT': 'SET ... PX with the milliseconds left',
  GETEX: 'GET and EXPIRE in one MULTI',
  GETDEL: 'GET and DEL in one MULTI',
  HSETEX: 'HSET and EXPIRE of the key in one MULTI',
  HGETEX: 'HGET and EXPIRE of the key in one MULTI',
};

export default createRule<[], MessageIds>({
  name: 'min-redis-version',
  meta: {
    type: 'problem',
    docs: {
      description: "Disallow Redis commands and options newer than settings['redis-ttl'].redisVersion.",
      recommended: false,
      strict: false,
    },
    schema: [],
    messages: {
      tooNew:
        "{{feature}} needs Redis {{version}} or later, but settings['redis-ttl'].redisVersion is {{configured}}: the server answers an error, and in a pipeline the commands around it still run (an INCR whose expiry failed keeps no TTL). {{alternative}}, or raise redisVersion.",
    },
  },
  defaultOptions: [],
  create(context) {
    const configured = pluginSettings(context).redisVersion;
    if (!configured) {
      throw new Error(
        "redis-ttl/min-redis-version needs settings['redis-ttl'].redisVersion, the oldest Redis server the code runs against (e.g. '6.2').",
      );
    }
    return {
      CallExpression(node: TSESTree.CallExpression) {
        for (const call of redisCallsOf(context, node)) {
          const requires = call.description.requires;
          if (!requires || !isTooNew(requires, configured.version)) continue;
          const alternative = ALTERNATIVES[requires.feature];
          context.report({
            node: call.node,
            loc: reportLoc(call),
            messageId: 'tooNew',
            data: {
              feature: requires.feature,
              version: requires.version,
              configured: configured.text,
              alternative: alternative ? `Use ${alternative}` : requires.feature.includes(' ... ') ? `Do without ${requires.feature.split(' ... ')[1]} (a Lua script can test the condition)` : `Use a command the server has`,
            },
          });
        }
      },
    };
  },
});
