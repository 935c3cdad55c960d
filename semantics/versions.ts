/**
 * The Redis server version each command and each TTL-relevant option first appeared in, for the
 * `min-redis-version` rule (ESLint) and lua-lint's rule of the same id. A command or option newer
 * than the server fails there: `ERR unknown command` / `ERR syntax error`, inside a script an
 * error that aborts it, in a non-transactional pipeline an error for that command alone while the
 * others land (an INCR whose EXPIRE ... NX failed is a counter without TTL).
 *
 * Source: the "Available since" line and the "History" list of each command's page of the Redis
 * command reference, https://redis.io/docs/latest/commands/<command>/ (e.g.
 * https://redis.io/docs/latest/commands/expire/: "Available since 1.0.0", "Starting with Redis
 * version 7.0.0: Added options: NX, XX, GT and LT."; https://redis.io/docs/latest/commands/set/:
 * KEEPTTL 6.0.0, GET, EXAT and PXAT 6.2.0, NX together with GET 7.0.0, IFEQ / IFNE / IFDEQ / IFDNE 8.4.0;
 * https://redis.io/docs/latest/commands/hexpire/: 7.4.0; https://redis.io/docs/latest/commands/hsetex/: 8.0.0).
 * Commands older than Redis 3.0 are not listed: no supported server lacks them.
 */

/** A Redis version as `[major, minor, patch]`. */
export type RedisVersion = readonly [number, number, number];

/** What a call needs from the server: the version and the feature that needs it (`'GETEX'`, `'SET ... KEEPTTL'`). */
export interface VersionRequirement {
  /** The first Redis version with the feature, `'6.2.0'`. */
  version: string;
  /** The feature as messages name it: `'GETEX'`, `'EXPIRE ... NX'`, `'SET ... KEEPTTL'`. */
  feature: string;
}

/** Available since, per command (upper case; module commands are left out: modules have their own versions). */
export const COMMAND_SINCE: Readonly<Record<string, string>> = {
  // strings
  GETEX: '6.2.0',
  GETDEL: '6.2.0',
  LCS: '7.0.0',
  BITFIELD: '3.2.0',
  BITFIELD_RO: '6.0.0',
  // keys
  COPY: '6.2.0',
  UNLINK: '4.0.0',
  TOUCH: '3.2.1',
  EXPIRETIME: '7.0.0',
  PEXPIRETIME: '7.0.0',
  OBJECT: '2.2.3',
  // lists
  LMOVE: '6.2.0',
  BLMOVE: '6.2.0',
  LPOS: '6.0.6',
  LMPOP: '7.0.0',
  BLMPOP: '7.0.0',
  // sets
  SMISMEMBER: '6.2.0',
  SINTERCARD: '7.0.0',
  // sorted sets
  ZRANGESTORE: '6.2.0',
  ZDIFFSTORE: '6.2.0',
  ZDIFF: '6.2.0',
  ZINTER: '6.2.0',
  ZUNION: '6.2.0',
  ZMSCORE: '6.2.0',
  ZRANDMEMBER: '6.2.0',
  ZPOPMIN: '5.0.0',
  ZPOPMAX: '5.0.0',
  ZMPOP: '7.0.0',
  ZINTERCARD: '7.0.0',
  // hashes
  HSTRLEN: '3.2.0',
  HRANDFIELD: '6.2.0',
  HEXPIRE: '7.4.0',
  HPEXPIRE: '7.4.0',
  HEXPIREAT: '7.4.0',
  HPEXPIREAT: '7.4.0',
  HPERSIST: '7.4.0',
  HTTL: '7.4.0',
  HPTTL: '7.4.0',
  HEXPIRETIME: '7.4.0',
  HPEXPIRETIME: '7.4.0',
  HSETEX: '8.0.0',
  HGETEX: '8.0.0',
  HGETDEL: '8.0.0',
  // geo
  GEOADD: '3.2.0',
  GEOPOS: '3.2.0',
  GEODIST: '3.2.0',
  GEOHASH: '3.2.0',
  GEORADIUS: '3.2.0',
  GEORADIUSBYMEMBER: '3.2.0',
  GEORADIUS_RO: '3.2.10',
  GEORADIUSBYMEMBER_RO: '3.2.10',
  GEOSEARCH: '6.2.0',
  GEOSEARCHSTORE: '6.2.0',
  // streams
  XADD: '5.0.0',
  XDEL: '5.0.0',
  XTRIM: '5.0.0',
  XLEN: '5.0.0',
  XRANGE: '5.0.0',
  XREVRANGE: '5.0.0',
  XACK: '5.0.0',
  XCLAIM: '5.0.0',
  XAUTOCLAIM: '6.2.0',
  XPENDING: '5.0.0',
  XGROUP: '5.0.0',
  XINFO: '5.0.0',
  XSETID: '5.0.0',
  // other
  SORT_RO: '7.0.0',
  SPUBLISH: '7.0.0',
};

/** The highest of two versions. */
function later(a: VersionRequirement | undefined, b: VersionRequirement): VersionRequirement {
  return a && compareVersions(parseRedisVersion(a.version)!, parseRedisVersion(b.version)!) >= 0 ? a : b;
}

function upper(arg: unknown): string | undefined {
  return typeof arg === 'string' ? arg.toUpperCase() : undefined;
}

/**
 * The newest feature a command call uses: the command itself, or an option of it that came later
 * (`EXPIRE key 60 NX` needs 7.0.0, `SET key value KEEPTTL` 6.0.0).
 *
 * @param name the command name, upper case.
 * @param args the arguments after the name: literal where known (strings compared case-insensitively).
 * @returns `undefined` when everything the call uses predates Redis 3.0.
 */
