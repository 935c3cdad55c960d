/**
 * The clients of tests/consumer/clients.test.ts: what each installs, the file linted and what the
 * rules, the fixes and the runtime must give. README.md's client table is checked against this
 * list (tests/docs/client-table.test.ts): a ✓ where the test expects a finding, a fix or a run.
 */

export interface ClientCase {
  /** The name README.md's client table gives the client. */
  name: string;
  /** Its folder under clients/. */
  id: string;
  /** What `npm install` is given. */
  install: string;
  /** tsconfig `types` besides `node`. */
  types?: string[];
  /** The file linted (`app.js` and `app.ts`, the same text: plain JavaScript that TypeScript accepts). */
  code: string[];
  /**
   * ESLint's findings on `app.js` (untyped) and `app.ts` (typed), as `line:column rule`, but for
   * embedded-lua's, which are `lua` (the same typed and untyped).
   */
  untyped: string[];
  typed: string[];
  lua: string[];
  /** Line 6 of app.js after `eslint --fix` with docs/configuration.md's autofix settings (the SET's fix in the client's form). */
  fixed: string;
  /** Line 1 of app.js after the fix, when the fix changes the import (GLIDE's `TimeUnit`). */
  fixedImport?: string;
  /** For a client that runs under Node: the lines that make `redis` from `process.env.APP_REDIS_URL`, and close it. */
  run?: { connect: string[]; close: string };
}

/** The leaking script every app.js passes to its client: INCR, and no expiry. */
const LEAKING_LUA = '"redis.call(\'INCR\', KEYS[1])\\nreturn 1"';

/**
 * An app.js: the client's import (line 1) and construction (line 3), then a SET without expiry
 * (line 6) and the leaking script sent with `scriptCall` (line 7, `LUA` standing for the script).
 */
function app(importLine: string, construct: string, scriptCall: string): string[] {
  return [
    importLine,
    '',
    `export const redis = ${construct};`,
    '',
    'export async function remember(id, value) {',
    '  await redis.set(`session:${id}`, value);',
    `  await ${scriptCall.replace('LUA', LEAKING_LUA)};`,
    '}',
    '',
  ];
}

const IOREDIS_CODE = (module: string) =>
  app(`import { Redis } from '${module}';`, "new Redis(process.env.APP_REDIS_URL ?? 'redis://127.0.0.1:6379')", 'redis.eval(LUA, 1, `hits:${id}`)');
const SET_FINDING = ['6:15 redis-ttl/set-requires-ttl-or-keepttl'];
const LUA_FINDING = ['7:21 redis-ttl/embedded-lua'];
const IOREDIS_FIXED = "  await redis.set(`session:${id}`, value, 'EX', 86400);";
const NODE_REDIS_FIXED = '  await redis.set(`session:${id}`, value, { EX: 86400 });';
const IOREDIS_RUN = (module: string) => ({ connect: [`import { Redis } from '${module}';`, 'const redis = new Redis(process.env.APP_REDIS_URL);'], close: 'await redis.quit();' });

const NODE_REDIS_CODE = app("import { createClient } from 'redis';", 'createClient({ url: process.env.APP_REDIS_URL })', 'redis.eval(LUA, { keys: [`hits:${id}`] })');
const NODE_REDIS_RUN = {
  connect: ["import { createClient } from 'redis';", 'const redis = createClient({ url: process.env.APP_REDIS_URL });', 'await redis.connect();'],
  close: 'await (redis.close ? redis.close() : redis.quit());',
};

export const CLIENTS: ClientCase[] = [
  { name: 'ioredis 5', id: 'ioredis5', install: 'ioredis@5', code: IOREDIS_CODE('ioredis'), untyped: SET_FINDING, typed: SET_FINDING, lua: LUA_FINDING, fixed: IOREDIS_FIXED, run: IOREDIS_RUN('ioredis') },
  { name: 'ioredis 6', id: 'ioredis6', install: 'ioredis@6', code: IOREDIS_CODE('ioredis'), untyped: SET_FINDING, typed: SET_FINDING, lua: LUA_FINDING, fixed: IOREDIS_FIXED, run: IOREDIS_RUN('ioredis') },
  { name: 'iovalkey', id: 'iovalkey', install: 'iovalkey@0.4', code: IOREDIS_CODE('iovalkey'), untyped: SET_FINDING, typed: SET_FINDING, lua: LUA_FINDING, fixed: IOREDIS_FIXED, run: IOREDIS_RUN('iovalkey') },
  { name: 'node-redis 5', id: 'redis5', install: 'redis@5', code: NODE_REDIS_CODE, untyped: SET_FINDING, typed: SET_FINDING, lua: LUA_FINDING, fixed: NODE_REDIS_FIXED, run: NODE_REDIS_RUN },
  { name: 'node-redis 6', id: 'redis6', install: 'redis@6', code: NODE_REDIS_CODE, untyped: SET_FINDING, typed: SET_FINDING, lua: LUA_FINDING, fixed: NODE_REDIS_FIXED, run: NODE_REDIS_RUN },
  {
    name: '@upstash/redis',
    id: 'upstash',
    install: '@upstash/redis@1',
    code: app("import { Redis } from '@upstash/redis';", "new Redis({ url: 'https://example.invalid', token: 'unused' })", 'redis.eval(LUA, [`hits:${id}`], [])'),
    untyped: SET_FINDING,
    typed: SET_FINDING,
    lua: LUA_FINDING,
    fixed: '  await redis.set(`session:${id}`, value, { ex: 86400 });',
  },
  {
    name: 'Valkey GLIDE',
    id: 'glide',
    install: '@valkey/valkey-glide@2',
    code: app(
      "import { GlideClient, Script } from '@valkey/valkey-glide';",
      "await GlideClient.createClient({ addresses: [{ host: '127.0.0.1', port: 6379 }] })",
      'redis.invokeScript(new Script(LUA), { keys: [`hits:${id}`] })',
    ),
    untyped: SET_FINDING,
    typed: SET_FINDING,
    lua: ['7:40 redis-ttl/embedded-lua'],
    fixed: '  await redis.set(`session:${id}`, value, { expiry: { type: TimeUnit.Seconds, count: 86400 } });',
    fixedImport: "import { GlideClient, Script, TimeUnit } from '@valkey/valkey-glide';",
    run: {
      connect: [
        "import { GlideClient } from '@valkey/valkey-glide';",
        'const url = new URL(process.env.APP_REDIS_URL);',
        'const redis = await GlideClient.createClient({ addresses: [{ host: url.hostname, port: Number(url.port) }], requestTimeout: 5000 });',
      ],
      close: 'redis.close();',
    },
  },
  {
    name: "Bun's RedisClient",
    id: 'bun',
    install: '@types/bun@1',
    types: ['bun'],
    code: app("import { RedisClient } from 'bun';", "new RedisClient(process.env.APP_REDIS_URL ?? 'redis://127.0.0.1:6379')", 'redis.eval(LUA, 1, `hits:${id}`)'),
    untyped: SET_FINDING,
    typed: SET_FINDING,
    lua: LUA_FINDING,
    fixed: IOREDIS_FIXED,
  },
];


/** An INCR and its EXPIRE in two round trips (incr-needs-expire-on-create), the function of the consumer tests' apps. */
export const HIT_FUNCTION = [
  'export async function hit(key) {',
  '  const hits = await redis.incr(key);',
  '  if (hits === 1) {',
  '    await redis.expire(key, 60);',
  '  }',
  '  return hits;',
  '}',
];
