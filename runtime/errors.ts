/**
 * The errors the runtime throws for Redis and its clients.
 *
 * A client's own error object can carry the command it failed on: ioredis' `ReplyError` for a
 * failed AUTH holds `command: { name: 'auth', args: [user, password] }`, @upstash/redis writes the
 * command into the message. Loggers serialize such objects whole. So the runtime never rethrows a
 * client's error: it throws a {@link RedisError} that copies the message (without any command
 * text), the reply's error code or the socket's errno code, and the server's address when the
 * client reports it, and that has no `cause`.
 */

/** Longest message copied from a client's error, in characters. */
const MAX_MESSAGE = 500;

/** Fields a client error may have that are safe to copy (strings and numbers only). */
interface ClientErrorFields {
  code?: unknown;
  errno?: unknown;
  address?: unknown;
  port?: unknown;
}

/**
 * An error of Redis (an error reply such as WRONGTYPE, NOAUTH or WRONGPASS) or of the client (a
 * socket error), as the runtime throws it: the client's message and codes, never the command or
 * its arguments (a password, a key, a value).
 */
export class RedisError extends Error {
  /**
   * The first word of an error reply (`'WRONGTYPE'`, `'NOAUTH'`, `'WRONGPASS'`, `'OOM'`, `'ERR'`,
   * see https://redis.io/docs/latest/develop/reference/protocol-spec/#simple-errors), or the
   * socket's code (`'ECONNREFUSED'`, `'ECONNRESET'`), or `'TIMEOUT'` when the runtime's deadline
   * passed. `undefined` when the client gave neither.
   */
  readonly code: string | undefined;
  /** `host:port` of the server when the client reported it, else `undefined`. */
  readonly address: string | undefined;

  constructor(message: string, code?: string, address?: string) {
    super(message);
    this.name = 'RedisError';
    this.code = code;
    this.address = address;
  }
}

/**
 * Thrown by `collect`, `incrementWithTtl`, `setKeepTtl` and a cache whose `onRedisError` is
 * `'throw'` when Redis is unavailable: a connection error, no answer within `timeoutMs`, a reply
 * that means "can not serve now" (OOM, READONLY, MASTERDOWN, LOADING, BUSY, CLUSTERDOWN...), or a
 * shard already known to be down (then nothing was sent).
 */
export class RedisUnavailableError extends RedisError {
  /**
   * Whether this call's command was sent to Redis. `false`: the shard was known to be down, or
   * the client refused the command without writing it (a node-redis client that is not
   * connected: the message says to `await client.connect()`), so nothing happened. `true`: it was sent and timed out or failed; after a
   * timeout it may still run later (a command can not be taken back once written to the socket).
   */
  readonly sent: boolean;

  constructor(message: string, sent: boolean, code?: string, address?: string) {
    super(message, code, address);
    this.name = 'RedisUnavailableError';
    this.sent = sent;
  }
}

/** The reply's first word when it looks like an error code (upper-case letters), else undefined. */
function replyCode(message: string): string | undefined {
  const match = /^([A-Z][A-Z_]{1,31})\b/.exec(message);
  return match?.[1];
}

/** `message` without what clients append about the command (@upstash/redis: ", command was: [...]"). */
export function safeMessage(error: unknown): string {
  let message = error instanceof Error ? error.message : typeof error === 'string' ? error : 'unknown error';
  const commandAt = message.search(/,? ?command was:/i);
  if (commandAt !== -1) message = message.slice(0, commandAt);
  return message.length > MAX_MESSAGE ? `${message.slice(0, MAX_MESSAGE)}...` : message;
}

/** The code and address a client error carries, copied as strings. */
export function errorFields(error: unknown): { code: string | undefined; address: string | undefined } {
  if (typeof error !== 'object' || error === null) return { code: undefined, address: undefined };
  const fields = error as ClientErrorFields;
  let code = typeof fields.code === 'string' && /^[A-Z0-9_]{1,40}$/.test(fields.code) ? fields.code : undefined;
  code ??= replyCode(safeMessage(error));
  const host = typeof fields.address === 'string' ? fields.address : undefined;
  const port = typeof fields.port === 'number' || typeof fields.port === 'string' ? String(fields.port) : undefined;
  return { code, address: host === undefined ? undefined : port === undefined ? host : `${host}:${port}` };
}

/**
 * A {@link RedisError} copied from a client's error (see the module comment); `fallbackAddress`
 * is the server the runtime sent to when the error does not say; `hint` is appended to the message.
 */
export function toRedisError(error: unknown, fallbackAddress?: string, hint = ''): RedisError {
  if (error instanceof RedisError && hint === '') return error;
  const { code, address } = errorFields(error);
  return new RedisError(safeMessage(error) + hint, code, address ?? fallbackAddress);
}
