/**
 * Master failovers on a local cluster (three masters, one replica each, cluster-node-timeout
 * 1000 ms): the master of one identity's slot is killed (SIGKILL) while callers take, and its
 * replica takes over.
 *
 * - With `cluster-require-full-coverage no` the outage is that shard's only: an identity on a
 *   healthy shard stays on Redis throughout (never a fallback answer, so never more than its
 *   limit); the identity on the failed shard is answered by the memory store within timeoutMs and
 *   comes back to Redis after the failover.
 * - With Redis' default `cluster-require-full-coverage yes`, every node answers CLUSTERDOWN from
 *   the moment the dead master is marked failed until its replica is promoted: then every shard is
 *   unavailable, and identities on healthy shards get the policy's answer for that time too
 *   (fail-closed: never more than the limit; fallback: the documented bound, limit + local limit).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import calculateSlot from 'cluster-key-slot';
import { Cluster } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLimiter, type Limiter } from '../../runtime/index.js';
import { needsOwnServer } from '../helpers/redis.js';
import { keysWithoutTtl, withLoopDelay } from './measure.js';
import { SLACK_MS } from './scenario.js';
import { startReplicatedCluster, type ReplicatedCluster } from './servers.js';

const TIMEOUT_MS = 150;
const LIMIT = 50;

interface Run {
  /** Answers per identity and source (`'redis'` or the reason). */
  seen: Map<string, Map<string, number>>;
  /** Admitted calls per identity and limiter label. */
  admitted: Map<string, number>;
  maxMs: number;
  /** From the kill until the identity on the failed shard was answered by Redis again, ms. */
  failoverMs: number;
  /** From the first to the last non-Redis answer of the healthy identity, ms (0: none). */
  healthyOutageMs: number;
}

