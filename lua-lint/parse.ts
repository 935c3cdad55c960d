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

/** A successful parse. Node `range`s are UTF-16 offsets into the original source. */
export interface ParsedScript {
  ok: true;
  ast: Chunk;
  comments: Comment[];
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
 * Parses a Redis Lua script (Lua 5.1) or function library.
 * @param source the script text
 * @param options `positions: false` skips node ranges (about a third faster), for a first pass
 *   that only asks whether there is anything to report.
 * @returns the AST with comments, or the first syntax error; never throws.
 */
export function parseLua(source: string, options: { positions?: boolean } = {}): ParsedScript | ParseFailure {
  const positions = options.positions ?? true;
  // A byte order mark is not Lua; a space keeps the offsets.
  let text = source.charCodeAt(0) === 0xfeff ? ' ' + source.slice(1) : source;
  let libraryName: string | undefined;
  const shebang = SHEBANG.exec(text);
  if (shebang) {
    const name = /\bname=([^\s]+)/.exec(shebang[0]);
    if (name) libraryName = name[1];
    // "#!..." -> "--..." keeps every offset and makes the line a comment.
    text = '--' + text.slice(2);
  }
  // eslint-disable-next-line no-control-regex
  const ascii = !/[^\x00-\x7f]/.test(text);
  const input = ascii ? text : toByteString(text);
  try {
    const ast = luaparse.parse(input, {
      comments: positions, // the quick pass reads no directives
      locations: false,
      ranges: positions,
      scope: false,
      luaVersion: '5.1',
      encodingMode: 'pseudo-latin1',
    });
    const comments = (ast.comments ?? []) as Comment[];
    if (!ascii && positions) remapRanges(ast, byteToCharMap(text), comments);
    return { ok: true, ast, comments, ...(libraryName !== undefined ? { libraryName } : {}) };
  } catch (error) {
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
    const offset = ascii ? byteIndex : charOffsetOfByte(text, byteIndex);
    return {
      ok: false,
      message: rawMessage.replace(/^\[\d+:\d+\]\s*/, ''),
      offset: Math.max(0, Math.min(offset, source.length)),
    };
  }
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
