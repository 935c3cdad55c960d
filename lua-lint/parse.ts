/**
 * luaparse wrapper: source text -> AST and comments, with offsets in UTF-16 code units of the
 * original text. A parse error becomes a value, never a throw.
 *
 * Lua is byte-oriented and luaparse expects one character per byte (`encodingMode`), so a source
 * with non-ASCII characters is encoded to UTF-8 bytes first and every range is mapped back.
 * A Redis 7 function library's first line (`#!lua name=...`) is not Lua: it is blanked before
 * parsing, keeping offsets.
 */
import luaparse from 'luaparse';
import type { Chunk, Comment, Node } from 'luaparse';
import { MAX_SYNTAX_LEVELS, scanTree, type ScriptIndex, type TreeScan } from './script-index.js';

/** A successful parse. Node `range`s are UTF-16 offsets into the original source. */
export interface ParsedScript {
  ok: true;
  ast: Chunk;
  comments: Comment[];
  /** Blocks, comparisons and assignments by name, collected while parsing. */
  index: ScriptIndex;
  /** The `name=` of a `#!lua name=<lib>` shebang, when the source is a function library. */
  libraryName?: string;
}

/** A parse error at a UTF-16 offset of the original source. */
export interface ParseFailure {
  ok: false;
  message: string;
  offset: number;
}

const SHEBANG = /^#![^\r\n]*/;

/**
 * Why Redis 7 refuses a `#!` first line before it runs any Lua, or undefined when it takes it.
 * EVAL and FUNCTION LOAD split the line at whitespace and want `#!lua` as its first word
 * ("Unexpected engine in script shebang: <word>", "Engine '<name>' not found") and a line end
 * after it ("Invalid script shebang", "Invalid metadata"); Redis 6 and older refuse any `#!` line
 * as a Lua syntax error. (https://redis.io/docs/latest/develop/interact/programmability/eval-intro/#eval-flags,
 * https://redis.io/docs/latest/develop/interact/programmability/functions-intro/)
 */
function refusedShebang(text: string, line: string): string | undefined {
  const engine = /^#!(\S*)/.exec(line)![1]!;
  if (engine !== 'lua') {
    return `the first line ${JSON.stringify(line.trimEnd())} is not a Redis shebang: Redis 7 takes only "#!lua" (with flags=... for EVAL, name=... for FUNCTION LOAD) and refuses this one ("Unexpected engine in script shebang: #!${engine}"), Redis 6 refuses any "#!" line. Remove the line, or write #!lua.`;
  }
  if (!text.includes('\n')) {
    return 'the script is only a "#!lua" line: Redis refuses a shebang without a line end after it ("Invalid script shebang"). Add the script\'s body on the next lines.';
  }
  return undefined;
}

/** Options of {@link parseLua}. */
export interface ParseOptions {
  /**
   * Whether to keep the comments (default true). Without them luaparse still reads them but makes
   * no node for any: a script whose text cannot hold a directive needs none (11% of the parse of
   * the comment-heavy real scripts of the benchmark).
   */
  comments?: boolean;
}

/**
 * Parses a Redis Lua script (Lua 5.1) or function library, with node ranges and comments.
 * @param source the script text
 * @param options see {@link ParseOptions}
 * @returns the AST with comments (none when `options.comments` is false), or the first syntax
 *   error; never throws.
 */
