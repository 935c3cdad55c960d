/**
 * RedisJSON path writes inside an existing document (issue 25, round 31: the twenty-ninth
 * validation set). JSON.SET "creates the key only at the root path": below the root (`$.a.b`,
 * `$[0]`, a legacy `items.x`) a missing key is "ERR new objects must be created at the root"
 * (https://redis.io/docs/latest/commands/json.set/), so such a write never creates a key and needs
 * no TTL of its own. A literal path was already read so; here the path is built at run time and
 * the one key speller lists every value it can take (a template, a `const`, both arms of a
 * conditional, each assignment of a `let`, the choices of its parts): when each starts below the
 * root, the write creates no key, whichever way it is sent (node-redis / @upstash/redis
 * `json.set`, ioredis `call('JSON.SET', ...)`, node-redis `sendCommand([...])`). Near misses stay
 * reported: a path one of whose values is the root (`path === '' ? '$' : `$.${path}``, a `let`
 * assigned `'$'` once), and a path the speller cannot read (a parameter, a run-time prefix).
 */
import { describe, expect, it } from 'vitest';
import incrRule from '../../rules/incr-needs-expire-on-create.js';
import { keyShapes } from '../helpers/key-shapes.js';
import { ioredis, nodeRedis, positionOf, runRule, untypedTester } from './tester.js';

/** The `noExpiry` finding on `client.json.<call>` (at its method name), with its MULTI suggestion. */
const noExpiry = (code: string, call: string) => ({
  messageId: 'noExpiry' as const,
  ...positionOf(code, call),
  suggestions: [{ messageId: 'wrapInMulti' as const, output: code.replace(`client.json.${call}`, `client.multi().json.${call}.expire(\`doc:\${id}\`, TTL_SECONDS).exec()`) }],
});

/** A function saving `v` at `path` of the document `doc:<id>` with `call`, the path built by `setup`. */
const saved = (setup: string, call: string, wrap = nodeRedis) => wrap(`export async function save(id: string, field: string, i: number, flag: boolean, v: unknown) {\n  ${setup}\n  ${call};\n}`);

const template = saved('', 'client.json.set(`doc:${id}`, `$.${field}`, v)');
const constPath = saved('const path = `$.${field}.count`;', 'client.json.set(`doc:${id}`, path, v)');
const elementOfChosenBase = saved("const base = field === '' ? '$' : `$.${field}`;\n  const element = `${base}[${i}].seen`;", 'client.json.set(`doc:${id}`, element, v)');
const bothArmsBelow = saved('', "client.json.set(`doc:${id}`, flag ? '$.a' : '$.b', v)");
const letBelow = saved("let path = '$.a';\n  if (flag) path = `$.b.${field}`;", 'client.json.set(`doc:${id}`, path, v)');
const legacyPath = saved('', 'client.json.set(`doc:${id}`, `items.${field}`, v)');
const merged = saved('', 'client.json.merge(`doc:${id}`, `$.${field}`, v)');
const ioredisCall = saved('', "redis.call('JSON.SET', `doc:${id}`, `$.${field}`, JSON.stringify(v))", ioredis);
const sent = saved('', "client.sendCommand(['JSON.SET', `doc:${id}`, `$.${field}`, JSON.stringify(v)])");

// near misses: the root is one of the values, or the path is not read
const rootArm = saved("const jsonPath = field === '' ? '$' : `$.${field}`;", 'client.json.set(`doc:${id}`, jsonPath, v)');
const letRoot = saved("let path = `$.${field}`;\n  if (flag) path = '$';", 'client.json.set(`doc:${id}`, path, v)');
const dotRootArm = saved('', "client.json.set(`doc:${id}`, flag ? '.' : '$.a', v)");
const runTimePrefix = saved('const path = `${field}.x`;', 'client.json.set(`doc:${id}`, path, v)');
const parameterPath = nodeRedis('export async function save(id: string, path: string, v: unknown) {\n  client.json.set(`doc:${id}`, path, v);\n}');

describe('keyShapeOf lists the values of a path', () => {
  it('keeps each choice of a conditional, of a let and of the parts of a template', () => {
    const lines = [
      "const base = f === '' ? '$' : `$.${f}`;",
      "let p = '$.a'; if (c) p = '$.b';",
      "let q = '$.a'; q += '.b';",
      "probe(`${base}[${i}].x`); probe(c ? '$.a' : '$.b'); probe(p); probe(q);",
    ].join('\n');
    expect(keyShapes(lines)).toEqual(['$*[*].x many', '$.* one', '* many', '* many']);
  });
});

runRule(untypedTester, 'incr-needs-expire-on-create (a JSON write below the root, its path built at run time)', incrRule, {
  valid: [template, constPath, elementOfChosenBase, bothArmsBelow, letBelow, legacyPath, merged, ioredisCall, sent],
  invalid: [
    { code: rootArm, errors: [noExpiry(rootArm, 'set(`doc:${id}`, jsonPath, v)')] },
    { code: letRoot, errors: [noExpiry(letRoot, 'set(`doc:${id}`, path, v)')] },
    { code: dotRootArm, errors: [noExpiry(dotRootArm, "set(`doc:${id}`, flag ? '.' : '$.a', v)")] },
    { code: runTimePrefix, errors: [noExpiry(runTimePrefix, 'set(`doc:${id}`, path, v)')] },
    { code: parameterPath, errors: [noExpiry(parameterPath, 'set(`doc:${id}`, path, v)')] },
  ],
});
