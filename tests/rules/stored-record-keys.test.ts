/**
 * Keys of the entities a job walks in its database of record (round 32): a key whose variable part
 * is an element of an awaited listing of stored records (`await prisma.x.findMany()`,
 * `await Model.distinct('app_id', q).read('sp').exec()`, `await collection.find(q).toArray()`), or a
 * property of one, is one key per stored entity, rewritten by each run of the job: bounded by the
 * table like a key per configured queue (keyshade's `env_to_socket:<environment>` rehydrated from
 * its socket-map table every 10 minutes, zanePerfor's `ip_task_begin_time_<appId>` cursor per
 * registered application).
 *
 * Still reported: a key with another run-time part beside the record's (a day, a request's id),
 * elements from the request (`req.body.items`, `await req.json()`), from an HTTP API, from a raw SQL
 * query (`{ rows }`), from a bare function that happens to be named `find`, from an object's `find`
 * / `distinct` in a package with no database client and no `.exec()` / `.toArray()` after it, a
 * property of the awaited reply rather than the reply, and a record key the file gives a TTL elsewhere.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import incrRule from '../../rules/incr-needs-expire-on-create.js';
import setRule from '../../rules/set-requires-ttl-or-keepttl.js';
import { ioredis, nodeRedis, positionOf, runRule, setSuggestions, typedTester, untypedTester } from './tester.js';

const setBounded = [
  // zanePerfor's shape: the distinct ids of a Mongoose model, walked by forEach
  ioredis(
    "declare const System: any;\nexport async function snapshot(stats: string) {\n  const apps = await System.distinct('app_id', { type: 'web' }).read('sp').exec();\n  apps.forEach((appId: string) => {\n    redis.set(`${appId}_pv_realtime`, stats);\n  });\n}",
  ),
  // a function of the module called with each element
  ioredis(
    "declare const System: any;\nconst saveCursor = (appId: string, at: string) => redis.set(`ip_task_begin_time_${appId}`, at);\nexport async function run(at: string) {\n  const apps = await System.distinct('app_id').exec();\n  for (const appId of apps) saveCursor(appId, at);\n}",
  ),
  // a property of each record, for...of over the awaited listing itself
  ioredis(
    "declare const prisma: any;\nexport async function mirror() {\n  for (const app of await prisma.app.findMany()) await redis.set(`config:${app.id}`, JSON.stringify(app));\n}",
  ),
  // the native driver's find(...).toArray(), a Sequelize findAll
  ioredis(
    "declare const db: any;\nexport async function mirror() {\n  const projects = await db.collection('projects').find({}).toArray();\n  for (const p of projects) await redis.set(`project:${p._id}`, JSON.stringify(p));\n}",
  ),
  ioredis(
    "declare const Tenant: any;\nexport async function mirror() {\n  const tenants = await Tenant.findAll();\n  tenants.map((t: { id: string; plan: string }) => redis.set(`plan:${t.id}`, t.plan));\n}",
  ),
];

const setReported = [
  // another run-time part beside the record's: one key per app and day
  ioredis(
    "declare const prisma: any;\nexport async function daily(v: string) {\n  const day = new Date().toISOString().slice(0, 10);\n  for (const app of await prisma.app.findMany()) await redis.set(`${app.id}:${day}`, v);\n}",
  ),
  // the request's items
  ioredis("export async function save(req: any, v: string) {\n  for (const item of req.body.items) await redis.set(`item:${item.id}`, v);\n}"),
  ioredis("export async function save(req: any, v: string) {\n  const items = await req.json();\n  for (const item of items) await redis.set(`item:${item.id}`, v);\n}"),
  // another system's records, through HTTP
  ioredis(
    "export async function sync(url: string, v: string) {\n  const events = await fetch(url).then((r) => r.json());\n  for (const e of events) await redis.set(`event:${e.id}`, v);\n}",
  ),
  // a raw SQL query's reply, and a property of the awaited reply
  ioredis(
    "declare const pool: any;\nexport async function mirror(v: string) {\n  const { rows } = await pool.query('SELECT id FROM apps');\n  for (const row of rows) await redis.set(`app:${row.id}`, v);\n}",
  ),
  ioredis(
    "declare const api: any;\nexport async function mirror(v: string) {\n  const items = (await api.find()).items;\n  for (const row of items) await redis.set(`app:${row.id}`, v);\n}",
  ),
  // an application object's `find` (a service, an HTTP SDK) in a package with no database client,
  // no query execution (`.exec()`, `.toArray()`) after it: not a driver's listing (review of round 32)
  ioredis(
    "declare const userService: any;\nexport async function mirror(v: string) {\n  for (const u of await userService.find()) await redis.set(`user:${u.id}`, v);\n}",
  ),
  ioredis(
    "declare const sdk: any;\nexport async function mirror(v: string) {\n  for (const id of await sdk.distinct('id')) await redis.set(`app:${id}`, v);\n}",
  ),
  // a bare function of the application named find
  ioredis(
    "declare function find(q: object): Promise<Array<{ id: string }>>;\nexport async function mirror(q: object, v: string) {\n  for (const row of await find(q)) await redis.set(`app:${row.id}`, v);\n}",
  ),
  // the file gives the record's key a TTL elsewhere: meant to expire
  ioredis(
    "declare const prisma: any;\nexport async function mirror(v: string) {\n  for (const app of await prisma.app.findMany()) await redis.set(`config:${app.id}`, v);\n}\nexport async function touch() {\n  for (const app of await prisma.app.findMany()) await redis.expire(`config:${app.id}`, 60);\n}",
  ),
];

const setCall = (code: string): string => code.match(/redis\.set\([^,]+, v/)![0];

// an application's services (zanePerfor's IP task): a method only its own class calls takes the
// values of its `this.handleDatas(appId, ...)` calls, here each registered application's id
const fixtures = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'stored-records');
const file = (path: string) => ({ code: readFileSync(join(fixtures, path), 'utf8'), filename: join(fixtures, path) });
const setInFile = (path: string, value: string) => {
  const { code, filename } = file(path);
  const call = code.match(/redis\.set\(`\w+\$\{appId\}`/)![0];
  return {
    code,
    filename,
    errors: [
      {
        messageId: 'setWithoutTtl' as const,
        ...positionOf(code, 'set(`'),
        suggestions: setSuggestions(code, `${call}, ${value}`),
      },
    ],
  };
};

runRule(untypedTester, 'set-requires-ttl-or-keepttl (own method calls)', setRule, {
  // the job's own calls, beside a sibling service whose methods of the same names call their own
  valid: [file('app/app/service/web/ip_task.js'), file('app/app/service/wx/ip_task.js')],
  invalid: [
    // the class's own call passes a request's value
    setInFile('app/app/service/manual.js', 'data[data.length - 1].create_time'),
    // another module calls the method (an egg controller through ctx.service): its callers are unknown
    setInFile('called/app/service/web/ip_task.js', 'data[data.length - 1].create_time'),
  ],
});

for (const tester of [untypedTester, typedTester]) {
  runRule(tester, 'set-requires-ttl-or-keepttl', setRule, {
    valid: setBounded,
    invalid: setReported.map((code) => ({
      code,
      errors: [{ messageId: 'setWithoutTtl' as const, ...positionOf(code, 'set(`'), suggestions: setSuggestions(code, setCall(code)) }],
    })),
  });
}

// keyshade's shape: a table of live sockets mirrored into one set per environment every 10 minutes
const rehydrate = nodeRedis(
  "declare const prisma: any;\nexport class Notifier {\n  async rehydrateCache() {\n    const socketMaps = await prisma.changeNotificationSocketMap.findMany();\n    for (const socketMap of socketMaps) {\n      await client.sAdd(`env_to_socket:${socketMap.environmentId}`, socketMap.socketId);\n    }\n  }\n}",
);
// the same set written from a connecting client's message: the request's environment, reported
const onConnect = nodeRedis(
  "export class Notifier {\n  async addClient(socketId: string, environmentId: string) {\n    await client.sAdd(`env_to_socket:${environmentId}`, socketId);\n  }\n}",
);

const ENV_KEY = '`env_to_socket:${environmentId}`';
const SADD = `client.sAdd(${ENV_KEY}, socketId)`;

for (const tester of [untypedTester, typedTester]) {
  runRule(tester, 'incr-needs-expire-on-create', incrRule, {
    valid: [rehydrate],
    invalid: [{ code: onConnect, errors: [{ messageId: 'noExpiry' as const, ...positionOf(onConnect, 'sAdd('), suggestions: [{ messageId: 'wrapInMulti' as const, output: onConnect.replace(SADD, `client.multi().sAdd(${ENV_KEY}, socketId).expire(${ENV_KEY}, TTL_SECONDS).exec()`) }] }] }],
  });
}
