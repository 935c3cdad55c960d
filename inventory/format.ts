/**
 * The key inventory: the key shapes a codebase writes, each with its write sites and whether each
 * site leaves a TTL. One versioned JSON document, written by the inventory producer
 * (`redis-ttl-keys`) and read by `redis-ttl-audit --inventory`, which joins it with a live
 * keyspace. This module is the format and its validation only: it imports nothing of the
 * analysis (rules/, lua-lint/, redis-calls/), so both sides can depend on it.
 *
 * The format, version 1 (docs/redis-ttl-audit.md, "The inventory format", says the same):
 *
 * ```json
 * {
 *   "version": 1,
 *   "tool": "redis-ttl-keys 0.1.0",
 *   "root": ".",
 *   "shapes": [
 *     {
 *       "shape": "session:*",
 *       "keyPrefix": "app:",
 *       "persistent": false,
 *       "writes": [
 *         { "file": "src/store.ts", "line": 7, "column": 9, "command": "SET", "client": "ioredis", "ttl": "none" }
 *       ],
 *       "reads": [{ "file": "src/store.ts", "line": 12, "column": 9, "command": "GET", "client": "ioredis" }]
 *     }
 *   ],
 *   "unresolved": []
 * }
 * ```
 *
 * - `version` (required): 1. A reader refuses another version.
 * - `tool` (optional): the producer and its version, for people reading the file.
 * - `root` (required): the directory every `file` is relative to: absolute, or relative to the
 *   directory holding the inventory file (`"."`: the inventory sits at the root of the sources).
 * - `shapes` (required): one entry per key shape, at most one per (`keyPrefix`, `shape`) pair.
 *   - `shape`: the key as the code spells it, `*` for each run of characters known only at run
 *     time (`session:*`, `rl:{*}:count`, `bull:*:wait`): the syntax of
 *     `settings['redis-ttl'].persistentKeys` (semantics/key-patterns.ts), so a shape can be copied
 *     into that setting. Without the client's `keyPrefix`. A key of a Lua script is given by the
 *     shape of the key passed for it at the call site (`KEYS[1] .. ':meta'` with `KEYS[1]` passed
 *     as `` `job:${id}` `` is `job:*:meta`); a key no call site spells is not a shape (see
 *     `unresolved`).
 *   - `keyPrefix` (optional, default `""`): the `keyPrefix` option of the client the writes go
 *     through (ioredis prepends it to every key), in the same syntax: `"app:"`, or `"*"` when the
 *     option is set from something the analysis cannot read (an environment variable). The live
 *     key is `keyPrefix + shape`. Writes of one spelling through clients with different prefixes
 *     are different shapes.
 *   - `persistent` (optional, default: true when every write site is `"persistent"`): the code
 *     declares these keys kept without TTL on purpose (a `persistentKeys` pattern matches the
 *     shape, or every write is annotated). The audit does not report such keys as leaking.
 *   - `writes` (required, may be empty for a shape that is only read): the write sites.
 *   - `reads` (optional): the read sites, where the producer finds them cheaply.
 * - `unresolved` (optional): write sites whose key the analysis could not spell (a `KEYS[n]` of a
 *   script whose caller is in another file): `{ file, line, column, command, client, ttl, key }`,
 *   `key` being the expression as written. The audit counts them in a note.
 *
 * A site is `{ file, line, column, command, client }`: `file` relative to `root` with `/`
 * separators, `line` and `column` 1-based (as ESLint prints them; a column counts UTF-16 code
 * units), `command` the Redis command in capitals (`SET`, `HSET`, `EVALSHA`: for a write inside a
 * Lua script, the command of its `redis.call`), `client` the client library (`ioredis`,
 * `node-redis`, `upstash`, `lua` for a script file whose caller is not known, `unknown`; any other
 * name is kept as given). A write site adds `ttl` (see {@link TTL_STATUSES}) and, for a write
 * inside a Lua script, `via`: the call site that runs the script and passes the key
 * (`{ file, line, column, key }`, `key` the script's expression: `KEYS[1]`), the site itself being
 * the `redis.call` in the script, `optionalTtl: true` on a `none` write that leaves the key
 * without TTL only when its caller passes no TTL, and `lifecycle` on a `none` or `keepttl` write
 * of a key whose life the code manages itself (see {@link Lifecycle}).
 */
import { readFile } from 'node:fs/promises';

