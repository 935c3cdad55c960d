/**
 * Redis 8's own data types in the ESLint rules (issue 28, item 3): JSON, time series, the
 * probabilistic types and vector sets create a key without TTL like any other write, whichever way
 * the code sends them: node-redis' module namespaces (`client.json.set(...)`, `client.ts.add(...)`,
 * `client.tDigest.create(...)`, also queued on a `multi()`), core methods (`client.vAdd(...)`), the
 * generic forms (ioredis `call('JSON.SET', ...)`, node-redis `sendCommand(['JSON.SET', ...])`). The
 * facts are the command table's (`semantics/commands.ts`); what is checked here is that the rules
 * read each client's syntax into the argv the client really sends (node-redis' own `parseCommand`
 * is the reference) and report, pair and exempt those writes as they do any other.
 */
import { BasicCommandParser } from '@redis/client/dist/lib/client/parser.js';
import * as JSON_SET from '@redis/json/dist/lib/commands/SET.js';
import * as JSON_MSET from '@redis/json/dist/lib/commands/MSET.js';
import * as TS_ADD from '@redis/time-series/dist/lib/commands/ADD.js';
import * as TS_CREATE from '@redis/time-series/dist/lib/commands/CREATE.js';
import * as BF_INSERT from '@redis/bloom/dist/lib/commands/bloom/INSERT.js';
import * as TOPK_RESERVE from '@redis/bloom/dist/lib/commands/top-k/RESERVE.js';
import { describe, expect, it } from 'vitest';
import { redisCallsIn } from '../helpers/redis-calls.js';
import incrRule from '../../rules/incr-needs-expire-on-create.js';
import { ioredis, nodeRedis, runRule, typedTester, untypedTester, persistentSettings as persistent } from './tester.js';


/** A `noExpiry` finding at line 3 of {@link nodeRedis} code, with the MULTI suggestion's output. */
const noExpiry = (column: number, code: string, output: string) => ({
  messageId: 'noExpiry' as const,
  line: 3,
  column,
  suggestions: [{ messageId: 'wrapInMulti' as const, output: nodeRedis(output) }],
});

/** A single node-redis call on line 3, reported at `column` (its method name), with the wrap-in-MULTI output. */
function single(call: string, key: string, column: number) {
  const code = `${call};`;
  const rest = call.slice('client.'.length);
  return { code: nodeRedis(code), errors: [noExpiry(column, code, `client.multi().${rest}.expire(${key}, TTL_SECONDS).exec();`)] };
}

