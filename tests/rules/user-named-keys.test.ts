/**
 * Keys the code's user names (`redis-calls/user-named-key.ts`, under `allowPassThrough`), from the
 * kind's definition: a key that is, verbatim, a route handler's request field (Express, Koa,
 * Fastify, Hono, Next.js, NestJS; also destructured, through a `const` or a never-reassigned `let`,
 * through helpers every caller of which passes one) or a command-line argument (`process.argv`,
 * commander, yargs), written by a command that keeps an existing key's TTL, is the operator's key:
 * not reported in `recommended`. The limits stay reported: a key built from a request field (a
 * prefix, a template, a concatenation, a key builder), a field of something that is no request, a
 * reassigned binding, a helper one of whose callers builds its key, a SET / GETSET that drops the
 * TTL of the key being edited, a write after a command that may delete the key (replacing a
 * member), a key the code itself expires in a later round trip, and `strict`.
 */
import incrRule from '../../rules/incr-needs-expire-on-create.js';
import noGetset from '../../rules/no-getset.js';
import setRule from '../../rules/set-requires-ttl-or-keepttl.js';
import { STRICT_KEY_POLICY } from '../helpers/lint.js';
import { ioredis, nodeRedis, positionOf, runRule, typedTester, untypedTester, noExpiryWithMulti as noExpiry } from './tester.js';

const STRICT = STRICT_KEY_POLICY;

const at = positionOf;

// ---- the kind: each framework's shape
const express = ioredis("import express from 'express';\nconst app = express();\napp.post('/set/:key', async (req, res) => {\n  await redis.sadd(req.params.key, req.body.member);\n  res.send('ok');\n});");
const expressBody = ioredis("export async function postEditHashField(req, res) {\n  const { key, field, value } = req.body;\n  await redis.hset(key, field, value);\n  res.send('ok');\n}");
const expressQuery = ioredis("export async function push(request, res) {\n  const key = request.query.key;\n  await redis.lpush(key, 'v');\n}");
const expressParam = ioredis("export async function push(req, res) {\n  await redis.rpush(req.param('key'), req.body.value);\n}");
const koa = ioredis("router.post('/list', async (ctx) => {\n  await redis.lpush(ctx.request.body.key, ctx.request.body.value);\n  await redis.zadd(ctx.params.key, 1, 'm');\n});");
const fastify = ioredis("fastify.post('/zset', async (request, reply) => {\n  const { key } = request.body as { key: string };\n  await redis.zadd(key, 1, 'member');\n  return 'ok';\n});");
const hono = ioredis("app.post('/list/:key', async (c) => {\n  await redis.rpush(c.req.param('key'), 'v');\n  const body = await c.req.json();\n  await redis.sadd(body.key, 'm');\n  return c.text('ok');\n});");
const nextRoute = ioredis("export async function POST(request: Request, { params }: { params: Promise<{ key: string }> }) {\n  const { key } = await params;\n  await redis.incr(key);\n  return new Response('ok');\n}");
const destructuredParam = ioredis("app.post('/s/:key', async ({ params: { key }, body }, res) => {\n  await redis.sadd(key, body.member);\n  res.send('ok');\n});");
const nest = ioredis("@Controller('keys')\nexport class KeysController {\n  @Post(':key')\n  add(@Param('key') key: string, @Body() dto: { key: string; member: string }) {\n    void redis.sadd(key, dto.member);\n    return redis.sadd(dto.key, dto.member);\n  }\n}");
// a helper of the module that every handler calls with the request's key, through callbacks and a second helper
const helpers = ioredis(
  [
    'function addSetMember(key, member, res, next) {',
    '  decode(member, function (decoded) {',
    '    return redis.sadd(key, decoded, function (err) {',
    "      if (err) return next(err);",
    "      res.send('ok');",
    '    });',
    '  });',
    '}',
    'function addMember(key, member, res, next) {',
    '  addSetMember(key, member, res, next);',
    '}',
    'export function postAddSetMember(req, res, next) {',
    '  let key = req.body.key;',
    '  let member = req.body.value;',
    '  withConnection(req, res, function () {',
    '    addSetMember(key, member, res, next);',
    '  });',
    '}',
    'export function saveKey(req, res, next) {',
    '  const key = req.params.key;',
    '  addMember(key, req.body.value, res, next);',
    '}',
  ].join('\n'),
);
const argv = ioredis('const [, , key, value] = process.argv;\nawait redis.rpush(key, value);\nawait redis.incr(process.argv[2]);\nconst [name] = process.argv.slice(2);\nawait redis.sadd(name, value);');
const commander = ioredis("program.command('push <key> <value>').action(async (key, value) => {\n  await redis.rpush(key, value);\n});");
const yargs = ioredis("yargs(hideBin(process.argv)).command('incr <key>', 'increments a key', () => {}, async (argv) => {\n  await redis.incr(argv.key);\n}).parse();");
// a delete on the other branch of the choice: the write does not follow it (redis-commander's editHashField)
const deleteOrWrite = ioredis(
  "export function editHashField(req, res, next) {\n  const key = req.body.key;\n  if (req.body.value === TOMBSTONE) {\n    redis.hdel(key, req.body.field, next);\n  } else {\n    redis.hset(key, req.body.field, req.body.value, next);\n  }\n}",
);
// SET ... NX and SET ... KEEPTTL on the user's key: create a missing key only, or keep the TTL it has
const setNx = ioredis("export async function create(req, res) {\n  await redis.set(req.params.key, req.body.value, 'NX');\n  await redis.setnx(req.body.key, req.body.value);\n}");

