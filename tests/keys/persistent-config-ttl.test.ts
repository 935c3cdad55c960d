// `redis-ttl-keys --persistent-config` never offers a shape the code gives a TTL somewhere (from a
// new user's trial): a write whose TTL its client drops (node-redis 4's `set(k, v, 300)`), a
// script that PEXPIREs the key on one path only, a TTL-less write beside one that sets a TTL, an
// EXPIRE in another function. What stays offered: a shape no code gives a TTL.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';
import { persistentCandidates, tooBroadCandidates } from '../../keys/format.js';
import { buildInventory } from '../../keys/inventory.js';
import { luaKeyUses } from '../../keys/lua-writes.js';

const NODE = "import { createClient } from 'redis';\nconst client = createClient();\n";
const IOREDIS = "import Redis from 'ioredis';\nconst redis = new Redis();\n";

async function inventoryOf(files: Record<string, string>) {
  const dir = mkdtempSync(path.join(tmpdir(), 'keys-spelled-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, name), text);
  const result = await buildInventory(['.'], { cwd: dir, useConfig: false });
  expect(result.problems).toEqual([]);
  return result;
}

it('offers no shape whose TTL the client drops, that a script expires on some path, or that another write or an EXPIRE gives a TTL', async () => {
  const result = await inventoryOf({
    'tokens.ts':
      NODE +
      [
        // node-redis 4 reads options from an object: the 900 is never sent (the key gets no TTL)
        'export const saveToken = (id: string, t: string) => client.set(`token:${id}`, t, 900);',
        'export const saveFlag = (id: string) => client.set(`flag:${id}`, "1");',
      ].join('\n'),
    'jobs.ts':
      IOREDIS +
      [
        // the script PEXPIREs the key only when asked: the SET leaks on the other path, but the code means it to expire
        `export const claim = (id: string, mode: string) => redis.eval("redis.call('SET', KEYS[1], ARGV[1])\\nif ARGV[2] == 'x' then return 1 end\\nredis.call('PEXPIRE', KEYS[1], 30000)\\nreturn 1", 1, \`claim:\${id}\`, 'me', mode);`,
        // a session written with a TTL here and without one there
        "export const login = (id: string) => redis.set(`session:${id}`, 'v', 'EX', 60);",
        "export const touch = (id: string) => redis.set(`session:${id}`, 'w');",
        // an EXPIRE in another function of the same shape
        "export const mark = (id: string) => redis.sadd(`seen:${id}`, 'x');",
        'export const age = (id: string) => redis.expire(`seen:${id}`, 3600);',
        // kept forever: still offered
        "export const register = (id: string) => redis.sadd(`registry:${id}`, 'x');",
      ].join('\n'),
  });
  const writes = Object.fromEntries(result.document.shapes.map((s) => [s.shape, s.writes.map((w) => w.ttl)]));
  expect(writes).toEqual({
    'claim:*': ['none'],
    'flag:*': ['none'],
    'registry:*': ['none'],
    'seen:*': ['none'],
    'session:*': ['atomic', 'none'],
    'token:*': ['none'],
  });
  // session:* too: its SET ... EX gives it a TTL (the document's `atomic` says so already)
  expect([...result.ttlSpelled].sort()).toEqual(['claim:*', 'seen:*', 'session:*', 'token:*']);
  expect(persistentCandidates(result.document, [], result.ttlSpelled).map((s) => s.shape)).toEqual(['flag:*', 'registry:*']);
  expect(tooBroadCandidates(result.document, [], result.ttlSpelled)).toEqual([]);
  // without the build's spelled set (a document read back from a file): the statuses alone still keep session:* out
  expect(persistentCandidates(result.document).map((s) => s.shape)).toEqual(['claim:*', 'flag:*', 'registry:*', 'seen:*', 'token:*']);
});

it('lists the keys a script expires, apart from its writes', () => {
  const uses = luaKeyUses("redis.call('HSET', KEYS[1], 'a', 1)\nredis.call('PEXPIRE', KEYS[1] .. ':meta', 500)\nredis.call('GET', KEYS[2])", ['job:*', 'other:*']);
  expect(uses.ok && uses.expiries.map((e) => [e.command, e.shape])).toEqual([['PEXPIRE', 'job:*:meta']]);
  expect(uses.ok && uses.writes.map((w) => [w.command, w.shape, w.ttl])).toEqual([['HSET', 'job:*', 'none']]);
});
