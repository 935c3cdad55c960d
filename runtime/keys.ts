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
import { checkNonEmptyString, describe } from './validate.js';

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
 * Hashes an identity for use in a key: SHA-256 (HMAC-SHA-256 when `secret` is given) of its
 * UTF-8 bytes, base64url, first 22 characters. Deterministic; never contains `{`, `}` or `:`.
 * Identities that are not well-formed UTF-16 (lone surrogates, e.g. from `JSON.parse('"\\ud800"')`)
 * are not normalised (that would give `'a\ud800'` and `'a\udbff'` one key, the key of
 * `'a\ufffd'`): they are hashed from their UTF-16 code units after a marker byte, so every
 * distinct string has its own key and well-formed identities keep theirs.
 * @throws {TypeError} when `identity` is not a string; {RangeError} when it is empty.
 */
export function hashIdentity(identity: string, secret?: string | Buffer): string {
  checkNonEmptyString('identity', identity);
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
  const namespace = checkSegment('namespace', parts.namespace);
  const algorithm = checkSegment('algorithm', parts.algorithm);
  const version = checkSegment('version', parts.version);
  const scope = checkScope(parts.scope ?? 'default');
  return `${namespace}:${algorithm}:${version}:{${hashIdentity(parts.identity, parts.identitySecret)}}:${scope}`;
}