for (const tester of [untypedTester, typedTester]) {
  runRule(tester, 'incr-needs-expire-on-create', incrRule, {
    valid: [
      // an expiry in the same MULTI pairs with the module write: a chain, a variable, one statement
      nodeRedis('client.multi().json.set(`doc:${id}`, "$", doc).expire(`doc:${id}`, 60).exec();'),
      nodeRedis('const m = client.multi();\nm.ts.add(`ts:${id}`, "*", 1);\nm.pExpire(`ts:${id}`, 60000);\nawait m.exec();'),
      nodeRedis('await client.multi().bf.add(`bf:${id}`, item).cf.add(`cf:${id}`, item).expire(`bf:${id}`, 60).expire(`cf:${id}`, 60).exec();'),
      nodeRedis('await client.multi().vAdd(`vs:${id}`, [0.1, 0.2], el).expire(`vs:${id}`, 60).exec();'),
      ioredis("redis.multi().call('JSON.SET', `doc:${id}`, '$', '{}').call('EXPIRE', `doc:${id}`, 60).exec();"),
      nodeRedis("client.multi().addCommand(['TS.ADD', `ts:${id}`, '*', '1']).addCommand(['EXPIRE', `ts:${id}`, '60']).exec();"),
      // writes that never create the key: below the JSON root, XX, NOCREATE, updates of an existing sketch
      nodeRedis('client.json.set(`doc:${id}`, "$.count", 1);'),
      nodeRedis('client.json.set(`doc:${id}`, "$", doc, { condition: "XX" });'),
      nodeRedis('client.json.set(`doc:${id}`, "$", doc, { XX: true });'),
      nodeRedis('client.json.merge(`doc:${id}`, "$.a", { b: 1 });'),
      nodeRedis('client.json.arrAppend(`doc:${id}`, "$.list", 1);'),
      nodeRedis('client.bf.insert(`bf:${id}`, ["a", "b"], { NOCREATE: true });'),
      nodeRedis('client.topK.add(`tk:${id}`, "a");'),
      nodeRedis('client.tDigest.add(`td:${id}`, [1, 2]);'),
      nodeRedis('client.cms.incrBy(`cms:${id}`, { item: "a", incrementBy: 1 });'),
      // reads
      nodeRedis('client.json.get(`doc:${id}`);'),
      nodeRedis('client.ts.range(`ts:${id}`, "-", "+");'),
      // RediSearch is not one of Redis 8's types in the table: its index is no key write
      nodeRedis('client.ft.create("idx", { title: { type: "TEXT" } });'),
      // ioredis has no module namespaces: `redis.json` is no client
      ioredis('redis.json.set(`doc:${id}`, "$", doc);'),
      // persistent by design: the shared key policy applies
      { code: nodeRedis('client.json.set(`config:${id}`, "$", doc);'), settings: persistent('config:*') },
      { code: nodeRedis('client.ts.create(`metrics:${id}`, { RETENTION: 86400000 });'), settings: persistent('metrics:*') },
    ],
    invalid: [
      single('client.json.set(`doc:${id}`, "$", doc)', '`doc:${id}`', 13),
      single('client.json.set(`doc:${id}`, ".", { a: 1 })', '`doc:${id}`', 13),
      single('client.json.merge(`doc:${id}`, "$", { a: 1 })', '`doc:${id}`', 13),
      // NX at the root creates only a missing key, without TTL all the same
      single('client.json.set(`doc:${id}`, "$", doc, { condition: "NX" })', '`doc:${id}`', 13),
      single('client.json.set(`doc:${id}`, "$", doc, { NX: true })', '`doc:${id}`', 13),
      single('client.json.mSet([{ key: `doc:${id}`, path: "$", value: doc }])', '`doc:${id}`', 13),
      single('client.ts.add(`ts:${id}`, "*", 1)', '`ts:${id}`', 11),
      single('client.ts.add(`ts:${id}`, Date.now(), 1, { RETENTION: 60000 })', '`ts:${id}`', 11),
      // RETENTION trims old samples; the key itself never expires
      single('client.ts.create(`ts:${id}`, { RETENTION: 86400000 })', '`ts:${id}`', 11),
      single('client.ts.incrBy(`ts:${id}`, 1)', '`ts:${id}`', 11),
      single('client.bf.add(`bf:${id}`, item)', '`bf:${id}`', 11),
      single('client.bf.mAdd(`bf:${id}`, [a, b])', '`bf:${id}`', 11),
      single('client.bf.reserve(`bf:${id}`, 0.01, 1000)', '`bf:${id}`', 11),
      single('client.bf.insert(`bf:${id}`, ["a"], { CAPACITY: 1000 })', '`bf:${id}`', 11),
      single('client.cf.add(`cf:${id}`, item)', '`cf:${id}`', 11),
      single('client.cf.addNX(`cf:${id}`, item)', '`cf:${id}`', 11),
      single('client.cms.initByDim(`cms:${id}`, 2000, 5)', '`cms:${id}`', 12),
      single('client.cms.initByProb(`cms:${id}`, 0.001, 0.01)', '`cms:${id}`', 12),
      single('client.topK.reserve(`tk:${id}`, 10)', '`tk:${id}`', 13),
      single('client.tDigest.create(`td:${id}`)', '`td:${id}`', 16),
      single('client.tDigest.create(`td:${id}`, { COMPRESSION: 100 })', '`td:${id}`', 16),
      single('client.vAdd(`vs:${id}`, [0.1, 0.2], el)', '`vs:${id}`', 8),
      // in a MULTI without an expiry of that key
      {
        code: nodeRedis('client.multi().json.set(`doc:${id}`, "$", doc).expire(`other:${id}`, 60).exec();'),
        errors: [
          {
            messageId: 'noExpiry',
            line: 3,
            column: 21,
            suggestions: [
              {
                messageId: 'appendExpire',
                output: nodeRedis('client.multi().json.set(`doc:${id}`, "$", doc).expire(`doc:${id}`, TTL_SECONDS).expire(`other:${id}`, 60).exec();'),
              },
            ],
          },
        ],
      },
      // the expiry in a round trip of its own: a crash between the two leaves the document forever
      {
        code: nodeRedis('export async function save(id: string, doc: object) {\n  await client.json.set(`doc:${id}`, "$", doc);\n  await client.expire(`doc:${id}`, 60);\n}'),
        errors: [
          {
            messageId: 'separateRoundTrip',
            line: 4,
            column: 21,
            suggestions: [
              {
                messageId: 'wrapInMulti',
                output: nodeRedis('export async function save(id: string, doc: object) {\n  await client.multi().json.set(`doc:${id}`, "$", doc).expire(`doc:${id}`, 60).exec();\n}'),
              },
            ],
          },
        ],
      },
      // the generic forms: ioredis call, node-redis sendCommand
      {
        code: ioredis("redis.call('JSON.SET', `doc:${id}`, '$', '{}');"),
        errors: [{ messageId: 'noExpiry', line: 3, column: 12 }],
      },
      {
        code: ioredis("redis.call('TS.ADD', `ts:${id}`, '*', 1);"),
        errors: [{ messageId: 'noExpiry', line: 3, column: 12 }],
      },
      {
        code: nodeRedis("client.sendCommand(['JSON.SET', `doc:${id}`, '$', '{}']);"),
        errors: [{ messageId: 'noExpiry', line: 3, column: 21 }],
      },
      {
        code: nodeRedis("client.sendCommand(['TDIGEST.CREATE', `td:${id}`]);"),
        errors: [{ messageId: 'noExpiry', line: 3, column: 21 }],
      },
    ],
  });
}

