/**
 * The commands that run a server-side script or function on the keys they are given: the script
 * does its writes (and their expiries) atomically, inside Redis
 * (https://redis.io/docs/latest/develop/programmability/eval-intro/,
 * https://redis.io/docs/latest/develop/programmability/functions-intro/).
 */
export const SCRIPT_RUNNING_COMMANDS: ReadonlySet<string> = new Set(['EVAL', 'EVALSHA', 'EVAL_RO', 'EVALSHA_RO', 'FCALL', 'FCALL_RO']);
