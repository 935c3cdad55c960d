/**
 * Settings read by many names (breaker41): a file that reads many names with `.get('<name>')`
 * (`config.get('k1')` ... of node-config), none stored as a setting anywhere, in a package of many
 * files, reports nothing, and a name the package stores is still its client (near miss). The
 * names a package may store, and the files storing each, are read once per package
 * (global-clients.ts settingNamesOf); the time it saves is not asserted here (no timed unit tests).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Linter } from 'eslint';
import { afterAll, describe, expect, it } from 'vitest';
import plugin from '../../rules/index.js';

const root = mkdtempSync(join(tmpdir(), 'setting-names-'));
mkdirSync(join(root, 'src'));
writeFileSync(join(root, 'package.json'), JSON.stringify({ name: 'setting-names', private: true, dependencies: { express: '^5.1.0', redis: '^5.5.0' } }));
for (let i = 0; i < 2000; i++) writeFileSync(join(root, 'src', `m${i}.js`), `const config = require('config');\nmodule.exports = () => config.get('k${i}');\n`);
writeFileSync(join(root, 'src', 'server.js'), "const express = require('express');\nconst { createClient } = require('redis');\nconst app = express();\napp.set('cache', createClient());\nmodule.exports = app;\n");
afterAll(() => rmSync(root, { recursive: true, force: true }));

function lint(code: string, name: string) {
  const linter = new Linter({ configType: 'flat', cwd: '/' });
  return linter.verify(code, [{ files: ['**/*.js'], languageOptions: { sourceType: 'commonjs' }, plugins: { 'redis-ttl': plugin as never }, rules: { 'redis-ttl/valid-ttl-args': 'error' } }], join(root, 'src', name));
}

describe('settings read by many names', () => {
  // how long it takes is the bench's to measure, not a test's (the commit messages of 26c4570 and
  // its follow-up give the figures): here, what the file reports
  it('a file reading 1,000 names nobody stores reports nothing', () => {
    const code = `const config = require('config');\n${Array.from({ length: 1000 }, (_, i) => `exports.v${i} = config.get('name${i}');`).join('\n')}\n`;
    expect(lint(code, 'many.js')).toEqual([]);
  }, 120_000);

  it('a name the package stores is still its client', () => {
    const code = "async function page(req, body) {\n  await req.app.get('cache').set(`page:${req.path}`, body, 'EX', 300);\n}\nmodule.exports = { page };\n";
    expect(lint(code, 'routes.js').map((m) => [m.messageId, m.line, m.column])).toEqual([['positionalTokens', 2, 60]]);
  });
});
