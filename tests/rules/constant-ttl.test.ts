/**
 * TTLs computed from constants (issue 25, item 4): every rule that reads a TTL reads its value
 * through one folding of `const` numbers of the file and of relatively imported modules
 * (`Math.floor` / `ceil` / `round`, `/`, `*`, `+`, `-`, members of `const` objects, named,
 * namespace, re-exported and CommonJS imports, a module's own imports). A constant TTL that is a
 * positive integer is fine; one that folds to 0 or a fraction is reported with its value.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll } from 'vitest';
import { fileURLToPath } from 'node:url';
import expireNeedsPositiveTtl from '../../rules/expire-needs-positive-ttl.js';
import setRequiresTtl from '../../rules/set-requires-ttl-or-keepttl.js';
import ttlUnits from '../../rules/ttl-units.js';
import { fixturesDir, ioredis, nodeRedis, runRule, typedTester, untypedTester, upstash } from './tester.js';

/** A file next to the constant modules of tests/fixtures/constants (limits.ts, time.ts, limits.cjs). */
const app = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'constants', 'app.ts');

const sameFileValid = [
  // handed case 25's two shapes: a division of constants that is a whole number
  ioredis('const COOKIE_EXPIRATION_TIME = 23 * 60 * 60 * 1000;\nredis.multi().sadd(`s:${id}`, t).expire(`s:${id}`, Math.floor(COOKIE_EXPIRATION_TIME / 1000)).exec();'),
  ioredis("const REPORT_WINDOW_MS = 15 * 60 * 1000;\nconst REPORT_COOLDOWN_SECONDS = REPORT_WINDOW_MS / 1000;\nredis.multi().incr(k).expire(k, REPORT_COOLDOWN_SECONDS, 'NX').exec();"),
  nodeRedis('const WINDOW_MS = 90_000;\nclient.set(`s:${id}`, v, { EX: Math.ceil(WINDOW_MS / 1000) });'),
  upstash('const REPORT_WINDOW_MS = 15 * 60 * 1000;\nredis.set(`s:${id}`, v, { ex: REPORT_WINDOW_MS / 1000 });'),
  ioredis('const HOUR = 60 * 60;\nredis.expire(k, Math.round(HOUR / 7));\nredis.expire(k, HOUR + 5);\nredis.expire(k, HOUR - 60);'),
  ioredis('const TTL = { session: 60 * 60, lock: 30 };\nredis.expire(k, TTL.session);\nredis.set(k, v, "EX", TTL.lock * 2);'),
];

const sameFileInvalid = [
  {
    code: ioredis('const GRACE_MS = 500;\nredis.expire(k, Math.floor(GRACE_MS / 1000));'),
    errors: [{ messageId: 'literalDeletes' as const, line: 4, column: 17, data: { command: 'EXPIRE', value: '`Math.floor(GRACE_MS / 1000)` (= 0)', key: 'k' } }],
  },
  {
    code: ioredis("const LOCK_MS = 1500;\nredis.set(k, v, 'EX', LOCK_MS / 1000);"),
    errors: [{ messageId: 'literalRejected' as const, line: 4, column: 23, data: { command: 'SET ... EX', value: '`LOCK_MS / 1000` (= 1.5)', key: 'k' } }],
  },
  {
    code: upstash('const DAY = 24 * 60 * 60;\nredis.set(k, v, { ex: DAY - DAY });'),
    errors: [{ messageId: 'literalRejected' as const, line: 4, column: 23, data: { command: 'SET ... EX', value: '`DAY - DAY` (= 0)', key: 'k' } }],
  },
];

for (const tester of [untypedTester, typedTester]) {
  runRule(tester, 'expire-needs-positive-ttl', expireNeedsPositiveTtl, { valid: sameFileValid, invalid: sameFileInvalid });
}

runRule(untypedTester, 'expire-needs-positive-ttl (imported constants)', expireNeedsPositiveTtl, {
  valid: [
    // a named import, a constant of the module computed from the module's own import, a namespace
    // import, a re-export under another name, a member of an imported const object, CommonJS
    { code: ioredis("import { REPORT_WINDOW_MS } from './limits';\nredis.expire(k, REPORT_WINDOW_MS / 1000, 'NX');"), filename: app },
    { code: ioredis("import { SESSION_TTL } from './limits.js';\nredis.set(k, v, 'EX', Math.floor(SESSION_TTL));"), filename: app },
    { code: ioredis("import * as limits from './limits';\nredis.expire(k, limits.REPORT_WINDOW_MS / 1000);"), filename: app },
    { code: nodeRedis("import { LIMITS } from './limits';\nclient.set(k, v, { EX: LIMITS.lockSeconds });"), filename: app },
    { code: ioredis("const { CACHE_TTL_MS } = require('./limits.cjs');\nredis.expire(k, CACHE_TTL_MS / 1000);"), filename: app },
    // a `let` export is no constant: its value is not read (and a plain name is not a risk)
    { code: ioredis("import { mutableTtl } from './limits';\nredis.expire(k, mutableTtl);"), filename: app },
  ],
  invalid: [
    {
      code: ioredis("import { GRACE_WINDOW_MS } from './limits';\nredis.expire(k, Math.floor(GRACE_WINDOW_MS / 1000));"),
      filename: app,
      errors: [{ messageId: 'literalDeletes', line: 4, column: 17, data: { command: 'EXPIRE', value: '`Math.floor(GRACE_WINDOW_MS / 1000)` (= 0)', key: 'k' } }],
    },
    {
      code: ioredis("const { ZERO_TTL } = require('./limits.cjs');\nredis.expire(k, ZERO_TTL);"),
      filename: app,
      errors: [{ messageId: 'literalDeletes', line: 4, column: 17, data: { command: 'EXPIRE', value: '`ZERO_TTL` (= 0)', key: 'k' } }],
    },
    {
      code: ioredis("import { LIMITS } from './limits';\nredis.set(k, v, 'EX', LIMITS.burstMs / 1000);"),
      filename: app,
      errors: [{ messageId: 'literalRejected', line: 4, column: 23, data: { command: 'SET ... EX', value: '`LIMITS.burstMs / 1000` (= 0.25)', key: 'k' } }],
    },
  ],
});

