/**
 * A factory's configured key prefix spelled by its default (round 42, the fortieth held-out set's
 * node-quartz, now tuning): `function create(options) { options = options || {}; const prefix =
 * options.prefix || 'quartz'; const k = (...parts) => [prefix].concat(parts).join(':'); ...
 * return { scheduleJob, close }; }` writes `quartz:q:<queue>:jobs`, which a declared
 * `quartz:q:*` names. Three readings make that spelling visible, each tested from its definition:
 * - a parameter given an empty default by assignment (`options = options || {}`, `??`, `||=`,
 *   `??=`) is still the caller's configuration (redis-calls/key-shape-syntax.ts factoryParameter);
 * - a factory may return functions it declares by name (`return { scheduleJob, close }`);
 * - `[prefix].concat(parts).join(':')` joins like `[prefix, ...parts].join(':')`
 *   (redis-calls/rest-arguments.ts joinedArrayItems).
 * Near misses: a parameter replaced by other data, a returned object of values only, a rest
 * parameter changed before the join, a `concat` on an array that is not written in place.
 */
import { describe, expect, it } from 'vitest';
import incrRule from '../../rules/incr-needs-expire-on-create.js';
import { keyShapes } from '../helpers/key-shapes.js';
import { ioredis, persistentSettings as persistent, runRule, untypedTester } from './tester.js';

/** A factory in node-quartz's shape: `defaulted` is the statement defaulting `options` (or none), `returned` what it returns. */
const factory = (defaulted: string, returned = '{ scheduleJob, close }', builder = "(...parts) => [prefix].concat(parts).join(':')") =>
  [
    'function create(options) {',
    `  ${defaulted}`,
    "  const prefix = options.prefix || 'quartz';",
    `  const k = ${builder};`,
    "  const jobKey = (id) => k('jobs', id);",
    "  function scheduleJob(job) { probe(jobKey(job.id)); probe(k('defs:index')); }",
    '  const close = () => {};',
    `  return ${returned};`,
    '}',
    'module.exports = create;',
  ].join('\n');

describe("a factory's configured prefix", () => {
  it('spells the prefix by its default when the parameter is only given an empty default', () => {
    for (const defaulted of ['options = options || {};', 'options = options ?? {};', 'options ||= {};', 'options ??= {};', '']) {
      expect(keyShapes(factory(defaulted)), defaulted).toEqual(['quartz:jobs:* many', 'quartz:defs:index one']);
    }
  });

  it('leaves the prefix unspelled when the parameter is replaced by something else', () => {
    expect(keyShapes(factory('options = loadOptions(options);'))).toEqual(['*:jobs:* many', '*:defs:index many']);
    expect(keyShapes(factory("options = options || { prefix: 'other' };"))).toEqual(['*:jobs:* many', '*:defs:index many']);
    expect(keyShapes(factory('other = options || {};'))).toEqual(['quartz:jobs:* many', 'quartz:defs:index one']);
  });

  it('takes an object of functions the factory declares, by name, for the instance it makes', () => {
    expect(keyShapes(factory('', '{ scheduleJob }'))).toEqual(['quartz:jobs:* many', 'quartz:defs:index one']);
    expect(keyShapes(factory('', '{ close, size: 1 }'))).toEqual(['quartz:jobs:* many', 'quartz:defs:index one']);
    // values only, or a function declared elsewhere: no instance, the option may be data
    expect(keyShapes(factory('', '{ size: 1, prefix }'))).toEqual(['*:jobs:* many', '*:defs:index many']);
    expect(keyShapes(factory('', '{ log }').replace('module.exports', 'function log() {}\nmodule.exports'))).toEqual(['*:jobs:* many', '*:defs:index many']);
  });

  it("joins an array literal's concat like the array with the arguments spread in", () => {
    expect(keyShapes(factory('', undefined, "(...parts) => [prefix, ...parts].join(':')"))).toEqual(['quartz:jobs:* many', 'quartz:defs:index one']);
    const code = [
      "const p = 'app';",
      "probe([p].concat(['user', id]).join(':'));",
      "probe([p].concat('user', id).join(':'));",
      "probe([p, 'a'].concat('b').concat(['c']).join('/'));",
      'function k(prefix, ...parts) { return [prefix].concat(parts).join(":"); }',
      "probe(k('quartz', 'jobs'));",
    ].join('\n');
    expect(keyShapes(code)).toEqual(['app:user:* many', 'app:user:* many', 'app/a/b/c one', 'quartz:jobs one']);
  });

  it('leaves a concat unread when its parts are changed first or its receiver is not written in place', () => {
    const code = [
      'function k(prefix, ...parts) { parts.push(Date.now()); return [prefix].concat(parts).join(":"); }',
      "probe(k('quartz', 'jobs'));",
      "function j(prefix, ...parts) { return base.concat(parts).join(':'); }",
      "probe(j('quartz', 'jobs'));",
    ].join('\n');
    expect(keyShapes(code)).toEqual(['*quartz*jobs* one', '*quartz*jobs* one']);
  });
});

