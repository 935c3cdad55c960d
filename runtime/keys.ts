/**
 * The key builder: every limiter key is `namespace:algorithm:version:{hashed identity}:scope`.
 *
 * - The identity is hashed (SHA-256, or HMAC-SHA-256 with a secret, truncated to 22 base64url
 *   characters = 132 bits), so no email, API key or IP address lands in Redis, MONITOR, the slow
 *   log or a memory dump in the clear.
 * - The hash sits inside a hash tag `{...}`: Redis Cluster hashes only that part, so every key of
 *   one identity (any algorithm, version or scope of one namespace) lives in one slot and a
 *   future multi-key script over them cannot fail with CROSSSLOT
 *   (https://redis.io/docs/latest/operate/oss_and_stack/reference/cluster-spec/#hash-tags).
 * - The version lets you change a limiter's shape or semantics and cut over cleanly.
 */
import * as crypto from 'node:crypto';
import { checkKnownOptions, checkNonEmptyString, describe, orDefault } from './validate.js';

/** Parts of a key, see {@link buildKey}. */
export interface KeyParts {
  /** Application or subsystem prefix, e.g. `'rl'`. Letters, digits, `_`, `-`, `.`; no `:`. */
  namespace: string;
  /** Algorithm marker, e.g. `'tb'`. Same alphabet as `namespace`. */
  algorithm: string;
  /** Version of the stored shape, e.g. `'v1'`. Same alphabet as `namespace`. */
  version: string;
  /** Who is limited: a user id, API key, email or IP. Hashed, never stored. Non-empty. */
  identity: string;
  /**
   * What is limited: a route pattern such as `'GET /v1/users/:id'`, never a concrete path.
   * Up to 200 characters, no `{`, `}`, control characters. Defaults to `'default'`.
   */
  scope?: string;
  /**
   * A secret mixed into the hash (HMAC-SHA-256). Without it, anyone who can read the keys can
   * confirm a guessed email by hashing it; with it they cannot. Changing it changes every key.
   */
  identitySecret?: string | Buffer;
}

const SEGMENT = /^[A-Za-z0-9_.-]{1,64}$/;
/** The names of {@link KeyParts}. */
const KEY_PART_NAMES = ['namespace', 'algorithm', 'version', 'identity', 'scope', 'identitySecret'] as const satisfies ReadonlyArray<keyof KeyParts>;
// eslint-disable-next-line no-control-regex
const SCOPE_FORBIDDEN = /[{}\u0000-\u001f\u007f]/;

// crypto.hash (Node >= 20.12) hashes in one call, about twice as fast as createHash for short input
const oneShot = (crypto as { hash?: (algorithm: string, data: string | Buffer, encoding: 'base64url') => string }).hash;

/** Length of the identity hash in base64url characters (22 characters = 132 bits). */
export const IDENTITY_HASH_LENGTH = 22;

/** The first byte of the hashed input of an identity that is not well-formed UTF-16 (never a UTF-8 lead byte). */
const ILL_FORMED_MARK = Buffer.from([0xff]);

/**
 * The bytes hashed for `identity`: its UTF-8 encoding when it is well-formed UTF-16; otherwise
 * (a lone surrogate, which UTF-8 can not encode and `TextEncoder` would replace with U+FFFD) the
 * byte 0xFF followed by its UTF-16LE code units. 0xFF never occurs in UTF-8, so no two distinct
 * strings are hashed from the same bytes.
 */
function identityBytes(identity: string): string | Buffer {
  if ((identity as { isWellFormed?: () => boolean }).isWellFormed?.() !== false) return identity;
  return Buffer.concat([ILL_FORMED_MARK, Buffer.from(identity, 'utf16le')]);
}

/**
 * Checks an identity secret: `undefined` (no secret), a non-empty string, or a non-empty Buffer /
 * Uint8Array, and returns it.
 * @throws {TypeError} naming `identitySecret` for any other type; {RangeError} when it is empty (an
 *   HMAC with an empty key is a plain hash anyone can recompute from a guessed identity: an empty
 *   environment variable must not pass for a secret).
 */
