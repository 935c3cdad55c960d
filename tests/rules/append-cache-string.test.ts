/**
 * APPEND to a read-through cache string (round 36, `redis-calls/appended-cache.ts`), from the
 * kind's definition: APPEND creates a missing key without TTL and keeps an existing one's
 * (https://redis.io/docs/latest/commands/append/). A key family the file reads whole (GET) and
 * fills whole (SET) is a cache; its DEL in another function is the cache's invalidation, not the
 * end of a string that something appends to: the cached value grows with every append, and an
 * append after the DEL recreates the key without TTL. So `allowDeletedKeys` does not leave the
 * APPEND alone: `incr-needs-expire-on-create` reports it (`noExpiry`). Near misses, not reported:
 * an append-only string the code never fills whole (a log a job deletes), an APPEND to a fixed key
 * (bounded), an APPEND to a key its function creates with SET ... EX first (the TTL is kept), and
 * the cache's own SET (deleted elsewhere, as before).
 */
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { lintApplication } from '../helpers/lint.js';

const roots: string[] = [];
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

const MANIFEST = '{ "name": "app", "private": true, "dependencies": { "ioredis": "^5.3.2" } }';
const INCR = 'incr-needs-expire-on-create';

/** `[rule, messageId, line, column]` of each finding of the two key rules on `code` as `src/actions.ts`. */
function lint(code: string) {
  return lintApplication(roots, { 'src/actions.ts': code }, 'src/actions.ts', { [INCR]: undefined, 'set-requires-ttl-or-keepttl': undefined }, [], MANIFEST);
}

const CACHE = `import Redis from 'ioredis';
const redis = new Redis();
export async function listProperties(userId: string) {
  const cacheKey = \`ga:properties:userId:\${userId}\`;
  const cached = await redis.get(cacheKey);
  if (cached) return JSON.parse(cached);
  const all = await fetchAll(userId);
  await redis.set(cacheKey, JSON.stringify(all));
  return all;
}
export async function createProperty(userId: string, form: object) {
  await api.create(form);
  await redis.del(\`ga:properties:userId:\${userId}\`);
}
`;

describe('APPEND to a read-through cache string', () => {
  it('is reported where it appends; the cache\'s SET stays left alone (deleted elsewhere)', () => {
    const code = `${CACHE}export async function updateProperty(userId: string, form: object) {
  const response = await api.update(form);
  await redis.append(\`ga:properties:userId:\${userId}\`, JSON.stringify(response));
}
`;
    expect(lint(code)).toEqual([[INCR, 'noExpiry', 17, 15]]);
  });

  it('an append-only log nothing fills whole, deleted by a job, is left alone', () => {
    const code = `${CACHE}export async function audit(userId: string, line: string) {
  await redis.append(\`audit:\${userId}\`, line);
}
export async function rotate(userId: string) {
  await redis.del(\`audit:\${userId}\`);
}
`;
    expect(lint(code)).toEqual([]);
  });

  it('an APPEND to a fixed key is bounded', () => {
    const code = `${CACHE}export async function note(line: string) {
  await redis.append('ga:properties:changes', line);
}
`;
    expect(lint(code)).toEqual([]);
  });

  it('an APPEND to a key its function creates with SET ... EX first keeps that TTL (the TTL makes the cache\'s own SET without one a finding, as before)', () => {
    const code = `${CACHE}export async function updateProperty(userId: string, form: object) {
  const response = await api.update(form);
  await redis.set(\`ga:properties:userId:\${userId}\`, '', 'EX', 3600);
  await redis.append(\`ga:properties:userId:\${userId}\`, JSON.stringify(response));
}
`;
    expect(lint(code)).toEqual([['set-requires-ttl-or-keepttl', 'setWithoutTtl', 8, 15]]);
  });
});
