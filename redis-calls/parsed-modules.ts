/**
 * A module of the code read from disk and parsed once per modification time, for the readings that
 * look into files other than the one being linted (`import-callers.ts`, `unreached-modules.ts`).
 * The linted file itself comes from ESLint's `sourceCode`, never from here.
 */
import { readFileSync } from 'node:fs';
import { extname } from 'node:path';
import { parse } from '@typescript-eslint/parser';
import type { TSESTree } from '@typescript-eslint/utils';
import { fileMemo } from './file-memo.js';

/** A module's text (as read, comments kept) and its AST (ranges into that text). */
export interface ParsedModule {
  text: string;
  program: TSESTree.Program;
}

/** A module's text, or `undefined` when it cannot be read; per modification time. */
export const moduleText = fileMemo((path): string | undefined => {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}, undefined);

/** Modules longer than this many characters are not parsed (a bundle or generated file): `'unparsable'`, as `modules.ts` skips them. */
const MAX_PARSED_CHARS = 1_000_000;

/** Parsed modules kept at once (an AST is large; `modules.ts` keeps as many). */
const MAX_PARSED_MODULES = 500;

/**
 * The module at `path` (absolute) parsed as an ES module, JSX allowed outside `.ts` / `.mts` /
 * `.cts`, with ranges; `'unreadable'` when it cannot be read and `'unparsable'` when it does not
 * parse or is longer than {@link MAX_PARSED_CHARS} characters (callers decide what that means:
 * conservatively, usually "it may do anything"). Kept per modification time (`file-memo.ts`), at
 * most {@link MAX_PARSED_MODULES} at once. Never throws.
 */
export const parsedModule = fileMemo((path): ParsedModule | 'unreadable' | 'unparsable' => {
  const text = moduleText(path);
  if (text === undefined) return 'unreadable';
  if (text.length > MAX_PARSED_CHARS) return 'unparsable';
  try {
    return { text, program: parse(text, { range: true, jsx: !/^\.[cm]?ts$/.test(extname(path)), sourceType: 'module', comment: false }) };
  } catch {
    return 'unparsable';
  }
}, 'unreadable', MAX_PARSED_MODULES);