export function checkIdentitySecret(secret: unknown): string | Buffer | undefined {
  if (secret === undefined) return undefined;
  if (typeof secret === 'string' || secret instanceof Uint8Array) {
    if (secret.length === 0) {
      throw new RangeError('identitySecret must not be empty: an HMAC with an empty key is a plain hash anyone can recompute (leave the option out, or set a secret)');
    }
    return secret as string | Buffer;
  }
  throw new TypeError(`identitySecret must be a string or a Buffer, got ${describe(secret)}`);
}

/**
 * Hashes an identity for use in a key: SHA-256 (HMAC-SHA-256 when `secret` is given) of its
 * UTF-8 bytes, base64url, first 22 characters. Deterministic; never contains `{`, `}` or `:`.
 * Identities that are not well-formed UTF-16 (lone surrogates, e.g. from `JSON.parse('"\\ud800"')`)
 * are not normalised (that would give `'a\ud800'` and `'a\udbff'` one key, the key of
 * `'a\ufffd'`): they are hashed from their UTF-16 code units after a marker byte, so every
 * distinct string has its own key and well-formed identities keep theirs.
 * @throws {TypeError} when `identity` is not a string; {RangeError} when it is empty; both naming
 *   `identitySecret` when the secret is not a non-empty string or Buffer.
 */
export function hashIdentity(identity: string, secret?: string | Buffer): string {
  checkNonEmptyString('identity', identity);
  if (secret !== undefined) checkIdentitySecret(secret);
  const data = identityBytes(identity);
  let digest: string;
  if (secret !== undefined) digest = crypto.createHmac('sha256', secret).update(data).digest('base64url');
  else if (oneShot !== undefined) digest = oneShot('sha256', data, 'base64url');
  else digest = crypto.createHash('sha256').update(data).digest('base64url');
  return digest.slice(0, IDENTITY_HASH_LENGTH);
}

function checkSegment(name: string, value: unknown): string {
  if (typeof value !== 'string') throw new TypeError(`${name} must be a string, got ${describe(value)}`);
  if (!SEGMENT.test(value)) {
    throw new RangeError(`${name} must be 1-64 characters of A-Z a-z 0-9 _ . - (no ':', '{', '}'), got '${value}'`);
  }
  return value;
}

/**
 * Checks a scope (route pattern) and returns it.
 * @throws {TypeError} when not a string; {RangeError} when empty, longer than 200 characters, or
 * containing `{`, `}` or a control character (a brace would move the cluster hash tag).
 */
export function checkScope(scope: unknown): string {
  if (typeof scope !== 'string') throw new TypeError(`scope must be a string, got ${describe(scope)}`);
  if (scope.length === 0 || scope.length > 200 || SCOPE_FORBIDDEN.test(scope)) {
    throw new RangeError("scope must be 1-200 characters without '{', '}' or control characters");
  }
  return scope;
}

/**
 * Builds `namespace:algorithm:version:{hash(identity)}:scope`.
 *
 * @example
 * buildKey({ namespace: 'rl', algorithm: 'tb', version: 'v1', identity: 'ada@example.com', scope: 'POST /login' })
 * // => 'rl:tb:v1:{<22 base64url characters>}:POST /login'
 * @throws {TypeError | RangeError} naming the part that is invalid (see {@link KeyParts}).
 */
export function buildKey(parts: KeyParts): string {
  if (typeof parts !== 'object' || parts === null) throw new TypeError('buildKey expects an object of key parts');
  checkKnownOptions('buildKey', parts, KEY_PART_NAMES);
  const namespace = checkSegment('namespace', parts.namespace);
  const algorithm = checkSegment('algorithm', parts.algorithm);
  const version = checkSegment('version', parts.version);
  const scope = checkScope(orDefault(parts.scope, 'default'));
  const secret = checkIdentitySecret(parts.identitySecret);
  return `${namespace}:${algorithm}:${version}:{${hashIdentity(parts.identity, secret)}}:${scope}`;
}