/** The format version this module reads and writes. */
export const INVENTORY_VERSION = 1;

/**
 * What a write site does about the key's TTL:
 * - `atomic`: the write sets the TTL itself or in the same atomic unit (`SET k v EX 60`, `SETEX`,
 *   `HSETEX`, a MULTI or a Lua script that sets it on every path): no key it makes lacks a TTL;
 * - `separate`: an expiry follows in another round trip (`INCR` then `EXPIRE`): a crash or a lost
 *   reply between them leaves the key without TTL;
 * - `none`: no expiry at all, or one that a later write wipes (`SET` without `EX`, `GETSET`);
 * - `keepttl`: the write keeps an existing TTL but makes a missing key without one
 *   (`SET ... KEEPTTL`, `INCR` or `HSET` on a key another site gave a TTL);
 * - `persistent`: no expiry, declared on purpose (a `persistentKeys` pattern, an annotation).
 */
export const TTL_STATUSES = ['atomic', 'separate', 'none', 'keepttl', 'persistent'] as const;
/** One of {@link TTL_STATUSES}. */
export type TtlStatus = (typeof TTL_STATUSES)[number];

/** A place in the sources that sends a command on a key. */
export interface Site {
  /** Relative to the document's `root`, `/` separators. */
  file: string;
  /** 1-based. */
  line: number;
  /** 1-based, in UTF-16 code units. */
  column: number;
  /** The Redis command in capitals. */
  command: string;
  /** The client library: `ioredis`, `node-redis`, `upstash`, `lua`, `unknown`, or another name. */
  client: string;
}

/** For a write inside a Lua script: the call that runs the script and passes the key. */
export interface ScriptCall {
  /** Relative to the document's `root`, `/` separators. */
  file: string;
  /** 1-based. */
  line: number;
  /** 1-based. */
  column: number;
  /** The key as the script spells it (`KEYS[1]`, `KEYS[2] .. ':meta'`). */
  key: string;
}

/**
 * The readings of a key whose life the code manages itself, which the key rules' `recommended`
 * options leave alone (`redis-calls/lifecycle.ts`):
 * - `deleted`: another function of the file, or another module, deletes the key (DEL, UNLINK,
 *   GETDEL) and nothing gives it a TTL;
 * - `drained`: a queue another function pops to empty (LPOP, BRPOP, SPOP, ZPOPMIN ...);
 * - `stream`: a stream read by a consumer group or capped (XREADGROUP, XTRIM, MAXLEN);
 * - `ttl-record`: an update that keeps the TTL (HSET, SADD ...) of a record another function
 *   creates with one (`keepttl`: a record that expired just before is recreated without);
 * - `id-sequence`: an INCR whose reply is an identifier (expiring it would reissue ids).
 */
export const LIFECYCLE_READINGS = ['deleted', 'drained', 'stream', 'ttl-record', 'id-sequence'] as const;
/** One of {@link LIFECYCLE_READINGS}. */
export type LifecycleReading = (typeof LIFECYCLE_READINGS)[number];

/** Why a write without TTL is left alone by `recommended`: the code manages the key's life. */
export interface Lifecycle {
  reading: LifecycleReading;
  /** The call that ends or creates the key (the DEL, the pop, the creation with a TTL); absent for an ID sequence. */
  by?: {
    /** Relative to the document's `root`, `/` separators. */
    file: string;
    /** 1-based. */
    line: number;
    /** 1-based. */
    column: number;
    /** The Redis command in capitals. */
    command: string;
  };
}

/**
 * Why a write without TTL is left alone by `recommended`, in a few words: `deleted by the DEL at
 * src/cleanup.ts:5:15`, `an ID sequence`.
 */
export function lifecycleText(lifecycle: Lifecycle): string {
  const by = lifecycle.by;
  const at = by ? ` at ${by.file}:${by.line}:${by.column}` : '';
  switch (lifecycle.reading) {
    case 'deleted':
      return by ? `deleted by the ${by.command}${at}` : 'deleted by other code';
    case 'drained':
      return by ? `a queue drained by the ${by.command}${at}` : 'a queue its consumer drains';
    case 'stream':
      return by ? `a stream kept by the ${by.command}${at}` : 'a stream kept as a message bus';
    case 'ttl-record':
      return by ? `update of a record the ${by.command}${at} creates with a TTL` : 'update of a record created with a TTL';
    case 'id-sequence':
      return 'an ID sequence';
  }
}

