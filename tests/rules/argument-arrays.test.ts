/**
 * Command arguments built in a local array (round 12, sequelize-redis-cache; redis-calls/arg-arrays.ts),
 * from the kind's definition: a command's arguments given as a local array (or a spread of one) are
 * the tokens the array can hold at the call, its literal elements plus what `push` / `unshift` /
 * `concat` / `splice` added on the paths reaching it, where the client sends the array flattened
 * (ioredis: every argument; node-redis 2 / 3: the first or second; a spread and the argv of a
 * generic form: every client). An expiry added only under a condition is an optional TTL (as
 * `...(ttl ? ['EX', ttl] : [])`): not reported. Near misses stay reported: no expiry ever pushed,
 * a pushed token that is no expiry (`NX`), an array built again after the push, a push after the
 * call; no suggestion edits an argv built before the call. An array handed to other code before the
 * call is not read (its tokens are unknown).
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import setRule from '../../rules/set-requires-ttl-or-keepttl.js';
import positiveTtl from '../../rules/expire-needs-positive-ttl.js';
import { ioredis, nodeRedis, runRule, untypedTester } from './tester.js';

const fixtures = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures');
/** A file of an application whose package.json declares `redis: ^3.1.2`. */
const v3 = join(fixtures, 'node-redis-3', 'app.ts');
const hint = (shape: string) => ` Kept forever on purpose? Add '${shape}' to settings['redis-ttl'].persistentKeys.`;
const required = (body: string): string => `const redis = require('redis');\nconst client = redis.createClient();\n${body}`;

// sequelize-redis-cache 2.0.1 setCache: args = []; push(key, json); if (ttl) push('EX', ttl); set(args, cb)
const sequelize = ioredis(
  'export function setCache(key: string, results: unknown, ttl?: number) {\n  var args = [];\n  args.push(key, JSON.stringify(results));\n  if (ttl) {\n    args.push("EX", ttl);\n  }\n  return redis.set(args, (err: unknown) => {});\n}',
);
const spread = ioredis('export async function put(k: string, v: string, ttl?: number) {\n  const args: unknown[] = [k, v];\n  if (ttl) args.push("EX", ttl);\n  await redis.set(...args);\n}');
const callSpread = ioredis('export async function put(k: string, v: string, ttl?: number) {\n  const args: unknown[] = [k, v];\n  if (ttl) args.push("PX", ttl);\n  await redis.call("SET", ...args);\n}');
const concat = ioredis('export async function put(k: string, v: string, ttl?: number) {\n  let args: unknown[] = [k, v];\n  if (ttl) args = args.concat(["EX", ttl]);\n  await redis.set(args);\n}');
const splice = ioredis('export async function put(k: string, v: string, ttl?: number) {\n  const args: unknown[] = [k, v];\n  if (ttl) args.splice(2, 0, "EX", ttl);\n  await redis.set(...args);\n}');
// pushed on every path: an expiry, not an optional one
const always = ioredis('export async function put(k: string, v: string) {\n  const args: unknown[] = [k];\n  args.push(v);\n  args.push("PX", 500);\n  await redis.set(...args);\n}');
const unshift = ioredis('export async function put(k: string, v: string) {\n  const args: unknown[] = ["EX", 60];\n  args.unshift(k, v);\n  await redis.set(args);\n}');
// node-redis 3 takes the array as the first argument, and as the argv of send_command
const v3First = required('function save(id, v, ttl) {\n  const args = ["s:" + id, v];\n  if (ttl) args.push("EX", ttl);\n  client.set(args, function (err) {});\n}');
const v3Second = required('function save(id, v, ttl) {\n  const args = [v];\n  if (ttl) args.push("EX", ttl);\n  client.set("s:" + id, args, function (err) {});\n}');
const v3Command = required('function save(id, v, ttl) {\n  const args = ["s:" + id, v];\n  if (ttl) args.push("EX", ttl);\n  client.send_command("set", args, function (err) {});\n}');
// node-redis 4+: the argv of sendCommand
const sendCommand = nodeRedis('export async function put(k: string, v: string, ttl?: number) {\n  const argv = ["SET", k, v];\n  if (ttl) argv.push("EX", String(ttl));\n  await client.sendCommand(argv);\n}');