/** Identities longer than this (UTF-16 code units) are hashed on every call, never remembered. */
export const MEMO_MAX_IDENTITY_LENGTH = 256;
/**
 * Bytes one generation of an identity -> key memo may hold (the key at 2 bytes per code unit plus
 * 64 bytes per entry for the table slots and the fingerprint); two generations: a memo holds at most
 * ~4 MiB, about 15,000 keys of 40 characters per generation.
 */
export const MEMO_GENERATION_BYTES = 2 * 1024 * 1024;
const MEMO_ENTRY_OVERHEAD = 64;

/** The primes of the two fingerprint lanes: 2^31 - 1 and the largest prime below 2^22. */
const P1 = 2_147_483_647;
const P2 = 4_194_301;
/**
 * The random coefficients of the fingerprint, drawn once per process: index 0 weighs the length,
 * index i + 1 the code unit at i. Never leave the process.
 */
let coefficients: { a1: Float64Array; a2: Float64Array } | undefined;

function drawCoefficients(): { a1: Float64Array; a2: Float64Array } {
  const n = MEMO_MAX_IDENTITY_LENGTH + 1;
  const bytes = crypto.randomBytes(8 * n);
  const a1 = new Float64Array(n);
  const a2 = new Float64Array(n);
  for (let i = 0; i < n; i += 1) {
    a1[i] = 1 + (bytes.readUInt32LE(8 * i) % (P1 - 1));
    a2[i] = 1 + (bytes.readUInt32LE(8 * i + 4) % (P2 - 1));
  }
  return { a1, a2 };
}

/**
 * `x % p`, exactly, for integers `x` in [0, 2^53 - 2^31) and `p` in [2, 2^31]: V8 compiles a
 * double's `%` to a call into C (fmod); a division, its floor and one correction cost half as
 * much (a fingerprint of a short key 45 → 25 ns). `x / p` is below 2^52, so its rounding error is
 * at most 0.5 and the floor `q` is off by at most one, which the correction undoes; `q * p` is at
 * most `x + p`, below 2^53, so every step is exact.
 */
function mod(x: number, p: number): number {
  const r = x - Math.floor(x / p) * p;
  return r < 0 ? r + p : r >= p ? r - p : r;
}

/**
 * A 53-bit fingerprint of a string of at most {@link MEMO_MAX_IDENTITY_LENGTH} UTF-16 code units:
 * two multilinear hashes (Carter and Wegman's universal family) over its code units and its
 * length, modulo the primes 2^31 - 1 and 4194301, with coefficients drawn at random once per
 * process. For any two distinct strings, the chance over the coefficients that their
 * fingerprints are equal is at most 1 / (P1 * P2), about 2^-53, whatever the strings (an
 * adversary who never sees the coefficients can not do better than guessing). Lone surrogates are
 * code units like any other: every distinct string is told apart.
 */
function fingerprint(s: string): number {
  const { a1, a2 } = (coefficients ??= drawCoefficients());
  const n = s.length;
  // a term is below 2^31 * 2^16 = 2^47: 32 terms and a reduced sum stay below 2^53 (exact)
  let h1 = a1[0]! * n;
  let h2 = a2[0]! * n;
  for (let i = 0; i < n; i += 1) {
    const c = s.charCodeAt(i);
    h1 += a1[i + 1]! * c;
    h2 += a2[i + 1]! * c; // below 2^22 * 2^16 = 2^38 a term: 257 of them stay exact
    if ((i & 31) === 31) h1 = mod(h1, P1);
  }
  return mod(h1, P1) * 4_194_304 + mod(h2, P2);
}

/**
 * One generation of a {@link KeyMemo}: an open-addressing hash table from fingerprints to keys
 * (linear probing, at most half full, doubling as it fills). Not a `Map`: a fingerprint is above
 * 2^31, so a `Map` would box it into a heap number on every lookup and hash that; here the slot is
 * the fingerprint's low bits (its second lane, uniform modulo 4194301) and the compare is of two
 * doubles. Holds no identity: fingerprints and keys only.
 */
