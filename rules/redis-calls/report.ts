/** Where findings about a Redis call are placed. */
import type { TSESTree } from '@typescript-eslint/utils';
import type { RedisCall } from './normalize.js';

/**
 * From the method name (or the command-name literal) to the end of the call: precise inside
 * chains such as `redis.multi().incr(key).expire(key, 60)`.
 */
export function reportLoc(call: RedisCall): TSESTree.SourceLocation {
  return { start: call.nameNode.loc.start, end: call.node.loc.end };
}
