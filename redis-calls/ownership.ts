/**
 * Which rule reports which command, so that one root cause gets one finding: the SET family is
 * `set-requires-ttl-or-keepttl`'s, GETSET (and SET ... GET, decided by the command table's
 * `getDropsTtl`) is `no-getset`'s, every other write that creates a key without TTL is
 * `incr-needs-expire-on-create`'s.
 */

/** The commands `set-requires-ttl-or-keepttl` reports. */
export const SET_RULE_COMMANDS: ReadonlySet<string> = new Set(['SET', 'SETNX', 'MSET', 'MSETNX']);

/** The commands `no-getset` reports whatever their options. */
export const GETSET_RULE_COMMANDS: ReadonlySet<string> = new Set(['GETSET']);