class FingerprintTable {
  /** Fingerprints by slot (a slot is empty when its key is `undefined`). */
  fingerprints = new Float64Array(64);
  /** Keys by slot. */
  keys: Array<string | undefined> = new Array<string | undefined>(64).fill(undefined);
  /** Entries held. */
  size = 0;
  /** Bytes counted against the generation's bound (see {@link MEMO_GENERATION_BYTES}). */
  bytes = 0;

  /** The key of fingerprint `fp`, or `undefined`. */
  get(fp: number): string | undefined {
    const fingerprints = this.fingerprints;
    const keys = this.keys;
    const mask = keys.length - 1;
    // fp & mask: ToInt32 keeps the low 32 bits, which are the second lane's (below 2^22) for a table of up to 2^22 slots
    for (let i = fp & mask; ; i = (i + 1) & mask) {
      const key = keys[i];
      if (key === undefined || fingerprints[i] === fp) return key;
    }
  }

  /** Adds `fp -> key` (`fp` not held yet). */
  add(fp: number, key: string): void {
    if (2 * (this.size + 1) > this.keys.length) this.grow();
    this.place(fp, key);
    this.size += 1;
  }

  /** Empties the table, keeping its slots. */
  clear(): void {
    this.keys.fill(undefined);
    this.size = 0;
    this.bytes = 0;
  }

  private place(fp: number, key: string): void {
    const keys = this.keys;
    const mask = keys.length - 1;
    let i = fp & mask;
    while (keys[i] !== undefined) i = (i + 1) & mask;
    this.fingerprints[i] = fp;
    keys[i] = key;
  }

  private grow(): void {
    const { fingerprints, keys } = this;
    this.fingerprints = new Float64Array(2 * keys.length);
    this.keys = new Array<string | undefined>(2 * keys.length).fill(undefined);
    for (let i = 0; i < keys.length; i += 1) {
      const key = keys[i];
      if (key !== undefined) this.place(fingerprints[i]!, key);
    }
  }
}

/**
 * Remembers the keys of recent identities, so that a call for one of them costs a fingerprint and
 * a table lookup instead of a SHA-256 (or HMAC) of the identity. It holds no identity: entries are
 * keyed by the identity's {@link fingerprint}, so a memory dump shows keys (hashes) only. A false
 * match (another identity's key) needs two identities with one fingerprint, a chance of about
 * 2^-53 per pair. Two generations, each bounded in bytes ({@link MEMO_GENERATION_BYTES}): a
 * lookup that misses the young one promotes from the old one; when the young one is full it
 * becomes the old one. Identities longer than {@link MEMO_MAX_IDENTITY_LENGTH} are not remembered.
 * @internal
 */
export class KeyMemo {
  private young = new FingerprintTable();
  private old = new FingerprintTable();

  /** @param make The key of an identity (hashes it): called on a miss. */
  constructor(
    private readonly make: (identity: string) => string,
    private readonly generationBytes = MEMO_GENERATION_BYTES,
  ) {}

  /** Entries held (both generations; an identity may be in both). */
  get size(): number {
    return this.young.size + this.old.size;
  }

  /** The key of `identity` (a string; validated by `make` on a miss, so by the caller before). */
  keyFor(identity: string): string {
    if (identity.length > MEMO_MAX_IDENTITY_LENGTH) return this.make(identity);
    const fp = fingerprint(identity);
    let key = this.young.get(fp);
    if (key !== undefined) return key;
    key = this.old.get(fp) ?? this.make(identity);
    const bytes = 2 * key.length + MEMO_ENTRY_OVERHEAD;
    let young = this.young;
    if (young.bytes + bytes > this.generationBytes) {
      // the young generation is full: it becomes the old one, whose slots the new young one reuses
      const old = this.old;
      old.clear();
      this.old = young;
      this.young = young = old;
    }
    young.bytes += bytes;
    young.add(fp, key);
    return key;
  }
}