/** A site that writes a key, and what it does about its TTL. */
export interface WriteSite extends Site {
  ttl: TtlStatus;
  /**
   * `true` on a `none` write whose key is left without TTL only when the caller passes no TTL (a
   * script's `if ARGV[2] == '' then return end` before its PEXPIRE, a wrapper's `if (ttl)`): an
   * optional TTL, not a key kept without one on purpose. Absent otherwise.
   */
  optionalTtl?: true;
  /**
   * On a `none` or `keepttl` write the key rules' `recommended` options leave alone because the
   * code manages the key's life (deleted elsewhere, a drained queue, an ID sequence ...): the
   * key is written without TTL all the same. Absent otherwise.
   */
  lifecycle?: Lifecycle;
  /** Set when the write is a `redis.call` inside a Lua script: where the script is run. */
  via?: ScriptCall;
}

/** One key shape and its sites. */
export interface InventoryShape {
  /** The key as the code spells it, `*` for run-time parts (persistentKeys syntax), without `keyPrefix`. */
  shape: string;
  /** The client's `keyPrefix` option, same syntax; `""` (the default) for none. */
  keyPrefix?: string;
  /** Declared kept without TTL on purpose; default: every write is `persistent` (and there is one). */
  persistent?: boolean;
  writes: WriteSite[];
  reads?: Site[];
}

/** A write whose key the analysis could not spell. */
export interface UnresolvedWrite extends WriteSite {
  /** The key expression as written (`KEYS[1]`). */
  key: string;
}

/** A whole inventory document (see the module comment for every field). */
export interface InventoryDocument {
  version: typeof INVENTORY_VERSION;
  tool?: string;
  root: string;
  shapes: InventoryShape[];
  unresolved?: UnresolvedWrite[];
}

/**
 * An inventory that is not valid JSON or not this format. The message names the file, the place
 * (`line:column` for a JSON syntax error, a JSON path such as `$.shapes[2].writes[0].ttl`
 * otherwise) and what is wrong.
 */
export class InventoryError extends Error {
  override name = 'InventoryError';
  /**
   * @param source the file (or other name) the document came from
   * @param where `line:column` of a syntax error, or the JSON path of the bad value; empty for the whole document
   * @param problem what is wrong, one sentence
   */
  constructor(
    readonly source: string,
    readonly where: string,
    readonly problem: string,
  ) {
    super(`${source}: ${where === '' ? '' : `${where}: `}${problem}`);
  }
}

/** Whether a shape is kept without TTL on purpose: its `persistent`, else every write is `persistent`. */
export function isPersistentShape(shape: InventoryShape): boolean {
  return shape.persistent ?? (shape.writes.length > 0 && shape.writes.every((w) => w.ttl === 'persistent'));
}

/**
 * Parses and validates an inventory document.
 * @param text the JSON text
 * @param source the file name used in error messages
 * @returns the document, as given (no defaults filled in)
 * @throws {InventoryError} when the text is not JSON or not an inventory of version 1
 */
export function parseInventory(text: string, source: string): InventoryDocument {
  let value: unknown;
  try {
    value = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch (error) {
    throw new InventoryError(source, ...syntaxProblem(text, error));
  }
  return validateInventory(value, source);
}

/**
 * Reads, parses and validates an inventory file.
 * @param file a path, absolute or relative to the working directory
 * @throws {InventoryError} when the file cannot be read, is not JSON, or is not an inventory
 */
export async function readInventoryFile(file: string): Promise<InventoryDocument> {
  const read = await readText(file);
  if ('problem' in read) throw new InventoryError(file, '', `cannot read the inventory (${read.problem})`);
  return parseInventory(read.text, file);
}

/**
 * A file's text (UTF-8), or why it cannot be read, in a few words: `file not found`,
 * `is a directory`, or the system's message.
 */
export async function readText(file: string): Promise<{ text: string } | { problem: string }> {
  try {
    return { text: await readFile(file, 'utf8') };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return { problem: code === 'ENOENT' ? 'file not found' : code === 'EISDIR' ? 'is a directory' : (error as Error).message };
  }
}

/** The JSON text of a document, as a producer should write it: two-space indents, a final newline. */
export function serializeInventory(document: InventoryDocument): string {
  return `${JSON.stringify(document, null, 2)}\n`;
}

/** `[where, problem]` of a JSON.parse error: `line:column` when the engine gives a position. */
function syntaxProblem(text: string, error: unknown): [string, string] {
  const message = error instanceof Error ? error.message : String(error);
  const at = /\bat position (\d+)/.exec(message);
  // V8 quotes the text around the error: cut it, the position says where.
  const what = message.replace(/\s+in JSON at position \d+.*$/s, '').replace(/, ".*" is not valid JSON$/s, '');
  if (at === null) return ['', `not valid JSON (${what})`];
  const offset = Number(at[1]);
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  const column = offset - before.lastIndexOf('\n');
  return [`${line}:${column}`, `not valid JSON (${what})`];
}

type Json = unknown;

/** A JSON path segment appended: `$.shapes` + `[2]`, `$` + `.shapes`. */
const at = (path: string, key: string | number) => (typeof key === 'number' ? `${path}[${key}]` : `${path}.${key}`);

function describe(value: Json): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
  if (typeof value === 'object') return 'an object';
  return `${typeof value} ${String(value)}`;
}

