/**
 * Key text that lives in configuration (issue 25, round 8). (A) A key held in a member, nested
 * or not, of a configuration object of the module or of a module it imports (`const config =
 * require('../config')` built up at its top level with `config.queue = {...}` and exported with
 * `module.exports = config`; `exports.queue = {...}`; `module.exports = {...}`; `export const
 * config`; `export default {...}`; a destructured `const { queue } = require(...)`) is spelled, so
 * `persistentKeys` patterns and constant-key detection see its text. (B) A key named entirely by
 * the deployment's configuration (`process.env.X`, with or without a default, a module const or a
 * configuration member holding one) is one key per deployment: bounded like a constant key. (C) A
 * conditional between constant keys, or a template whose variable parts are such conditionals or
 * members of a const object of constants, is bounded. Near misses stay reported: a configuration
 * key builder given the call's data, an environment prefix beside a per-call id, a conditional
 * with an arm that is data, and a configuration object the module changes at run time.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import incrRule from '../../rules/incr-needs-expire-on-create.js';
import setRule from '../../rules/set-requires-ttl-or-keepttl.js';
import { describe, expect, it } from 'vitest';
import { keyShapes } from '../helpers/key-shapes.js';
import { ioredis, nodeRedis, runRule, untypedTester, persistentSettings as persistent } from './tester.js';

const fixtures = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'config-keys');
const cjsApp = join(fixtures, 'cjs', 'app.js');
const esmApp = join(fixtures, 'esm', 'app.ts');
const strict = [{ allowConstantKeys: false }] as const;
const at = (line: number, column: number) => ({ messageId: 'noExpiry' as const, line, column });

// (A) a CommonJS configuration built up at its top level, read through a namespace require
const queued = ioredis(
  "const config = require('./config');\nexport const retry = (address) => redis.sadd(config.queue.pendingAddresses.name, address);",
);
const balances = ioredis(
  "const config = require('./config');\nexport const schedule = (tokens) => redis.sadd(config.set.balanceUpdates.key, tokens);",
);
// a destructured member of it, one member further
const destructured = ioredis(
  "const { queue } = require('./config');\nexport const retry = (address) => redis.sadd(queue.pendingAddresses.name, address);",
);
// exports.queue = {...} and module.exports = {...}
const exportsMember = ioredis("const jobs = require('./exports');\nexport const push = (id) => redis.sadd(jobs.queue.pending.name, id);");
const exportsObject = ioredis("const cfg = require('./object');\nexport const push = (id) => redis.sadd(cfg.queue.retries.name, id);");
// ES modules: a named export and a default export
const named = ioredis("import { config } from './config';\nexport const push = (id: string) => redis.sadd(config.queue.pending.name, id);");
const defaulted = ioredis("import settings from './config';\nexport const push = (id: string) => redis.sadd(settings.set.balances.key, id);");
// a configuration object of the linted module itself
const local = ioredis(
  "const config = { queue: {} };\nconfig.queue.pending = { name: 'PendingJobs' };\nexport const push = (id: string) => redis.sadd(config.queue.pending.name, id);",
);

// (B) keys named by the deployment's configuration
const envKey = nodeRedis('export const add = (e: string) => client.xAdd(process.env.STREAM_NAME!, \'*\', { e }, { TRIM: { strategy: \'MAXLEN\', threshold: 1000 } });');
const envDefault = nodeRedis("export const add = (e: string) => client.xAdd(process.env.STREAM_NAME ?? 'events', '*', { e }, { TRIM: { strategy: 'MAXLEN', threshold: 1000 } });");
const envConst = nodeRedis("const STREAM = process.env.STREAM_NAME || 'events';\nexport const add = (e: string) => client.xAdd(STREAM, '*', { e }, { TRIM: { strategy: 'MAXLEN', threshold: 1000 } });");
const envConfig = ioredis("const config = require('./config');\nexport const add = (e) => redis.xadd(config.queue.stream.name, 'MAXLEN', '~', 1000, '*', 'e', e);");
const envExport = ioredis("const { stream } = require('./exports');\nexport const add = (e) => redis.xadd(stream, 'MAXLEN', '~', 1000, '*', 'e', e);");
const envTemplate = ioredis("export const add = (e: string) => redis.xadd(`${process.env.APP}:events`, 'MAXLEN', '~', 1000, '*', 'e', e);");

// (C) a choice between constant keys
const choice = ioredis("export const save = (full: boolean, fees: string) => redis.set(full ? 'fees:lastFull' : 'fees:lastQuick', fees);");
const choiceTemplate = ioredis("export const bump = (daily: boolean) => redis.incr(`hits:${daily ? 'day' : 'week'}:total`);");
const KINDS = "const KINDS = { full: 'full', quick: 'quick' };\n";
const memberTemplate = ioredis(`${KINDS}export const bump = () => redis.incr(\`fees:\${KINDS.full}\`);`);
const configChoice = ioredis(
  "const config = require('./config');\nexport const save = (full, fees) => redis.set(full ? config.cacheKeys.full : config.cacheKeys.quick, fees);",
);

// near misses: a configuration key builder given the call's data, an environment prefix beside
// a per-call id, a conditional with an arm that is data, a configuration the module changes at
// run time (here and in an imported module)
const builder = ioredis("const config = require('./config');\nexport const add = (id) => redis.sadd(config.keys.user(id), id);");
const envPrefix = ioredis('export const add = (id: string) => redis.sadd(`${process.env.PREFIX}:user:${id}`, id);');
const dataArm = ioredis("export const save = (full: boolean, id: string) => redis.incr(full ? 'fees:lastFull' : `fees:${id}`);");
const mutatedHere = ioredis(
  "const config = { queue: { pending: { name: 'PendingJobs' } } };\nexport function use(tenant: string) { config.queue.pending.name = `PendingJobs:${tenant}`; }\nexport const push = (id: string) => redis.sadd(config.queue.pending.name, id);",
);
const mutatedThere = ioredis("const { config } = require('./mutated');\nexport const push = (id) => redis.sadd(config.queue.pending.name, id);");

describe('keyShapeOf, keys held in configuration', () => {
  it('spells members of a configuration built up at its module\'s top level, required or destructured', () => {
    const code = [
      "const config = require('./config');\nconst { queue } = require('./config');",
      'probe(config.queue.pendingAddresses.name); probe(config.set.balanceUpdates.key); probe(queue.pendingAddresses.name); probe(config.endpoints.cache);',
      // (B) a member named by the environment, with its default; (C) a choice between two members
      'probe(config.queue.stream.name); probe(full ? config.cacheKeys.full : config.cacheKeys.quick);',
      // near misses: a builder given data, a member changed at run time
      "probe(config.keys.user(id));\nconst { config: changed } = require('./mutated'); probe(changed.queue.pending.name);",
    ].join('\n');
    expect(keyShapes(code, join(fixtures, 'cjs', 'app.ts'))).toEqual([
      'PendingAddressUpdates one',
      'AccountBalanceUpdate one',
      'PendingAddressUpdates one',
      'redis://localhost:6379/0 one',
      'events one',
      'fees:last* one',
      'users:* many',
      '* many',
    ]);
  });

  it('spells members of a named and of a default ES export', () => {
    const code = "import { config } from './config';\nimport settings from './config';\nprobe(config.queue.pending.name); probe(config.stream); probe(settings.set.balances.key);";
    expect(keyShapes(code, join(fixtures, 'esm', 'app.ts'))).toEqual(['PendingJobs one', 'events one', 'AccountBalanceUpdate one']);
  });

  it('bounds keys named by the environment and choices between constants, not beside data', () => {
    const code = [
      "const STREAM = process.env.STREAM_NAME || 'events';\nconst KINDS = { full: 'full', quick: 'quick' };\nconst FROZEN = Object.freeze({ queue: { name: 'jobs:pending' } });",
      'probe(FROZEN.queue.name);',
      "probe(process.env.STREAM_NAME); probe(process.env.STREAM_NAME ?? 'events'); probe(STREAM); probe(`${process.env.APP}:events`);",
      "probe(full ? 'fees:lastFull' : 'fees:lastQuick'); probe(`hits:${daily ? 'day' : 'week'}:total`); probe(`fees:${KINDS.full}`); probe(`fees:${KINDS[kind]}`);",
      "probe(`${process.env.PREFIX}:user:${id}`); probe(full ? 'fees:lastFull' : `fees:${id}`); probe(full ? 'fees:lastFull' : key);",
    ].join('\n');
    expect(keyShapes(code)).toEqual([
      'jobs:pending one',
      '* one',
      'events one',
      'events one',
      '*:events one',
      'fees:last* one',
      'hits:*:total one',
      'fees:full one',
      'fees:* one',
      '*:user:* many',
      'fees:* many',
      '* many',
    ]);
  });
});

runRule(untypedTester, 'incr-needs-expire-on-create (keys held in configuration)', incrRule, {
  valid: [
    // (A) the declared pattern reaches the key's text
    { code: queued, filename: cjsApp, options: strict, settings: persistent('PendingAddressUpdates') },
    { code: balances, filename: cjsApp, options: strict, settings: persistent('AccountBalanceUpdate') },
    { code: destructured, filename: cjsApp, options: strict, settings: persistent('Pending*') },
    { code: exportsMember, filename: cjsApp, options: strict, settings: persistent('PendingJobs') },
    { code: exportsObject, filename: cjsApp, options: strict, settings: persistent('RetryQueue') },
    { code: named, filename: esmApp, options: strict, settings: persistent('PendingJobs') },
    { code: defaulted, filename: esmApp, options: strict, settings: persistent('AccountBalanceUpdate') },
    { code: local, filename: esmApp, options: strict, settings: persistent('PendingJobs') },
    // (A) and a constant key, left alone in recommended
    { code: queued, filename: cjsApp },
    { code: defaulted, filename: esmApp },
    // (B) one key per deployment
    { code: envKey },
    { code: envDefault },
    { code: envConst },
    { code: envConfig, filename: cjsApp },
    { code: envExport, filename: cjsApp },
    { code: envTemplate },
    // (C) one of a few constant keys
    { code: choiceTemplate },
    { code: memberTemplate },
  ],
  invalid: [
    // (A) in strict, a constant key is reported; a pattern naming another key does not match
    { code: queued, filename: cjsApp, options: strict, errors: [at(4, 41)] },
    { code: named, filename: esmApp, options: strict, settings: persistent('RetryQueue'), errors: [at(4, 43)] },
    // near misses
    { code: builder, filename: cjsApp, settings: persistent('PendingAddressUpdates'), errors: [at(4, 34)] },
    { code: envPrefix, errors: [at(3, 42)] },
    { code: dataArm, errors: [at(3, 58)] },
    { code: mutatedHere, settings: persistent('PendingJobs'), errors: [at(5, 43)] },
    { code: mutatedThere, filename: cjsApp, settings: persistent('PendingJobs'), errors: [at(4, 35)] },
  ],
});

runRule(untypedTester, 'set-requires-ttl-or-keepttl (keys held in configuration)', setRule, {
  valid: [{ code: choice }, { code: configChoice, filename: cjsApp }],
  invalid: [],
});
