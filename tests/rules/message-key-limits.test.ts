/**
 * The limits of keys named through a message (`redis-calls/message-key.ts`,
 * `redis-calls/dispatched-handlers.ts`, `redis-calls/user-named-key.ts`), from the kind's
 * definition (the key a connected client typed, written verbatim: the admin UI's user owns its
 * lifetime), each an over-exemption round 18's breaker found, still reported:
 *
 * - a field of the message the handler rewrites before the write (`data.key = 'x:' + data.key`,
 *   `options.payload = normalise(options.payload)`): the code's key, not the client's (a plain
 *   `data = normalise(data)` was already reported; kept here as the boundary);
 * - a handler the code also calls itself with a key of its own (`handle({ key: 'fixed' })` beside
 *   `socket.on('x', handle)`); still exempt when every such call forwards a client's message;
 * - a function of the `{ socket, data }` shape that no socket handler dispatches to (a named
 *   export, a directory no socket handler loads from, a job runner's directory);
 * - a room a client names, whose members are the connection's own id
 *   (`socket.on('join', (room) => redis.sadd(room, socket.id))`): the server's bookkeeping of its
 *   live connections, not an operator's key; a value the client sent under its key stays exempt.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import incrRule from '../../rules/incr-needs-expire-on-create.js';
import { ioredis, runRule, untypedTester, noExpiryWithMulti as noExpiry, noExpiryReturned as returned } from './tester.js';

/** A module of `fixtures/message-dispatch`, as the tester lints it (its code and its path). */
function fixture(path: string): { code: string; filename: string } {
  const filename = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'message-dispatch', path);
  return { code: readFileSync(filename, 'utf8'), filename };
}

// ---- rewritten before the write
const reassigned = ioredis("io.on('connection', (socket) => {\n  socket.on('set', (data) => {\n    data = normalise(data);\n    return redis.sadd(data.key, 'm');\n  });\n});");
const fieldRewritten = ioredis("io.on('connection', (socket) => {\n  socket.on('set', (data) => {\n    data.key = 'x:' + data.key;\n    return redis.sadd(data.key, 'm');\n  });\n});");
const payloadRewritten = ioredis("io.on('connection', (socket) => {\n  socket.on('set', (options) => {\n    options.payload = normalise(options.payload);\n    const { payload } = options;\n    return redis.hset(payload.key, 'f', 'v');\n  });\n});");
// another field written (the response's event name) leaves the key the client's
const otherField = ioredis("io.on('connection', (socket) => {\n  socket.on('set', (options) => {\n    options.responseEvent = 'set-response';\n    return redis.hset(options.key, 'f', 'v');\n  });\n});");

// ---- called by the code itself
const calledFixed = ioredis("function handle(data) {\n  return redis.sadd(data.key, 'm');\n}\nio.on('connection', (socket) => {\n  socket.on('x', handle);\n});\nhandle({ key: 'fixed' });");
// every call forwards a client's message: still the client's key
const calledForwarding = ioredis("function handle(data) {\n  return redis.sadd(data.key, 'm');\n}\nio.on('connection', (socket) => {\n  socket.on('x', handle);\n  socket.on('y', (message) => handle(message));\n});");

// ---- the dispatcher's modules: only those a socket handler loads
const dispatched = fixture('src/request/zadd.js');
const namedExport = fixture('src/request/helper.js');
const orphan = fixture('src/orphan/sadd.js');
const job = fixture('src/jobs/sadd.js');
const inlineShape = ioredis("export function helper({ socket, data }) {\n  socket.emit('x');\n  return redis.sadd(data.key, 'm');\n}");

// ---- rooms: the connection's id under the client's name
const room = ioredis("io.on('connection', (socket) => {\n  socket.on('join', (room) => redis.sadd(room, socket.id));\n  socket.on('own', (data) => redis.hset(data.key, 'owner', socket.data.user));\n});");
const clientValue = ioredis("io.on('connection', (socket) => {\n  socket.on('add', (data) => redis.sadd(data.key, data.member));\n});");

runRule(untypedTester, 'incr-needs-expire-on-create (limits of keys named through a message)', incrRule, {
  valid: [otherField, calledForwarding, dispatched, clientValue],
  invalid: [
    { code: reassigned, errors: [returned(reassigned, 'sadd(data.key')] },
    { code: fieldRewritten, errors: [returned(fieldRewritten, 'sadd(data.key')] },
    { code: payloadRewritten, errors: [returned(payloadRewritten, 'hset(payload.key')] },
    { code: calledFixed, errors: [returned(calledFixed, 'sadd(data.key')] },
    { ...namedExport, errors: [noExpiry(namedExport.code, 'sadd(data.key, data.member)', 'data.key')] },
    { ...orphan, errors: [noExpiry(orphan.code, 'sadd(data.key, data.member)', 'data.key')] },
    { ...job, errors: [noExpiry(job.code, 'sadd(data.key, data.member)', 'data.key')] },
    { code: inlineShape, errors: [returned(inlineShape, 'sadd(data.key')] },
    { code: room, errors: [returned(room, 'sadd(room'), returned(room, 'hset(data.key')] },
  ],
});