// ---- the limits: stay reported
const templated = ioredis("app.post('/u/:id', async (req, res) => {\n  await redis.sadd(`user:${req.params.id}`, req.body.member);\n});");
const concatenated = ioredis("app.post('/c/:id', async (req, res) => {\n  await redis.incr('cart:' + req.body.id);\n});");
const built = ioredis("const keyFor = (id: string) => `session:${id}`;\napp.post('/s/:id', async (req, res) => {\n  await redis.hset(keyFor(req.params.id), 'f', 'v');\n});");
const notRequest = ioredis("export async function handle(job) {\n  await redis.sadd(job.body.key, job.body.member);\n}");
const header = ioredis("export async function handle(req, res) {\n  await redis.incr(req.headers['x-key']);\n}");
const reassigned = ioredis("export async function handle(req, res) {\n  let key = req.body.key;\n  key = key.trim();\n  await redis.sadd(key, 'm');\n}");
const mixedCallers = ioredis(
  "function addMember(key, member, res, next) {\n  decode(member, function (decoded) {\n    redis.sadd(key, decoded, next);\n  });\n  res.send('ok');\n}\nexport function fromForm(req, res, next) {\n  addMember(req.body.key, req.body.value, res, next);\n}\nexport function fromJob(job, res, next) {\n  addMember(`jobs:${job.id}`, job.value, res, next);\n}",
);
const overwrite = ioredis("export function posKeyDetailsString(req, res) {\n  const key = req.params.key;\n  return redis.set(key, req.body.value);\n}");
const getset = ioredis("export function swap(req, res) {\n  return redis.getset(req.params.key, req.body.value);\n}");
const replaceMember = ioredis(
  "export function editSetMember(req, res, next) {\n  const key = req.body.key;\n  redis.srem(key, req.body.oldValue, function (err) {\n    if (err) return next(err);\n    redis.sadd(key, req.body.value, next);\n  });\n}",
);
const expiredLater = ioredis("export async function save(req, res) {\n  await redis.hset(req.params.key, 'f', 'v');\n  await redis.expire(req.params.key, 60);\n}");

runRule(untypedTester, 'incr-needs-expire-on-create (user-named keys)', incrRule, {
  valid: [express, expressBody, expressQuery, expressParam, koa, fastify, hono, nextRoute, destructuredParam, nest, helpers, argv, commander, yargs, deleteOrWrite],
  invalid: [
    // the code builds the key from the request: a prefix, a template, a concatenation, a key builder
    { code: templated, errors: [noExpiry(templated, 'sadd(`user:${req.params.id}`, req.body.member)', '`user:${req.params.id}`')] },
    { code: concatenated, errors: [noExpiry(concatenated, "incr('cart:' + req.body.id)", "'cart:' + req.body.id")] },
    { code: built, errors: [noExpiry(built, "hset(keyFor(req.params.id), 'f', 'v')", 'keyFor(req.params.id)')] },
    // a field of something that is no request (a queue job), a field no collection of named fields holds
    { code: notRequest, errors: [noExpiry(notRequest, 'sadd(job.body.key, job.body.member)', 'job.body.key')] },
    { code: header, errors: [noExpiry(header, "incr(req.headers['x-key'])", "req.headers['x-key']")] },
    // reassigned: no longer the value the request carried
    { code: reassigned, errors: [noExpiry(reassigned, "sadd(key, 'm')", 'key')] },
    // a helper one of whose callers builds its key
    { code: mixedCallers, errors: [{ messageId: 'noExpiry', ...at(mixedCallers, 'sadd(key') }] },
    // SREM then SADD: replacing the only member of an expiring set recreates it without its TTL
    { code: replaceMember, errors: [{ messageId: 'noExpiry', ...at(replaceMember, 'sadd(key') }] },
    // the code gives the user's key a TTL itself, in a later round trip
    {
      code: expiredLater,
      errors: [
        {
          messageId: 'separateRoundTrip',
          ...at(expiredLater, 'hset(req'),
          suggestions: [{ messageId: 'wrapInMulti', output: expiredLater.replace("redis.hset(req.params.key, 'f', 'v');\n  await redis.expire(req.params.key, 60);", "redis.multi().hset(req.params.key, 'f', 'v').expire(req.params.key, 60).exec();") }],
        },
      ],
    },
    // strict reports the user's keys too
    { code: express, options: [STRICT], errors: [noExpiry(express, 'sadd(req.params.key, req.body.member)', 'req.params.key')] },
    {
      code: koa,
      options: [STRICT],
      errors: [
        noExpiry(koa, 'lpush(ctx.request.body.key, ctx.request.body.value)', 'ctx.request.body.key'),
        noExpiry(koa, "zadd(ctx.params.key, 1, 'm')", 'ctx.params.key'),
      ],
    },
    {
      code: hono,
      options: [STRICT],
      errors: [noExpiry(hono, "rpush(c.req.param('key'), 'v')", "c.req.param('key')"), noExpiry(hono, "sadd(body.key, 'm')", 'body.key')],
    },
    { code: nextRoute, options: [STRICT], errors: [noExpiry(nextRoute, 'incr(key)', 'key')] },
    { code: destructuredParam, options: [STRICT], errors: [noExpiry(destructuredParam, 'sadd(key, body.member)', 'key')] },
    { code: nest, options: [STRICT], errors: [noExpiry(nest, 'sadd(key, dto.member)', 'key'), { messageId: 'noExpiry', ...at(nest, 'sadd(dto.key') }] },
    {
      code: argv,
      options: [STRICT],
      errors: [noExpiry(argv, 'rpush(key, value)', 'key'), noExpiry(argv, 'incr(process.argv[2])', 'process.argv[2]'), noExpiry(argv, 'sadd(name, value)', 'name')],
    },
    { code: commander, options: [STRICT], errors: [noExpiry(commander, 'rpush(key, value)', 'key')] },
    { code: yargs, options: [STRICT], errors: [noExpiry(yargs, 'incr(argv.key)', 'argv.key')] },
    { code: helpers, options: [STRICT], errors: [{ messageId: 'noExpiry', ...at(helpers, 'sadd(key') }] },
    { code: deleteOrWrite, options: [STRICT], errors: [{ messageId: 'noExpiry', ...at(deleteOrWrite, 'hset(key') }] },
  ],
});

