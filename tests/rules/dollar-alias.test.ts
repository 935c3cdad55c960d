/**
 * Import paths that start with `$` (the round-39 validation set's SvelteKit-style server: `$lib/db`,
 * `$config`, tsconfig `paths` aliases that SvelteKit and Bun projects write): a specifier like any
 * other. The text filters of the file-level evidence (`importSpecifiers`, read by the modules that
 * pass a client on and by the bench's file selection) dropped every specifier holding a `$`, to
 * skip template substitutions (`import(\`./${name}\`)`), so a module reaching its client only
 * through a `$` alias was never linted.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { importSpecifiers } from '../../redis-calls/importers.js';
import { makesOrPassesClient, mayPassOnClient } from '../../redis-calls/passed-on-clients.js';
import incrRule from '../../rules/incr-needs-expire-on-create.js';
import { noExpiryWithMulti, runRule, untypedTester } from './tester.js';

/** tests/fixtures/dollar-alias: `$lib/*` is lib/*.ts, `$config` is lib/config.ts; lib/index.ts passes lib/db.ts's client on. */
const fixture = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'dollar-alias');
const route = join(fixture, 'routes', 'views.ts');

describe('importSpecifiers with `$`', () => {
  it('keeps a `$` of the path and drops a substitution', () => {
    const text = "import { db } from '$lib/db';\nimport { prefix } from \"$config\";\nconst m = await import(`$lib/${name}`);\nconst n = require('./a$b');\nexport * from `./${x}/y`;\n";
    expect(importSpecifiers(text)).toEqual(['$lib/db', '$config', './a$b']);
  });
});

describe('mayPassOnClient through `$` aliases', () => {
  it('follows a module that passes on a client imported through `$lib/...`', () => {
    expect(mayPassOnClient(route, '$lib/index', makesOrPassesClient)).toBe(true);
  });
  it('a `$` alias to a module that makes or passes on no client stays without evidence', () => {
    expect(mayPassOnClient(route, '$config', makesOrPassesClient)).toBe(false);
  });
});

const viaIndex = "import { db as store } from '$lib/index';\nexport async function view(id: string) { await store.incr(`views:${id}`); }";
const viaConfig = "import { prefix as store } from '$config';\nexport async function view(id: string) { await store.incr(`views:${id}`); }";

runRule(untypedTester, 'incr-needs-expire-on-create (a client reached through a `$` alias)', incrRule, {
  valid: [
    // the alias leads to a module without a client: the receiver stays unknown
    { code: viaConfig, filename: route },
  ],
  invalid: [{ code: viaIndex, filename: route, errors: [noExpiryWithMulti(viaIndex, 'incr(`views:${id}`)', '`views:${id}`', 'store')] }],
});
