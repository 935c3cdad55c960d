/**
 * A member other code stores a client in (round 31): `req.redisClient` of an Express handler,
 * `ctx.redis`, is a client by its name, and the files of its package tell its library, as they do
 * for a global (`redis-calls/global-clients.ts`): an assignment of a client to that member of any
 * object (`req.redisClient = await getRedisClient()` in the middleware that attaches it), or calls
 * on it in one client's syntax (`ctx.redis.hSet(...)`: node-redis 4+). Then `'EX', seconds` given
 * to a node-redis client through `req.redisClient` is reported: node-redis drops it and the key is
 * kept for ever (the missed leaks of a tuning application, `Luykin/luykin-chaineye-service`).
 * Unknown library (no evidence, or two libraries for one member name), a member of `this`, or a
 * weak default name (`req.client`): read as before, nothing the client would drop is reported.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import validTtlArgs from '../../rules/valid-ttl-args.js';
import { runRule, untypedTester } from './tester.js';

const fixtures = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'member-clients');
/** An Express app whose middleware (src/server.js) sets `req.redisClient` to its node-redis client. */
const express = join(fixtures, 'express-app', 'src', 'routes.js');
/** An app calling `ctx.redis.hSet(...)` (src/presence.js): node-redis 4+ by its syntax. */
const ctxApp = join(fixtures, 'ctx-app', 'src', 'cache.js');
/** An app whose middleware sets `req.redisClient` to an ioredis client. */
const ioredisApp = join(fixtures, 'ioredis-app', 'src', 'routes.js');
/** One member name holding an ioredis client in one module and a node-redis one in another. */
const twoLibs = join(fixtures, 'two-libs', 'src', 'routes.js');
/** `req.redisClient` read, never stored nor called in one client's syntax. */
const noEvidence = join(fixtures, 'no-evidence', 'src', 'routes.js');

const handler = (call: string): string => `async function cache(req, res) {\n  ${call}\n}\nmodule.exports = { cache };`;

/** The positionalTokens finding of `'EX'` at line 2, column `column`, and its suggestion's code. */
const positional = (column: number, output: string) => ({
  messageId: 'positionalTokens' as const,
  line: 2,
  column,
  suggestions: [{ messageId: 'useOptionsObject' as const, output }],
});

runRule(untypedTester, 'valid-ttl-args (a member the package stores a client in)', validTtlArgs, {
  valid: [
    // the options object node-redis reads
    { code: handler('await req.redisClient.set(`page:${req.path}`, body, { EX: 1200 });'), filename: express },
    // ioredis stored in the member: the tokens are sent as written
    { code: handler("await req.redisClient.set(`page:${req.path}`, body, 'EX', 1200);"), filename: ioredisApp },
    // two libraries for one member name, or no evidence: the library stays unknown
    { code: handler("await req.redisClient.set(`page:${req.path}`, body, 'EX', 1200);"), filename: twoLibs },
    { code: handler("await req.redisClient.set(`page:${req.path}`, body, 'EX', 1200);"), filename: noEvidence },
    // a weak default name is not looked up: `client` of another object may be anything
    { code: handler("await req.client.set(`page:${req.path}`, body, 'EX', 1200);"), filename: express },
    // round 32: an alias of the member on the ioredis app sends the tokens as written; an alias
    // of a member that is no client (`req.body`), or of a weak name (`req.client`), is no client
    { code: handler("const r = req.redisClient;\n  await r.set(`page:${req.path}`, body, 'EX', 1200);"), filename: ioredisApp },
    { code: handler("const { redisClient } = req;\n  await redisClient.set(`page:${req.path}`, body, 'EX', 1200);"), filename: noEvidence },
    { code: handler("const r = req.body;\n  await r.set(`page:${req.path}`, body, 'EX', 1200);"), filename: express },
    { code: handler("const { client } = req;\n  await client.set(`page:${req.path}`, body, 'EX', 1200);"), filename: express },
    // a member of `this` is its class's matter, not the package's store
    {
      code: "class PageCache {\n  async put(path, body) {\n    await this.redisClient.set(`page:${path}`, body, 'EX', 1200);\n  }\n}\nmodule.exports = { PageCache };",
      filename: express,
    },
  ],
  invalid: [
    // the missed leak: the middleware stored node-redis in req.redisClient
    {
      code: handler("await req.redisClient.set(`page:${req.path}`, body, 'EX', 1200);"),
      filename: express,
      errors: [positional(55, handler('await req.redisClient.set(`page:${req.path}`, body, { EX: 1200 });'))],
    },
    // optional chaining and a deeper object: still the member the package stores the client in
    {
      code: handler("await res.locals.redisClient?.set('page:home', body, 'EX', 60);"),
      filename: express,
      errors: [positional(56, handler("await res.locals.redisClient?.set('page:home', body, { EX: 60 });"))],
    },
    // round 32: a `const` holding the member (`const r = req.redisClient`), destructured from its
    // object (`const { redisClient } = req`, renamed, from `res.locals`) is the same client
    {
      code: handler("const r = req.redisClient;\n  await r.set(`page:${req.path}`, body, 'EX', 1200);"),
      filename: express,
      errors: [{ ...positional(41, handler('const r = req.redisClient;\n  await r.set(`page:${req.path}`, body, { EX: 1200 });')), line: 3 }],
    },
    {
      code: handler("const { redisClient } = req;\n  await redisClient.set(`page:${req.path}`, body, 'EX', 1200);"),
      filename: express,
      errors: [{ ...positional(51, handler('const { redisClient } = req;\n  await redisClient.set(`page:${req.path}`, body, { EX: 1200 });')), line: 3 }],
    },
    {
      code: handler("const { redisClient: cache } = res.locals;\n  await cache.set('page:home', body, 'EX', 60);"),
      filename: express,
      errors: [{ ...positional(38, handler("const { redisClient: cache } = res.locals;\n  await cache.set('page:home', body, { EX: 60 });")), line: 3 }],
    },
    // node-redis by the calls the package makes on ctx.redis (src/presence.js)
    {
      code: handler("await req.ctx.redis.set(`page:${req.path}`, body, 'PX', 60000);"),
      filename: ctxApp,
      errors: [positional(53, handler('await req.ctx.redis.set(`page:${req.path}`, body, { PX: 60000 });'))],
    },
  ],
});
