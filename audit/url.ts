/**
 * Server URLs of the audit: `redis[s]://[[user]:password@]host[:port][/db]`
 * (https://www.iana.org/assignments/uri-schemes/prov/redis, `rediss` = TLS). Kept apart from
 * `connect.ts` so that the CLI parses and prints URLs without loading a Redis client.
 */
import { isIP } from 'node:net';
import type { RedisOptions } from 'ioredis';
import { AuditError } from './audit.js';

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

