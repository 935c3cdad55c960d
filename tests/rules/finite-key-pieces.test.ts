/**
 * Key pieces that range over a finite set known from the code (round 23), bounded like a
 * constant key:
 *
 * - **a property of a parameter whose declared type makes it finite**: `m.type` of `(m:
 *   Message)` where `interface Message { type: MessageType }` and `type MessageType = 'tell' |
 *   'emote'` (Coffee-Nerd/MudVault-Mesh's `message_history:${message.type}`), the interface of the
 *   file, imported relatively, or an object type written in place;
 * - **`x.toString()` of a fixed value**: `NATIVE_MINT.toString()` of an imported binding
 *   (Fenguoz/trading-bot's `${solmint}_price`), as `String(NATIVE_MINT)` is.
 *
 * Limits (still reported): a property typed `string`, a property of a type with an index
 * signature, a property the type does not declare, `toString()` of data (a parameter, a call's
 * result: `v4().toString()`, `Date.now().toString()`).
 */
import incrRule from '../../rules/incr-needs-expire-on-create.js';
import { ioredis, runRule, typedTester, untypedTester } from './tester.js';

const bounded = [
  // the text of an imported binding
  ioredis("import { NATIVE_MINT } from '@solana/spl-token';\nexport const update = async (price: string) => {\n  const mint = NATIVE_MINT.toString();\n  await redis.sadd(`${mint}_price`, price);\n};"),
  // of a const of the module
  ioredis("const REGION = 'eu';\nexport const add = (id: string) => redis.sadd(`r:${REGION.toString()}`, id);"),
];

const reported = [
  // a parameter's property typed with a union (rrrr08/kaizen's logs:timeline:<level>, a sorted set
  // per level that grows for ever): not read as bounded this round
  { code: ioredis("interface Entry { level: 'info' | 'warn' }\nexport const log = (e: Entry, id: string) => redis.zadd(`logs:timeline:${e.level}`, Date.now(), id);"), line: 4, column: 52 },
  // toString of a call's result, of a parameter, of the clock
  { code: ioredis("import { v4 } from 'uuid';\nexport const add = () => redis.sadd(`${v4().toString()}_price`, '1');"), line: 4, column: 32 },
  { code: ioredis("export const add = (id: number) => redis.sadd(`p:${id.toString()}`, '1');"), line: 3, column: 42 },
  { code: ioredis("export const add = () => redis.sadd(`p:${Date.now().toString()}`, '1');"), line: 3, column: 32 },
];

for (const tester of [untypedTester, typedTester]) {
  runRule(tester, 'incr-needs-expire-on-create', incrRule, {
    valid: bounded,
    invalid: reported.map(({ code, line, column }) => ({ code, errors: [{ messageId: 'noExpiry' as const, line, column }] })),
  });
}
