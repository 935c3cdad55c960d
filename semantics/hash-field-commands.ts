/**
 * The rows of the command table (`commands.ts`) for hash commands that name fields, and what each
 * does to those fields' TTLs (Redis 7.4 hash-field expiration,
 * https://redis.io/docs/latest/develop/data-types/hashes/#field-expiration): the HEXPIRE family,
 * HSETEX, HGETEX, HPERSIST, HGETDEL's FIELDS block, and the field positions of HSET / HDEL /
 * HINCRBY. Internal to semantics/: the rest of the package reads them through `describeCommand` in
 * `commands.ts`.
 */

import { base, EXPIRY_UNITS, expiryLiteral, numeric, upper } from './command-spec.js';
import type { CommandArg, CommandDescription, FieldTtlEffect, KeyEffect, TtlUnit } from './command-description.js';
import { pastExpiryUnder } from './expiry-commands.js';

/**
 * The field names of a `FIELDS numfields field [field ...]` block starting at or after `from`
 * (`step` 2 when each field is followed by its value, HSETEX), or `'unknown'` when the block
 * cannot be read (no literal FIELDS token or count).
 */
export function fieldsBlock(args: readonly CommandArg[], from: number, step: 1 | 2): { fields: number[] | 'unknown'; at: number } {
  for (let i = from; i < args.length; i++) {
    if (upper(args[i]) !== 'FIELDS') continue;
    const count = numeric(args[i + 1]);
    if (count === undefined || !Number.isInteger(count) || count < 1) return { fields: 'unknown', at: i };
    const fields: number[] = [];
    for (let k = 0; k < count && i + 2 + k * step < args.length; k++) fields.push(i + 2 + k * step);
    return { fields, at: i };
  }
  return { fields: 'unknown', at: args.length };
}

/**
 * HEXPIRE key seconds [NX | XX | GT | LT] FIELDS numfields field ... and HPEXPIRE / HEXPIREAT /
 * HPEXPIREAT (Redis 7.4, https://redis.io/docs/latest/commands/hexpire/): sets the TTL of the
 * named fields that exist; the key's own TTL is untouched. Checked on redis-server 8.0.2: 0 (or a
 * time in the past) deletes the fields (reply 2), and the hash with its last field; a negative or
 * fractional value is rejected ("invalid expire time, must be >= 0", "value is not an integer");
 * under XX or GT a field without TTL keeps having none.
 */
export function describeHashExpire(unit: TtlUnit) {
  return (args: readonly CommandArg[]): Omit<CommandDescription, 'name' | 'known'> => {
    const { fields, at } = fieldsBlock(args, 2, 1);
    let unknownOptions = false;
    const options = new Set<string>();
    for (let i = 2; i < Math.min(at, args.length); i++) {
      const token = upper(args[i]);
      if (token === undefined) unknownOptions = true;
      else options.add(token);
    }
    const onlyWithTtl = options.has('XX') || options.has('GT');
    const literal = expiryLiteral(args[1], unit, 'hash');
    const rejected = (literal?.rejected ?? false) || (literal?.value !== undefined && literal.value < 0n);
    const deletes = literal?.value === 0n;
    return {
      keys: [{ arg: 0, effect: 'read', ...(deletes ? { mayDelete: true as const } : {}), fields: { args: fields, ttl: deletes ? 'delete' : onlyWithTtl ? 'set-if-has-ttl' : 'set' } }],
      getDropsTtl: false,
      keepTtl: false,
      unknownOptions,
      ttl: { arg: 1, unit },
      ...(deletes || rejected ? { nonPositiveTtlArg: 1 } : {}),
      ...(rejected ? { rejected: true as const } : { pastExpiry: pastExpiryUnder(options) }),
    };
  };
}

/**
 * The options of HSETEX / HGETEX before their FIELDS block: the condition and PERSIST / KEEPTTL
 * tokens, the expiry option with its argument index, unit and literal value.
 */
function hashFieldOptions(args: readonly CommandArg[]): {
  tokens: Set<string>;
  ttl?: NonNullable<CommandDescription['ttl']>;
  ttlOption?: string;
  value?: number;
  /** The expiry argument is a literal that is not an integer Redis parses (`'60s'`, `'60.0'`, `'+5'`). */
  notNumeric: boolean;
  unknownOptions: boolean;
  /** Where the FIELDS block starts (the argument count when there is none). */
  fieldsAt: number;
} {
  const tokens = new Set<string>();
  let ttl: NonNullable<CommandDescription['ttl']> | undefined;
  let ttlOption: string | undefined;
  let value: number | undefined;
  let notNumeric = false;
  let unknownOptions = false;
  let i = 1;
  for (; i < args.length; i++) {
    const token = upper(args[i]);
    if (token === undefined) {
      unknownOptions = true;
      continue;
    }
    if (token === 'FIELDS') break;
    if (token in EXPIRY_UNITS) {
      ttl = { arg: i + 1, unit: EXPIRY_UNITS[token as keyof typeof EXPIRY_UNITS] };
      ttlOption = token;
      // Redis's integer parse (expiryLiteral): '60.0', '+5' or '60s' is not a number here
      const literal = expiryLiteral(args[i + 1], ttl.unit, 'hash');
      value = literal?.value !== undefined ? Number(literal.value) : undefined;
      notNumeric = literal?.rejected ?? false;
      i++;
    } else tokens.add(token);
  }
  return { tokens, ...(ttl ? { ttl, ttlOption: ttlOption! } : {}), ...(value !== undefined ? { value } : {}), notNumeric, unknownOptions, fieldsAt: i };
}

