/**
 * Connections for the audit: one ioredis client, or an ioredis `Cluster` whose masters are each
 * scanned on their own. TLS and credentials come from the URL (`url.ts`).
 */
import { Cluster, Redis, type RedisOptions } from 'ioredis';
import { AuditError, DEFAULT_TIMEOUT_MS, isTimeout } from './audit.js';
import { optionsFromUrl, redactUrl } from './url.js';

/** The servers to audit and how to let go of them. */
export interface Connection {
  /** One client per server to scan: the server, or every master of the cluster. */
  nodes: Redis[];
  /**
   * Closes every connection: QUIT, or with `force` (after a failure: the server may never answer
   * again) a plain disconnect. Never throws.
   */
  close(force?: boolean): Promise<void>;
}

/** How to connect. */
export interface ConnectOptions {
  /** The URL is a node of a Redis Cluster: connect to every master. */
  cluster: boolean;
  /**
   * Milliseconds to wait for the connection (TCP, TLS handshake, AUTH, the first reply, and with
   * `cluster` the slot table and every master), all within one deadline, and then for the reply
   * to each command; a server that stays silent longer fails the audit with an error naming it
   * (ioredis `commandTimeout` for the commands).
   */
  timeoutMs: number;
}

function clientOptions(timeoutMs: number): RedisOptions {
  return {
    lazyConnect: true,
    connectTimeout: timeoutMs,
    commandTimeout: timeoutMs,
    maxRetriesPerRequest: 1,
    enableOfflineQueue: true,
    // A scan is one pass: fail fast instead of reconnecting forever.
    retryStrategy: () => null,
    // After a failed connect, ioredis waits this long for a socket that is already gone (default 2 s).
    disconnectTimeout: 200,
  };
}

function describe(error: unknown, tls: boolean, timeoutMs: number): string {
  const message = error instanceof Error ? error.message : String(error);
  const last = (error as { lastNodeError?: Error } | undefined)?.lastNodeError;
  const text = last === undefined ? message : `${message} (${last.message})`;
  if (isTimeout(error) || (last !== undefined && isTimeout(last))) {
    // A plain server reads a TLS ClientHello as the start of a command and waits for the rest.
    return tls
      ? `no answer within ${timeoutMs} ms (--timeout). The TLS handshake did not complete: if the server does not use TLS, use redis:// instead of rediss://`
      : `no answer within ${timeoutMs} ms (--timeout): the server is paused, overloaded or not a Redis server, or a firewall drops the traffic`;
  }
  // A TLS port closes a plain-text connection without a word.
  if (!tls && /ECONNRESET|Connection is closed/.test(text)) return `${text} (if the server expects TLS, use rediss://)`;
  if (tls && /wrong version number|packet length too long|EPROTO/i.test(text)) return `${text} (the server does not speak TLS on this port: use redis://)`;
  return text;
}

/**
 * Connects to the server at `url`, or with `options.cluster` to the cluster it belongs to (any
 * node works as the starting point) and then to each of its masters. Every client gets
 * `options.timeoutMs` as its connect and reply timeout.
 *
 * @throws {AuditError} with a one-line reason when the URL is invalid, the server cannot be
 *   reached or does not answer in time (with a hint when TLS is the likely cause), authentication
 *   fails, the URL's database cannot be selected (a refused or out-of-range SELECT: nothing may
 *   run on database 0 instead) or (with `cluster`) the server is not in cluster mode.
 */
export async function connect(url: string, options: ConnectOptions): Promise<Connection> {
  const where = redactUrl(url);
  const target = optionsFromUrl(url);
  const common = clientOptions(options.timeoutMs);
  // one deadline for the whole connection, first reply included (ioredis' connectTimeout ends at
  // the TCP connect, its ready check then waits for a reply on its own)
  const deadline = performance.now() + options.timeoutMs;
  const withinDeadline = <T>(work: Promise<T>, cancel: () => void): Promise<T> => {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        cancel();
        reject(new Error('Command timed out'));
      }, Math.max(0, deadline - performance.now()));
    });
    return Promise.race([work, late]).finally(() => clearTimeout(timer));
  };
  const tls = target.tls !== undefined;
  // Also the first step with --cluster: ioredis' Cluster reports a refused or TLS-failed seed node
  // only as "Connection is closed", the plain client says why.
  const client = new Redis({ ...common, ...target });
  let lastError: Error | undefined;
  client.on('error', (error: Error) => (lastError = error));
  try {
    await withinDeadline(client.connect(), () => client.disconnect());
  } catch (error) {
    client.disconnect();
    throw new AuditError(`cannot connect to ${where}: ${describe(isTimeout(error) ? error : (lastError ?? error), tls, options.timeoutMs)}`);
  }
  if (!options.cluster) {
    if (target.db !== undefined && target.db !== 0) await selectDatabase(client, target.db, where);
    return { nodes: [client], close: (force) => (force ? Promise.resolve(client.disconnect()) : quit([client])) };
  }
  await quit([client]);

  const { host, port, db, ...redisOptions } = target;
  if (db !== undefined && db !== 0) throw new AuditError(`a Redis Cluster has only database 0, the URL asks for ${db}`);
  const seeded = new Cluster([{ host, port }], {
    lazyConnect: true,
    clusterRetryStrategy: () => null,
    enableOfflineQueue: true,
    slotsRefreshTimeout: options.timeoutMs,
    redisOptions: { ...common, ...redisOptions },
  });
  let clusterError: Error | undefined;
  seeded.on('error', (error: Error) => (clusterError ??= error));
  seeded.on('node error', (error: Error) => (clusterError = error));
  try {
    await withinDeadline(seeded.connect(), () => seeded.disconnect());
  } catch (error) {
    seeded.disconnect();
    throw new AuditError(`cannot connect to the cluster at ${where}: ${describe(isTimeout(error) ? error : (clusterError ?? error), tls, options.timeoutMs)}`);
  }
  const masters = seeded.nodes('master');
  if (masters.length === 0) {
    seeded.disconnect();
    throw new AuditError(`the cluster at ${where} has no master`);
  }
  for (const node of masters) node.on('error', () => undefined);
  return {
    nodes: masters,
    close: async (force) => {
      if (force) seeded.disconnect();
      else await quitWithin(seeded, options.timeoutMs);
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

/** QUIT, or a plain disconnect when QUIT fails or has no reply in `timeoutMs` (a paused server). */
async function quitWithin(client: Redis | Cluster, timeoutMs: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs)));
  await Promise.race([client.quit().then(() => undefined, () => undefined), late]);
  clearTimeout(timer);
  client.disconnect();
}

async function quit(clients: Redis[]): Promise<void> {
  await Promise.all(clients.map((c) => quitWithin(c, Number(c.options.commandTimeout ?? DEFAULT_TIMEOUT_MS))));
}
