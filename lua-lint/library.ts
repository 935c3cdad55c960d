/**
 * What FUNCTION LOAD refuses in a Redis 7 function library (a script whose first line is
 * `#!lua name=<lib>`), found before any server sees it. Each refusal quotes the error Redis 7.0
 * gives (checked on redis-server 7.0 in tests/lua-lint/library-load.test.ts; the rules are those
 * of https://redis.io/docs/latest/develop/programmability/functions-intro/ and
 * https://redis.io/docs/latest/commands/function-load/).
 */
import type { Node } from 'luaparse';
import type { ScriptIndex } from './script-index.js';

/** One reason FUNCTION LOAD refuses the library, at a 0-based UTF-16 range of the source. */
export interface LibraryLoadError {
  message: string;
  offset: number;
  endOffset: number;
}

/**
 * The fields of `redis` that exist while a library loads (its top-level code runs): Redis 7.0
 * gives the loading code only registration, logging and the server version; any other field
 * (`redis.call`, `redis.pcall`, `redis.sha1hex`, `redis.setresp`...) raises "Script attempted to
 * access nonexistent global variable '<field>'".
 */
const LOAD_TIME_REDIS_FIELDS = new Set([
  'register_function',
  'log',
  'LOG_DEBUG',
  'LOG_VERBOSE',
  'LOG_NOTICE',
  'LOG_WARNING',
  'REDIS_VERSION',
  'REDIS_VERSION_NUM',
]);

const SHEBANG = /^#!lua([^\r\n]*)/;

type Ranged = Node & { range?: [number, number] };

/**
 * The reasons FUNCTION LOAD would refuse `source` as a function library.
 *
 * A `#!lua` first line marks a library when it has a `name=` option or when the script calls
 * `redis.register_function` (without either it is an EVAL script with a shebang, e.g.
 * `#!lua flags=no-writes`, and nothing is reported). Refused: no `name=` ("Library name was not
 * given"), another option than `name=` ("Invalid metadata value given: <option>"), a field of
 * `redis` other than registration, logging and the version used by the code that runs while the
 * library loads, i.e. outside every function body ("Script attempted to access nonexistent global
 * variable 'call'"), and no `redis.register_function` anywhere ("No functions registered").
 *
 * @param source the script text, whose ranges the parse carries (0-based UTF-16 offsets).
 * @param index the parse's index (`ParsedScript.index`): its `redis.<field>` nodes, each known to be
 *   inside a function body or not.
 * @returns the refusals in source order; empty for a script without a `#!lua` first line.
 */
export function libraryLoadErrors(source: string, index: ScriptIndex): LibraryLoadError[] {
  const shebang = SHEBANG.exec(source);
  if (!shebang) return [];
  const options = shebang[1]!.trim().split(/\s+/).filter(Boolean);
  const hasName = options.some((option) => option.startsWith('name='));
  const fields = index.redisFields;
  const registers = source.includes('register_function') && fields.some((field) => field.node.identifier.name === 'register_function');
  if (!hasName && !registers) return [];
  const errors: LibraryLoadError[] = [];
  const firstLine = { offset: 0, endOffset: shebang[0].length };
  if (!hasName) {
    errors.push({
      ...firstLine,
      message:
        'FUNCTION LOAD refuses this library: its `#!lua` first line has no name (Redis: "Library name was not given"). Write `#!lua name=<library>`.',
    });
  }
  for (const option of options) {
    if (option.startsWith('name=')) continue;
    errors.push({
      ...firstLine,
      message: `FUNCTION LOAD refuses this library: \`${option}\` is not an option of its first line, which takes only name= (Redis: "Invalid metadata value given: ${option}"). Remove it; a function's flags go to redis.register_function{..., flags={...}}.`,
    });
  }
  for (const { node, loadTime } of fields) {
    const field = node.identifier.name;
    if (!loadTime || LOAD_TIME_REDIS_FIELDS.has(field)) continue;
    const [offset, endOffset] = (node as Ranged).range ?? [0, 0];
    errors.push({
      offset,
      endOffset,
      message: `FUNCTION LOAD refuses this library: redis.${field} runs while the library loads (outside every function body), where redis has only register_function, log and REDIS_VERSION (Redis: "Script attempted to access nonexistent global variable '${field}'"). Move it into a registered function.`,
    });
  }
  if (!registers) {
    errors.push({
      ...firstLine,
      message:
        'FUNCTION LOAD refuses this library: it never calls redis.register_function (Redis: "No functions registered"). Register each function with redis.register_function(\'name\', callback).',
    });
  }
  return errors.sort((a, b) => a.offset - b.offset);
}
