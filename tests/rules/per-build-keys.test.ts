/**
 * Keys under a per-build prefix (redis-calls/key-shape.ts `perBuildKey`): a key whose expression,
 * or a const or key builder of the module it is read through, names a build or deploy id
 * (`${BUILD_ID}:tag:${tag}`) belongs to one deploy. The function that deletes such keys elsewhere
 * in the file (`allowDeletedKeys`) runs in the next build and names that build's keys only, so the
 * previous build's keys are never deleted: the write is reported as a key without TTL. Near misses
 * keep their result: the same code without a build prefix (deleted elsewhere, left alone), a key
 * under a build prefix the file expires.
 */
import { describe, expect, it } from 'vitest';
import { lintSnippet } from '../helpers/lint.js';
import { ioredis } from './tester.js';

type Finding = [string | undefined, number, number];

function lint(code: string, options: Record<string, unknown> = {}): Finding[] {
  return lintSnippet(code, { 'redis-ttl/incr-needs-expire-on-create': ['error', options] }).map((m) => [m.messageId, m.line, m.column]);
}

// a tag index under the build id, through a builder method; a deploy-scoped set through a const
const b1 = ioredis(`export class TagCache {
  constructor(private buildId: string) {}
  key(k: string) {
    return \`\${this.buildId}:\${k}\`;
  }
  async tag(tag: string, key: string) {
    await redis.sadd(this.key(\`tag:\${tag}\`), key);
  }
  async revalidate(tag: string) {
    await redis.del(this.key(\`tag:\${tag}\`));
  }
}
const DEPLOY_ID = process.env.DEPLOY_ID;
export async function remember(page: string, user: string) {
  await redis.sadd(\`\${DEPLOY_ID}:views:\${page}\`, user);
}
export async function forget(page: string) {
  await redis.del(\`\${DEPLOY_ID}:views:\${page}\`);
}
`);
// compiled async code: the builder is called inside a __generator callback
const b2 = ioredis(`var Cache = (function () {
  function Cache() {}
  Cache.prototype.buildKey = function (key) {
    return ''.concat(this.BUILD_ID, ':').concat(key);
  };
  Cache.prototype.set = function (key, tag) {
    return __generator(this, function () {
      return redis.sadd(this.buildKey('tag:'.concat(tag)), key);
    });
  };
  Cache.prototype.revalidateTag = function (tag) {
    return __generator(this, function () {
      return redis.del(this.buildKey('tag:'.concat(tag)));
    });
  };
  return Cache;
})();
export { Cache };
`);
// near misses: no build prefix (a set the file deletes elsewhere); a build-prefixed key it expires
const n1 = ioredis(`export class TagCache {
  constructor(private prefix: string) {}
  key(k: string) {
    return \`\${this.prefix}:\${k}\`;
  }
  async tag(tag: string, key: string) {
    await redis.sadd(this.key(\`tag:\${tag}\`), key);
  }
  async revalidate(tag: string) {
    await redis.del(this.key(\`tag:\${tag}\`));
  }
}
const BUILD_ID = process.env.BUILD_ID;
export async function seen(page: string) {
  await redis.multi().sadd(\`\${BUILD_ID}:seen\`, page).expire(\`\${BUILD_ID}:seen\`, 86400).exec();
}
`);

// a key fixed for the process but under the build id: one key per deploy, never deleted by the
// next one (a const, a module-level template, a static member); near misses: the same constants
// under a prefix that is no build id stay left alone as constant keys
const b3 = ioredis(`const DEPLOY_ID = process.env.DEPLOY_ID;
const PAGES = \`\${DEPLOY_ID}:pages\`;
export async function visit(page: string) {
  await redis.sadd(PAGES, page);
  await redis.incr(\`\${DEPLOY_ID}:visits\`);
}
export class Stats {
  static readonly KEY = \`build:\${process.env.BUILD_ID}:stats\`;
  async hit() {
    await redis.hincrby(Stats.KEY, 'hits', 1);
  }
}
`);
const n2 = ioredis(`const PREFIX = process.env.REDIS_PREFIX;
const PAGES = \`\${PREFIX}:pages\`;
export async function visit(page: string) {
  await redis.sadd(PAGES, page);
  await redis.incr(\`\${PREFIX}:visits\`);
}
`);

describe('keys under a per-build prefix', () => {
  it('are reported even when another function deletes them', () => {
    expect(lint(b1)).toEqual([
      ['noExpiry', 9, 17],
      ['noExpiry', 17, 15],
    ]);
    expect(lint(b2)).toEqual([['noExpiry', 10, 20]]);
  });

  it('are reported when the key is otherwise constant (one key per deploy)', () => {
    expect(lint(b3)).toEqual([
      ['noExpiry', 6, 15],
      ['noExpiry', 7, 15],
      ['noExpiry', 12, 17],
    ]);
    expect(lint(n2)).toEqual([]);
  });

  it('leave alone a key without build prefix deleted elsewhere, and a build-prefixed key the file expires', () => {
    expect(lint(n1)).toEqual([]);
    expect(lint(n1, { allowDeletedKeys: false })).toEqual([['deletedElsewhere', 9, 17]]);
  });
});