// handed to other code before the call: it may push an expiry there, its tokens are unknown
const handedOver = ioredis('export async function put(k: string, v: string) {\n  const args: unknown[] = [k, v];\n  withExpiry(args);\n  await redis.set(...args);\n}');

// near misses
const neverPushed = ioredis('export async function put(k: string, v: string, extra?: string) {\n  const args: unknown[] = [k];\n  args.push(v);\n  await redis.set(...args);\n}');
const nxOnly = ioredis('export async function put(k: string, v: string, onlyNew: boolean) {\n  const args: unknown[] = [k, v];\n  if (onlyNew) args.push("NX");\n  await redis.set(...args);\n}');
const nxAlways = ioredis('export async function put(k: string, v: string) {\n  const args: unknown[] = [k, v];\n  args.push("NX");\n  await redis.set(args);\n}');
const rebuilt = ioredis('export async function put(k: string, v: string, ttl?: number) {\n  let args: unknown[] = [k, v];\n  if (ttl) args.push("EX", ttl);\n  args = [k, v];\n  await redis.set(args);\n}');
const pushedAfter = ioredis('export async function put(k: string, v: string) {\n  const args: unknown[] = [k, v];\n  await redis.set(...args);\n  args.push("EX", 60);\n}');
const v3Sequelize = required('function save(id, v) {\n  var args = [];\n  args.push("s:" + id, v);\n  client.set(args, function (err) {});\n}');
const sendCommandNoTtl = nodeRedis('export async function put(k: string, v: string, nx: boolean) {\n  const argv = ["SET", k, v];\n  if (nx) argv.push("NX");\n  await client.sendCommand(argv);\n}');

runRule(untypedTester, 'set-requires-ttl-or-keepttl', setRule, {
  valid: [sequelize, spread, callSpread, concat, splice, always, unshift, handedOver, { code: v3First, filename: v3 }, { code: v3Second, filename: v3 }, { code: v3Command, filename: v3 }, sendCommand],
  invalid: [
    { code: neverPushed, errors: [{ messageId: 'setWithoutTtl', line: 6, column: 15, data: { command: 'SET', key: 'k', client: '', hint: '' }, suggestions: [] }] },
    { code: nxOnly, errors: [{ messageId: 'createWithoutTtl', line: 6, column: 15, suggestions: [] }] },
    { code: nxAlways, errors: [{ messageId: 'createWithoutTtl', line: 6, column: 15, suggestions: [] }] },
    { code: rebuilt, errors: [{ messageId: 'setWithoutTtl', line: 7, column: 15, suggestions: [] }] },
    { code: pushedAfter, errors: [{ messageId: 'setWithoutTtl', line: 5, column: 15, suggestions: [] }] },
    { code: v3Sequelize, filename: v3, errors: [{ messageId: 'setWithoutTtl', line: 6, column: 10, data: { command: 'SET', key: 's:*', client: '', hint: hint('s:*') }, suggestions: [] }] },
    { code: sendCommandNoTtl, errors: [{ messageId: 'createWithoutTtl', line: 6, column: 16, suggestions: [] }] },
  ],
});

// tokens pushed on every path are read as written: a SET with EX 0 is rejected by Redis
const pushedZero = ioredis('export async function put(k: string, v: string) {\n  const args: unknown[] = [k, v];\n  args.push("EX", 0);\n  await redis.set(...args);\n}');
runRule(untypedTester, 'expire-needs-positive-ttl', positiveTtl, {
  valid: [spread, sequelize],
  invalid: [{ code: pushedZero, errors: [{ messageId: 'literalRejected', line: 5, column: 19 }] }],
});
