/**
 * Shared test plumbing: one Redis per test file, clients, unique prefixes, SCAN audits.
 *
 * Tests never touch a server they did not start, unless the user names a test server with
 * `REDIS_TEST_URL` (redis-server.ts). On such a named server:
 * - every key a test writes starts with the file's private prefix ({@link uniquePrefix}), and
 *   {@link useRedis} deletes every key under it after the file (SCAN MATCH + UNLINK);
 * - the clients of {@link useRedis} refuse FLUSHALL, FLUSHDB, CONFIG SET / RESETSTAT / REWRITE,
 *   SCRIPT FLUSH, FUNCTION FLUSH, ACL SETUSER / DELUSER, CLIENT PAUSE / KILL, SWAPDB and a `db`
 *   other than the URL's:
 *   the command fails, and so does the test that sent it;
 * - tests that need those powers are skipped with the reason printed ({@link needsOwnServer}).
 * Everywhere else (CI included) the tests start their own server and skip nothing.
 */
import { randomBytes } from 'node:crypto';
import { Redis, type RedisOptions } from 'ioredis';
import { afterAll, beforeAll } from 'vitest';
import { namedTestServer, startRedis, unlinkMatching, type RedisHandle } from './redis-server.js';

export interface TestRedis {
  /** URL of the Redis of this file. */
  url(): string;
  /** A new client (closed after the file); guarded on a named server (see the module comment). */
  client(options?: RedisOptions): Redis;
  /** Whether the Redis of this file is a named test server (`REDIS_TEST_URL`). */
  readonly named: boolean;
}

/**
 * The private prefix of this test file's keys (vitest runs each file in its own module graph):
 * letters and digits only, so every {@link uniquePrefix} is also a valid key namespace.
 */
const FILE_PREFIX = `rttltest${randomBytes(4).toString('hex')}`;

/** Commands (and subcommands) a test may not send to a named server: they change what is not ours. */
const FORBIDDEN = new Set([
  'flushall',
  'flushdb',
  'swapdb',
  'config set',
  'config resetstat',
  'config rewrite',
  'script flush',
  'function flush',
  'acl setuser',
  'acl deluser',
  'client pause',
  'client kill',
  'shutdown',
  'debug',
]);

/** The command's name, and name + subcommand, lower case. */
function commandNames(command: { name: string; args: unknown[] }): string[] {
  const name = command.name.toLowerCase();
  const sub = command.args[0];
  return [name, ...(typeof sub === 'string' || Buffer.isBuffer(sub) ? [`${name} ${sub.toString().toLowerCase()}`] : [])];
}

/** Makes `client` refuse the {@link FORBIDDEN} commands (pipelines and MULTI go through the same door). */
function guard(client: Redis): Redis {
  const send = client.sendCommand.bind(client);
  client.sendCommand = ((command, stream) => {
    const refused = commandNames(command).find((name) => FORBIDDEN.has(name));
    if (refused === undefined) return send(command, stream);
    command.reject(new Error(`${refused.toUpperCase()} is not sent to a named test server (REDIS_TEST_URL); mark the test with needsOwnServer()`));
    return command.promise;
  }) as Redis['sendCommand'];
  return client;
}

/** Deletes every key of this file (its {@link FILE_PREFIX}) from the server at `url`. */
async function deleteFileKeys(url: string): Promise<void> {
  const client = new Redis(url, { maxRetriesPerRequest: 2 });
  try {
    await unlinkMatching(client, `${FILE_PREFIX}*`);
  } finally {
    client.disconnect();
  }
}

/** Starts a Redis before the file's tests and stops it (and every client) afterwards. */
export function useRedis(): TestRedis {
  let handle: RedisHandle | undefined;
  const clients: Redis[] = [];
  beforeAll(async () => {
    handle = await startRedis();
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.quit().catch(() => c.disconnect())));
    if (handle?.named) await deleteFileKeys(handle.url);
    await handle?.stop();
  });
  return {
    named: namedTestServer() !== undefined,
    url() {
      if (handle === undefined) throw new Error('Redis not started yet');
      return handle.url;
    },
    client(options: RedisOptions = {}) {
      if (handle === undefined) throw new Error('Redis not started yet');
      if (handle.named && options.db !== undefined) {
        throw new Error('a test on a named server (REDIS_TEST_URL) uses the database of the URL only: mark it with needsOwnServer()');
      }
      const c = new Redis(handle.url, { maxRetriesPerRequest: 2, ...options });
      clients.push(c);
      return handle.named ? guard(c) : c;
    },
  };
}

const printed = new Set<string>();

/**
 * For tests that need powers a named test server does not give (FLUSHDB, CONFIG SET,
 * SCRIPT FLUSH, ACL SETUSER, a database of their own): true when `REDIS_TEST_URL` names the
 * server, after printing once on standard error that the tests are skipped and why; false (run
 * them) otherwise. Use as `describe.skipIf(needsOwnServer('...'))`.
 */
export function needsOwnServer(reason: string): boolean {
  if (namedTestServer() === undefined) return false;
  if (!printed.has(reason)) {
    printed.add(reason);
    process.stderr.write(`skipped on the named test server (REDIS_TEST_URL): ${reason}\n`);
  }
  return true;
}

/**
 * A prefix no other test uses, under this file's private prefix: letters and digits only, so it
 * is also a valid key namespace. Every key a test writes must start with one.
 */
export function uniquePrefix(label: string): string {
  return `${FILE_PREFIX}${label.replace(/[^A-Za-z0-9]/g, '')}${randomBytes(6).toString('hex')}`;
}

/** Every key matching `pattern` with its PTTL (SCAN, https://redis.io/docs/latest/commands/scan/). */
export async function scanWithPttl(redis: Redis, pattern: string): Promise<Map<string, number>> {
  const result = new Map<string, number>();
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
    cursor = next;
    for (const key of keys) result.set(key, await redis.pttl(key));
  } while (cursor !== '0');
  return result;
}
