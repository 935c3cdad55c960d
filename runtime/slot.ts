/**
 * Redis Cluster key slots: which of the 16384 slots a key lives in, and a short hash tag for any
 * slot (the probe of a shard that is down needs a key of that very slot).
 *
 * The slot is CRC16 (XMODEM) of the key's hash tag, or of the whole key when it has none, modulo
 * 16384 (https://redis.io/docs/latest/operate/oss_and_stack/reference/cluster-spec/#key-distribution-model).
 * Keys are hashed as UTF-8, as Redis receives them.
 *
 * @internal
 */

/** Slots of a Redis Cluster. */
export const SLOTS = 16384;

const TABLE = new Uint16Array(256);
for (let i = 0; i < 256; i += 1) {
  let crc = i << 8;
  for (let bit = 0; bit < 8; bit += 1) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  TABLE[i] = crc;
}

function crc16(bytes: Uint8Array, start: number, end: number): number {
  let crc = 0;
  for (let i = start; i < end; i += 1) crc = ((crc << 8) & 0xffff) ^ TABLE[((crc >> 8) ^ bytes[i]!) & 0xff]!;
  return crc;
}

const encoder = new TextEncoder();

/**
 * The cluster slot of `key`: CRC16 of the part between the first `{` and the next `}` when that
 * part is not empty (the hash tag), else of the whole key, modulo 16384.
 */
export function keySlot(key: string): number {
  // the usual key: its hash tag (or the whole key) is ASCII, whose UTF-8 bytes are its char codes
  let start = 0;
  let end = key.length;
  const open = key.indexOf('{');
  if (open !== -1) {
    const close = key.indexOf('}', open + 1);
    if (close > open + 1) {
      start = open + 1;
      end = close;
    }
  }
  let crc = 0;
  for (let i = start; i < end; i += 1) {
    const c = key.charCodeAt(i);
    if (c > 0x7f) return keySlotUtf8(key);
    crc = ((crc << 8) & 0xffff) ^ TABLE[((crc >> 8) ^ c) & 0xff]!;
  }
  return crc & (SLOTS - 1);
}

/** {@link keySlot} from the key's UTF-8 bytes (a hash tag with non-ASCII characters). */
function keySlotUtf8(key: string): number {
  const bytes = encoder.encode(key);
  let start = 0;
  let end = bytes.length;
  const open = bytes.indexOf(0x7b); // '{'
  if (open !== -1) {
    const close = bytes.indexOf(0x7d, open + 1); // '}'
    if (close > open + 1) {
      start = open + 1;
      end = close;
    }
  }
  return crc16(bytes, start, end) & (SLOTS - 1);
}

const tags = new Map<number, string>();

/**
 * A short string whose slot is `slot` (base-36 counters are tried in order; about 16,000 CRCs the
 * first time a slot is asked for, then remembered): `{<tag>}` in a key puts the key in `slot`.
 */
export function tagForSlot(slot: number): string {
  let tag = tags.get(slot);
  if (tag === undefined) {
    for (let i = 0; ; i += 1) {
      const candidate = i.toString(36);
      if (keySlot(candidate) === slot) {
        tag = candidate;
        break;
      }
    }
    tags.set(slot, tag);
  }
  return tag;
}

/**
 * The key the probe of `key`'s shard writes: in the same slot as `key` and starting like it (so an
 * ACL key pattern or a namespace that covers `key` covers it too), and never a key of the runtime
 * (their scopes have no braces):
 * - `key` has a hash tag: `key` up to its tag, then `:{redis-ttl-probe}` (`rl:tb3:v1:{abc}:{redis-ttl-probe}`);
 * - `key` has no brace: `key`, `:redis-ttl-probe`, then `key` as the tag (`n:42:redis-ttl-probe{n:42}`);
 * - otherwise (braces that make no tag): `redis-ttl:probe:{<a tag of the slot>}`.
 */
export function probeKeyFor(key: string): string {
  const open = key.indexOf('{');
  if (open !== -1) {
    const close = key.indexOf('}', open + 1);
    if (close > open + 1) return `${key.slice(0, close + 1)}:{redis-ttl-probe}`;
  } else if (key !== '' && key.indexOf('}') === -1) {
    return `${key}:redis-ttl-probe{${key}}`;
  }
  return `redis-ttl:probe:{${tagForSlot(keySlot(key))}}`;
}
