/**
 * Exercises the app against the Redis at REDIS_URL (default redis://127.0.0.1:6379): logins,
 * rate-limited API calls, usage recording and three periodic collections (one account never has
 * usage). Prints what it did; afterwards, every key it wrote should have a TTL. KEY_PREFIX, when set,
 * is put before every key (ioredis `keyPrefix`), so that runs can share a database.
 */
import { Redis } from 'ioredis';
import { collectUsage, recordUsage } from './src/billing.js';
import { allow } from './src/rate-limit.js';
import { createSession, getSession } from './src/sessions.js';

const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', {
  maxRetriesPerRequest: 2,
  keyPrefix: process.env.KEY_PREFIX ?? '',
});
const accounts = ['acme', 'globex', 'initech'];
const idle = 'hooli';

try {
  let allowed = 0;
  let billed = 0;
  for (let round = 0; round < 3; round++) {
    for (const account of accounts) {
      const id = await createSession(redis, `${account}-user-${round}`);
      if ((await getSession(redis, id)) === null) throw new Error(`session ${id} missing`);
      for (let call = 0; call < 10; call++) {
        if (await allow(redis, `key-${account}`)) {
          allowed++;
          await recordUsage(redis, account, 2);
        }
      }
    }
    for (const account of [...accounts, idle]) billed += await collectUsage(redis, account);
  }
  console.log(JSON.stringify({ allowed, billed }));
  if (billed !== allowed * 2) throw new Error(`billed ${billed} seconds for ${allowed} calls`);
} finally {
  await redis.quit();
}
