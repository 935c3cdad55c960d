/**
 * The Redis server binary as a process a program starts: its names, the address it listens on,
 * and the command-line options that make its data outlive the process. What
 * `redis-calls/spawned-server.ts` reads as a server the package owns.
 *
 * Sources: https://redis.io/docs/latest/operate/oss_and_stack/management/config/ ("Passing
 * arguments via the command line": `./redis-server --port 6380 --replicaof 127.0.0.1 6379`, every
 * directive of redis.conf as `--name value`, and a configuration file as the first argument),
 * https://redis.io/docs/latest/operate/oss_and_stack/management/config-file/ (the self-documented
 * redis.conf: `port 6379` the default, `port 0` no TCP socket, `daemonize no` the default,
 * `dir ./`, `appendonly no`, `save <seconds> <changes>` and `save ""` to disable snapshots; "Unless
 * specified otherwise, by default Redis will save the DB" after 3600 s with 1 change, 300 s with 100,
 * 60 s with 10000, also at a normal shutdown, into `dump.rdb` of `dir`, loaded at the next start) and
 * https://redis.io/docs/latest/operate/oss_and_stack/management/persistence/ (RDB and AOF).
 * Valkey, the fork, ships the same binary as `valkey-server` with the same options
 * (https://valkey.io/topics/valkey.conf/).
 */

/** The server binaries: Redis' and Valkey's (`/usr/bin/redis-server` names the same one). */
export const SERVER_BINARIES: ReadonlySet<string> = new Set(['redis-server', 'valkey-server']);

/** The TCP port a server started without `--port` listens on (redis.conf `port 6379`). */
export const DEFAULT_SERVER_PORT = 6379;

/**
 * The server binary `command` names, by its file name (`redis-server`, `/usr/local/bin/valkey-server`),
 * or `undefined` (`redis-cli`, `redis-benchmark`, `redis-server.service`, `docker`).
 */
export function serverBinary(command: string): string | undefined {
  const name = command.replace(/^.*[\\/]/, '');
  return SERVER_BINARIES.has(name) ? name : undefined;
}

/**
 * What a server started with the command-line arguments `args` is, as far as the arguments say:
 * the TCP port it listens on, and whether it keeps its data beyond the process. `undefined` when
 * the arguments cannot be read that way: a configuration file (a first argument that is no
 * `--option`: any directive may be in it, the port and the persistence included), `--include`
 * (the same), or `--port` with no number.
 *
 * `keepsData` unless the arguments turn RDB snapshots off (`--save ""`, `--save ''`, or `--save`
 * given an empty argument): with its built-in defaults the server snapshots its keys into
 * `dump.rdb` of its working directory (on a schedule and at a normal shutdown) and loads them at
 * its next start there, so keys can outlive the process. Also `keepsData` when an option asks for
 * the keys to outlive the process or the server to outlive its parent, snapshots off or not:
 * `--daemonize yes` (the server forks into the background and runs on after the program),
 * `--appendonly yes` (an append-only file replayed at the next start), a `--save` with a schedule,
 * or `--dir` / `--dbfilename` / `--appendfilename` / `--appenddirname` (a place chosen for the data
 * files to be found again).
 */
export function serverArguments(args: readonly string[]): { port: number; keepsData: boolean } | undefined {
  if (args.length > 0 && !args[0]!.startsWith('--')) return undefined;
  let port = DEFAULT_SERVER_PORT;
  let keepsData = false;
  let snapshotsOff = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (!arg.startsWith('--')) continue;
    // `--port 6380`, and `--port=6380` as some wrappers write it
    const [name, inline] = arg.slice(2).toLowerCase().split('=', 2) as [string, string | undefined];
    const value = (inline ?? args[i + 1] ?? '').trim();
    switch (name) {
      case 'include':
        return undefined;
      case 'port':
        if (!/^\d+$/.test(value)) return undefined;
        port = Number(value);
        break;
      case 'daemonize':
      case 'appendonly':
        if (/^yes$/i.test(value)) keepsData = true;
        break;
      case 'save':
        // `--save ""` (or `''`, or an empty argument): snapshots off; a schedule turns them on
        if (/^(?:""|'')?$/.test(value)) snapshotsOff = true;
        else keepsData = true;
        break;
      case 'dir':
      case 'dbfilename':
      case 'appendfilename':
      case 'appenddirname':
        keepsData = true;
        break;
      default:
        break;
    }
  }
  return { port, keepsData: keepsData || !snapshotsOff };
}

/**
 * The server a connection URL names when it is one on this host: `redis://localhost:6379/0`,
 * `redis://127.0.0.1`, `redis://[::1]:6380` (the port defaulting to {@link DEFAULT_SERVER_PORT},
 * https://www.iana.org/assignments/uri-schemes/prov/redis), its port; `undefined` for another host,
 * a `rediss://` URL (TLS, which a server started with no `--tls-port` does not speak) or text that is no URL.
 */
export function loopbackPort(url: string): number | undefined {
  const match = /^redis:\/\/(?:[^@/]*@)?(localhost|127\.0\.0\.1|\[::1\])(?::(\d+))?(?:\/\d*)?$/i.exec(url.trim());
  if (!match) return undefined;
  return match[2] === undefined ? DEFAULT_SERVER_PORT : Number(match[2]);
}

/** Text naming this host's loopback address (`'redis://localhost:'`, `'127.0.0.1'`), as a test of a URL reads it. */
export const LOOPBACK_IN_TEXT = /\b(?:localhost|127\.0\.0\.1)\b/;

/** Whether a host name is this host's loopback one (`localhost`, `127.0.0.1`, `::1`). */
export function isLoopbackHost(host: string): boolean {
  return /^(?:localhost|127\.0\.0\.1|::1|\[::1\])$/i.test(host);
}