export function versionRequirement(name: string, args: readonly unknown[]): VersionRequirement | undefined {
  let out: VersionRequirement | undefined;
  const since = COMMAND_SINCE[name];
  if (since) out = { version: since, feature: name };
  // the option tokens, collected only for the commands whose options have versions of their own
  let tokenSet: Set<string> | undefined;
  const tokens = { has: (token: string): boolean => (tokenSet ??= new Set(args.map(upper).filter((t): t is string => t !== undefined))).has(token) };
  switch (name) {
    case 'SET':
      // https://redis.io/docs/latest/commands/set/ (History)
      if (tokens.has('KEEPTTL')) out = later(out, { version: '6.0.0', feature: 'SET ... KEEPTTL' });
      if (tokens.has('GET')) out = later(out, { version: '6.2.0', feature: 'SET ... GET' });
      if (tokens.has('EXAT') || tokens.has('PXAT')) out = later(out, { version: '6.2.0', feature: `SET ... ${tokens.has('EXAT') ? 'EXAT' : 'PXAT'}` });
      if (tokens.has('GET') && tokens.has('NX')) out = later(out, { version: '7.0.0', feature: 'SET ... NX GET' });
      // "Starting with Redis version 8.4.0: Added 'IFEQ', 'IFNE', 'IFDEQ', 'IFDNE' options."
      for (const option of ['IFEQ', 'IFNE', 'IFDEQ', 'IFDNE']) {
        if (tokens.has(option)) out = later(out, { version: '8.4.0', feature: `SET ... ${option}` });
      }
      break;
    case 'EXPIRE':
    case 'PEXPIRE':
    case 'EXPIREAT':
    case 'PEXPIREAT':
      // https://redis.io/docs/latest/commands/expire/: "Starting with Redis version 7.0.0: Added options: NX, XX, GT and LT."
      for (const option of ['NX', 'XX', 'GT', 'LT']) {
        if (tokens.has(option)) out = later(out, { version: '7.0.0', feature: `${name} ... ${option}` });
      }
      break;
    case 'ZADD':
      // https://redis.io/docs/latest/commands/zadd/: GT and LT 6.2.0, NX / XX / CH / INCR 3.0.2
      if (tokens.has('GT') || tokens.has('LT')) out = later(out, { version: '6.2.0', feature: `ZADD ... ${tokens.has('GT') ? 'GT' : 'LT'}` });
      else if (['NX', 'XX', 'CH', 'INCR'].some((t) => tokens.has(t))) out = later(out, { version: '3.0.2', feature: 'ZADD ... NX/XX/CH/INCR' });
      break;
    case 'GEOADD':
      // https://redis.io/docs/latest/commands/geoadd/: "Starting with Redis version 6.2.0: Added the CH, NX and XX options."
      if (['NX', 'XX', 'CH'].some((t) => tokens.has(t))) out = later(out, { version: '6.2.0', feature: 'GEOADD ... NX/XX/CH' });
      break;
    case 'XADD':
      // https://redis.io/docs/latest/commands/xadd/: NOMKSTREAM and MINID 6.2.0
      if (tokens.has('NOMKSTREAM')) out = later(out, { version: '6.2.0', feature: 'XADD ... NOMKSTREAM' });
      if (tokens.has('MINID')) out = later(out, { version: '6.2.0', feature: 'XADD ... MINID' });
      break;
    case 'XTRIM':
      if (tokens.has('MINID')) out = later(out, { version: '6.2.0', feature: 'XTRIM ... MINID' });
      break;
    case 'RESTORE':
      // https://redis.io/docs/latest/commands/restore/: ABSTTL, IDLETIME and FREQ 5.0.0
      if (tokens.has('ABSTTL')) out = later(out, { version: '5.0.0', feature: 'RESTORE ... ABSTTL' });
      break;
    case 'LPOP':
    case 'RPOP':
      // https://redis.io/docs/latest/commands/lpop/: "Starting with Redis version 6.2.0: Added the count argument."
      if (args.length >= 2) out = later(out, { version: '6.2.0', feature: `${name} key count` });
      break;
    case 'HSET':
      // https://redis.io/docs/latest/commands/hset/: "Starting with Redis version 4.0.0: Accepts multiple field and value arguments."
      if (args.length > 3) out = later(out, { version: '4.0.0', feature: 'HSET with several fields' });
      break;
    default:
      break;
  }
  return out;
}

/**
 * Parses a Redis version as users write it: `'7'`, `'7.2'`, `'6.2.14'` (a leading `v` is allowed).
 * @returns `undefined` when the text is not such a version.
 */
export function parseRedisVersion(text: unknown): RedisVersion | undefined {
  if (typeof text !== 'string') return undefined;
  const match = /^v?(\d{1,3})(?:\.(\d{1,3}))?(?:\.(\d{1,3}))?$/.exec(text.trim());
  if (!match) return undefined;
  return [Number(match[1]), Number(match[2] ?? 0), Number(match[3] ?? 0)];
}

/** Negative when `a` is older than `b`, 0 when equal, positive when newer. */
export function compareVersions(a: RedisVersion, b: RedisVersion): number {
  return a[0] - b[0] || a[1] - b[1] || a[2] - b[2];
}

/**
 * Whether a server of version `server` lacks what `requirement` needs.
 * @param server the configured server version (already parsed).
 */
export function isTooNew(requirement: VersionRequirement, server: RedisVersion): boolean {
  return compareVersions(server, parseRedisVersion(requirement.version)!) < 0;
}
