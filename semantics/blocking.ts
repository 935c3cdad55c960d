/**
 * Commands that block the connection until data arrives or a timeout passes. Inside MULTI / EXEC
 * (and Lua scripts) Redis runs them without blocking: "BLPOP inside a MULTI / EXEC block ...
 * behaves exactly like LPOP" (https://redis.io/docs/latest/commands/blpop/#behavior-of-blpop-when-multi--exec-is-issued),
 * the same for BRPOP, BRPOPLPUSH, BLMOVE, BLMPOP, BZPOPMIN, BZPOPMAX, BZMPOP, and XREAD /
 * XREADGROUP with BLOCK (https://redis.io/docs/latest/commands/xread/). WAIT / WAITAOF wait for
 * replicas (https://redis.io/docs/latest/commands/wait/). A rewrite that moves such a command into
 * a MULTI changes what the code does, so no suggestion may do it.
 */
import type { CommandArg } from './commands.js';

const ALWAYS_BLOCKING: ReadonlySet<string> = new Set([
  'BLPOP',
  'BRPOP',
  'BRPOPLPUSH',
  'BLMOVE',
  'BLMPOP',
  'BZPOPMIN',
  'BZPOPMAX',
  'BZMPOP',
  'WAIT',
  'WAITAOF',
]);

/**
 * Whether a call of `command` with these arguments blocks the connection: the blocking list
 * commands, WAIT / WAITAOF, and XREAD / XREADGROUP with a `BLOCK` token (or an argument the
 * caller cannot see, which may be one).
 * @param command the command name in any letter case
 * @param args its arguments, literal where known, `undefined` where not
 */
export function isBlockingCall(command: string, args: readonly CommandArg[]): boolean {
  const name = command.toUpperCase();
  if (ALWAYS_BLOCKING.has(name)) return true;
  if (name === 'XREAD' || name === 'XREADGROUP') {
    return args.some((arg) => arg === undefined || (typeof arg === 'string' && arg.toUpperCase() === 'BLOCK'));
  }
  return false;
}
