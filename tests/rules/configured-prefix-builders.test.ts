/**
 * Keys built by a key builder of the application whose prefix is configuration with a literal
 * default (round 40, kind "persistent record under the persistentKeys pattern, not resolved"):
 * `function createRedisKey(...parts) { const prefix = process.env.REDIS_KEY_PREFIX?.trim() ||
 * 'app'; return [prefix, ...parts.map((part) => String(part))].join(':'); }` spells
 * `createRedisKey('jobs', 'source', id)` `app:jobs:source:*`, its default, which a
 * `persistentKeys` pattern names (the prefix is one value per deployment, so the key is no more
 * or less bounded than its other parts make it). A local computed by any other call (a hash of the
 * identity), a default that is no literal, or a rest parameter changed before the join is still a
 * builder the linter cannot read.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import luaRule from '../../rules/embedded-lua.js';
import incrRule from '../../rules/incr-needs-expire-on-create.js';
import { keyShapes } from '../helpers/key-shapes.js';
import { noExpiryWithMulti, runRule, untypedTester, persistentSettings as persistent } from './tester.js';

/** tests/fixtures/configured-prefix: `lib/keys.ts` holds the builders; the linted file is `app/store.ts` beside it. */
const root = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'configured-prefix');
const app = join(root, 'app', 'store.ts');

describe('key builders prefixed by configuration with a literal default', () => {
  it('spells the default prefix, then the parts', () => {
    const code = [
      "import { createRedisKey, plainKey } from '../lib/keys';",
      "probe(createRedisKey('jobs', 'source', id));",
      "probe(createRedisKey('jobs', 'index'));",
      "probe(plainKey('jobs', 'execution', id));",
    ].join('\n');
    expect(keyShapes(code, app)).toEqual(['app:jobs:source:* many', 'app:jobs:index one', 'app:jobs:execution:* many']);
  });

  it('spreads a const array of a const object literal, imported, in place of the rest parameter', () => {
    const code = [
      "import { createRedisKey, templateKey, SCOPES } from '../lib/keys';",
      'probe(createRedisKey(...SCOPES.jobs.index));',
      'probe(createRedisKey(...SCOPES.jobs.idem, id));',
      "probe(templateKey('jobs', id));",
    ].join('\n');
    expect(keyShapes(code, app)).toEqual(['app:jobs:index one', 'app:jobs:idem:* many', 'app:jobs:* many']);
  });

  it('near miss: a spread of an array of a const object that the module fills in place (push) is the prefix, then anything', () => {
    const code = [
      "import { createRedisKey, FILLED, UNFILLED } from '../lib/keys';",
      'probe(createRedisKey(...FILLED.jobs.index));',
      'probe(createRedisKey(...UNFILLED.jobs.index));',
    ].join('\n');
    expect(keyShapes(code, app)).toEqual(['app:* many', 'app:jobs:index one']);
  });

  it('near miss: a spread of an array the code does not write out is the prefix, then anything', () => {
    const code = ["import { createRedisKey } from '../lib/keys';", 'export function k(parts: string[]) {', '  probe(createRedisKey(...parts));', '}'].join('\n');
    expect(keyShapes(code, app)).toEqual(['app:* many']);
  });

  it('near misses: a prefix with no literal default, computed by another call, or parts changed before the join', () => {
    const code = [
      "import { envOnlyKey, hashedKey, pushedKey } from '../lib/keys';",
      "probe(envOnlyKey('jobs', 'source', id));",
      "probe(hashedKey('jobs', 'source', id));",
      "probe(pushedKey('jobs', 'source', id));",
    ].join('\n');
    expect(keyShapes(code, app)).toEqual(['*jobs*source* many', '*jobs*source* many', '*jobs*source* many']);
  });
});

const header = "import Redis from 'ioredis';\nimport { createRedisKey, envOnlyKey, SCOPES } from '../lib/keys';\nconst redis = new Redis();\n";
const idempotency = `${header}export async function claim(id: string) {\n  await redis.hset(createRedisKey(...SCOPES.jobs.idem, id), 'at', '1');\n}\n`;
const indexWrite = (builder: string) => `${header}export async function index(sourceId: string, id: string) {\n  await redis.zadd(${builder}('jobs', 'source', sourceId), 1, id);\n}\n`;
const zadd = (builder: string) => `zadd(${builder}('jobs', 'source', sourceId), 1, id)`;

runRule(untypedTester, 'incr-needs-expire-on-create (a builder prefixed by configuration with a default)', incrRule, {
  valid: [
    // the default spelling `app:jobs:source:*` is under the declared pattern: the store's index, persistent by design
    { code: indexWrite('createRedisKey'), filename: app, settings: persistent('app:jobs:*') },
    // `app:jobs:idem:*`, the spread scope then the id, under the pattern
    { code: idempotency, filename: app, settings: persistent('app:jobs:*') },
  ],
  invalid: [
    // another application's pattern: the default spelling is not under it (line 5, column 15)
    {
      code: indexWrite('createRedisKey'),
      filename: app,
      settings: persistent('other:jobs:*'),
      errors: [{ ...noExpiryWithMulti(indexWrite('createRedisKey'), zadd('createRedisKey'), "createRedisKey('jobs', 'source', sourceId)"), line: 5, column: 15 }],
    },
    // no literal default: the prefix is unknown, and `*jobs*source*` is not under the pattern
    {
      code: indexWrite('envOnlyKey'),
      filename: app,
      settings: persistent('app:jobs:*'),
      errors: [{ ...noExpiryWithMulti(indexWrite('envOnlyKey'), zadd('envOnlyKey'), "envOnlyKey('jobs', 'source', sourceId)"), line: 5, column: 15 }],
    },
    // not declared: one hash per id, never expired
    {
      code: idempotency,
      filename: app,
      errors: [{ ...noExpiryWithMulti(idempotency, "hset(createRedisKey(...SCOPES.jobs.idem, id), 'at', '1')", 'createRedisKey(...SCOPES.jobs.idem, id)'), line: 5, column: 15 }],
    },
  ],
});

// a script's KEYS[1] is judged with the key its caller passes: the builder's default spelling
const luaHead = "import Redis from 'ioredis';\nimport { createRedisKey, envOnlyKey, SCOPES } from '../lib/keys';\nconst redis = new Redis();\n";
const luaDefine = "redis.defineCommand('enqueue', { numberOfKeys: 1, lua: \"redis.call('SADD', KEYS[1], ARGV[1])\" });\n";
runRule(untypedTester, 'embedded-lua (KEYS[1] passed a key of a builder prefixed by configuration)', luaRule, {
  valid: [{ code: `${luaHead}${luaDefine}await redis.enqueue(createRedisKey(...SCOPES.jobs.idem, id), 'j');`, filename: app, settings: persistent('app:jobs:*') }],
  invalid: [
    {
      // no literal default: the caller's key is `*jobs*idem*`, under no pattern
      code: `${luaHead}${luaDefine}await redis.enqueue(envOnlyKey('jobs', 'idem', id), 'j');`,
      filename: app,
      settings: persistent('app:jobs:*'),
      errors: [
        {
          messageId: 'luaFinding',
          line: 4,
          column: 57,
          data: {
            ruleId: 'write-path-needs-ttl',
            message: "SADD on KEYS[1] can create it without a TTL, and the script's end (line 4, column 92) precedes any expiry, so it never expires. Call PEXPIRE KEYS[1] <ms> after the write on every path.",
          },
        },
      ],
    },
  ],
});
