/**
 * A list of keys walked to give each a TTL (`redis-calls/key-lists.ts`): `for (const key of
 * sessionKeys(id)) p.pexpire(key, ms)` gives every listed key family a TTL, so a key of one of
 * them that a plain SET writes (dropping that TTL) is not taken for a key the code manages by
 * deletion alone (`allowDeletedKeys`). Lists: an array literal, a `const` of one, a function of the
 * file or an imported one returning one; walked by `for ... of` or `forEach` / `map`.
 */
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { lintApplication, lintSnippet } from '../helpers/lint.js';

const roots: string[] = [];
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

const SET = 'redis-ttl/set-requires-ttl-or-keepttl';
const lint = (code: string) => lintSnippet(code, { [SET]: 'error' }).map((m) => [m.ruleId, m.messageId, m.line, m.column]);

/** A session store: line 4 SETs the game state, `end` deletes it, `touch` walks `list` to expire. */
const store = (list: string, touch = 'for (const key of LIST) await redis.pexpire(key, ms);', head = '') => `import Redis from 'ioredis';
const redis = new Redis();
${head}export async function saveGame(id: string, state: string) {
  await redis.set(\`session:\${id}:game\`, state);
}
export async function end(id: string) {
  await redis.del(\`session:\${id}:game\`);
}
export async function touch(id: string, ms: number) {
  ${touch.replace('LIST', list)}
}
`;
const FOUND = [[SET, 'setWithoutTtl', 4, 15]];

describe('a key list walked to give each key a TTL', () => {
  it('lists the SET key: the plain SET drops the TTL the code gives it, reported', () => {
    expect(lint(store('[`session:${id}:state`, `session:${id}:game`]'))).toEqual(FOUND);
    expect(lint(store('keys').replace('for (const key of keys)', 'const keys = [`session:${id}:game`];\n  for (const key of keys)'))).toEqual(FOUND);
    expect(lint(store('sessionKeys(id)', undefined, 'const sessionKeys = (id: string) => [`session:${id}:state`, `session:${id}:game`];\n'))).toEqual([[SET, 'setWithoutTtl', 5, 15]]);
    expect(lint(store('sessionKeys(id)', undefined, 'function sessionKeys(id: string) {\n  return [`session:${id}:state`, `session:${id}:game`];\n}\n'))).toEqual([[SET, 'setWithoutTtl', 7, 15]]);
  });
  it('walked by forEach: reported', () => {
    expect(lint(store('[`session:${id}:state`, `session:${id}:game`]', 'LIST.forEach((key) => void redis.pexpire(key, ms));'))).toEqual(FOUND);
  });
  it('a list without that key, or the key not walked to an expiry: deleted by `end`, not reported', () => {
    expect(lint(store('[`session:${id}:state`, `session:${id}:players`]'))).toEqual([]);
    expect(lint(store('[`session:${id}:game`]', 'for (const key of LIST) await redis.get(key);'))).toEqual([]);
    // some / every stop at the first truthy reply (a pending PEXPIRE): only the first key expires
    expect(lint(store('[`session:${id}:state`, `session:${id}:game`]', 'LIST.some((key) => redis.pexpire(key, ms));'))).toEqual([]);
    // a function with another return (nested in an if) returns something else too: no list
    expect(lint(store('sessionKeys(id)', undefined, 'function sessionKeys(id: string, legacy = false) {\n  if (legacy) { return [`session:${id}:state`, `session:${id}:old`]; }\n  return [`session:${id}:state`, `session:${id}:game`];\n}\n'))).toEqual([]);
  });
});

describe('a key list an imported helper returns', () => {
  const KEYS = "export const kState = (id: string) => `session:${id}:state`;\nexport const kGame = (id: string) => `session:${id}:game`;\nexport const sessionKeys = (id: string) => [kState(id), kGame(id)];\nexport function otherKeys(id: string) {\n  return [kState(id)];\n}\n";
  const app = (list: string) => `import Redis from 'ioredis';
import { kGame, sessionKeys, otherKeys } from './keys';
const redis = new Redis();
export async function saveGame(id: string, state: string) {
  await redis.set(kGame(id), state);
}
export async function end(id: string) {
  await redis.del(kGame(id));
}
export async function touch(id: string, ms: number) {
  const p = redis.pipeline();
  for (const key of ${list}) p.pexpire(key, ms);
  await p.exec();
}
`;
  const run = (list: string) => lintApplication(roots, { 'src/keys.ts': KEYS, 'src/store.ts': app(list) }, 'src/store.ts', { 'set-requires-ttl-or-keepttl': undefined }, []);
  it('spells its elements in its own module: the SET of a listed key is reported', () => {
    expect(run('sessionKeys(id)')).toEqual([['set-requires-ttl-or-keepttl', 'setWithoutTtl', 5, 15]]);
  });
  it('a list of other keys: not reported', () => {
    expect(run('otherKeys(id)')).toEqual([]);
  });
});

describe('a key deleted only beside keys the file gives a TTL', () => {
  /** A join code SET without TTL (line 5), deleted by `destroy` with the session's keys; `touch` expires `expired`. */
  const sessions = (deleted: string, expired: string) => `import Redis from 'ioredis';
const redis = new Redis();
const sessionKeys = (id: string) => [\`session:\${id}:state\`, \`session:\${id}:players\`];
export async function init(id: string, code: string) {
  await redis.set(\`code:\${code}\`, id);
}
export async function destroy(id: string, code: string) {
  await redis.multi().del(${deleted}).del(\`code:\${code}\`).exec();
}
export async function touch(id: string, ms: number) {
  for (const key of ${expired}) await redis.pexpire(key, ms);
}
`;
  it('those keys expire when the session is left: the delete never runs, reported', () => {
    expect(lint(sessions('...sessionKeys(id)', 'sessionKeys(id)'))).toEqual([[SET, 'setWithoutTtl', 5, 15]]);
    expect(lint(sessions('`session:${id}:state`', 'sessionKeys(id)'))).toEqual([[SET, 'setWithoutTtl', 5, 15]]);
  });
  it('beside keys nothing expires: the delete is the end of the record, not reported', () => {
    expect(lint(sessions('...sessionKeys(id)', '[`other:${id}`]'))).toEqual([]);
    expect(lint(sessions('`session:${id}:log`', 'sessionKeys(id)'))).toEqual([]);
  });
  it('beside a guard created with its own TTL (SET NX PX), not refreshed: not reported', () => {
    const guarded = sessions('`slot:${id}`', '[]').replace('export async function touch', "export async function claim(id: string, ms: number) {\n  return redis.set(`slot:${id}`, '1', 'PX', ms, 'NX');\n}\nexport async function touch");
    expect(lint(guarded)).toEqual([]);
    // the same guard refreshed by PEXPIRE: a key ending by idling, reported
    expect(lint(guarded.replace("return redis.set(`slot:${id}`, '1', 'PX', ms, 'NX');", 'return redis.pexpire(`slot:${id}`, ms);'))).toEqual([[SET, 'setWithoutTtl', 5, 15]]);
  });
});
