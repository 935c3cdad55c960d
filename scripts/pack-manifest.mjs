#!/usr/bin/env node
/**
 * Keeps the `prepare` script out of the published package.json, and in the repository's.
 *
 * `prepare` builds the repository on `npm ci` (the README's quick start relies on it), but in a
 * tarball it is an install-time script: npm 11 warns "install scripts not yet covered by
 * allowScripts" for a package that has one. npm runs `prepack` before it reads the files to pack
 * and `postpack` after (https://docs.npmjs.com/cli/v11/using-npm/scripts#npm-pack), so:
 *
 *   node scripts/pack-manifest.mjs strip    package.json -> package.json.orig, then package.json
 *                                           without scripts.prepare (same order, 2-space indent)
 *   node scripts/pack-manifest.mjs restore  package.json.orig -> package.json
 *
 * `strip` refuses to run twice (a leftover package.json.orig means a pack that failed before its
 * postpack: run `restore` first). Exit code 2 with one line on standard error on any problem.
 */
import { copyFileSync, existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const manifest = path.join(root, 'package.json');
const backup = `${manifest}.orig`;

function fail(message) {
  process.stderr.write(`pack-manifest: ${message}\n`);
  process.exit(2);
}

const mode = process.argv[2];
if (mode === 'strip') {
  if (existsSync(backup)) fail(`${backup} exists: a pack stopped before its postpack; run "node scripts/pack-manifest.mjs restore" first.`);
  const text = readFileSync(manifest, 'utf8');
  const json = JSON.parse(text);
  copyFileSync(manifest, backup);
  if (json.scripts) delete json.scripts.prepare;
  writeFileSync(manifest, `${JSON.stringify(json, null, 2)}\n`);
} else if (mode === 'restore') {
  if (!existsSync(backup)) fail(`${backup} not found: nothing to restore.`);
  renameSync(backup, manifest);
} else {
  fail('usage: node scripts/pack-manifest.mjs strip|restore');
}
