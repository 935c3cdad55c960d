/**
 * Keys named by the user through a message (`redis-calls/message-key.ts`, read by
 * `redis-calls/user-named-key.ts`, under `allowPassThrough`), from the kind's definition: a key
 * that is, verbatim, a field of a message a connected client sent (a socket.io handler's payload
 * inside `io.on('connection')`, also registered by name; a `ws` message after `JSON.parse`; an
 * Electron `ipcMain` handler's argument; a NestJS gateway's `@MessageBody()`; a handler a
 * dispatcher hands `{ socket, payload }`), written by a command that keeps an existing key's TTL, is
 * the operator's key: not reported in `recommended`; nor is the operator's PERSIST of such a key
 * (`no-persist`). The limits stay reported: a key built from a payload field, a field read through
 * a call, a handler on an emitter that is no connection's socket (the app's own events), a
 * connection's own events, a SET that drops the TTL, a write after a command that may delete the
 * key, a key the handler expires itself, and `strict`.
 */
import incrRule from '../../rules/incr-needs-expire-on-create.js';
import noPersist from '../../rules/no-persist.js';
import setRule from '../../rules/set-requires-ttl-or-keepttl.js';
import { STRICT_KEY_POLICY } from '../helpers/lint.js';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ioredis, positionOf, runRule, untypedTester, noExpiryWithMulti as noExpiry, noExpiryReturned as returned } from './tester.js';

const STRICT = STRICT_KEY_POLICY;

const at = positionOf;

/** A module of `fixtures/message-dispatch`, as the tester lints it (its code and its path). */
function fixture(path: string): { code: string; filename: string } {
  const filename = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'message-dispatch', path);
  return { code: readFileSync(filename, 'utf8'), filename };
}

// ---- the kind: each message framework's shape
const socketIo = ioredis(
  "io.on('connection', (socket) => {\n  socket.on('key-new', async (data, ack) => {\n    await redis.rpush(data.key, data.value);\n    ack('ok');\n  });\n  socket.on('incr', (key) => redis.incr(key));\n});",
);
// a handler registered by name, on a namespace's sockets
const socketIoNamed = ioredis(
  "function onAdd(payload) {\n  return redis.sadd(payload.model.key, payload.model.value);\n}\nio.of('/admin').on('connect', function (socket) {\n  socket.on('add', onAdd);\n});",
);
const ws = ioredis(
  "wss.on('connection', (ws) => {\n  ws.on('message', async (raw) => {\n    const msg = JSON.parse(raw.toString());\n    await redis.lpush(msg.key, msg.value);\n    await redis.hset(JSON.parse(raw).hash, 'f', 'v');\n  });\n});",
);
const electron = ioredis("ipcMain.handle('hash-set', async (event, key, field, value) => redis.hset(key, field, value));\nelectron.ipcMain.on('incr', (event, args) => redis.incr(args.key));");
// p3x-redis-ui's shape: one module per event, loaded by name in the socket's handler (`fixtures/message-dispatch/src/socket.js`) with the socket and the payload
const dispatched = fixture('src/request/zadd.js');
const nestGateway = ioredis(
  "@WebSocketGateway()\nexport class KeysGateway {\n  @SubscribeMessage('add')\n  add(@MessageBody() body: { key: string; member: string }) {\n    return redis.sadd(body.key, body.member);\n  }\n  @SubscribeMessage('incr')\n  incr(@MessageBody('key') key: string) {\n    return redis.incr(key);\n  }\n}",
);
// a helper every socket handler calls with the payload's key
const helper = ioredis(
  "function addMember(key, member) {\n  return redis.sadd(key, member);\n}\nio.on('connection', (socket) => {\n  socket.on('add', (data) => addMember(data.key, data.member));\n});",
);

// ---- the limits: stay reported
const room = ioredis("io.on('connection', (socket) => {\n  socket.on('join', (data) => redis.sadd(`room:${data.id}`, socket.id));\n});");
const appEvents = ioredis(
  "import { EventEmitter } from 'node:events';\nconst events = new EventEmitter();\nevents.on('user-created', (user) => redis.sadd(user.key, user.id));\nfunction onLogin(session) {\n  return redis.incr(session.key);\n}\nevents.on('login', onLogin);",
);
const ownEvent = ioredis("io.on('connection', (socket) => {\n  socket.on('disconnect', (reason) => redis.incr(reason));\n});");
const trimmed = ioredis("io.on('connection', (socket) => {\n  socket.on('add', (data) => redis.sadd(data.key.trim(), 'm'));\n});");
const noSocket = ioredis("module.exports = async ({ queue, payload }) => {\n  await redis.sadd(payload.key, payload.member);\n  queue.ack();\n};");
const replaceMember = ioredis(
  "io.on('connection', (socket) => {\n  socket.on('edit', async (data) => {\n    await redis.srem(data.key, data.oldValue);\n    await redis.sadd(data.key, data.value);\n  });\n});",
);
const expiredLater = ioredis("io.on('connection', (socket) => {\n  socket.on('save', async (data) => {\n    await redis.hset(data.key, 'f', 'v');\n    await redis.expire(data.key, 60);\n  });\n});");
const overwrite = ioredis("io.on('connection', (socket) => {\n  socket.on('set', (data) => redis.set(data.key, data.value));\n});");