export function parseLua(source: string, options?: ParseOptions): ParsedScript | ParseFailure {
  const comments = options?.comments ?? true;
  // Redis hands the script's bytes to Lua as they are: a byte order mark is not Lua.
  if (source.charCodeAt(0) === 0xfeff) {
    return {
      ok: false,
      message:
        'the script starts with a UTF-8 byte order mark, which Redis refuses ("unexpected symbol near \'<\\239>\'"): save the file without BOM.',
      offset: 0,
    };
  }
  let text = source;
  let libraryName: string | undefined;
  const shebang = SHEBANG.exec(text);
  if (shebang) {
    const refused = refusedShebang(text, shebang[0]);
    if (refused !== undefined) return { ok: false, message: refused, offset: 0 };
    const name = /\bname=([^\s]+)/.exec(shebang[0]);
    if (name) libraryName = name[1];
    // "#!..." -> "--..." keeps every offset and makes the line a comment.
    text = '--' + text.slice(2);
  }
  // ASCII exactly when UTF-8 takes one byte per UTF-16 unit (any other character takes 2 to 4
  // bytes, a lone surrogate 3): native code, 18x faster than /[^\x00-\x7f]/.test(text)
  const ascii = Buffer.byteLength(text, 'utf8') === text.length;
  const first = firstTokenError(text);
  if (first) return first;
  let input = ascii ? text : toByteString(text);
  let parsed = parseInput(input, true, '5.1', comments);
  if (!parsed.ok && /\bbreak\b/.test(input)) {
    // `break;` is valid Lua 5.1 that luaparse 0.3.1 rejects; its unreleased fix (fstirlitz/luaparse
    // d61c6fe, "Allow a single ; after a break statement in Lua 5.1 mode") consumes the `;`. Until a
    // release ships it, the same `;` is blanked (offsets kept), found with luaparse's own lexer.
    const fixed = blankSemicolonsAfterBreak(input);
    if (fixed !== undefined) {
      const retry = parseInput(fixed, true, '5.1', comments);
      if (retry.ok) {
        input = fixed;
        parsed = retry;
      }
    }
  }
  if (parsed.ok) {
    const { ast } = parsed;
    const kept = (ast.comments ?? []) as Comment[];
    if (!ascii) remapRanges(ast, byteToCharMap(text), kept);
    // the redis.<field> nodes matter only to a function library (a #! first line)
    const scan = scanTree(ast, undefined, { redisFields: shebang !== null });
    const tooDeep = tooDeepOffset(ast, text, scan);
    if (tooDeep !== undefined) {
      return {
        ok: false,
        message: `the script nests blocks, expressions and parentheses deeper than Redis' Lua 5.1 parser allows (${MAX_SYNTAX_LEVELS} levels): Redis refuses it with "chunk has too many syntax levels".`,
        offset: Math.max(0, Math.min(tooDeep, source.length)),
      };
    }
    return { ok: true, ast, comments: kept, index: scan.index, ...(libraryName !== undefined ? { libraryName } : {}) };
  }
  const error = parsed.error;
  // luaparse's SyntaxError carries index/line/column as non-enumerable properties.
  const err = error as { message?: unknown; index?: unknown };
  const byteIndex = typeof err.index === 'number' ? err.index : 0;
  let rawMessage = typeof err.message === 'string' ? err.message : String(error);
  if (error instanceof RangeError && /call stack/i.test(rawMessage)) rawMessage = 'the script is nested too deeply to parse';
  // luaparse read UTF-8 bytes as characters: decode what it quotes from the source.
  else if (!ascii) {
    rawMessage = Buffer.from(rawMessage, 'latin1').toString('utf8');
    // A quoted lone byte of a multi-byte character: show the character itself.
    const at = charOffsetOfByte(text, byteIndex);
    const char = String.fromCodePoint(text.codePointAt(at) ?? 0xfffd);
    rawMessage = rawMessage.replace(/\uFFFD+/g, char);
  }
  let message = rawMessage.replace(/^\[\d+:\d+\]\s*/, '');
  // Valid in a later Lua (goto, bitwise operators, //, <const>): say which Lua Redis runs. luaparse
  // knows no Lua 5.4, so a local's attribute is recognised where the error is.
  if (
    !(error instanceof RangeError) &&
    (isLocalAttribute(input, byteIndex) || parseInput(input, false, '5.3').ok || parseInput(input, false, 'LuaJIT').ok)
  ) {
    message += ` (${LATER_LUA_HINT})`;
  }
  const offset = ascii ? byteIndex : charOffsetOfByte(text, byteIndex);
  return { ok: false, message, offset: Math.max(0, Math.min(offset, source.length)) };
}

/** Whitespace and comments (`-- ...`, `--[==[ ... ]==]`) before a script's first token. */
const LEADING_TRIVIA = /^(?:\s+|--\[(=*)\[[\s\S]*?\]\1\]|--[^\n]*)*/;

