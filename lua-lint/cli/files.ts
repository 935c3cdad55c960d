/**
 * Turning the command line's patterns into files, and files into source text.
 */
import { closeSync, fstatSync, openSync, readdir, readSync, statSync, type Dirent } from 'node:fs';
import { realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { glob, isDynamicPattern } from 'tinyglobby';
import { CliError, describeFsError } from '../../cli/errors.js';
import { hostLanguageOf, HOST_WALK_IGNORES, SOURCE_GLOB } from '../hosts/extensions.js';

/** Never linted, wherever they are: dependencies and Git's own files. */
export const DEFAULT_IGNORES: readonly string[] = ['**/node_modules/**', '**/.git/**'];

/** What a directory on the command line expands to: `.lua` files and host-language files (Go, Python, ...). */
export const DIRECTORY_GLOB = SOURCE_GLOB;

/**
 * One thing to lint: a file (absolute path) or standard input (`-`); or a file named on the
 * command line that the config file's `ignores` match (`ignored`: not read, reported with a
 * warning unless `--no-warn-ignored`, as ESLint does).
 */
export type LintTarget =
  | { kind: 'file'; path: string }
  | { kind: 'ignored'; path: string }
  | { kind: 'stdin' }
  /** A folder the directory walk could not list (its files are not linted): one problem, `reason`. */
  | { kind: 'unreadable'; path: string; reason: string };

/** Options of {@link expandPatterns}. */
export interface ExpandOptions {
  cwd: string;
  /** Whether an absolute file path is ignored by the config file's `ignores`. */
  isIgnored: (filePath: string) => boolean;
  /** `false` for `--no-error-on-unmatched-pattern`. */
  errorOnUnmatchedPattern: boolean;
}

/**
 * Expands each pattern, in order, without duplicates: `-` is standard input; an existing file is
 * linted whatever its extension, or is an `ignored` target when `ignores` matches it (a list of
 * staged files can be passed as it is: the ignored ones are not read); a directory becomes
 * `<dir>/**\/*.lua` plus the host-language files ({@link DIRECTORY_GLOB}); anything else is a
 * glob relative to `cwd`; symbolic links to directories are not followed (a link to `/` would
 * walk the whole disk). Files under node_modules and .git are never linted. A file reached
 * twice (two patterns, or a symbolic link back into a searched folder) is linted once, under its
 * real path when that was found too, else under the first path found.
 *
 * @throws CliError when a directory or glob matches no file, or only ignored files (unless
 *   `errorOnUnmatchedPattern` is false).
 */
export async function expandPatterns(patterns: readonly string[], options: ExpandOptions): Promise<LintTarget[]> {
  const targets: LintTarget[] = [];
  const seen = new Set<string>();
  // the folders a walk could not list: the walk goes on without them, they are reported (never a silent skip)
  const unlisted: Array<{ path: string; error: unknown }> = [];
  // the symbolic links a walk met (not followed): named when a directory turns out to hold no file
  const links: string[] = [];
  const walkFs = {
    readdir: ((folder: string, readOptions: object, callback: (error: NodeJS.ErrnoException | null, entries: unknown) => void) =>
      readdir(folder, readOptions as { withFileTypes: true }, (error, entries) => {
        // a folder that does not exist (a glob's base such as `nope/*.lua`, or one removed during the
        // walk) holds no file to lint: not an unreadable folder, so the pattern is unmatched. A name
        // that is not UTF-8 (shown with U+FFFD) is ENOENT too, but that folder exists: it is reported
        if (error && (error.code !== 'ENOENT' || folder.includes('\ufffd'))) unlisted.push({ path: folder, error });
        for (const entry of (entries ?? []) as Dirent[]) if (entry.isSymbolicLink()) links.push(path.join(folder, entry.name));
        callback(error, entries);
      })) as unknown as typeof readdir,
  };
  for (const pattern of patterns) {
    if (pattern === '-') {
      if (!seen.has('-')) targets.push({ kind: 'stdin' });
      seen.add('-');
      continue;
    }
    const absolute = path.resolve(options.cwd, pattern);
    const stats = await stat(absolute).catch(() => undefined);
    let matches: string[];
    if (stats && !stats.isDirectory()) {
      if (options.isIgnored(absolute)) {
        if (!seen.has(absolute)) targets.push({ kind: 'ignored', path: absolute });
        seen.add(absolute);
        continue;
      }
      matches = [absolute];
    } else {
      const found = stats
        ? await glob(DIRECTORY_GLOB, { ...globOptions(absolute), ignore: [...DEFAULT_IGNORES, ...HOST_WALK_IGNORES], fs: walkFs })
        : isDynamicPattern(pattern)
          ? await glob(globPattern(pattern), { ...globOptions(options.cwd), fs: walkFs })
          : [];
      for (const { path: folder, error } of unlisted.splice(0)) {
        const where = path.normalize(folder);
        if (seen.has(where)) continue;
        seen.add(where);
        targets.push({ kind: 'unreadable', path: where, reason: unreadableReason(where, error, 'folder') });
      }
      const skippedLinks = linkedFolders(links.splice(0));
      found.sort();
      matches = found.map((file) => path.normalize(file)).filter((file) => !options.isIgnored(file));
      if (matches.length === 0 && options.errorOnUnmatchedPattern && !targets.some((t) => t.kind === 'unreadable')) {
        throw new CliError(
          found.length > 0
            ? `All files matched by "${pattern}" are ignored (see "ignores" in the config file).`
            : stats
              ? `No .lua files (nor Go, Python, Ruby, PHP, Java, C#, JS or TS files) were found in the directory "${pattern}".${skippedFolders(skippedLinks, options.cwd)}`
              : isDynamicPattern(pattern)
                ? `No files matching the pattern "${pattern}" were found.${skippedFolders(skippedLinks, options.cwd)}`
                : `No such file or directory: "${pattern}".`,
        );
      }
    }
    // Within one pattern, a file reached through a symbolic link yields to its real path.
    const byIdentity = new Map<string, string>();
    for (const file of matches) {
      const identity = await realpath(file).catch(() => file);
      if (seen.has(identity)) continue;
      const kept = byIdentity.get(identity);
      if (kept === undefined || (kept !== identity && file === identity)) byIdentity.set(identity, file);
    }
    for (const [identity, file] of byIdentity) {
      seen.add(identity);
      targets.push({ kind: 'file', path: file });
    }
  }
  return targets;
}

/** The symbolic links among `links` that lead to a folder (a walk does not follow them), sorted. */
function linkedFolders(links: readonly string[]): string[] {
  return links
    .filter((link) => {
      try {
        return statSync(link).isDirectory();
      } catch {
        return false; // a dangling link
      }
    })
    .sort();
}

/** The sentence that names the folders a walk left out because a symbolic link leads to them ('' when none). */
function skippedFolders(links: readonly string[], cwd: string): string {
  if (links.length === 0) return '';
  const shown = links.slice(0, 3).map((link) => `"${path.relative(cwd, link) || link}"`);
  const more = links.length > 3 ? ` and ${links.length - 3} more` : '';
  return ` Symbolic links to folders are not followed (a link back up the tree would be walked forever): ${shown.join(', ')}${more} ${links.length === 1 ? 'was' : 'were'} skipped; name a link on the command line to lint the folder it leads to.`;
}

/** On Windows a typed path may use `\`; elsewhere `\` escapes a glob character (`\[`). */
function globPattern(pattern: string): string {
  return process.platform === 'win32' ? pattern.replaceAll('\\', '/') : pattern;
}

function globOptions(cwd: string) {
  return { cwd, absolute: true, dot: true, onlyFiles: true, expandDirectories: false, followSymbolicLinks: false, ignore: [...DEFAULT_IGNORES] };
}

/** The text of a source file, or why it cannot be Lua. */
export type SourceText = { ok: true; text: string } | { ok: false; reason: string };

/**
 * Decodes a file's bytes as UTF-8: a byte-order mark is kept, so that the analysis reports it as the
 * parse error Redis gives (Redis hands the script's bytes to Lua as they are); invalid sequences
 * become U+FFFD, one per bad byte, so lines and columns stay where an editor shows them. A file
 * with NUL bytes is not Lua source (a host-language file, `filePath` with a `.js`, `.py` ...
 * extension, is said to be binary: it is no Lua file to begin with).
 */
export function decodeSource(bytes: Uint8Array, filePath?: string): SourceText {
  if (bytes.includes(0)) {
    // a host-language file (`.js`, `.py`) is no Lua file either way: say what it is, binary
    const host = filePath === undefined ? undefined : hostLanguageOf(filePath);
    return {
      ok: false,
      reason:
        host === undefined
          ? 'Not a Lua source file: it contains NUL bytes (binary data?).'
          : `Not a text file: it contains NUL bytes (binary data, not ${path.extname(filePath!)} source?), so no Lua script embedded in it was looked for.`,
    };
  }
  return { ok: true, text: new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes) };
}

