/**
 * `fixed-window-expire` and a streak counter: an INCR whose EXPIRE runs on every increment and whose
 * reply is compared with a limit after it, in a function that deletes the same key (DEL / UNLINK)
 * on a path the increment never takes: the two arms of one `if`, or one of them on an arm that
 * always leaves (`if (success) { del(k); return }`) and the other after that `if`. The counter
 * counts failures since the last success, which resets it; re-arming its expiry on each failure
 * (a lockout that ends a while after the last failure) is its purpose, so it is not reported. The
 * key may be spelled through the `const` it is read from. Stays reported: a DEL on the same path
 * as the increment (both run), a DEL on an arm that does not always leave, a DEL of another key,
 * and a DEL in another function (a reset endpoint of a rate limiter).
 */
import fixedWindowExpire from '../../rules/fixed-window-expire.js';
import { ioredis, runRule, untypedTester } from './tester.js';

const rearmed = (body: string, line: number, column: number, expire: string) => {
  const code = ioredis(body);
  return {
  code,
  errors: [{ messageId: 'rearmedOnEveryIncrement' as const, line, column, suggestions: [{ messageId: 'addNx' as const, output: code.replace(expire, expire.replace(/\)$/, ", 'NX')")) }] }],
  };
};

runRule(untypedTester, 'fixed-window-expire (a streak counter its function resets)', fixedWindowExpire, {
  valid: [
    // reset on success before the failure path (an arm that returns)
    ioredis(
      'export async function track(id: string, success: boolean) {\n  const key = `attempts:${id}`;\n  if (success) {\n    await redis.del(key);\n    return 0;\n  }\n  const n = await redis.incr(key);\n  await redis.expire(key, 900);\n  return n >= 5 ? -1 : n;\n}',
    ),
    // counted on a failure arm that returns, reset after it; the key through its const
    ioredis(
      "export async function change(uid: string, ok: boolean) {\n  if (!ok) {\n    const failuresKey = `pw_failures:${uid}`;\n    const failures = await redis.incr(failuresKey);\n    await redis.expire(failuresKey, 15 * 60);\n    if (failures >= 3) throw new Error('locked');\n    return false;\n  }\n  await redis.del(`pw_failures:${uid}`);\n  return true;\n}",
    ),
    // the two arms of one if
    ioredis(
      'export async function record(id: string, ok: boolean) {\n  const key = `fails:${id}`;\n  if (ok) await redis.unlink(key);\n  else {\n    const n = await redis.incr(key);\n    await redis.expire(key, 600);\n    if (n > 3) return false;\n  }\n  return true;\n}',
    ),
  ],
  invalid: [
    // the DEL runs with the increment: no streak
    rearmed(
      'export async function hit(id: string, limit: number) {\n  const key = `rl:${id}`;\n  await redis.del(`rl:old:${id}`);\n  const n = await redis.incr(key);\n  await redis.expire(key, 60);\n  return n <= limit;\n}',
      7,
      15,
      'redis.expire(key, 60)',
    ),
    // on an arm that does not always leave: both can run
    rearmed(
      'export async function hit(id: string, limit: number, fresh: boolean) {\n  const key = `rl:${id}`;\n  if (fresh) await redis.del(key);\n  const n = await redis.incr(key);\n  await redis.expire(key, 60);\n  return n <= limit;\n}',
      7,
      15,
      'redis.expire(key, 60)',
    ),
    // another key deleted on the other arm
    rearmed(
      'export async function track(id: string, success: boolean) {\n  const key = `attempts:${id}`;\n  if (success) {\n    await redis.del(`sessions:${id}`);\n    return 0;\n  }\n  const n = await redis.incr(key);\n  await redis.expire(key, 900);\n  return n >= 5 ? -1 : n;\n}',
      10,
      15,
      'redis.expire(key, 900)',
    ),
    // a rate limiter with a reset endpoint: the DEL is in another function
    rearmed(
      'export async function allow(ip: string, limit: number) {\n  const count = await redis.incr(`rl:${ip}`);\n  await redis.expire(`rl:${ip}`, 60);\n  return count <= limit;\n}\nexport async function reset(ip: string) {\n  await redis.del(`rl:${ip}`);\n}',
      5,
      15,
      'redis.expire(`rl:${ip}`, 60)',
    ),
  ],
});