/** Checks the fields of an object: required and optional names; anything else is an error. */
function fields(source: string, path: string, value: Json, required: readonly string[], optional: readonly string[]): Record<string, Json> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new InventoryError(source, path, `expected an object, got ${describe(value)}`);
  const object = value as Record<string, Json>;
  for (const name of required) if (!(name in object)) throw new InventoryError(source, path, `missing field "${name}"`);
  for (const name of Object.keys(object)) {
    if (!required.includes(name) && !optional.includes(name)) {
      throw new InventoryError(source, at(path, name), `unknown field (a version ${INVENTORY_VERSION} inventory has ${[...required, ...optional].map((f) => `"${f}"`).join(', ')} here)`);
    }
  }
  return object;
}

function string(source: string, path: string, value: Json, { empty = false } = {}): string {
  if (typeof value !== 'string') throw new InventoryError(source, path, `expected a string, got ${describe(value)}`);
  if (!empty && value === '') throw new InventoryError(source, path, 'expected a non-empty string');
  return value;
}

function positive(source: string, path: string, value: Json): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1) {
    throw new InventoryError(source, path, `expected a whole number >= 1 (1-based), got ${describe(value)}`);
  }
  return value;
}

function array(source: string, path: string, value: Json): Json[] {
  if (!Array.isArray(value)) throw new InventoryError(source, path, `expected an array, got ${describe(value)}`);
  return value;
}

function file(source: string, path: string, value: Json): void {
  const name = string(source, path, value);
  if (name.includes('\\')) throw new InventoryError(source, path, `expected a path with / separators, got ${describe(name)}`);
  if (name.includes('\u0000')) throw new InventoryError(source, path, 'a path cannot hold a NUL character');
}

function site(source: string, path: string, value: Json, write: 'write' | 'read' | 'unresolved'): void {
  const names = ['file', 'line', 'column', 'command', 'client'];
  const object = fields(source, path, value, write === 'read' ? names : [...names, 'ttl', ...(write === 'unresolved' ? ['key'] : [])], write === 'read' ? [] : ['via', 'optionalTtl', 'lifecycle']);
  file(source, at(path, 'file'), object.file);
  positive(source, at(path, 'line'), object.line);
  positive(source, at(path, 'column'), object.column);
  const command = string(source, at(path, 'command'), object.command);
  if (/\s/.test(command.trim()) || command !== command.trim() || command !== command.toUpperCase()) {
    throw new InventoryError(source, at(path, 'command'), `expected a Redis command name in capitals (SET, HSET, EVALSHA), got ${describe(command)}`);
  }
  string(source, at(path, 'client'), object.client);
  if (write === 'read') return;
  if (!(TTL_STATUSES as readonly Json[]).includes(object.ttl)) {
    throw new InventoryError(source, at(path, 'ttl'), `expected one of ${TTL_STATUSES.map((s) => `"${s}"`).join(', ')}, got ${describe(object.ttl)}`);
  }
  if (write === 'unresolved') string(source, at(path, 'key'), object.key);
  if ('optionalTtl' in object && object.optionalTtl !== true) throw new InventoryError(source, at(path, 'optionalTtl'), `expected true (or no field), got ${describe(object.optionalTtl)}`);
  if ('optionalTtl' in object && object.ttl !== 'none') throw new InventoryError(source, at(path, 'optionalTtl'), `only a "none" write has an optional TTL, this one is ${JSON.stringify(object.ttl)}`);
  if ('lifecycle' in object) {
    const where = at(path, 'lifecycle');
    const lifecycle = fields(source, where, object.lifecycle, ['reading'], ['by']);
    if (!(LIFECYCLE_READINGS as readonly Json[]).includes(lifecycle.reading)) {
      throw new InventoryError(source, at(where, 'reading'), `expected one of ${LIFECYCLE_READINGS.map((s) => `"${s}"`).join(', ')}, got ${describe(lifecycle.reading)}`);
    }
    if (object.ttl !== 'none' && object.ttl !== 'keepttl') {
      throw new InventoryError(source, where, `only a "none" or "keepttl" write has a lifecycle, this one is ${JSON.stringify(object.ttl)}`);
    }
    if ('by' in lifecycle) {
      const by = fields(source, at(where, 'by'), lifecycle.by, ['file', 'line', 'column', 'command'], []);
      file(source, at(at(where, 'by'), 'file'), by.file);
      positive(source, at(at(where, 'by'), 'line'), by.line);
      positive(source, at(at(where, 'by'), 'column'), by.column);
      string(source, at(at(where, 'by'), 'command'), by.command);
    }
  }
  if ('via' in object) {
    const via = fields(source, at(path, 'via'), object.via, ['file', 'line', 'column', 'key'], []);
    file(source, at(at(path, 'via'), 'file'), via.file);
    positive(source, at(at(path, 'via'), 'line'), via.line);
    positive(source, at(at(path, 'via'), 'column'), via.column);
    string(source, at(at(path, 'via'), 'key'), via.key);
  }
}

