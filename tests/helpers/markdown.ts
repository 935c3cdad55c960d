/**
 * What the docs tests need to read Markdown as GitHub renders it: the anchors of a page's headings,
 * its link targets, and whether a link (relative, or into this repository on GitHub) leads to a
 * file and heading that exist.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { ROOT } from './build.js';

/** The repository on GitHub (as package.json and cli/package-info.ts name it). */
export const REPOSITORY = 'https://github.com/eslint-plugin-redis-ttl/eslint-plugin-redis-ttl';

/**
 * The anchors GitHub gives the headings of a page: lower case, every character that is not a
 * letter, digit, space, `-` or `_` dropped, spaces turned into `-`; a repeated anchor gets `-1`,
 * `-2`, ... Headings inside fenced code blocks are not headings.
 */
export function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of markdown.replace(/^```[\s\S]*?^```/gm, '').split('\n')) {
    const heading = /^#{1,6} +(.*?) *#* *$/.exec(line);
    if (!heading) continue;
    const base = heading[1]!
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\p{M} _-]/gu, '')
      .replace(/ /g, '-');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

/** The link targets of a page, outside code blocks and inline code. */
export function linksOf(markdown: string): string[] {
  const text = markdown.replace(/^```[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, '``');
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)].map((match) => match[1]!);
}

/** Why a link of `page` is dead, or undefined when it leads somewhere. */
export function deadLink(page: string, target: string): string | undefined {
  let path: string;
  let fragment: string | undefined;
  const own = new RegExp(`^${REPOSITORY.replace(/[.]/g, '\\.')}/(?:blob|tree)/[^/]+/([^#]*)(?:#(.*))?$`).exec(target);
  if (own) {
    path = own[1]!.replace(/\/$/, '');
    fragment = own[2];
  } else if (/^[a-z]+:/i.test(target)) {
    return undefined; // another site: not checked here
  } else {
    const [file, hash] = target.split('#', 2) as [string, string | undefined];
    path = file === '' ? page : relative(ROOT, join(ROOT, dirname(page), file));
    fragment = hash;
  }
  const absolute = join(ROOT, path);
  if (!existsSync(absolute)) return `${target}: no file ${path}`;
  if (fragment === undefined || !path.endsWith('.md') || statSync(absolute).isDirectory()) return undefined;
  if (!anchorsOf(readFileSync(absolute, 'utf8')).has(fragment)) return `${target}: ${path} has no heading #${fragment}`;
  return undefined;
}
