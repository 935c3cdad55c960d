/**
 * A helper's write whose EXPIRE is its callers' job (`redis-calls/caller-expiry.ts`): the helper
 * queues HINCRBY / SET on the pipeline or MULTI it is given, of the key it is given, and every
 * caller queues EXPIRE of that same key on that same unit right after the call, before `exec`.
 * The limits stay reported: a caller that does not expire, an exported helper (callers out of
 * sight), a helper handed on as a value, an expiry on another unit, after `exec`, of another key,
 * on one branch only, and `allowPipeline: false`. Also an expiry queued in a loop over a `const`
 * array literal of the written keys (`redis-calls/collected-keys.ts`), and its limits.
 */
import incrRule from '../../rules/incr-needs-expire-on-create.js';
import setRule from '../../rules/set-requires-ttl-or-keepttl.js';
import { ioredis, positionOf, runRule, setSuggestions, untypedTester } from './tester.js';

const helper = "function incrementAgg(pipeline: ChainableCommander, aggKey: string) {\n  pipeline.hincrby(aggKey, 'events', 1);\n}\n";
const withType = (body: string) => ioredis(body).replace("import Redis from 'ioredis';", "import Redis, { type ChainableCommander } from 'ioredis';");
const caller = (name: string, lines: string) => `export async function ${name}(id: string) {\n  const p = redis.multi();\n  const k = \`agg:\${id}\`;\n${lines}\n  await p.exec();\n}\n`;
const good = caller('record', '  incrementAgg(p, k);\n  p.expire(k, 60);');

/** The helper's HINCRBY reported `noExpiry` (with its suggestion) in `code`. */
const hincrbyLeak = (code: string) => ({
  code,
  errors: [
    {
      messageId: 'noExpiry' as const,
      ...positionOf(code, "hincrby(aggKey, 'events', 1)"),
      suggestions: [{ messageId: 'appendExpire' as const, output: code.replace("pipeline.hincrby(aggKey, 'events', 1);", "pipeline.hincrby(aggKey, 'events', 1).expire(aggKey, TTL_SECONDS);") }],
    },
  ],
});

runRule(untypedTester, 'incr-needs-expire-on-create (a helper whose callers expire the key in the same unit)', incrRule, {
  valid: [
    withType(helper + good),
    // a `const` arrow helper; two callers, one passing a key expression written the same way at the expiry
    withType(
      "const incrementAgg = (pipeline: ChainableCommander, aggKey: string) => {\n  pipeline.hincrby(aggKey, 'events', 1);\n};\n" +
        good +
        'export function recordErrors(pipeline: ChainableCommander, id: string) {\n  incrementAgg(pipeline, `agg:${id}:e`);\n  pipeline.expire(`agg:${id}:e`, 60);\n}\n',
    ),
  ],
  invalid: [
    // one caller of two queues no expiry
    hincrbyLeak(withType(helper + good + caller('forget', '  incrementAgg(p, k);'))),
    // an exported helper: callers in other modules are out of sight
    hincrbyLeak(withType('export ' + helper + good)),
    // the helper is handed on as a value: its calls cannot all be listed
    hincrbyLeak(withType(helper + good + 'export const handlers = { incrementAgg };\n')),
    // the expiry is queued on another unit
    hincrbyLeak(withType(helper + caller('other', '  incrementAgg(p, k);\n  const q = redis.multi();\n  q.expire(k, 60);\n  await q.exec();'))),
    // the expiry is queued after exec(): another round trip
    hincrbyLeak(withType(helper + caller('late', '  incrementAgg(p, k);\n  await p.exec();\n  p.expire(k, 60);'))),
    // the expiry names another key
    hincrbyLeak(withType(helper + caller('another', '  incrementAgg(p, k);\n  p.expire(`${k}:x`, 60);'))),
    // the expiry is on one branch only
    hincrbyLeak(withType(helper + caller('branch', '  incrementAgg(p, k);\n  if (id.length > 3) p.expire(k, 60);'))),
    // allowPipeline off (strict): the caller's unit may be a pipeline, no atomic unit
    { ...hincrbyLeak(withType(helper + good)), options: [{ allowPipeline: false }] },
  ],
});

const setHelper = "function putDoc(unit: ChainableCommander, docKey: string) {\n  unit.set(docKey, 'x');\n}\n";
const setCaller = (lines: string) => `export async function save(id: string) {\n  const m = redis.multi();\n${lines}\n  await m.exec();\n}\n`;
const setLeak = withType(setHelper + setCaller('  putDoc(m, `doc:${id}`);\n  m.expire(`doc:${id}:old`, 60);'));

