/**
 * The commands that run a server-side script or function on the keys they are given: the script
 * does its writes (and their expiries) atomically, inside Redis
 * (https://redis.io/docs/latest/develop/programmability/eval-intro/,
 * https://redis.io/docs/latest/develop/programmability/functions-intro/).
 */
export const SCRIPT_RUNNING_COMMANDS: ReadonlySet<string> = new Set(['EVAL', 'EVALSHA', 'EVAL_RO', 'EVALSHA_RO', 'FCALL', 'FCALL_RO']);

/**
 * The commands that run a script cached by `SCRIPT LOAD` by its SHA1 digest (the reply of SCRIPT
 * LOAD), with the `KEYS` given at the call, as `EVAL` runs its source: what the script does to
 * `KEYS[i]` is what the call does to its i-th key argument
 * (https://redis.io/docs/latest/commands/script-load/, https://redis.io/docs/latest/commands/evalsha/,
 * https://redis.io/docs/latest/commands/evalsha_ro/).
 */
export const SCRIPT_BY_DIGEST_COMMANDS: ReadonlySet<string> = new Set(['EVALSHA', 'EVALSHA_RO']);
