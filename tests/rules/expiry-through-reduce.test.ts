/**
 * The keys collected while queuing the writes, through a `reduce` accumulator: the write's key is
 * pushed to `acc.<prop>` beside the write in the reducer, the result is destructured (`const {
 * <prop> } = items.reduce(...)`), and a later loop over it queues the expiry of each before EXEC
 * (Discord-InterChat's addBroadcasts). The expiry is in the same unit: not reported. Near misses
 * stay reported: a reducer that does not return its accumulator, a loop over another property,
 * a push on one branch only, and the expiries queued after `exec()`.
 */
import incrRule from '../../rules/incr-needs-expire-on-create.js';
import setRule from '../../rules/set-requires-ttl-or-keepttl.js';
import { ioredis, runRule, setSuggestions, untypedTester } from './tester.js';

/** `write` is the queued write of `k` (line 8); `push`, `ret`, `loop`, `tail` vary the near misses. */
const code = ({
  write = 'p.set(k, origin);',
  push = 'acc.keys.push(k);',
  ret = 'return acc;',
  destructure = '{ entries, keys }',
  loop = 'for (const key of keys) p.expire(key, 86400);\n  await p.exec();',
} = {}) =>
  ioredis(
    [
      'export async function add(origin: string, ...items: { id: string; ch: string }[]) {',
      '  const p = redis.pipeline();',
      `  const ${destructure} = items.reduce(`,
      '    (acc, item) => {',
      '      const k = `rev:${item.id}`;',
      `      ${write}`,
      '      acc.entries.push(item.ch);',
      `      ${push}`,
      `      ${ret}`,
      '    },',
      '    { entries: [] as string[], keys: [] as string[] },',
      '  );',
      `  ${loop}`,
      '  return entries;',
      '}',
    ].join('\n'),
  );

const setWithoutTtl = (source: string) => ({
  code: source,
  errors: [{ messageId: 'setWithoutTtl' as const, line: 8, column: 9, suggestions: setSuggestions(source, 'p.set(k, origin') }],
});

runRule(untypedTester, 'set-requires-ttl-or-keepttl (keys collected through a reduce accumulator)', setRule, {
  valid: [
    code(),
    // an alias, a loop by forEach, push before the write
    code({
      destructure: '{ entries, keys: reverse }',
      loop: 'reverse.forEach((key) => p.expire(key, 86400));\n  await p.exec();',
      write: 'acc.keys.push(k);',
      push: 'p.set(k, origin);',
    }),
  ],
  invalid: [
    // the reducer returns a copy: the destructured keys are not the ones it pushed to
    setWithoutTtl(code({ ret: 'return { ...acc };' })),
    // the loop runs over another property
    setWithoutTtl(code({ loop: 'for (const key of entries) p.expire(key, 86400);\n  await p.exec();' })),
    // the key is pushed on one branch only
    setWithoutTtl(code({ push: 'if (item.ch) acc.keys.push(k);' })),
    // the expiries are queued after exec()
    setWithoutTtl(code({ loop: 'await p.exec();\n  for (const key of keys) await redis.expire(key, 86400);' })),
  ],
});

const sadd = (source: string) => ({
  code: source,
  errors: [
    {
      messageId: 'noExpiry' as const,
      line: 8,
      column: 9,
      data: { command: 'SADD', key: 'rev:*', client: '', hint: " Kept forever on purpose? Add 'rev:*' to settings['redis-ttl'].persistentKeys." },
      suggestions: [{ messageId: 'appendExpire' as const, output: source.replace('p.sadd(k, origin);', 'p.sadd(k, origin).expire(k, TTL_SECONDS);') }],
    },
  ],
});

runRule(untypedTester, 'incr-needs-expire-on-create (keys collected through a reduce accumulator)', incrRule, {
  valid: [code({ write: 'p.sadd(k, origin);', loop: 'for (const key of keys) p.expire(key, 86400);\n  await p.exec();' }).replace('redis.pipeline()', 'redis.multi()')],
  invalid: [sadd(code({ write: 'p.sadd(k, origin);', ret: 'return { ...acc };' }).replace('redis.pipeline()', 'redis.multi()'))],
});
