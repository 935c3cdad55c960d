/**
 * Generic command calls (issue 25, item 5): a call that names its command is read as that command
 * for every client, through the command table: ioredis `call('SETEX', k, 60, v)`, Bun's
 * `send('SETEX', [k, '60', v])`, `command('SET', k, v)`, node-redis v3 `send_command('SET', [k, v])`,
 * node-redis `sendCommand([...])`. An expiry sent that way is an expiry; a write sent that way is a
 * write; `command('INFO', 'get')` (ioredis' COMMAND) runs nothing.
 */
import expireNeedsPositiveTtl from '../../rules/expire-needs-positive-ttl.js';
import incrRule from '../../rules/incr-needs-expire-on-create.js';
import setRule from '../../rules/set-requires-ttl-or-keepttl.js';
import ttlUnits from '../../rules/ttl-units.js';
import { ioredis, nodeRedis, runRule, setSuggestions, typedTester, untypedTester } from './tester.js';

/** A client the file only knows by its name (Bun's `redis` export, a thin client). */
const named = (body: string): string => `declare const redis: any;\n${body}`;

for (const tester of [untypedTester, typedTester]) {
  runRule(tester, 'set-requires-ttl-or-keepttl', setRule, {
    valid: [
      named("redis.send('SETEX', [`s:${id}`, '60', v]);"),
      named("redis.send('SET', [`s:${id}`, v, 'EX', '60']);"),
      ioredis('redis.call("SETEX", `s:${id}`, 60, v);'),
      named("redis.command('SET', `s:${id}`, v, 'PX', 500);"),
      named("redis.send_command('SET', [`s:${id}`, v, 'EX', 60], (err) => {});"),
      // ioredis' command() is COMMAND: `command('INFO', 'set')` describes SET, it writes nothing
      ioredis("redis.command('INFO', 'set');"),
    ],
    invalid: [
      {
        code: named("redis.send('SET', [`s:${id}`, v]);"),
        errors: [
          {
            messageId: 'setWithoutTtl',
            line: 2,
            column: 12,
            suggestions: setSuggestions(named("redis.send('SET', [`s:${id}`, v]);"), 'redis.send(\'SET\', [`s:${id}`, v'),
          },
        ],
      },
      {
        code: named("redis.command('SET', `s:${id}`, v);"),
        errors: [
          {
            messageId: 'setWithoutTtl',
            line: 2,
            column: 15,
            suggestions: setSuggestions(named("redis.command('SET', `s:${id}`, v);"), 'redis.command(\'SET\', `s:${id}`, v'),
          },
        ],
      },
      {
        code: nodeRedis("client.send_command('SET', [`s:${id}`, v], (err) => {});"),
        errors: [
          {
            messageId: 'setWithoutTtl',
            line: 3,
            column: 21,
            suggestions: setSuggestions(nodeRedis("client.send_command('SET', [`s:${id}`, v], (err) => {});"), 'client.send_command(\'SET\', [`s:${id}`, v'),
          },
        ],
      },
    ],
  });

  runRule(tester, 'incr-needs-expire-on-create', incrRule, {
    valid: [
      // the expiry of a generic call is an expiry, in one MULTI with the write
      ioredis("redis.multi().call('INCR', `n:${id}`).call('EXPIRE', `n:${id}`, 60).exec();"),
      named("redis.send('HSET', ['h:config', 'f', 'v']);"),
    ],
    invalid: [
      {
        code: named("export async function hit(id: string) {\n  await redis.send('INCR', [`n:${id}`]);\n  await redis.send('EXPIRE', [`n:${id}`, '60']);\n}"),
        errors: [{ messageId: 'separateRoundTrip', line: 3, column: 20 }],
      },
      {
        code: nodeRedis("client.sendCommand(['HSET', `h:${id}`, 'f', 'v']);"),
        errors: [{ messageId: 'noExpiry', line: 3, column: 21 }],
      },
    ],
  });

  runRule(tester, 'expire-needs-positive-ttl', expireNeedsPositiveTtl, {
    valid: [named("redis.send('EXPIRE', [k, '60']);")],
    invalid: [
      {
        code: named("redis.send('SETEX', [k, '0', v]);"),
        errors: [{ messageId: 'literalRejected', line: 2, column: 25, data: { command: 'SETEX', value: '0', key: 'k' } }],
      },
    ],
  });

  runRule(tester, 'ttl-units', ttlUnits, {
    valid: [],
    invalid: [{ code: named("export const f = (ttlSeconds: number) => redis.call('PEXPIRE', k, ttlSeconds);"), errors: [{ messageId: 'secondsAsMs', line: 2, column: 67, suggestions: [] }] }],
  });
}