const hint = (key: string) => ` Kept forever on purpose? Add '${key}' to settings['redis-ttl'].persistentKeys.`;
/** node-quartz's queue push on an ioredis client: `body` after the client's two lines. */
const quartz = (defaulted: string) =>
  ioredis(
    [
      'export function create(options) {',
      `  ${defaulted}`,
      "  const prefix = options.prefix || 'quartz';",
      "  const k = (...parts) => [prefix].concat(parts).join(':');",
      "  async function addJob(job) { await redis.rpush(k('runs', job.id), JSON.stringify(job)); }",
      '  return { addJob };',
      '}',
    ].join('\n'),
  );

/** The suggestion on {@link quartz}'s RPUSH: send it and its EXPIRE in one MULTI. */
const inMulti = (code: string) => [
  {
    messageId: 'wrapInMulti' as const,
    data: { command: 'RPUSH', expire: "expire(k('runs', job.id), TTL_SECONDS)", declare: '; declare TTL_SECONDS with the TTL this key needs' },
    output: code.replace(
      "redis.rpush(k('runs', job.id), JSON.stringify(job))",
      "redis.multi().rpush(k('runs', job.id), JSON.stringify(job)).expire(k('runs', job.id), TTL_SECONDS).exec()",
    ),
  },
];

runRule(untypedTester, 'incr-needs-expire-on-create (a factory prefix spelled by its default)', incrRule, {
  valid: [{ code: quartz('options = options || {};'), settings: persistent('quartz:runs:*') }],
  invalid: [
    // the pattern is what exempts it: without one, the spelled key is reported with its hint
    {
      code: quartz('options = options || {};'),
      errors: [{ messageId: 'noExpiry', line: 7, column: 44, data: { command: 'RPUSH', key: 'quartz:runs:*', hint: hint('quartz:runs:*'), client: '' }, suggestions: inMulti(quartz('options = options || {};')) }],
    },
    // options replaced by data: the prefix is not the default the pattern names
    {
      code: quartz('options = { ...defaults(), ...options };'),
      settings: persistent('quartz:runs:*'),
      errors: [{ messageId: 'noExpiry', line: 7, column: 44, data: { command: 'RPUSH', key: '*:runs:*', hint: hint('*:runs:*'), client: '' }, suggestions: inMulti(quartz('options = { ...defaults(), ...options };')) }],
    },
  ],
});

/**
 * A returned shorthand is a function the factory declares only when it still names that
 * declaration where it is returned (breaker42): a declared function replaced by a value
 * (`hit = opts.hit`) or shadowed by a block's `const hit = opts.n` returns data, so the function is
 * no factory and `opts.id` is no configuration: `a:<id>` is a counter per id, reported.
 */