describe.skipIf(needsOwnServer('the fault tests kill the masters of a cluster of their own'))('cluster master failovers', () => {
  let cluster: ReplicatedCluster;
  let client: Cluster;

  beforeAll(async () => {
    cluster = await startReplicatedCluster(1000, ['--cluster-require-full-coverage', 'no']);
    client = new Cluster(
      cluster.nodes.map((n) => ({ host: '127.0.0.1', port: n.port })),
      { redisOptions: { maxRetriesPerRequest: 2 } },
    );
    client.on('error', () => undefined);
    client.on('node error', () => undefined);
    await client.set('ready', '1', 'PX', 1000);
  }, 60_000);
  afterAll(async () => {
    client?.disconnect();
    await cluster?.stop();
  });

  /** An identity whose slot `accept`s its master (and replicas). */
  async function identityWhere(limiter: Limiter, label: string, accept: (master: number, replicas: number[]) => boolean): Promise<string> {
    for (let i = 0; ; i += 1) {
      const slot = calculateSlot(limiter.keyFor(`${label}-${i}`));
      if (accept(await cluster.masterOf(slot), await cluster.replicasOf(slot))) return `${label}-${i}`;
    }
  }

  /**
   * Takes with every limiter for the healthy and the dead identity from 8 callers each, kills
   * `victim` after 500 ms, and stops 500 ms after the dead identity is back on Redis.
   */
  async function failover(limiters: Record<string, Limiter>, healthy: string, dead: string, victim: number): Promise<Run> {
    const seen = new Map<string, Map<string, number>>([[healthy, new Map()], [dead, new Map()]]);
    const admitted = new Map<string, number>();
    let maxMs = 0;
    let killedAt = 0;
    let deadBackAt = 0;
    let healthyFirst = 0;
    let healthyLast = 0;
    const started = performance.now();
    const loop = async (identity: string) => {
      while (performance.now() - started < 20_000 && (deadBackAt === 0 || performance.now() - deadBackAt < 500)) {
        for (const [label, limiter] of Object.entries(limiters)) {
          const t0 = performance.now();
          const r = await limiter.take(identity);
          const now = performance.now();
          maxMs = Math.max(maxMs, now - t0);
          const source = r.reason ?? 'redis';
          const counts = seen.get(identity)!;
          counts.set(source, (counts.get(source) ?? 0) + 1);
          if (r.allowed) admitted.set(`${identity} ${label}`, (admitted.get(`${identity} ${label}`) ?? 0) + 1);
          if (identity === healthy && source !== 'redis') {
            healthyFirst ||= now;
            healthyLast = now;
          }
          if (identity === dead && killedAt > 0 && source === 'redis' && (counts.get('fallback') ?? counts.get('redis-unavailable') ?? 0) > 0) deadBackAt ||= now;
        }
        await sleep(2);
      }
    };
    const [, loopDelayMs] = await withLoopDelay(async () => {
      const loops = [...Array.from({ length: 8 }, () => loop(healthy)), ...Array.from({ length: 8 }, () => loop(dead))];
      await sleep(500);
      cluster.kill(victim);
      killedAt = performance.now();
      await Promise.all(loops);
    });
    const run = { seen, admitted, maxMs, loopDelayMs, failoverMs: deadBackAt - killedAt, healthyOutageMs: healthyLast - healthyFirst };
    if (process.env.FAULTS_VERBOSE) console.log({ ...run, seen: [...seen].map(([k, v]) => [k, Object.fromEntries(v)]) });
    expect(deadBackAt, 'the identity on the failed shard came back to Redis').toBeGreaterThan(0);
    expect(await cluster.masterOf(calculateSlot(Object.values(limiters)[0]!.keyFor(dead)))).not.toBe(victim);
    expect(maxMs, 'every answer within timeoutMs').toBeLessThan(TIMEOUT_MS + SLACK_MS + loopDelayMs);
    expect(await keysWithoutTtl(client)).toEqual([]);
    return run;
  }

  // Fixed windows start at multiples of windowMs since the epoch: an hour-long window let a run
  // across the top of the hour admit LIMIT twice (seen at 05:00 UTC). Ten years have no boundary
  // during a test run.
  const options = { algorithm: 'fixed-window', limit: LIMIT, windowMs: 10 * 365 * 86_400_000, timeoutMs: TIMEOUT_MS, redisProbeIntervalMs: 200 } as const;

  it('cluster-require-full-coverage no: the healthy shard never leaves Redis (never over its limit), the failed one falls back and comes back', async () => {
    const limiter = createLimiter(client, { ...options, onRedisError: 'fallback', namespace: 'partial' });
    const dead = await identityWhere(limiter, 'dead', (_, replicas) => replicas.length > 0);
    const victim = await cluster.masterOf(calculateSlot(limiter.keyFor(dead)));
    const healthy = await identityWhere(limiter, 'healthy', (master) => master !== victim);
    const run = await failover({ fallback: limiter }, healthy, dead, victim);
    expect([...run.seen.get(healthy)!.keys()]).toEqual(['redis']);
    expect(run.admitted.get(`${healthy} fallback`)).toBe(LIMIT);
    expect(run.seen.get(dead)!.get('fallback')).toBeGreaterThan(0);
  }, 60_000);

  it("Redis' default (full coverage required): every shard answers CLUSTERDOWN until the promotion; fail-closed stays within the limit, fallback within limit + local limit", async () => {
    await cluster.configSet('cluster-require-full-coverage', 'yes');
    const closed = createLimiter(client, { ...options, onRedisError: 'fail-closed', namespace: 'fullclosed' });
    const fallback = createLimiter(client, { ...options, onRedisError: 'fallback', namespace: 'fullfallback' });
    // a master that still has its replica (the first test promoted one that has none)
    const dead = await identityWhere(closed, 'dead', (_, replicas) => replicas.length > 0);
    const victim = await cluster.masterOf(calculateSlot(closed.keyFor(dead)));
    const healthy = await identityWhere(closed, 'healthy', (master) => master !== victim);
    const run = await failover({ closed, fallback }, healthy, dead, victim);
    expect(run.admitted.get(`${healthy} closed`)).toBe(LIMIT);
    expect(run.admitted.get(`${healthy} fallback`)).toBeGreaterThanOrEqual(LIMIT);
    expect(run.admitted.get(`${healthy} fallback`)).toBeLessThanOrEqual(2 * LIMIT);
    // the healthy shard was unavailable only while the cluster was down, not for the whole failover
    expect(run.healthyOutageMs).toBeLessThan(run.failoverMs);
  }, 60_000);
});