// ttl-units reads the unit of an imported constant from how its module computes it
runRule(untypedTester, 'ttl-units (imported constants)', ttlUnits, {
  valid: [{ code: ioredis("import { SESSION_TTL } from './limits';\nredis.expire(k, SESSION_TTL);"), filename: app }],
  invalid: [
    {
      code: ioredis("import { SESSION_TTL } from './limits';\nredis.pexpire(k, SESSION_TTL);"),
      filename: app,
      errors: [
        {
          messageId: 'secondsAsMs',
          line: 4,
          column: 18,
          suggestions: [{ messageId: 'useInstead', output: ioredis("import { SESSION_TTL } from './limits';\nredis.expire(k, SESSION_TTL);") }],
        },
      ],
    },
  ],
});

// the SET suggestion names a TTL constant computed from constants, and a number computed from
// constants given to node-redis as SET options is still a number it drops
const sessionSet = ioredis('const SESSION_TTL_SECONDS = 60 * 60 * 24;\nredis.set(`s:${id}`, v);');
const nodeRedisNumber = nodeRedis('const DAY_MS = 86_400_000;\nclient.set(`s:${id}`, v, Math.floor(DAY_MS / 1000));');
runRule(untypedTester, 'set-requires-ttl-or-keepttl (constant TTLs)', setRequiresTtl, {
  valid: [],
  invalid: [
    {
      code: sessionSet,
      errors: [
        {
          messageId: 'setWithoutTtl',
          line: 4,
          suggestions: [
            { messageId: 'addExpiry', output: sessionSet.replace('v);', "v, 'EX', SESSION_TTL_SECONDS);") },
            { messageId: 'addKeepTtl', output: sessionSet.replace('v);', "v, 'KEEPTTL');") },
          ],
        },
      ],
    },
    {
      code: nodeRedisNumber,
      errors: [
        {
          messageId: 'numberAsOptions',
          line: 4,
          suggestions: [{ messageId: 'useOptionsObject', output: nodeRedisNumber.replace('Math.floor(DAY_MS / 1000))', '{ EX: Math.floor(DAY_MS / 1000) })') }],
        },
      ],
    },
  ],
});

// a generated module over 1,000,000 characters is not parsed (it would take a minute): the constant
// it exports stays unknown, so the TTL computed from it is judged as any unknown value
const generatedDir = mkdtempSync(join(fixturesDir, 'generated-module-'));
writeFileSync(join(generatedDir, 'big.js'), `${Array.from({ length: 40_000 }, (_, i) => `export const C${i} = ${i} * 1000;`).join('\n')}\nexport const GRACE_MS = 500;\n`);
writeFileSync(join(generatedDir, 'small.js'), `${Array.from({ length: 10 }, (_, i) => `export const C${i} = ${i} * 1000;`).join('\n')}\nexport const GRACE_MS = 500;\n`);
afterAll(() => rmSync(generatedDir, { recursive: true, force: true }));
runRule(untypedTester, 'expire-needs-positive-ttl (a generated module is not parsed)', expireNeedsPositiveTtl, {
  // unknown, as a caller's value: not judged by recommended
  valid: [{ code: ioredis("import { GRACE_MS } from './big.js';\nredis.expire(k, Math.floor(GRACE_MS / 1000));"), filename: join(generatedDir, 'app.ts') }],
  invalid: [
    // the same constant from a small module is read: 0 deletes the key
    {
      code: ioredis("import { GRACE_MS } from './small.js';\nredis.expire(k, Math.floor(GRACE_MS / 1000));"),
      filename: join(generatedDir, 'app.ts'),
      errors: [{ messageId: 'literalDeletes', line: 4, column: 17, data: { command: 'EXPIRE', value: '`Math.floor(GRACE_MS / 1000)` (= 0)', key: 'k' } }],
    },
  ],
});
