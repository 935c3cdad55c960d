/**
 * A network blackhole (the proxy freezes: no byte either way, no RST) between an ioredis client
 * with its default options and a redis-server of this file's own. The full-length run (45 s,
 * 512 callers) is `npm run bench:faults`.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { needsOwnServer } from '../helpers/redis.js';
import { until } from './measure.js';
import { FaultProxy } from './proxy.js';
import { PROBE_MS, runOutage, TIMEOUT_MS } from './scenario.js';
import { startOwnServer, type OwnServer } from './servers.js';

describe.skipIf(needsOwnServer('the fault tests stop, freeze and reconfigure a redis-server of their own'))('a network blackhole', () => {
  let server: OwnServer;
  let proxy: FaultProxy;
  let redis: Redis;
  let admin: Redis;

  beforeAll(async () => {
    server = await startOwnServer();
    proxy = await FaultProxy.start(server.url);
    redis = new Redis(proxy.url); // ioredis defaults: offline queue, 20 retries per request
    redis.on('error', () => undefined);
    admin = new Redis(server.url);
  });
  afterAll(async () => {
    redis?.disconnect();
    admin?.disconnect();
    await proxy?.close();
    await server?.stop();
  });

  it('every policy and helper answers within timeoutMs, nothing is sent once the shard is down, and it recovers', async () => {
    const callers = 16;
    const result = await runOutage({
      redis,
      admin: () => admin,
      inject: () => proxy.freeze(),
      heal: () => proxy.thaw(),
      callers,
      durationMs: 2000,
      recoveryMs: PROBE_MS + TIMEOUT_MS + 1000,
    });
    await until(async () => redis.commandQueue.length === 0, 2000);
    // what ran on Redis for the fail-closed identity: the warm-up, plus at most the calls in flight
    // when the blackhole began; none of the thousands answered during it
    const ran = Number(await admin.get(result.closedKey));
    expect(ran).toBeGreaterThanOrEqual(1);
    expect(ran).toBeLessThanOrEqual(1 + callers);
    expect(result.closed.count).toBeGreaterThan(50 * ran);
  }, 30_000);
});