/**
 * HSETEX key [FNX | FXX] [EX s | PX ms | EXAT t | PXAT t | KEEPTTL] FIELDS numfields field value ...
 * (Redis 8.0, https://redis.io/docs/latest/commands/hsetex/): writes the fields, with that TTL,
 * keeping their TTL (KEEPTTL), or clearing it (no option). A missing key is created without a key
 * TTL (FXX: never created). Checked on redis-server 8.0.2: EX 0 or a past EXAT writes nothing that
 * stays; a negative or fractional TTL is rejected.
 */
export function describeHsetex(args: readonly CommandArg[]): Omit<CommandDescription, 'name' | 'known'> {
  const { tokens, ttl, ttlOption, value, notNumeric, unknownOptions, fieldsAt } = hashFieldOptions(args);
  const bad = notNumeric || (value !== undefined && (value < 0 || !Number.isInteger(value)));
  const zero = value === 0;
  const { fields } = fieldsBlock(args, fieldsAt, 2);
  const fieldTtl: FieldTtlEffect = ttl ? (zero ? 'delete' : 'set') : tokens.has('KEEPTTL') ? 'keep' : 'clear';
  const effect: KeyEffect = bad ? 'read' : tokens.has('FXX') ? 'modify-if-present' : ttl || unknownOptions ? 'create-with-field-ttl' : 'create-in-place';
  return {
    keys: [{ arg: 0, effect, fields: { args: fields, ttl: fieldTtl, ...(tokens.has('FNX') || tokens.has('FXX') ? { allOrNone: true as const } : {}) } }],
    getDropsTtl: false,
    keepTtl: false,
    unknownOptions,
    ...(ttl ? { ttl, ttlOption } : {}),
    ...((bad || zero) && ttl ? { nonPositiveTtlArg: ttl.arg } : {}),
    ...(bad ? { rejected: true as const } : {}),
  };
}

/**
 * HGETEX key [EX s | PX ms | EXAT t | PXAT t | PERSIST] FIELDS numfields field ... (Redis 8.0,
 * https://redis.io/docs/latest/commands/hgetex/): returns the fields and sets or removes their
 * TTLs; never creates the key. A negative or fractional TTL is rejected; 0 deletes the fields.
 */
export function describeHgetex(args: readonly CommandArg[]): Omit<CommandDescription, 'name' | 'known'> {
  const { tokens, ttl, ttlOption, value, unknownOptions, fieldsAt } = hashFieldOptions(args);
  const fieldTtl: FieldTtlEffect | undefined = ttl ? (value === 0 ? 'delete' : 'set') : tokens.has('PERSIST') ? 'remove' : undefined;
  const rejected = value !== undefined && (value < 0 || !Number.isInteger(value));
  const { fields } = fieldsBlock(args, fieldsAt, 1);
  return {
    keys: [{ arg: 0, effect: 'read', ...(fieldTtl === 'delete' ? { mayDelete: true as const } : {}), ...(fieldTtl ? { fields: { args: fields, ttl: fieldTtl } } : {}) }],
    getDropsTtl: false,
    keepTtl: false,
    unknownOptions,
    ...(ttl ? { ttl, ttlOption } : {}),
    ...(ttl && value !== undefined && value <= 0 ? { nonPositiveTtlArg: ttl.arg } : {}),
    // no condition: 0 or a time already past deletes the named fields (checked on redis-server 8.0.2)
    ...(rejected ? { rejected: true as const } : ttl ? { pastExpiry: 'delete' as const } : {}),
  };
}

/** HPERSIST key FIELDS numfields field ... (Redis 7.4): the named fields lose their TTL. */
export function describeHpersist(args: readonly CommandArg[]): Omit<CommandDescription, 'name' | 'known'> {
  return base([{ arg: 0, effect: 'read', fields: { args: fieldsBlock(args, 1, 1).fields, ttl: 'remove' } }]);
}

/**
 * A hash write whose field names sit at `first`, `first + step`, ... (HSET key f v f v: 1, 3; HDEL
 * key f f: 1, 2). An argument that stands for several (a spread) is the front end's to notice.
 */
export function hashWrite(effect: KeyEffect, fieldTtl: FieldTtlEffect, first: number, step: number, single = false, mayDelete = false) {
  return (args: readonly CommandArg[]): Omit<CommandDescription, 'name' | 'known'> => {
    const fields: number[] = [];
    for (let i = first; i < args.length && !(single && fields.length === 1); i += step) fields.push(i);
    return base([{ arg: 0, effect, ...(mayDelete ? { mayDelete: true as const } : {}), fields: { args: fields, ttl: fieldTtl } }]);
  };
}
