/**
 * Connections for the audit: one ioredis client, or an ioredis `Cluster` whose masters are each
 * scanned on their own. TLS and credentials come from the URL:
 * `redis[s]://[[user]:password@]host[:port][/db]`
 * (https://www.iana.org/assignments/uri-schemes/prov/redis, `rediss` = TLS).
 */
import { isIP } from 'node:net';
import { Cluster, Redis, type RedisOptions } from 'ioredis';
import { AuditError } from './audit.js';

/** The servers to audit and how to let go of them. */
export interface Connection {
  /** One client per server to scan: the server, or every master of the cluster. */
  nodes: Redis[];
  /** Closes every connection. Never throws. */
  close(): Promise<void>;
}

/** `url` with the password replaced by `***`, for messages. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password !== '') parsed.password = '***';
    return parsed.toString().replace(/\/$/, '');
  } catch {
    return url.replace(/\/\/[^@/]*@/, '//***@');
  }
}

/** Client options from a `redis://` or `rediss://` URL. @throws {AuditError} when it is not one. */
export function optionsFromUrl(url: string): RedisOptions & { host: string; port: number } {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new AuditError(`invalid URL "${redactUrl(url)}": expected redis://[user:password@]host[:port][/db] or rediss://...`);
  }
  if (parsed.protocol !== 'redis:' && parsed.protocol !== 'rediss:') {
    throw new AuditError(`invalid URL "${redactUrl(url)}": the scheme must be redis:// or rediss:// (TLS)`);
  }
  const db = parsed.pathname.replace(/^\//, '');
  if (db !== '' && !/^\d+$/.test(db)) throw new AuditError(`invalid URL "${redactUrl(url)}": the path must be a database number`);
  const options: RedisOptions & { host: string; port: number } = {
    host: parsed.hostname.replace(/^\[(.*)\]$/, '$1') || '127.0.0.1',
    port: parsed.port === '' ? 6379 : Number(parsed.port),
  };
  if (parsed.username !== '') options.username = decodeURIComponent(parsed.username);
  if (parsed.password !== '') options.password = decodeURIComponent(parsed.password);
  if (db !== '') options.db = Number(db);
  // TLS checks the certificate against the host; SNI only for names (RFC 6066 forbids addresses).
  if (parsed.protocol === 'rediss:') options.tls = isIP(options.host) ? {} : { servername: options.host };
  return options;
}

const COMMON: RedisOptions = {
  lazyConnect: true,
  connectTimeout: 5_000,
  maxRetriesPerRequest: 1,
  enableOfflineQueue: true,
  // A scan is one pass: fail fast instead of reconnecting forever.
  retryStrategy: () => null,
  // After a failed connect, ioredis waits this long for a socket that is already gone (default 2 s).
  disconnectTimeout: 200,
};

function describe(error: unknown, tls: boolean): string {
  const message = error instanceof Error ? error.message : String(error);
  const last = (error as { lastNodeError?: Error } | undefined)?.lastNodeError;
  const text = last === undefined ? message : `${message} (${last.message})`;
  // A TLS port closes a plain-text connection without a word.
  return !tls && /ECONNRESET/.test(text) ? `${text} (if the server expects TLS, use rediss://)` : text;
}

/**
 * Connects to the server at `url`, or with `cluster` to the cluster it belongs to (any node works
 * as the starting point) and then to each of its masters.
 *
 * @throws {AuditError} with a one-line reason when the URL is invalid, the server cannot be
 *   reached, authentication fails, the URL's database cannot be selected (a refused or
 *   out-of-range SELECT: nothing may run on database 0 instead) or (with `cluster`) the server is
 *   not in cluster mode.
 */
export async function connect(url: string, cluster: boolean): Promise<Connection> {
  const options = optionsFromUrl(url);
  const where = redactUrl(url);
  // Also the first step with --cluster: ioredis' Cluster reports a refused or TLS-failed seed node
  // only as "Connection is closed", the plain client says why.
  const client = new Redis({ ...COMMON, ...options });
  let lastError: Error | undefined;
  client.on('error', (error: Error) => (lastError = error));
  try {
    await client.connect();
  } catch (error) {
    client.disconnect();
    throw new AuditError(`cannot connect to ${where}: ${describe(lastError ?? error, options.tls !== undefined)}`);
  }
  if (!cluster) {
    if (options.db !== undefined && options.db !== 0) await selectDatabase(client, options.db, where);
    return { nodes: [client], close: () => quit([client]) };
  }
  await quit([client]);

  const { host, port, db, ...redisOptions } = options;
  if (db !== undefined && db !== 0) throw new AuditError(`a Redis Cluster has only database 0, the URL asks for ${db}`);
  const seeded = new Cluster([{ host, port }], {
    lazyConnect: true,
    clusterRetryStrategy: () => null,
    enableOfflineQueue: true,
    slotsRefreshTimeout: 5_000,
    redisOptions: { ...COMMON, ...redisOptions },
  });
  let clusterError: Error | undefined;
  seeded.on('error', (error: Error) => (clusterError ??= error));
  seeded.on('node error', (error: Error) => (clusterError = error));
  try {
    await seeded.connect();
  } catch (error) {
    seeded.disconnect();
    throw new AuditError(`cannot connect to the cluster at ${where}: ${describe(clusterError ?? error, options.tls !== undefined)}`);
  }
  const masters = seeded.nodes('master');
  if (masters.length === 0) {
    seeded.disconnect();
    throw new AuditError(`the cluster at ${where} has no master`);
  }
  for (const node of masters) node.on('error', () => undefined);
  return {
    nodes: masters,
    close: async () => {
      await seeded.quit().catch(() => seeded.disconnect());
    },
  };
}

/**
 * Puts `client` on database `db`, or closes it and throws. ioredis sends SELECT on connect but
 * only emits an `error` event when the server refuses it (an ACL user without `+select`, a
 * cluster node, a db >= `databases`): `connect()` still resolves and every command would then run
 * on database 0. An explicit SELECT that succeeded is the proof that the scan (and any EXPIRE)
 * happens where the URL says; with retries disabled, the connection never comes back elsewhere.
 */
async function selectDatabase(client: Redis, db: number, where: string): Promise<void> {
  try {
    await client.select(db);
  } catch (error) {
    await quit([client]);
    const message = error instanceof Error ? error.message.split('\n')[0] : String(error);
    throw new AuditError(`cannot select database ${db} on ${where}: ${message}`);
  }
}

async function quit(clients: Redis[]): Promise<void> {
  await Promise.all(clients.map((c) => c.quit().catch(() => c.disconnect())));
}
