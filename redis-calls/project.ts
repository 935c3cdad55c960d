/**
 * The package a linted file belongs to, read from disk: its root (the nearest directory above the
 * file holding a `package.json`), its source files, and whether it is an application or a library.
 * `redis-calls/facades.ts` needs them to tell a facade of an application whose callers can be
 * judged (some module of the package calls it) from one whose callers are out of reach.
 *
 * Listings are cached per root for {@link LISTING_TTL_MS} milliseconds (an editor's ESLint server
 * sees new files after that); a package of more than {@link MAX_FILES} source files is not listed.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileMemo } from './file-memo.js';

/** Source files a caller can be written in. */
const SOURCE_FILE = /\.(?:[cm]?[jt]s|[jt]sx)$/;
const DECLARATION_FILE = /\.d\.[cm]?ts$/;
/** Beyond this many source files a package is not scanned (its facades keep being judged at their callers). */
export const MAX_FILES = 5000;
/** How long a listing is reused, in milliseconds. */
export const LISTING_TTL_MS = 10_000;

/** A package on disk: its root directory and what its `package.json` says of it. */
export interface PackageInfo {
  root: string;
  /**
   * An application, which nobody imports: `"private": true`, or a package whose `main` is one of
   * its `bin` executables (a server shipped through npm). Anything else is a library (or cannot be
   * told from one): its modules may be called by code outside it.
   */
  application: boolean;
  /**
   * The manifest declares subpath imports (`"imports": { "#cache": "./src/cache.ts" }`,
   * https://nodejs.org/api/packages.html#subpath-imports): modules may be imported by a `#name`
   * the analysis does not resolve.
   */
  subpathImports: boolean;
}

const packages = new Map<string, PackageInfo | null>();

/**
 * The package the file at `file` (an absolute path) belongs to: the nearest directory above it
 * holding a `package.json` that is valid JSON. `undefined` when there is none.
 */
export function packageOf(file: string): PackageInfo | undefined {
  for (let dir = dirname(file); ; dir = dirname(dir)) {
    let info = packages.get(dir);
    if (info === undefined) {
      info = readPackage(dir);
      packages.set(dir, info);
    }
    if (info) return info;
    if (dirname(dir) === dir) return undefined;
  }
}

/**
 * The parsed `package.json` of the directory `dir` (absolute), as an object of its fields, or
 * `undefined` when there is none or it is not a JSON object. Kept per modification time
 * (`file-memo.ts`); callers must not change it.
 */
export function manifestOf(dir: string): Readonly<Record<string, unknown>> | undefined {
  return readManifest(join(dir, 'package.json'));
}

const readManifest = fileMemo((path): Readonly<Record<string, unknown>> | undefined => {
  try {
    const manifest = JSON.parse(readFileSync(path, 'utf8')) as unknown;
    return manifest && typeof manifest === 'object' && !Array.isArray(manifest) ? (manifest as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}, undefined);

function readPackage(dir: string): PackageInfo | null {
  const manifest = manifestOf(dir) as { private?: unknown; main?: unknown; bin?: unknown; imports?: unknown } | undefined;
  if (!manifest) return null;
  const bins = typeof manifest.bin === 'string' ? [manifest.bin] : manifest.bin && typeof manifest.bin === 'object' ? Object.values(manifest.bin) : [];
  const main = typeof manifest.main === 'string' ? resolve(dir, manifest.main) : undefined;
  const mainIsBin = main !== undefined && bins.some((bin) => typeof bin === 'string' && resolve(dir, bin) === main);
  return { root: dir, application: manifest.private === true || mainIsBin, subpathImports: manifest.imports !== undefined && manifest.imports !== null };
}

const listings = new Map<string, { at: number; files: string[] | null }>();

/**
 * The source files of the package at `root` (absolute paths; `node_modules`, hidden directories
 * and declaration files left out), or `undefined` when it has more than {@link MAX_FILES}.
 */
export function packageFiles(root: string): readonly string[] | undefined {
  const now = Date.now();
  const cached = listings.get(root);
  if (cached && now - cached.at < LISTING_TTL_MS) return cached.files ?? undefined;
  const files: string[] = [];
  const stack = [root];
  let tooMany = false;
  while (stack.length > 0 && !tooMany) {
    const dir = stack.pop()!;
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const entry of entries) {
      if (entry.name.startsWith('.') || entry.name === 'node_modules') continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        // a nested package is another package
        if (path !== root && existsSync(join(path, 'package.json'))) continue;
        stack.push(path);
      } else if (entry.isFile() && SOURCE_FILE.test(entry.name) && !DECLARATION_FILE.test(entry.name)) {
        files.push(path);
        if (files.length > MAX_FILES) tooMany = true;
      }
    }
  }
  listings.set(root, { at: now, files: tooMany ? null : files });
  return tooMany ? undefined : files;
}