/** The Redis calls the rules read from `code` (untyped), in source order. */
function callsIn(code: string): Array<{ command: string; args: unknown[] }> {
  return redisCallsIn(code).map((call) => ({ command: call.command, args: call.args }));
}

type ParseCommand = (parser: BasicCommandParser, ...args: unknown[]) => void;

/** The argv node-redis sends for one module command (its own `parseCommand`; CommonJS default export). */
function sent(module: object, ...args: unknown[]): string[] {
  const exported = module as { default?: { parseCommand?: ParseCommand; default?: { parseCommand: ParseCommand } } };
  const parseCommand = exported.default?.parseCommand ?? exported.default?.default?.parseCommand;
  if (!parseCommand) throw new Error('no parseCommand');
  const parser = new BasicCommandParser();
  parseCommand(parser, ...args);
  return parser.redisArgs.map(String);
}

describe('node-redis module methods are read as the argv node-redis sends', () => {
  // literal arguments, so that every argv entry the rules read is known; a JSON value is one
  // entry the rules leave unknown (its text is the client's JSON.stringify)
  // argv indices (after the name) of JSON values: node-redis sends their JSON text, the rules keep
  // them unknown; every other entry must be read exactly
  const cases: Array<[string, string[], number[]]> = [
    ["client.json.set('doc', '$', { a: 1 }, { condition: 'NX' });", sent(JSON_SET, 'doc', '$', { a: 1 }, { condition: 'NX' }), [2]],
    ["client.json.set('doc', '$.a', 1, { XX: true });", sent(JSON_SET, 'doc', '$.a', 1, { XX: true }), [2]],
    ["client.json.mSet([{ key: 'a', path: '$', value: 1 }, { key: 'b', path: '$.x', value: 2 }]);", sent(JSON_MSET, [{ key: 'a', path: '$', value: 1 }, { key: 'b', path: '$.x', value: 2 }]), [2, 5]],
    ["client.ts.add('series', 1000, 5, { RETENTION: 60000 });", sent(TS_ADD, 'series', 1000, 5, { RETENTION: 60000 }), []],
    ["client.ts.create('series', { RETENTION: 86400000 });", sent(TS_CREATE, 'series', { RETENTION: 86400000 }), []],
    ["client.bf.insert('filter', ['a', 'b'], { CAPACITY: 1000, NOCREATE: true });", sent(BF_INSERT, 'filter', ['a', 'b'], { CAPACITY: 1000, NOCREATE: true }), []],
    ["client.topK.reserve('top', 10);", sent(TOPK_RESERVE, 'top', 10), []],
  ];
  for (const [call, argv, jsonValues] of cases) {
    it(call, () => {
      const [read] = callsIn(nodeRedis(call));
      expect(read?.command).toBe(argv[0]);
      const expected = argv.slice(1).map((arg, index) => (jsonValues.includes(index) ? undefined : arg));
      expect(read?.args.map((arg) => (arg === undefined ? undefined : String(arg)))).toEqual(expected);
    });
  }
});
