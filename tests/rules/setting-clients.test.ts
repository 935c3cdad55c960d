/**
 * A client kept in a framework's settings (round 41): when the package stores a Redis client under
 * a string name with `<x>.set('<name>', client)` (Express's `app.set('redis', client)`, Hono's
 * `c.set('redis', client)`) or `<x>.locals.<name> = client`, then `<any>.get('<name>')` (the same
 * name, a literal) and `<any>.locals.<name>` are that client, untyped too, also through a helper
 * of another module that returns it (`exports.cacheOf = (req) => req.app.get('cache')`) and a
 * client made by a function of a required module (`await connection.open()`). So node-redis'
 * ignored positional `'EX', seconds` is reported there (the missed leaks of the tuning application
 * codewithhbs/dr-rajneesh), and a plain SET on it. A `get('<name>')` of a name nobody stores a
 * client under is not a client by that store; an ioredis client stored there sends the tokens.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import validTtlArgs from '../../rules/valid-ttl-args.js';
import setRule from '../../rules/set-requires-ttl-or-keepttl.js';
import { runRule, untypedTester } from './tester.js';

const fixtures = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'setting-clients');
/** node-redis 5 stored with `app.set('cache', conn)` and `app.locals.sessions = conn` (src/server.js). */
const express = join(fixtures, 'express-app', 'src', 'routes.js');
/** ioredis stored with `app.set('cache', new Redis())`. */
const ioredisApp = join(fixtures, 'ioredis-app', 'src', 'routes.js');
/** node-redis 4 stored with `c.set('redis', shared)` in a Hono middleware (an ES module package). */
const hono = join(fixtures, 'hono-app', 'src', 'routes.js');
/** node-redis 4 with `legacyMode: true` stored with `app.set('cache', client)`: it sends the tokens as written. */
const legacyApp = join(fixtures, 'legacy-app', 'src', 'routes.js');
/** `app.set('cache', new Map())`: no client stored under any name. */
const noStore = join(fixtures, 'no-store', 'src', 'routes.js');

const handler = (call: string): string => `async function page(req, res) {\n  ${call}\n}\nmodule.exports = { page };`;
const honoHandler = (call: string): string => `export const page = async (c) => {\n  ${call}\n};`;

/** The positionalTokens finding at line `line`, column `column`, and its suggestion's code. */
const positional = (line: number, column: number, output: string) => ({
  messageId: 'positionalTokens' as const,
  line,
  column,
  suggestions: [{ messageId: 'useOptionsObject' as const, output }],
});

runRule(untypedTester, 'valid-ttl-args (a client kept in a framework setting)', validTtlArgs, {
  valid: [
    // the options object node-redis reads
    { code: handler("await req.app.get('cache').set(`page:${req.path}`, body, { EX: 300 });"), filename: express },
    // a name nobody stores a client under, a name not written as a literal
    { code: handler("await req.app.get('pages').set(`page:${req.path}`, body, 'EX', 300);"), filename: express },
    { code: handler("await req.app.get(which).set(`page:${req.path}`, body, 'EX', 300);"), filename: express },
    { code: handler("await req.app.locals.pages.set(`page:${req.path}`, body, 'EX', 300);"), filename: express },
    // ioredis kept there sends the tokens as written
    { code: handler("await req.app.get('cache').set(`page:${req.path}`, body, 'EX', 300);"), filename: ioredisApp },
    // so does a legacy-mode node-redis client (breaker41)
    { code: handler("await req.app.get('cache').set(`page:${req.path}`, body, 'EX', 300);"), filename: legacyApp },
    // no client stored under the name: not a client by the store
    { code: handler("await req.app.get('cache').set(`page:${req.path}`, body, 'EX', 300);"), filename: noStore },
    // get('<name>') with a second argument is no read of a setting
    { code: handler("await req.app.get('cache', 1).set(`page:${req.path}`, body, 'EX', 300);"), filename: express },
  ],
  invalid: [
    {
      code: handler("await req.app.get('cache').set(`page:${req.path}`, body, 'EX', 300);"),
      filename: express,
      errors: [positional(2, 60, handler("await req.app.get('cache').set(`page:${req.path}`, body, { EX: 300 });"))],
    },
    {
      // through a helper of another module that returns `req.app.get('cache')`
      code: "const { cacheOf } = require('./helpers');\n" + handler("const conn = await cacheOf(req);\n  await conn.set(`page:${req.path}`, body, 'EX', 300);"),
      filename: express,
      errors: [positional(4, 44, "const { cacheOf } = require('./helpers');\n" + handler("const conn = await cacheOf(req);\n  await conn.set(`page:${req.path}`, body, { EX: 300 });"))],
    },
    {
      code: handler("await res.app.locals.sessions.set(`sess:${req.id}`, body, 'EX', 60);"),
      filename: express,
      errors: [positional(2, 61, handler("await res.app.locals.sessions.set(`sess:${req.id}`, body, { EX: 60 });"))],
    },
    {
      code: honoHandler("await c.get('redis').set(`page:${c.req.path}`, body, 'EX', 300);"),
      filename: hono,
      errors: [positional(2, 56, honoHandler("await c.get('redis').set(`page:${c.req.path}`, body, { EX: 300 });"))],
    },
  ],
});

/** The suggestions of a node-redis SET without expiry in `code` (an expiry of `TTL_SECONDS` to declare, then KEEPTTL): options after `, body`. */
const nodeRedisSuggestions = (code: string) => [
  { messageId: 'addExpiryPlaceholder' as const, output: code.replace(', body)', ', body, { EX: TTL_SECONDS })') },
  { messageId: 'addKeepTtl' as const, output: code.replace(', body)', ', body, { KEEPTTL: true })') },
];
const plainSet = handler("await req.app.get('cache').set(`page:${req.path}`, body);");
const localsSet = handler("await req.app.locals.sessions.set(`sess:${req.id}`, body);");

runRule(untypedTester, 'set-requires-ttl-or-keepttl (a client kept in a framework setting)', setRule, {
  valid: [
    { code: handler("await req.app.get('cache').set(`page:${req.path}`, body, { EX: 300 });"), filename: express },
    { code: handler("await req.app.get('cache').set(`page:${req.path}`, body);"), filename: noStore },
    { code: handler("await req.app.get('pages').set(`page:${req.path}`, body);"), filename: express },
  ],
  invalid: [
    {
      code: plainSet,
      filename: express,
      errors: [{ messageId: 'setWithoutTtl', line: 2, column: 30, suggestions: nodeRedisSuggestions(plainSet) }],
    },
    {
      code: localsSet,
      filename: express,
      errors: [{ messageId: 'setWithoutTtl', line: 2, column: 33, suggestions: nodeRedisSuggestions(localsSet) }],
    },
  ],
});