/** A file's bytes, or why it can not be read (a sentence). */
export type SourceBytes = { ok: true; bytes: Uint8Array } | { ok: false; reason: string };

/**
 * Reads a file to lint, synchronously: the CLI lints one file after the other, and an awaited
 * read per file left the process idle between files (41% of a 6,226-file run). A file that can
 * not be read is not the end of the run: the reason comes back, to be reported as that file's one
 * finding while the other files are linted. A name that is not valid UTF-8 (Linux names are
 * bytes; a directory walk decodes them as UTF-8, each bad byte becoming U+FFFD) names no file
 * that can be opened: the reason says so and how to fix it.
 */
export function readSourceFile(filePath: string): SourceBytes {
  let fd: number | undefined;
  try {
    fd = openSync(filePath, 'r');
    const size = fstatSync(fd).size;
    if (size > MAX_SOURCE_BYTES) return { ok: false, reason: tooLarge(`it holds ${size} bytes`) };
    // a regular file is read in one go; a device or a pipe (`/dev/zero`, `<(cmd)`) reports no size
    // and is read until its end or the cap, whichever comes first
    const buffer = Buffer.allocUnsafe(Math.min(Math.max(size + 1, 1 << 16), MAX_SOURCE_BYTES + 1));
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const read = readSync(fd, buffer, 0, buffer.length, null);
      if (read === 0) break;
      total += read;
      if (total > MAX_SOURCE_BYTES) return { ok: false, reason: tooLarge(`more than ${MAX_SOURCE_BYTES} bytes were read from it`) };
      chunks.push(Buffer.from(buffer.subarray(0, read)));
    }
    return { ok: true, bytes: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, total) };
  } catch (error) {
    return { ok: false, reason: unreadableReason(filePath, error, 'file') };
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * The most bytes read from one file or from standard input: 64 MiB, far above a script or a
 * source file (the largest bundled host file of the benches is a few MB), and a bound on a
 * device that never ends (`lua-lint /dev/zero`).
 */
export const MAX_SOURCE_BYTES = 64 * 1024 * 1024;

/** Why a file over {@link MAX_SOURCE_BYTES} is not linted. */
function tooLarge(why: string): string {
  return `Not linted: ${why}, over the limit of ${MAX_SOURCE_BYTES} bytes (64 MiB) for one source file (a device such as /dev/zero never ends).`;
}

/** Why `where` (a file to read, a folder to list) could not be: a sentence that says what to do. */
function unreadableReason(where: string, error: unknown, what: 'file' | 'folder'): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'ENOENT' && where.includes('\ufffd')) {
    return what === 'file'
      ? 'Cannot read this file: its path is not valid UTF-8 (the bytes shown as \ufffd), so it can not be opened by the name the directory walk gives it. Rename it to UTF-8 (e.g. convmv -f latin1 -t utf8) to lint it.'
      : 'Cannot list this folder: its path is not valid UTF-8 (the bytes shown as \ufffd), so the files in it were not linted. Rename it to UTF-8 (e.g. convmv -f latin1 -t utf8) to lint them.';
  }
  return what === 'file'
    ? `Cannot read this file: ${describeFsError(error)}.`
    : `Cannot list this folder: ${describeFsError(error)}; the files in it were not linted.`;
}

/**
 * Reads a stream (standard input) to its end.
 * @throws CliError past {@link MAX_SOURCE_BYTES} (`lua-lint - < /dev/zero` ends, exit 2)
 */
export async function readStream(stream: AsyncIterable<string | Uint8Array>): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of stream) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : Buffer.from(chunk);
    total += bytes.length;
    if (total > MAX_SOURCE_BYTES) throw new CliError(`Standard input holds more than ${MAX_SOURCE_BYTES} bytes (64 MiB), the limit for one source file: not linted.`);
    chunks.push(bytes);
  }
  return Buffer.concat(chunks);
}
