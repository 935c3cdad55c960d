/**
 * Streams nothing trims (redis-calls/untrimmed-stream.ts): an XADD without MAXLEN / MINID to one
 * stream (a constant key, a member fixed once per instance) is reported as `untrimmedStream` when
 * nothing trims THAT key shape: no XTRIM and no XADD ... MAXLEN / MINID of it in the file or in a
 * related module (incryptomax/clicker-miniapp: the API appends to `clicks_stream`, the worker
 * trims `clicks:stream`). A bounded key is one key, but a stream's entries pile up. Not a bound:
 * XACK, a trim or XDEL of a stream of another name. Left alone: a stream a consumer drains with
 * XDEL, a trim or XDEL whose key's run-time parts can spell the stream, a capped XADD
 * (MAXLEN, MINID, node-redis' TRIM option), a stream the file or a related module trims, a stream
 * the file expires or deletes (judged by those readings), a stream read by a consumer group
 * (lifecycle.ts keptStream, unchanged), and a per-identity stream, reported as any key family
 * (`noExpiry`).
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import tsParser from '@typescript-eslint/parser';
import { Linter } from 'eslint';
import { describe, expect, it } from 'vitest';
import incrRule from '../../rules/incr-needs-expire-on-create.js';
import plugin from '../../rules/index.js';
import { ioredis, nodeRedis, runRule, typedTester, untypedTester } from './tester.js';

const untrimmed = (line: number, column: number) => ({ messageId: 'untrimmedStream' as const, line, column });

const reported = [
  // clicker-miniapp's shape: one constant stream, appended to on every click, never trimmed
  { code: ioredis("export async function click(userId: string) {\n  const streamKey = 'clicks_stream';\n  await redis.xadd(streamKey, '*', 'userId', userId);\n}"), errors: [untrimmed(5, 15)] },
  // the file trims a stream of another name
  {
    code: ioredis("export const add = (u: string) => redis.xadd('clicks_stream', '*', 'u', u);\nexport const trim = () => redis.xtrim('clicks:stream', 'MAXLEN', 1000);"),
    errors: [untrimmed(3, 41)],
  },
  // a consumer's XDEL of the entries of another stream is no bound of this one
  {
    code: ioredis("export const add = (u: string) => redis.xadd('events', '*', 'u', u);\nexport async function drain() {\n  const entries = await redis.xrange('events:old', '-', '+', 'COUNT', 10);\n  for (const [id] of entries) await redis.xdel('events:old', id);\n}"),
    errors: [untrimmed(3, 41)],
  },
  // XACK leaves the acknowledged entry in the stream
  {
    code: ioredis("export const add = (u: string) => redis.xadd('events', '*', 'u', u);\nexport const ack = (id: string) => redis.xack('other', 'g', id);"),
    errors: [untrimmed(3, 41)],
  },
  // one stream per instance (a readonly member), node-redis
  { code: nodeRedis("export class Log {\n  constructor(private readonly stream: string) {}\n  add(e: string) { return client.xAdd(this.stream, '*', { e }); }\n}"), errors: [untrimmed(5, 34)] },
  // a per-identity stream stays a key family without TTL
  { code: ioredis('export const add = (userId: string, e: string) => redis.xadd(`events:${userId}`, \'*\', \'e\', e);'), errors: [{ messageId: 'noExpiry' as const, line: 3, column: 57 }] },
];

const left = [
  // capped in the XADD: MAXLEN (approximate), MINID, node-redis' TRIM option
  ioredis("export const add = (u: string) => redis.xadd('clicks', 'MAXLEN', '~', 1000, '*', 'u', u);"),
  ioredis("export const add = (u: string, since: string) => redis.xadd('clicks', 'MINID', since, '*', 'u', u);"),
  nodeRedis("export const add = (u: string) => client.xAdd('clicks', '*', { u }, { TRIM: { strategy: 'MAXLEN', threshold: 1000 } });"),
  // trimmed elsewhere in the file: XTRIM, or another XADD ... MAXLEN of the same stream
  ioredis("export const add = (u: string) => redis.xadd('clicks', '*', 'u', u);\nexport const trim = () => redis.xtrim('clicks', 'MAXLEN', '~', 10000);"),
  ioredis("export const add = (u: string) => redis.xadd('clicks', '*', 'u', u);\nexport const addCapped = (u: string) => redis.xadd('clicks', 'MAXLEN', 100, '*', 'u', u);"),
  // drained: a consumer deletes each entry it processed (XDEL), as LPOP drains a list
  ioredis("export const add = (u: string) => redis.xadd('events', '*', 'u', u);\nexport async function drain() {\n  const entries = await redis.xrange('events', '-', '+', 'COUNT', 10);\n  for (const [id] of entries) await redis.xdel('events', id);\n}"),
  // drained by a consumer class given the stream's key: its XDEL's key can spell this stream
  ioredis("export const add = (u: string) => redis.xadd('link:clicks', '*', 'u', u);\nexport class Drain {\n  constructor(private readonly streamKey: string) {}\n  async run(ids: string[]) { await redis.xdel(this.streamKey, ...ids); }\n}\nexport const clicks = new Drain('link:clicks');"),
  // deleted right after a probe in the same function (a health check)
  ioredis("export async function probe() {\n  const id = await redis.xadd('app:validate', '*', 'data', 'test');\n  await redis.del('app:validate');\n  return id;\n}"),
  // trimmed by a helper whose key is a parameter: it can be this stream
  ioredis("export const add = (u: string) => redis.xadd('clicks', '*', 'u', u);\nexport const trim = (stream: string) => redis.xtrim(stream, 'MAXLEN', '~', 1000);"),
  // read by a consumer group: a message bus (lifecycle.ts keptStream, unchanged)
  ioredis("export const add = (u: string) => redis.xadd('jobs', '*', 'u', u);\nexport const read = () => redis.xreadgroup('GROUP', 'g', 'c', 'STREAMS', 'jobs', '>');"),
  // deleted by the file (allowDeletedKeys)
  ioredis("export const add = (u: string) => redis.xadd('clicks', '*', 'u', u);\nexport const reset = () => redis.del('clicks');"),
];

for (const tester of [untypedTester, typedTester]) {
  runRule(tester, 'incr-needs-expire-on-create', incrRule, {
    valid: left,
    invalid: reported.map(({ code, errors }) => ({ code, errors })),
  });
}

const app = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'untrimmed-stream', 'app');

/** [messageId, line, column] of each finding of incr-needs-expire-on-create on `filename`. */
function lint(filename: string) {
  const linter = new Linter({ configType: 'flat' });
  const config = [
    { files: ['**/*.ts'], languageOptions: { parser: tsParser }, plugins: { 'redis-ttl': plugin }, rules: { 'redis-ttl/incr-needs-expire-on-create': 'error' } as Linter.RulesRecord },
  ];
  return linter.verify(readFileSync(filename, 'utf8'), config, { filename }).map((m) => [m.messageId, m.line, m.column]);
}

describe('a stream another module trims', () => {
  it('leaves out the stream a related module trims, and reports the one whose trim names another stream', () => {
    // api.ts: CLICKS ('clicks_stream', line 5) is not trimmed (worker.ts trims 'clicks:stream');
    // AUDIT (line 8) is, by worker.ts, which imports the same key constants
    expect(lint(join(app, 'api.ts'))).toEqual([['untrimmedStream', 5, 15]]);
  });
});
