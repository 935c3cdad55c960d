/**
 * Round 19's breaker: the limits of keys named by a client (`redis-calls/user-named-key.ts`) that
 * odd inputs got past.
 *
 * - A message field the handler rewrites by `Object.assign(data, { key: ... })`, by a destructuring
 *   assignment (`[data.key] = [...]`) or as a loop's binding is the code's key, as `data.key = ...`
 *   is: reported (a field the sources do not name leaves the key the client's).
 * - A handler the file also calls through `handle.call(self, { key: 'fixed' })` (or `apply`) is
 *   called with a key of its own: reported; `handle.call(self, message)` forwarding a client's
 *   message stays exempt.
 * - A handler that recurses with (a field of) the message it was handed (`handle(data.next)`) is
 *   still handed the client's value: exempt, as without the recursion.
 */
import incrRule from '../../rules/incr-needs-expire-on-create.js';
import { ioredis, runRule, untypedTester, noExpiryReturned as returned } from './tester.js';

const socket = (body: string) => ioredis(`io.on('connection', (socket) => {\n${body}\n});`);

// ---- rewritten before the write, other than by `data.key = ...`
const assigned = socket("  socket.on('set', (data) => {\n    Object.assign(data, { key: 'x:' + data.key });\n    return redis.sadd(data.key, 'm');\n  });");
const assignedUnknown = socket("  socket.on('set', (data) => {\n    Object.assign(data, normalise(data));\n    return redis.sadd(data.key, 'm');\n  });");
const assignedOther = socket("  socket.on('set', (data) => {\n    Object.assign(data, { responseEvent: 'set-response' });\n    return redis.sadd(data.key, 'm');\n  });");
const destructured = socket("  socket.on('set', (data) => {\n    [data.key] = ['x:' + data.key];\n    return redis.sadd(data.key, 'm');\n  });");
const loopBinding = socket("  socket.on('set', (data) => {\n    for (data.key of ['a', 'b']) log(data.key);\n    return redis.sadd(data.key, 'm');\n  });");
const trpcAssigned = ioredis(
  "export const r = router({\n  add: publicProcedure.input(schema).mutation(({ input }) => {\n    Object.assign(input, { key: 'x:' + input.key });\n    return redis.sadd(input.key, 'm');\n  }),\n});",
);

// ---- called by the file through Function.prototype.call / apply
const handler = "function handle(data) {\n  return redis.sadd(data.key, 'm');\n}\n";
const calledThroughCall = ioredis(`${handler}io.on('connection', (socket) => {\n  socket.on('x', handle);\n});\nhandle.call(null, { key: 'fixed' });`);
const calledThroughApply = ioredis(`${handler}io.on('connection', (socket) => {\n  socket.on('x', handle);\n});\nhandle.apply(null, [{ key: 'fixed' }]);`);
const forwardedThroughCall = ioredis(`${handler}io.on('connection', (socket) => {\n  socket.on('x', handle);\n  socket.on('y', (message) => handle.call(null, message));\n});`);

// ---- a handler recursing with the client's message
const recursive = ioredis(
  "function handle(data) {\n  if (data.next) handle(data.next);\n  return redis.sadd(data.key, 'm');\n}\nio.on('connection', (socket) => {\n  socket.on('x', handle);\n});",
);
const retrying = ioredis(
  "function handle(data, attempts) {\n  if (attempts > 0) return handle(data, attempts - 1);\n  return redis.sadd(data.key, 'm');\n}\nio.on('connection', (socket) => {\n  socket.on('x', handle);\n});",
);

runRule(untypedTester, 'incr-needs-expire-on-create (breaker 19: client-named keys)', incrRule, {
  valid: [assignedOther, forwardedThroughCall, recursive, retrying],
  invalid: [
    { code: assigned, errors: [returned(assigned, 'sadd(data.key')] },
    { code: assignedUnknown, errors: [returned(assignedUnknown, 'sadd(data.key')] },
    { code: destructured, errors: [returned(destructured, 'sadd(data.key')] },
    { code: loopBinding, errors: [returned(loopBinding, 'sadd(data.key')] },
    { code: trpcAssigned, errors: [returned(trpcAssigned, 'sadd(input.key')] },
    { code: calledThroughCall, errors: [returned(calledThroughCall, 'sadd(data.key')] },
    { code: calledThroughApply, errors: [returned(calledThroughApply, 'sadd(data.key')] },
  ],
});
