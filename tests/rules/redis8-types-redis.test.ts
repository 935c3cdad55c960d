/**
 * The ESLint side of Redis 8's own types, checked on a real Redis 8 server: each snippet is linted
 * with `incr-needs-expire-on-create` and run with node-redis 5 against the server, and the rule
 * reports it exactly when the key it writes ends without TTL (PTTL -1). The server is Debian's
 * redis-server 8.0.2 (`scripts/fetch-redis-8.sh`, see tests/helpers/redis-8.ts), which has vector
 * sets built in and no JSON / time series / probabilistic modules: those are checked against
 * node-redis' own argv in redis8-types.test.ts, and their facts in tests/lua-lint/redis8-types-redis.test.ts.
 */
import tsParser from '@typescript-eslint/parser';
import { Linter } from 'eslint';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import incrRule from '../../rules/incr-needs-expire-on-create.js';
import { useRedis8 } from '../helpers/redis-8.js';

const server = useRedis8('redis8-types-redis.test.ts');
type Client = ReturnType<typeof createClient>;
let client: Client | undefined;

beforeAll(async () => {
  if (!server.available) return;
  const port = (server.client().options as { port: number }).port;
  client = createClient({ url: `redis://127.0.0.1:${port}` });
  await client.connect();
}, 20_000);
afterAll(async () => {
  await client?.quit();
});

/** The rule's findings (message ids) on a snippet, as the body of `async function run(id)` with a node-redis `client`. */
function findings(body: string): string[] {
  const code = `import { createClient } from 'redis';\nconst client = createClient();\nexport async function run(id: string) {\n${body}\n}\n`;
  const messages = new Linter({ configType: 'flat' }).verify(
    code,
    [{ files: ['**/*.ts'], languageOptions: { parser: tsParser }, plugins: { t: { rules: { r: incrRule as never } } }, rules: { 't/r': 'error' } }],
    { filename: 'snippet.ts' },
  );
  return messages.map((m) => m.messageId ?? m.message);
}

/** Runs a snippet's body on the server (the same text the rule read). */
async function run(body: string, id: string): Promise<void> {
  const AsyncFunction = Object.getPrototypeOf(async () => {}).constructor as new (...args: string[]) => (client: Client, id: string) => Promise<void>;
  await new AsyncFunction('client', 'id', body)(client!, id);
}

/** Whether the server has a command (a module it did not load has none). */
async function has(command: string): Promise<boolean> {
  const [info] = (await server.client().call('COMMAND', 'INFO', command)) as unknown[];
  return info !== null && info !== undefined;
}

const cases: Array<{ body: string; key: string; reported: boolean }> = [
  { body: "await client.vAdd(`vs:${id}`, [0.1, 0.2], 'e');", key: 'vs:', reported: true },
  { body: "await client.sendCommand(['VADD', `vs:${id}`, 'VALUES', '2', '0.1', '0.2', 'e']);", key: 'vs:', reported: true },
  { body: "await client.multi().vAdd(`vs:${id}`, [0.1, 0.2], 'e').expire(`vs:${id}`, 60).exec();", key: 'vs:', reported: false },
];

describe.skipIf(!server.available)('node-redis on redis-server 8: reported exactly when the key ends without TTL', () => {
  it('runs on Redis 8 with vector sets', async () => {
    expect(await has('VADD')).toBe(true);
  });
  cases.forEach(({ body, key, reported }, index) => {
    it(body, async () => {
      const id = `case${index}`;
      expect(findings(body)).toEqual(reported ? ['noExpiry'] : []);
      await run(body, id);
      const pttl = await server.client().pttl(`${key}${id}`);
      if (reported) expect(pttl).toBe(-1);
      else expect(pttl).toBeGreaterThan(50_000);
    });
  });
});
