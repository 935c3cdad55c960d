/**
 * A Valkey GLIDE client configuration (`GlideClientConfiguration` of @valkey/valkey-glide) for the
 * server at a `redis://[user:password@]host:port[/db]` URL: GLIDE takes addresses and credentials,
 * not URLs.
 */
import { Logger, type GlideClientConfiguration } from '@valkey/valkey-glide';

// GLIDE's core logs every error reply and timeout at WARN on standard output: the tests provoke
// them on purpose, and assert what the runtime makes of them.
Logger.setLoggerConfig('off');

/**
 * The GLIDE configuration of `url`. `requestTimeout` is 5000 ms (GLIDE's default, 250 ms, is
 * shorter than the runtime's default deadline of 1000 ms and than a loaded test machine's pauses).
 * @throws {TypeError} when `url` is not a `redis://` URL.
 */
export function glideConfig(url: string, requestTimeout = 5000): GlideClientConfiguration {
  const parsed = new URL(url);
  if (parsed.protocol !== 'redis:') throw new TypeError(`a redis:// URL is needed, got ${parsed.protocol}`);
  const db = parsed.pathname.replace(/^\//, '');
  return {
    addresses: [{ host: parsed.hostname, port: Number(parsed.port || 6379) }],
    requestTimeout,
    ...(parsed.password === '' ? {} : { credentials: { password: decodeURIComponent(parsed.password), ...(parsed.username === '' ? {} : { username: decodeURIComponent(parsed.username) }) } }),
    ...(db === '' ? {} : { databaseId: Number(db) }),
  };
}
