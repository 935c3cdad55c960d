/**
 * What the host-language extractors produce: each Redis script found in a Go, Python, Ruby, PHP,
 * Java, C# (or JS/TS) file, as the Lua text Redis receives, mapped back to the host file.
 */
import type { SourceRange } from '../types.js';
import type { Cooked } from './cooked.js';

/** A script argument's value: a string known in the file, or one built at run time. */
export type ScriptValue =
  | { kind: 'string'; value: Cooked }
  /** Built at run time (`f"..."`, `fmt.Sprintf`, `"..." + ttl`): `how` names the construct, `at` its host offset. */
  | { kind: 'dynamic'; how: string; at: number; end: number };

/** How `@name` placeholders in a script are turned into `KEYS` / `ARGV` before it runs. */
export type Templating = 'stackexchange-redis';

/** One script found in a host file. */
export interface ScriptSite {
  value: ScriptValue;
  /** The call (or declaration) that made it a script, for messages: `redis.NewScript`, `LUA heredoc`. */
  via: string;
  templating?: Templating;
}

/** A script argument built at run time, which lua-lint cannot read; its range is the interpolation or template call in the host file. */
export interface HostDynamicScript extends SourceRange {
  /** What builds it: `an f-string`, `fmt.Sprintf(...)`, `a concatenation with \`ttl\``. */
  how: string;
  /** The call it is passed to (`rdb.Eval(...)`). */
  via: string;
}