const histogram = (lines: string) =>
  ioredis(
    `export async function observe(name: string, value: number, min: number | null) {\n  const minKey = \`hist:\${name}:min\`;\n  const maxKey = \`hist:\${name}:max\`;\n  const m = redis.multi();\n  if (min === null || value < min) {\n    m.set(minKey, String(value));\n  }\n${lines}\n  await m.exec();\n}`,
  );
const histogramLeak = (code: string) => ({
  code,
  errors: [{ messageId: 'setWithoutTtl' as const, ...positionOf(code, 'set(minKey'), suggestions: setSuggestions(code, 'm.set(minKey, String(value)') }],
});

runRule(untypedTester, 'set-requires-ttl-or-keepttl (a helper whose callers expire the key; a loop over a const array of the keys)', setRule, {
  valid: [
    withType(setHelper + setCaller('  putDoc(m, `doc:${id}`);\n  m.expire(`doc:${id}`, 60);')),
    // the keys listed in a const array literal the expiry loop runs over, in the same MULTI
    histogram('  const expireKeys = [minKey, maxKey];\n  for (const ek of expireKeys) {\n    m.pexpire(ek, 60_000);\n  }'),
    histogram('  const expireKeys = [minKey, maxKey];\n  expireKeys.forEach((ek) => m.pexpire(ek, 60_000));'),
  ],
  invalid: [
    { code: setLeak, errors: [{ messageId: 'setWithoutTtl', ...positionOf(setLeak, "set(docKey, 'x')"), suggestions: setSuggestions(setLeak, "unit.set(docKey, 'x'") }] },
    // the array does not list the written key
    histogramLeak(histogram('  const expireKeys = [maxKey];\n  m.set(maxKey, "0");\n  for (const ek of expireKeys) m.pexpire(ek, 60_000);')),
    // the array is changed before the loop
    histogramLeak(histogram('  const expireKeys = [minKey, maxKey];\n  expireKeys.shift();\n  for (const ek of expireKeys) m.pexpire(ek, 60_000);')),
    // the loop runs after exec()
    histogramLeak(histogram('  const expireKeys = [minKey, maxKey];\n  await m.exec();\n  for (const ek of expireKeys) m.pexpire(ek, 60_000);')),
  ],
});

/** Keys written in a loop over one collection (`synced`) and expired by a loop over another (`toExpire`) that every addition to the first also fills. */
const sync = (fill: string, after = '') =>
  ioredis(
    `export async function sync(slice: string[], done: Set<string>) {\n  const toExpire: string[] = [];\n  const synced: string[] = [];\n  for (const resultKey of slice) {\n    const metaKey = \`meta:\${resultKey}\`;\n    if (done.has(resultKey)) {\n      toExpire.push(resultKey, metaKey);\n      continue;\n    }\n${fill}\n  }\n${after}  const p = redis.pipeline();\n  for (const resultKey of synced) {\n    p.hset(resultKey, { synced_at: 'now' });\n  }\n  for (const key of toExpire) {\n    p.expire(key, 60);\n  }\n  await p.exec();\n}`,
  );
const hsetLeak = (code: string) => ({
  code,
  errors: [
    {
      messageId: 'noExpiry' as const,
      ...positionOf(code, 'hset(resultKey'),
      suggestions: [{ messageId: 'appendExpire' as const, output: code.replace("p.hset(resultKey, { synced_at: 'now' });", "p.hset(resultKey, { synced_at: 'now' }).expire(resultKey, TTL_SECONDS);") }],
    },
  ],
});

runRule(untypedTester, 'incr-needs-expire-on-create (keys of one collection that every addition also puts in the collection expired later)', incrRule, {
  valid: [
    sync('    toExpire.push(resultKey, metaKey);\n    synced.push(resultKey);'),
    // the other order, a declaration between
    sync('    synced.push(resultKey);\n    const other = metaKey;\n    toExpire.push(other, resultKey);'),
  ],
  invalid: [
    // the expired collection does not get the written key
    hsetLeak(sync('    toExpire.push(metaKey);\n    synced.push(resultKey);')),
    // a `continue` may skip the second addition
    hsetLeak(sync('    synced.push(resultKey);\n    if (metaKey.length > 99) continue;\n    toExpire.push(resultKey);')),
    // the expired collection is emptied before its loop
    hsetLeak(sync('    toExpire.push(resultKey, metaKey);\n    synced.push(resultKey);', '  toExpire.length = 0;\n')),
    hsetLeak(sync('    toExpire.push(resultKey, metaKey);\n    synced.push(resultKey);', '  toExpire.splice(0);\n')),
  ],
});