/** A character that can begin a Lua 5.1 token: a name, a number, a string, a symbol. */
const TOKEN_START = /[A-Za-z_0-9'".=<>~:;,()[\]{}+\-*/%^#]/;

/**
 * The syntax error of a script whose first token cannot begin any Lua token (`@`, `` ` ``, `$`,
 * a non-ASCII letter), as Redis' Lua says it ("unexpected symbol near '@'"), or undefined.
 * luaparse reports this one case with an internal error (it reads the token before the first,
 * left over from the previous parse, so its message also depends on what was parsed before).
 */
function firstTokenError(text: string): ParseFailure | undefined {
  const offset = LEADING_TRIVIA.exec(text)![0].length;
  if (offset >= text.length || TOKEN_START.test(text[offset]!)) return undefined;
  const char = String.fromCodePoint(text.codePointAt(offset)!);
  return { ok: false, message: `unexpected symbol near '${char}'`, offset };
}

const LATER_LUA_HINT =
  'Redis runs Lua 5.1: goto and labels, bitwise operators, integer division `//`, `<const>` and `<close>` locals and other Lua 5.2+ syntax are errors there';

/** Whether a Lua 5.4 attribute (`local x <const> = 5`, `<close>`) starts at `index` of `input`. */
function isLocalAttribute(input: string, index: number): boolean {
  const attribute = /<\s*(?:const|close)\s*>/y;
  attribute.lastIndex = index;
  return attribute.test(input) && /\blocal\s+(?:[A-Za-z_]\w*\s*(?:<\s*\w*\s*>\s*)?,\s*)*[A-Za-z_]\w*\s*$/.test(input.slice(Math.max(0, index - 200), index));
}

function parseInput(
  input: string,
  positions: boolean,
  luaVersion: '5.1' | '5.3' | 'LuaJIT',
  comments = positions,
): { ok: true; ast: Chunk } | { ok: false; error: unknown } {
  try {
    const ast = luaparse.parse(input, {
      comments, // the later-Lua probes of a failed parse need none, nor positions
      locations: false,
      ranges: positions,
      scope: false,
      luaVersion,
      encodingMode: 'pseudo-latin1',
    });
    return { ok: true, ast };
  } catch (error) {
    return { ok: false, error };
  }
}

interface Token {
  type: number;
  value: unknown;
  range: [number, number];
}

/** `input` with every `;` that directly follows a `break` token replaced by a space, or undefined. */
function blankSemicolonsAfterBreak(input: string): string | undefined {
  try {
    // luaparse's lexer API (lex, tokenTypes) is not in @types/luaparse.
    const lexer = luaparse as unknown as { lex(): Token; tokenTypes: Record<'EOF' | 'Keyword' | 'Punctuator', number> };
    luaparse.parse(input, { wait: true, luaVersion: '5.1', encodingMode: 'pseudo-latin1' });
    const chars = input.split('');
    let previous: Token | undefined;
    let changed = false;
    for (let i = 0; i <= input.length; i++) {
      const token = lexer.lex();
      if (token.type === lexer.tokenTypes.EOF) break;
      if (token.type === lexer.tokenTypes.Punctuator && token.value === ';' && previous && previous.type === lexer.tokenTypes.Keyword && previous.value === 'break') {
        chars[token.range[0]] = ' ';
        changed = true;
      }
      previous = token;
    }
    return changed ? chars.join('') : undefined;
  } catch {
    return undefined; // a lexical error: the first parse's message stands
  }
}

/**
 * The offset of the first node deeper than {@link MAX_SYNTAX_LEVELS} (Redis refuses the script),
 * or undefined. `scan` counted the levels without the parentheses luaparse keeps no node for; only
 * when it found a node too deep, or when the deepest `(` nesting of the text could make up the
 * difference, are they counted around each node (a scan of the text per node).
 */
function tooDeepOffset(ast: Chunk, text: string, scan: TreeScan): number | undefined {
  if (scan.found === undefined && scan.deepest + maxParenDepth(text) <= MAX_SYNTAX_LEVELS) return undefined;
  return scanTree(ast, text).found; // parentheses can only move the first one earlier
}

/**
 * The deepest nesting of `(` in `input`, strings and comments included: an upper bound. Walks
 * from parenthesis to parenthesis with indexOf (6x faster than a loop over every character).
 */
function maxParenDepth(input: string): number {
  let depth = 0;
  let max = 0;
  let open = input.indexOf('(');
  let close = input.indexOf(')');
  while (open !== -1 || close !== -1) {
    if (open !== -1 && (close === -1 || open < close)) {
      if (++depth > max) max = depth;
      open = input.indexOf('(', open + 1);
    } else {
      if (depth > 0) depth--;
      close = input.indexOf(')', close + 1);
    }
  }
  return max;
}

/** UTF-8 bytes of `text`, one char per byte (what luaparse's pseudo-latin1 mode reads). */
function toByteString(text: string): string {
  const bytes = Buffer.from(text, 'utf8');
  let out = '';
  for (let i = 0; i < bytes.length; i += 8192) {
    out += String.fromCharCode(...bytes.subarray(i, i + 8192));
  }
  return out;
}

/** For every byte offset of the UTF-8 encoding (and one past the end), its UTF-16 offset. */
function byteToCharMap(text: string): Uint32Array {
  const map = new Uint32Array(Buffer.byteLength(text, 'utf8') + 1);
  let byte = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.codePointAt(i)!;
    const size = code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
    for (let b = 0; b < size; b++) map[byte + b] = i;
    byte += size;
    if (code >= 0x10000) i++; // surrogate pair
  }
  map[byte] = text.length;
  return map;
}

function charOffsetOfByte(text: string, byteIndex: number): number {
  const map = byteToCharMap(text);
  return map[Math.min(byteIndex, map.length - 1)] ?? text.length;
}

function remapRanges(ast: Chunk, map: Uint32Array, comments: Comment[]): void {
  const seen = new Set<object>();
  const visit = (value: unknown): void => {
    if (!value || typeof value !== 'object' || seen.has(value)) return;
    seen.add(value);
    if (Array.isArray(value)) {
      for (const item of value) visit(item);
      return;
    }
    const node = value as Partial<Node> & { range?: [number, number] };
    if (Array.isArray(node.range)) {
      node.range = [map[node.range[0]] ?? 0, map[node.range[1]] ?? map[map.length - 1] ?? 0];
    }
    for (const key of Object.keys(node)) {
      if (key !== 'range' && key !== 'loc') visit((node as Record<string, unknown>)[key]);
    }
  };
  visit(ast.body);
  visit(comments);
}
