/**
 * Server URLs of the audit: `redis[s]://[[user]:password@]host[:port][/db]`
 * (https://www.iana.org/assignments/uri-schemes/prov/redis, `rediss` = TLS). Kept apart from
 * `connect.ts` so that the CLI parses and prints URLs without loading a Redis client.
 */
import { isIP } from 'node:net';
import type { RedisOptions } from 'ioredis';
import { AuditError } from './audit.js';

/**
 * `url` with its credentials cut out, for messages and reports, whatever the URL's shape. Two
 * parts are secret: the user info's password, from its first `:` to the **last** `@` after the
 * scheme (a password may hold an unencoded `/`, `#`, `?` or `@`, where a URL parser would end it
 * early and leave the rest in the clear; a user info without `:` is hidden whole, as some clients
 * read `redis://secret@host` as a password), and everything after a `password=` / `pass=` /
 * `auth=` query parameter. Both are replaced by `***` before anything else looks at the URL; the
 * result is normalized by `URL` only when it parses.
 */
export function redactUrl(url: string): string {
  const secret = new Uint8Array(url.length);
  const start = userInfoStart(url);
  const at = url.lastIndexOf('@');
  if (at >= start) {
    const colon = url.indexOf(':', start);
    secret.fill(1, colon !== -1 && colon < at ? colon + 1 : start, at);
  }
  const query = /[?&;](?:password|pass|auth)=/i.exec(url);
  if (query !== null) secret.fill(1, query.index + query[0].length);
  let cut = '';
  for (let i = 0; i < url.length; i += 1) {
    if (secret[i] === 0) cut += url[i];
    else if (i === 0 || secret[i - 1] === 0) cut += '***';
  }
  try {
    return new URL(cut).toString().replace(/\/$/, '');
  } catch {
    return cut;
  }
}

/**
 * Where the user info may start: after `scheme://` when the URL starts with a scheme name
 * (RFC 3986: a letter, then letters, digits, `+`, `-`, `.`), else at 0. A `://` further on is part
 * of the user info or the path (`:pa://ss@host`), never the scheme's.
 */
function userInfoStart(url: string): number {
  const scheme = /^[a-z][a-z\d+.-]*:\/\//i.exec(url);
  return scheme === null ? 0 : scheme[0].length;
}

/** The user info holds a character a URL ends it at: what to say, else `''`. */
function unencodedHint(url: string): string {
  const start = userInfoStart(url);
  const at = url.lastIndexOf('@');
  if (at < start) return '';
  const userinfo = url.slice(start, at);
  const bad = [...new Set(userinfo.match(/[/?#@[\] ]/g) ?? [])];
  if (bad.length === 0) return '';
  const codes = bad.map((c) => `'${c}' as %${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`).join(', ');
  return ` (the user name or password holds ${bad.map((c) => `'${c}'`).join(', ')}, which a URL must percent-encode: write ${codes})`;
}

/** `text` percent-decoded, or an {@link AuditError} naming the part (never its value). */
function decodePart(text: string, part: 'user name' | 'password', shown: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    throw new AuditError(
      `invalid URL "${shown}": the ${part} holds a '%' that is not followed by two hexadecimal digits: write a literal '%' as %25`,
    );
  }
}

/** Client options from a `redis://` or `rediss://` URL. @throws {AuditError} when it is not one. */
export function optionsFromUrl(url: string): RedisOptions & { host: string; port: number } {
  // the credentials are cut out before any message is built
  const shown = redactUrl(url);
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new AuditError(`invalid URL "${shown}": expected redis://[user:password@]host[:port][/db] or rediss://...${unencodedHint(url)}`);
  }
  if (parsed.protocol !== 'redis:' && parsed.protocol !== 'rediss:') {
    throw new AuditError(`invalid URL "${shown}": the scheme must be redis:// or rediss:// (TLS)`);
  }
  // an '@' after the host: the user info held a character that ended it early ('/', '?', '#')
  if (url.lastIndexOf('@') > url.indexOf('://') + 2 && (parsed.pathname + parsed.search + parsed.hash).includes('@')) {
    throw new AuditError(`invalid URL "${shown}": expected redis://[user:password@]host[:port][/db]${unencodedHint(url)}`);
  }
  const db = parsed.pathname.replace(/^\//, '');
  if (db !== '' && !/^\d+$/.test(db)) throw new AuditError(`invalid URL "${shown}": the path must be a database number`);
  const options: RedisOptions & { host: string; port: number } = {
    host: parsed.hostname.replace(/^\[(.*)\]$/, '$1') || '127.0.0.1',
    port: parsed.port === '' ? 6379 : Number(parsed.port),
  };
  if (parsed.username !== '') options.username = decodePart(parsed.username, 'user name', shown);
  if (parsed.password !== '') options.password = decodePart(parsed.password, 'password', shown);
  if (db !== '') options.db = Number(db);
  // TLS checks the certificate against the host; SNI only for names (RFC 6066 forbids addresses).
  if (parsed.protocol === 'rediss:') options.tls = isIP(options.host) ? {} : { servername: options.host };
  return options;
}
