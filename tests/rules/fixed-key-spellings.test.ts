/**
 * One fixed key (round 34): a key whose every possible value is one of finitely many constants is
 * bounded, however its spelling is reached. Two readings that used to lose it:
 *
 * - a configured or constant value normalised by an argument-less text method (`trim()`,
 *   `trimStart()`, `trimEnd()`, `toLowerCase()`, `toUpperCase()`, as `toString()` already was):
 *   `process.env.REDIS_KEY_PREFIX?.trim() || 'workdcup:'` is one prefix per deployment
 *   (thombanal/polymarket-fifa-arbitrage);
 * - a key builder that spreads an array parameter into a joined array literal (`[group,
 *   ...parts].join(sep)`), called with an array literal of constants (`struct(groups.reportLog,
 *   [])`, 1MaTo/Nora).
 *
 * Near-misses stay reported: the same method on data (a parameter, a request's value), the same
 * builder given an id (`[guildId]`), an array that is not a literal at the call, a spread of
 * something else, a parameter that the builder also changes, and a fixed key the file expires
 * elsewhere.
 */
import incrRule from '../../rules/incr-needs-expire-on-create.js';
import setRule from '../../rules/set-requires-ttl-or-keepttl.js';
import { ioredis, nodeRedis, runRule, setWithoutTtlAt, untypedTester, typedTester } from './tester.js';

const prefix = "const KEY_PREFIX = process.env.REDIS_KEY_PREFIX?.trim() || 'app:';\n";
const struct = "const keyDivider = '#@$#';\nconst redisKey = { struct: (groupKey: string, kies: string[]) => [groupKey, ...kies].join(keyDivider) };\nconst groupsKey = { reportLog: 'BOT_REPORT_LOG', token: 'IAM_TOKEN', commandLog: 'GUILD_COMMAND_LOG' };\n";

const fixed = [
  // a configured prefix trimmed once, with a constant after it (a capped list, a counter)
  ioredis(`${prefix}export async function record(o: string) {\n  await redis.lpush(\`\${KEY_PREFIX}opportunities\`, o);\n  await redis.ltrim(\`\${KEY_PREFIX}opportunities\`, 0, 49);\n}`),
  ioredis(`${prefix}const keys = { stats: \`\${KEY_PREFIX}stats\` };\nexport const bump = () => redis.incr(keys.stats);`),
  // the other text methods, of a constant, of a module const and of an environment setting
  ioredis("const NAME = 'Jobs';\nexport const bump = () => redis.incr(`${NAME.toLowerCase()}:runs`);"),
  ioredis('export const bump = () => redis.incr(`${(process.env.APP_NAME ?? "app").toUpperCase()}:runs`);'),
  ioredis("const BASE = ' queue ';\nexport const add = (j: string) => redis.sadd(BASE.trimStart().trimEnd(), j);"),
  // a builder spreading its array parameter into a joined array literal, given constants only
  ioredis(`${struct}export const add = (r: string) => redis.sadd(redisKey.struct(groupsKey.reportLog, []), r);`),
  ioredis(`${struct}export const bump = () => redis.incr(redisKey.struct(groupsKey.token, ['NORA_TOKEN']));`),
  // a rest parameter spread into the joined literal
  ioredis("const key = (...parts: string[]) => ['app', ...parts].join(':');\nexport const bump = () => redis.incr(key('stats', 'daily'));"),
];

const reported = [
  // the text method of data: one key per value
  { code: ioredis('export const bump = (name: string) => redis.incr(`${name.trim()}:runs`);'), line: 3, column: 45 },
  { code: ioredis('export const bump = (req: { user: string }) => redis.incr(`u:${req.user.toLowerCase()}`);'), line: 3, column: 54 },
  // a trimmed configured prefix beside the data of the call
  { code: ioredis(`${prefix}export const bump = (id: string) => redis.incr(\`\${KEY_PREFIX}user:\${id}\`);`), line: 4, column: 43 },
  // the builder given an id, an array that is not a literal, a spread of something else
  { code: ioredis(`${struct}export const add = (guildId: string, l: string) => redis.sadd(redisKey.struct(groupsKey.commandLog, [guildId]), l);`), line: 6, column: 58 },
  { code: ioredis(`${struct}export const add = (ids: string[], l: string) => redis.sadd(redisKey.struct(groupsKey.commandLog, ids), l);`), line: 6, column: 56 },
  { code: ioredis("const key = (g: string, ids: string[]) => [g, ...ids.map((i) => i.trim())].join(':');\nexport const bump = () => redis.incr(key('stats', ['a']));"), line: 4, column: 33 },
  // a parameter the builder also changes (pushed to): not the literal of the call
  { code: ioredis("const key = (g: string, ids: string[]) => { ids.push(String(Date.now())); return [g, ...ids].join(':'); };\nexport const bump = () => redis.incr(key('stats', []));"), line: 4, column: 33 },
  // a rest parameter given data
  { code: ioredis("const key = (...parts: string[]) => ['app', ...parts].join(':');\nexport const bump = (id: string) => redis.incr(key('user', id));"), line: 4, column: 43 },
];

for (const tester of [untypedTester, typedTester]) {
  runRule(tester, 'incr-needs-expire-on-create (fixed key spellings)', incrRule, {
    valid: fixed,
    invalid: [
      ...reported.map(({ code, line, column }) => ({ code, errors: [{ messageId: 'noExpiry' as const, line, column }] })),
      // strict reports the fixed key too
      { code: fixed[1]!, options: [{ allowConstantKeys: false }] as [{ allowConstantKeys: boolean }], errors: [{ messageId: 'noExpiry' as const, line: 5, column: 33 }] },
    ],
  });
}

// SET of one fixed key overwritten in place (a bot's running totals, its one cached token)
const setFixed = [
  ioredis(`${prefix}export const save = (v: string) => redis.set(\`\${KEY_PREFIX}stats\`, v);`),
  ioredis(`${struct}export const save = (v: string) => redis.set(redisKey.struct(groupsKey.token, ['NORA_TOKEN']), v);`),
  nodeRedis(`${struct}export const save = (v: string) => client.set(redisKey.struct(groupsKey.reportLog, []), v);`),
];
const setReported = ioredis(`${struct}export const save = (guildId: string, v: string) => redis.set(redisKey.struct(groupsKey.commandLog, [guildId]), v);`);
runRule(untypedTester, 'set-requires-ttl-or-keepttl (fixed key spellings)', setRule, {
  valid: setFixed,
  invalid: [
    { code: setReported, errors: [setWithoutTtlAt(setReported, 6, 59)] },
    // a fixed key the file expires elsewhere is meant to expire: the SET that misses it is reported
    {
      code: ioredis(`${prefix}export const save = (v: string) => redis.set(\`\${KEY_PREFIX}stats\`, v);\nexport const arm = () => redis.expire(\`\${KEY_PREFIX}stats\`, 60);`),
      errors: [setWithoutTtlAt(ioredis(`${prefix}export const save = (v: string) => redis.set(\`\${KEY_PREFIX}stats\`, v);\nexport const arm = () => redis.expire(\`\${KEY_PREFIX}stats\`, 60);`), 4, 42)],
    },
  ],
});
