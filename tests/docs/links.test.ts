/**
 * Every link of the repository's Markdown pages leads somewhere: a relative link (and a link to this
 * repository on GitHub, `.../blob/<ref>/<path>` or `.../tree/<ref>/<path>`) names a file or folder
 * that exists, and its `#fragment`, when it has one and the target is Markdown, names a heading of
 * that page. The README is an entrance to pages in docs/; a moved section must not leave a dead
 * link behind. (The consumer test checks the same for the files inside each tarball.)
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/build.js';

const REPOSITORY = 'https://github.com/eslint-plugin-redis-ttl/eslint-plugin-redis-ttl';

/** The Markdown pages users read: the READMEs, the changelogs and docs/. */
function pages(): string[] {
  const found = ['README.md', 'CHANGELOG.md', 'runtime/README.md', 'runtime/CHANGELOG.md', 'examples/app/README.md', 'examples/scripts/README.md'];
  for (const entry of readdirSync(join(ROOT, 'docs'), { recursive: true, withFileTypes: true })) {
    if (entry.isFile() && entry.name.endsWith('.md')) found.push(relative(ROOT, join(entry.parentPath, entry.name)));
  }
  return found.filter((page) => existsSync(join(ROOT, page))).sort();
}

/**
 * The anchors GitHub gives the headings of a page: lower case, every character that is not a
 * letter, digit, space, `-` or `_` dropped, spaces turned into `-`; a repeated anchor gets `-1`,
 * `-2`, ... Headings inside fenced code blocks are not headings.
 */
function anchorsOf(markdown: string): Set<string> {
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
function linksOf(markdown: string): string[] {
  const text = markdown.replace(/^```[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, '``');
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)].map((match) => match[1]!);
}

/** Why a link of `page` is dead, or undefined when it leads somewhere. */
function deadLink(page: string, target: string): string | undefined {
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

describe('links of the Markdown pages', () => {
  const all = pages();

  it('covers the README, the docs and the runtime README', () => {
    for (const page of ['README.md', 'runtime/README.md', 'docs/configuration.md', 'docs/lua-lint.md', 'docs/rules/no-getset.md']) expect(all).toContain(page);
  });

  it.each(all)('%s: every relative link and every link into this repository resolves, with its #anchor', (page) => {
    const links = linksOf(readFileSync(join(ROOT, page), 'utf8'));
    expect(links.map((target) => deadLink(page, target)).filter((dead) => dead !== undefined)).toEqual([]);
  });

  it('finds dead links and anchors (the check itself)', () => {
    expect(deadLink('README.md', 'docs/nope.md')).toBe('docs/nope.md: no file docs/nope.md');
    expect(deadLink('README.md', 'docs/lua-lint.md#nope')).toBe('docs/lua-lint.md#nope: docs/lua-lint.md has no heading #nope');
    expect(deadLink('README.md', 'docs/lua-lint.md#exit-codes')).toBeUndefined();
    expect(deadLink('docs/lua-lint.md', '../README.md#install')).toBeUndefined();
    expect(deadLink('README.md', `${REPOSITORY}/blob/main/runtime/README.md#outage-policy`)).toBeUndefined();
    expect(deadLink('README.md', `${REPOSITORY}/blob/main/runtime/nope.ts`)).toBe(`${REPOSITORY}/blob/main/runtime/nope.ts: no file runtime/nope.ts`);
    expect(anchorsOf('# A\n## Fixes: `eslint --fix` removes the leak\n## CI: --fail-on-persistent\n## A\n```\n# not a heading\n```\n')).toEqual(
      new Set(['a', 'fixes-eslint---fix-removes-the-leak', 'ci---fail-on-persistent', 'a-1']),
    );
  });
});