const counter = (lines: string[]) => ioredis(['export async function mk(opts) {', ...lines, '}'].join('\n'));
const replaced = counter(['  function hit() {}', '  hit = opts.hit;', "  await redis.incr('a:' + opts.id);", '  return { hit };']);
/** The suggestion on the INCR of {@link counter}: send it and its EXPIRE in one MULTI. */
const incrInMulti = (code: string) => [
  {
    messageId: 'wrapInMulti' as const,
    data: { command: 'INCR', expire: "expire('a:' + opts.id, TTL_SECONDS)", declare: '; declare TTL_SECONDS with the TTL this key needs' },
    output: code.replace("redis.incr('a:' + opts.id)", "redis.multi().incr('a:' + opts.id).expire('a:' + opts.id, TTL_SECONDS).exec()"),
  },
];
const shadowed = counter(['  function hit() {}', "  await redis.incr('a:' + opts.id);", '  if (opts.n) { const hit = opts.n; return { hit }; }', '  return null;']);

runRule(untypedTester, 'incr-needs-expire-on-create (a returned name that no longer names a declared function)', incrRule, {
  valid: [
    // near misses: the declared function itself, a const arrow or a function declaration never written again
    counter(['  const hit = () => 1;', "  await redis.incr('a:' + opts.id);", '  return { hit };']),
    counter(['  function hit() {}', "  await redis.incr('a:' + opts.id);", '  if (opts.n) { const other = opts.n; return { hit, other }; }', '  return null;']),
  ],
  invalid: [
    { code: replaced, errors: [{ messageId: 'noExpiry', line: 6, column: 15, data: { command: 'INCR', key: 'a:*', hint: hint('a:*'), client: '' }, suggestions: incrInMulti(replaced) }] },
    { code: shadowed, errors: [{ messageId: 'noExpiry', line: 5, column: 15, data: { command: 'INCR', key: 'a:*', hint: hint('a:*'), client: '' }, suggestions: incrInMulti(shadowed) }] },
  ],
});

/**
 * A factory called with what a function receives from its own callers (breaker42): `forUser(req.body)`
 * in a route handler makes one instance per request, its "options" a user's data, so `hits:<id>`
 * piles up and stays reported. Near miss: the same factory set up once with the program's
 * configuration keeps its reading (the key is the instance's one counter).
 */
const perUser = (call: string) =>
  ioredis(['export function forUser(user) {', '  user = user || {};', "  const id = user.id || 'anon';", "  async function hit() { await redis.incr('hits:' + id); }", '  return { hit };', '}', call].join('\n'));
const perRequest = perUser("app.post('/hit', (req) => forUser(req.body).hit());");
const hitInMulti = (code: string) => [
  {
    messageId: 'wrapInMulti' as const,
    data: { command: 'INCR', expire: "expire('hits:' + id, TTL_SECONDS)", declare: '; declare TTL_SECONDS with the TTL this key needs' },
    output: code.replace("redis.incr('hits:' + id)", "redis.multi().incr('hits:' + id).expire('hits:' + id, TTL_SECONDS).exec()"),
  },
];

runRule(untypedTester, "incr-needs-expire-on-create (a factory called with its caller's data)", incrRule, {
  valid: [
    perUser('const counter = forUser(config);\nexport default counter;'),
    // a wrapper's own configuration parameter is configuration, not a request's data (lead, round 42)
    perUser('export function init(settings) { return forUser(settings.counter); }'),
  ],
  invalid: [
    { code: perRequest, errors: [{ messageId: 'noExpiry', line: 6, column: 38, data: { command: 'INCR', key: 'hits:*', hint: hint('hits:*'), client: '' }, suggestions: hitInMulti(perRequest) }] },
    // Koa's context: ctx.request.body, as request input
    {
      code: perUser('router.post(\'/hit\', async (ctx) => forUser(ctx.request.body).hit());'),
      errors: [
        {
          messageId: 'noExpiry',
          line: 6,
          column: 38,
          data: { command: 'INCR', key: 'hits:*', hint: hint('hits:*'), client: '' },
          suggestions: hitInMulti(perUser('router.post(\'/hit\', async (ctx) => forUser(ctx.request.body).hit());')),
        },
      ],
    },
  ],
});