runRule(untypedTester, 'set-requires-ttl-or-keepttl (user-named keys)', setRule, {
  valid: [setNx],
  invalid: [
    // SET without expiry drops the TTL of the key the user edits: a leak, whoever named the key
    {
      code: overwrite,
      errors: [
        {
          messageId: 'setWithoutTtl',
          ...at(overwrite, 'set(key'),
          suggestions: [
            { messageId: 'addExpiryPlaceholder', output: overwrite.replace('redis.set(key, req.body.value', "redis.set(key, req.body.value, 'EX', TTL_SECONDS") },
            { messageId: 'addKeepTtl', output: overwrite.replace('redis.set(key, req.body.value', "redis.set(key, req.body.value, 'KEEPTTL'") },
          ],
        },
      ],
    },
    {
      code: setNx,
      options: [STRICT],
      errors: [
        {
          messageId: 'createWithoutTtl',
          ...at(setNx, 'set(req'),
          suggestions: [{ messageId: 'addExpiryPlaceholder', output: setNx.replace('redis.set(req.params.key, req.body.value', "redis.set(req.params.key, req.body.value, 'EX', TTL_SECONDS") }],
        },
        {
          messageId: 'createWithoutTtl',
          ...at(setNx, 'setnx(req'),
          suggestions: [{ messageId: 'addExpiryPlaceholder', output: setNx.replace('redis.setnx(req.body.key, req.body.value', "redis.set(req.body.key, req.body.value, 'EX', TTL_SECONDS, 'NX'") }],
        },
      ],
    },
  ],
});

runRule(untypedTester, 'no-getset (user-named keys)', noGetset, {
  valid: [],
  invalid: [
    {
      code: getset,
      errors: [
        {
          messageId: 'getset',
          ...at(getset, 'getset(req'),
          suggestions: [{ messageId: 'useSetKeepTtl', output: getset.replace('redis.getset(req.params.key, req.body.value', "redis.set(req.params.key, req.body.value, 'KEEPTTL', 'XX', 'GET'") }],
        },
      ],
    },
  ],
});

// node-redis, typed: the same verdicts when the client is known by its type
const nodeRedisHandler = nodeRedis("export async function add(req: { body: { key: string; member: string } }, res: unknown) {\n  await client.sAdd(req.body.key, req.body.member);\n}");
const nodeRedisTemplated = nodeRedis("export async function add(req: { body: { id: string; member: string } }, res: unknown) {\n  await client.sAdd(`set:${req.body.id}`, req.body.member);\n}");

runRule(typedTester, 'incr-needs-expire-on-create (user-named keys, typed)', incrRule, {
  valid: [nodeRedisHandler],
  invalid: [
    { code: nodeRedisTemplated, errors: [noExpiry(nodeRedisTemplated, 'sAdd(`set:${req.body.id}`, req.body.member)', '`set:${req.body.id}`', 'client')] },
    { code: nodeRedisHandler, options: [STRICT], errors: [noExpiry(nodeRedisHandler, 'sAdd(req.body.key, req.body.member)', 'req.body.key', 'client')] },
  ],
});
