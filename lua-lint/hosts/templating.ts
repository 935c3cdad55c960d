/**
 * StackExchange.Redis named parameters. `LuaScript.Prepare(script)` replaces each `@name` (a
 * letter or `_`, then letters, digits or `_`, not preceded by a letter, digit or `_`) by
 * `ARGV[i]`, numbered in order of first appearance, and `@@name` by `@name`; at `Evaluate`, the
 * members of the parameter object of type `RedisKey` are also sent as `KEYS` (StackExchange.Redis,
 * `ScriptParameterMapper` and the `LuaScript` docs: https://stackexchange.github.io/StackExchange.Redis/Scripting).
 *
 * lua-lint cannot see the members' types, so it names a parameter a key by its name: `@key`,
 * `@keys`, `@lockKey`, `@key2` (the name starts or ends with `key`, digits aside) become
 * `KEYS[1]`, `KEYS[2]`, ... and every other parameter `ARGV[1]`, `ARGV[2]`, ..., each numbered in
 * order of first appearance. Findings inside a replaced name are reported at its `@`.
 */
import { concat, escaped, type Cooked } from './cooked.js';

/** One `@name` and what lua-lint analyses in its place. */
export interface NamedParameter {
  /** `@key`. */
  name: string;
  /** `KEYS[1]` or `ARGV[1]`. */
  becomes: string;
}

const IS_KEY = /^key|key\d*$/i;

/** The script with StackExchange.Redis's `@name` parameters replaced, and the names used. */
export function prepareStackExchangeScript(script: Cooked): { script: Cooked; parameters: NamedParameter[] } {
  const parameters = new Map<string, string>();
  let keys = 0;
  let args = 0;
  const parts: Cooked[] = [];
  const text = script.text;
  const piece = (from: number, to: number): Cooked => ({ text: text.slice(from, to), map: script.map.slice(from, to), end: script.map[to] ?? script.end });
  let at = 0;
  const pattern = /@([A-Za-z_][A-Za-z0-9_]*)/g;
  for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
    const before = text[match.index - 1];
    if (before !== undefined && /[\p{L}\p{N}_]/u.test(before)) continue;
    const name = match[1]!;
    const start = match.index;
    if (before === '@') {
      // `@@name` is the escape for a literal `@name`: drop the first `@`.
      parts.push(piece(at, start - 1), piece(start, start + match[0].length));
      at = start + match[0].length;
      continue;
    }
    let becomes = parameters.get(name);
    if (becomes === undefined) {
      becomes = IS_KEY.test(name) ? `KEYS[${++keys}]` : `ARGV[${++args}]`;
      parameters.set(name, becomes);
    }
    parts.push(piece(at, start));
    const host = script.map[start]!;
    parts.push(escaped(becomes, host, script.map[start + match[0].length - 1]! + 1));
    at = start + match[0].length;
  }
  if (parts.length === 0) return { script, parameters: [] };
  parts.push(piece(at, text.length));
  const prepared = concat(parts.filter((p) => p.text.length > 0 || p === parts.at(-1)), script.map[0] ?? script.end);
  return { script: { ...prepared, end: script.end }, parameters: [...parameters].map(([name, becomes]) => ({ name: `@${name}`, becomes })) };
}