runRule(untypedTester, 'incr-needs-expire-on-create (keys named through a message)', incrRule, {
  valid: [socketIo, socketIoNamed, ws, electron, dispatched, nestGateway, helper],
  invalid: [
    // the code builds the key from the payload: the room family is the code's
    { code: room, errors: [returned(room, 'sadd(`room:${data.id}`, socket.id)')] },
    // the app's own events: nobody typed that key
    { code: appEvents, errors: [returned(appEvents, 'sadd(user.key, user.id)'), returned(appEvents, 'incr(session.key)')] },
    // the connection's own event, not a client's message
    { code: ownEvent, errors: [returned(ownEvent, 'incr(reason)')] },
    // read through a call: no longer the value the client sent
    { code: trimmed, errors: [returned(trimmed, "sadd(data.key.trim(), 'm')")] },
    // a dispatched handler that is handed no socket
    { code: noSocket, errors: [noExpiry(noSocket, 'sadd(payload.key, payload.member)', 'payload.key')] },
    // SREM then SADD: replacing the only member of an expiring set recreates it without its TTL
    { code: replaceMember, errors: [noExpiry(replaceMember, 'sadd(data.key, data.value)', 'data.key')] },
    // the handler gives the user's key a TTL itself, in a later round trip
    {
      code: expiredLater,
      errors: [
        {
          messageId: 'separateRoundTrip',
          ...at(expiredLater, 'hset(data'),
          suggestions: [{ messageId: 'wrapInMulti', output: expiredLater.replace("redis.hset(data.key, 'f', 'v');\n    await redis.expire(data.key, 60);", "redis.multi().hset(data.key, 'f', 'v').expire(data.key, 60).exec();") }],
        },
      ],
    },
    // strict reports the user's keys too
    { code: socketIo, options: [STRICT], errors: [noExpiry(socketIo, 'rpush(data.key, data.value)', 'data.key'), returned(socketIo, 'incr(key)')] },
    { code: socketIoNamed, options: [STRICT], errors: [returned(socketIoNamed, 'sadd(payload.model.key')] },
    { code: ws, options: [STRICT], errors: [noExpiry(ws, 'lpush(msg.key, msg.value)', 'msg.key'), noExpiry(ws, "hset(JSON.parse(raw).hash, 'f', 'v')", 'JSON.parse(raw).hash')] },
    { code: electron, options: [STRICT], errors: [returned(electron, 'hset(key'), returned(electron, 'incr(args.key)')] },
    { ...dispatched, options: [STRICT], errors: [noExpiry(dispatched.code, 'zadd(model.key, model.score, model.value)', 'model.key')] },
    { code: nestGateway, options: [STRICT], errors: [returned(nestGateway, 'sadd(body.key'), returned(nestGateway, 'incr(key)')] },
    { code: helper, options: [STRICT], errors: [returned(helper, 'sadd(key, member)')] },
  ],
});

runRule(untypedTester, 'set-requires-ttl-or-keepttl (keys named through a message)', setRule, {
  valid: [],
  invalid: [
    // SET without expiry drops the TTL of the key the user edits: a leak, whoever named the key
    {
      code: overwrite,
      errors: [
        {
          messageId: 'setWithoutTtl',
          ...at(overwrite, 'set(data'),
          suggestions: [
            { messageId: 'addExpiryPlaceholder', output: overwrite.replace('redis.set(data.key, data.value', "redis.set(data.key, data.value, 'EX', TTL_SECONDS") },
            { messageId: 'addKeepTtl', output: overwrite.replace('redis.set(data.key, data.value', "redis.set(data.key, data.value, 'KEEPTTL'") },
          ],
        },
      ],
    },
  ],
});

// PERSIST of the key the operator named: the admin UI's "persist" action is the feature
const persistDispatched = fixture('src/request/persist.js');
const persistRoute = ioredis("app.post('/persist/:key', async (req, res) => {\n  await redis.persist(req.params.key);\n  res.send('ok');\n});");
const persistIpc = ioredis("ipcMain.handle('persist', (event, key) => redis.persist(key));");
const persistCli = ioredis('await redis.persist(process.argv[2]);');
const persistRoom = ioredis("io.on('connection', (socket) => {\n  socket.on('pin', (data) => redis.persist(`room:${data.id}`));\n});");
const persistEvents = ioredis("events.on('pin', (data) => redis.persist(data.key));");

runRule(untypedTester, 'no-persist (keys the user names)', noPersist, {
  valid: [persistDispatched, persistRoute, persistIpc, persistCli],
  invalid: [
    // a key the code builds from the message, a field of the app's own event
    { code: persistRoom, errors: [{ messageId: 'persist', ...at(persistRoom, 'persist(`room') }] },
    { code: persistEvents, errors: [{ messageId: 'persist', ...at(persistEvents, 'persist(data') }] },
    // strict reports the operator's PERSIST too
    { ...persistDispatched, options: [{ allowPassThrough: false }], errors: [{ messageId: 'persist', ...at(persistDispatched.code, 'persist(') }] },
    { code: persistRoute, options: [{ allowPassThrough: false }], errors: [{ messageId: 'persist', ...at(persistRoute, 'persist(') }] },
    { code: persistIpc, options: [{ allowPassThrough: false }], errors: [{ messageId: 'persist', ...at(persistIpc, 'persist(') }] },
    { code: persistCli, options: [{ allowPassThrough: false }], errors: [{ messageId: 'persist', ...at(persistCli, 'persist(') }] },
  ],
});
