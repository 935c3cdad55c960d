/**
 * TypeScript's CommonJS import, `import x = require('m')`, brings what `const x = require('m')`
 * does (https://www.typescriptlang.org/docs/handbook/modules/reference.html#export--and-import--require):
 * a client package's module is a client import, untyped too; a module of the code stays the code's.
 */
import { describe, expect, it } from 'vitest';
import { lintKeyRules } from '../helpers/lint.js';

const SET = 'redis-ttl/set-requires-ttl-or-keepttl';
const INCR = 'redis-ttl/incr-needs-expire-on-create';

describe('import x = require(...) of a client package', () => {
  it('node-redis: the module whose createClient makes the client', () => {
    const code = "import redis = require('redis');\nconst store = redis.createClient();\nexport const save = (id: string, v: string) => store.set(`user:${id}`, v);\n";
    expect(lintKeyRules(code)).toEqual([[SET, 'setWithoutTtl', 3, 54]]);
  });
  it('ioredis: the class a `new` makes the client of', () => {
    const code = "import IORedis = require('ioredis');\nconst store = new IORedis();\nexport const hit = (id: string) => store.incr(`hits:${id}`);\n";
    expect(lintKeyRules(code)).toEqual([[INCR, 'noExpiry', 3, 42]]);
  });
  it('is read as the same import as const x = require(...): same findings', () => {
    const equals = "import IORedis = require('ioredis');\nconst store = new IORedis();\nexport const hit = (id: string) => store.incr(`hits:${id}`);\n";
    const required = equals.replace("import IORedis = require('ioredis')", "const IORedis = require('ioredis')");
    expect(lintKeyRules(equals)).toEqual([[INCR, 'noExpiry', 3, 42]]);
    expect(lintKeyRules(required)).toEqual([[INCR, 'noExpiry', 3, 42]]);
  });
});

describe('import x = require(...) of something else', () => {
  it('a module of the code named like a client is not a client package', () => {
    const code = "import redis = require('./redis');\nconst store = redis.createClient();\nexport const save = (id: string, v: string) => store.set(`user:${id}`, v);\n";
    // (a module of the code: not the client package, and not resolvable here; as with require)
    expect(lintKeyRules(code)).toEqual(lintKeyRules(code.replace("import redis = require('./redis')", "const redis = require('./redis')")));
    expect(lintKeyRules(code)).toEqual([]);
  });
  it('a package that is not a Redis client: nothing reported', () => {
    const code = "import LRU = require('lru-cache');\nconst store = new LRU({ max: 10 });\nexport const save = (id: string, v: string) => store.set(`user:${id}`, v);\n";
    expect(lintKeyRules(code)).toEqual([]);
  });
  it('an import alias of a namespace (import x = A.B) is no module import', () => {
    const code = "namespace Outer { export const redis = { set: (k: string, v: string) => k + v }; }\nimport r = Outer.redis;\nexport const save = (id: string, v: string) => r.set(`user:${id}`, v);\n";
    expect(lintKeyRules(code)).toEqual([]);
  });
});