/**
 * Validates a parsed inventory document (see the module comment for the format).
 * @param value what JSON.parse returned
 * @param source the file name used in error messages
 * @throws {InventoryError} naming the JSON path of the first problem: a missing or unknown field,
 *   a value of the wrong type, another version, a (`keyPrefix`, `shape`) pair given twice
 */
export function validateInventory(value: unknown, source: string): InventoryDocument {
  const top = fields(source, '$', value, ['version', 'root', 'shapes'], ['tool', 'unresolved']);
  if (top.version !== INVENTORY_VERSION) {
    throw new InventoryError(
      source,
      '$.version',
      typeof top.version === 'number' && Number.isSafeInteger(top.version) && top.version > INVENTORY_VERSION
        ? `inventory version ${top.version} is newer than this tool reads (${INVENTORY_VERSION}): update eslint-plugin-redis-ttl`
        : `expected ${INVENTORY_VERSION}, got ${describe(top.version)}`,
    );
  }
  if ('tool' in top) string(source, '$.tool', top.tool);
  string(source, '$.root', top.root);
  const seen = new Map<string, number>();
  for (const [i, entry] of array(source, '$.shapes', top.shapes).entries()) {
    const path = `$.shapes[${i}]`;
    const shape = fields(source, path, entry, ['shape', 'writes'], ['keyPrefix', 'persistent', 'reads']);
    const spelling = string(source, at(path, 'shape'), shape.shape);
    const prefix = 'keyPrefix' in shape ? string(source, at(path, 'keyPrefix'), shape.keyPrefix, { empty: true }) : '';
    if ('persistent' in shape && typeof shape.persistent !== 'boolean') {
      throw new InventoryError(source, at(path, 'persistent'), `expected true or false, got ${describe(shape.persistent)}`);
    }
    for (const [w, write] of array(source, at(path, 'writes'), shape.writes).entries()) site(source, `${path}.writes[${w}]`, write, 'write');
    if ('reads' in shape) for (const [r, read] of array(source, at(path, 'reads'), shape.reads).entries()) site(source, `${path}.reads[${r}]`, read, 'read');
    const id = `${prefix}\u0000${spelling}`;
    const first = seen.get(id);
    if (first !== undefined) {
      throw new InventoryError(
        source,
        path,
        `repeats $.shapes[${first}] (shape ${JSON.stringify(spelling)}${prefix === '' ? '' : ` with keyPrefix ${JSON.stringify(prefix)}`}): one entry per shape, with all its sites`,
      );
    }
    seen.set(id, i);
  }
  if ('unresolved' in top) for (const [u, write] of array(source, '$.unresolved', top.unresolved).entries()) site(source, `$.unresolved[${u}]`, write, 'unresolved');
  return value as InventoryDocument;
}
