/**
 * Resharding on a local cluster (three masters), with ioredis' `Cluster` and node-redis'
 * `createCluster()`: one slot is moved from one master to another (CLUSTER SETSLOT IMPORTING /
 * MIGRATING, MIGRATE of its keys, SETSLOT NODE: what `redis-cli --cluster reshard` does) while
 * limiters and a cache take calls for identities and keys all over the cluster, on the moving slot
 * too. The cache's scripts are two-key: on the moving slot they get TRYAGAIN (node-redis hands it
 * to the caller; ioredis retries it itself, past the runtime's deadline), and single-key calls get
 * ASK and MOVED. None of that is an outage: no limiter answer comes from the outage policy, the
 * master of the moving slot is never marked down, and every call on it is answered by Redis or,
 * for a cache call still redirected at its deadline, by that call's own policy (its loader).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { Cluster, Redis } from 'ioredis';
import { createCluster } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCache, createLimiter, type Limiter, type RedisClient } from '../../runtime/index.js';
import { healthFor } from '../../runtime/health.js';
import { keySlot } from '../../runtime/slot.js';
import { startRedisCluster, type RedisClusterHandle } from '../helpers/redis-cluster.js';
import { needsOwnServer } from '../helpers/redis.js';
import { keysWithoutTtl, until } from './measure.js';

// a command timeout well above a loaded machine's latency: the test is about redirections (MOVED,
// ASK, TRYAGAIN) never being read as an outage, and at 150 ms a 2-core machine at load 15 timed
// commands out, so the fail-closed answers it counted were timeouts, not redirections
const TIMEOUT_MS = 1_000;
const PROBE_MS = 200;

interface Node {
  port: number;
  id: string;
  admin: Redis;
}

describe.skipIf(needsOwnServer('the fault tests reshard a cluster of their own'))('resharding: TRYAGAIN, ASK and MOVED are not outages', () => {
  let handle: RedisClusterHandle;
  let nodes: Node[];
  let checker: Cluster;

  beforeAll(async () => {
    handle = await startRedisCluster({ fresh: true });
    nodes = await Promise.all(
      handle.ports.map(async (port) => {
        const admin = new Redis({ port, host: '127.0.0.1' });
        return { port, id: await admin.cluster('MYID'), admin };
      }),
    );
    checker = new Cluster(handle.nodes);
    checker.on('error', () => undefined);
  }, 60_000);
  afterAll(async () => {
    checker?.disconnect();
    for (const node of nodes ?? []) node.admin.disconnect();
    await handle?.stop();
  });

  /** The node serving `slot` now (CLUSTER SLOTS of the first node). */
  async function ownerOf(slot: number): Promise<Node> {
    const ranges = (await nodes[0]!.admin.cluster('SLOTS')) as unknown as Array<[number, number, [string, number, string]]>;
    const range = ranges.find(([from, to]) => slot >= from && slot <= to)!;
    return nodes.find((n) => n.port === range[2][1])!;
  }

  /** Moves `slot` from its owner to `target` key by key, `pauseMs` between keys, as a reshard does. */
  async function moveSlot(slot: number, target: Node, pauseMs: number, whileOpen: () => Promise<void>): Promise<void> {
    const source = await ownerOf(slot);
    await target.admin.cluster('SETSLOT', slot, 'IMPORTING', source.id);
    await source.admin.cluster('SETSLOT', slot, 'MIGRATING', target.id);
    await whileOpen();
    for (;;) {
      const keys = (await source.admin.cluster('GETKEYSINSLOT', slot, 1)) as string[];
      if (keys.length === 0) break;
      await source.admin.migrate('127.0.0.1', String(target.port), '', 0, 5_000, 'KEYS', ...keys);
      await sleep(pauseMs);
    }
    for (const node of nodes) await node.admin.cluster('SETSLOT', slot, 'NODE', target.id);
  }

  async function identityOn(limiter: Limiter, accept: (slot: number, owner: Node) => boolean): Promise<string> {
    for (let i = 0; ; i += 1) {
      const slot = keySlot(limiter.keyFor(`user-${i}`));
      if (accept(slot, await ownerOf(slot))) return `user-${i}`;
    }
  }

  const clients: Record<string, (ports: number[]) => Promise<{ client: RedisClient; close: () => Promise<void> }>> = {
    'ioredis Cluster': async (ports) => {
      const client = new Cluster(ports.map((port) => ({ host: '127.0.0.1', port })));
      client.on('error', () => undefined);
      await client.set('ready{x}', '1', 'PX', 1000);
      return { client, close: async () => client.disconnect() };
    },
    'node-redis createCluster()': async (ports) => {
      const client = createCluster({ rootNodes: ports.map((port) => ({ url: `redis://127.0.0.1:${port}` })) });
      client.on('error', () => undefined);
      await client.connect();
      return { client: client as unknown as RedisClient, close: async () => void (await client.close()) };
    },
  };

  it.each(Object.keys(clients))('%s: a slot that no node serves is that slot\'s outage, not its master\'s', async (name) => {
    const { client, close } = await clients[name]!(handle.ports);
    try {
      for (const node of nodes) await node.admin.config('SET', 'cluster-require-full-coverage', 'no');
      const namespace = `unserved${name.startsWith('io') ? 'io' : 'nr'}`;
      const limiter = createLimiter(client, { algorithm: 'fixed-window', limit: 1_000_000, windowMs: 60_000, onRedisError: 'fail-closed', namespace, timeoutMs: TIMEOUT_MS, redisProbeIntervalMs: PROBE_MS });
      const lost = await identityOn(limiter, () => true);
      const slot = keySlot(limiter.keyFor(lost));
      const owner = await ownerOf(slot);
      const neighbour = await identityOn(limiter, (s, o) => s !== slot && o.id === owner.id);
      expect((await limiter.take(lost)).reason).toBeUndefined();
      // the slot loses its node on every node's view (as when its master is gone with no replica)
      for (const node of nodes) await node.admin.cluster('DELSLOTS', slot).catch(() => undefined);
      let lostAnswer;
      for (let i = 0; i < 20 && lostAnswer?.reason === undefined; i += 1) lostAnswer = await limiter.take(lost);
      expect(lostAnswer).toMatchObject({ allowed: false, reason: 'redis-unavailable' });
      // the same master's other slots are still served by Redis, at once
      for (let i = 0; i < 20; i += 1) expect((await limiter.take(neighbour)).reason).toBeUndefined();
      await owner.admin.cluster('ADDSLOTS', slot);
      for (const node of nodes) if (node.id !== owner.id) await node.admin.cluster('SETSLOT', slot, 'NODE', owner.id);
      // the slot's probe runs on its timer: back on Redis within a probe interval or two, no traffic needed
      await sleep(3 * PROBE_MS + TIMEOUT_MS);
      expect((await limiter.take(lost)).reason).toBeUndefined();
    } finally {
      for (const node of nodes) await node.admin.config('SET', 'cluster-require-full-coverage', 'yes');
      await close();
    }
  }, 60_000);

  it('a client of one server that meets MOVED (it talks to one node of a cluster) gets an error that says so', async () => {
    const standalone = new Redis({ port: nodes[0]!.port, host: '127.0.0.1' });
    try {
      const limiter = createLimiter(standalone, { algorithm: 'fixed-window', limit: 10, windowMs: 60_000, onRedisError: 'fail-closed', namespace: 'moved' });
      const elsewhere = await identityOn(limiter, (_s, owner) => owner.port !== nodes[0]!.port);
      const error = await limiter.take(elsewhere).catch((e: unknown) => e);
      expect(error).toMatchObject({ name: 'RedisError', code: 'MOVED' });
      expect((error as Error).message).toMatch(/^MOVED \d+ 127\.0\.0\.1:\d+; this client talks to one node of a Redis Cluster: use a cluster client \(ioredis `Cluster`, node-redis `createCluster\(\)`\)$/);
    } finally {
      standalone.disconnect();
    }
  });

  it.each(Object.keys(clients))('%s: slots moving while limiters and a cache run', async (name) => {
    const { client, close } = await clients[name]!(handle.ports);
    try {
      const namespace = `resh${name.startsWith('io') ? 'io' : 'nr'}`;
      const limiter = createLimiter(client, {
        algorithm: 'fixed-window',
        limit: 1_000_000,
        windowMs: 60_000,
        onRedisError: 'fail-closed',
        namespace,
        timeoutMs: TIMEOUT_MS,
        redisProbeIntervalMs: PROBE_MS,
      });
      const cache = createCache<string>(client, { namespace, ttlMs: 60_000, lockTtlMs: 2_000, timeoutMs: TIMEOUT_MS, redisProbeIntervalMs: PROBE_MS });
      // the moving slot: the one of a cache key, so that the cache's two-key scripts meet TRYAGAIN
      const slot = keySlot(cache.keysFor('moving').entry);
      const source = await ownerOf(slot);
      const target = nodes.find((n) => n.id !== source.id)!;
      const sameMaster = await identityOn(limiter, (s, owner) => s !== slot && owner.id === source.id);
      const otherMaster = await identityOn(limiter, (_s, owner) => owner.id !== source.id);
      // entries and locks on the moving slot exist before the move (some move before others)
      for (let i = 0; i < 5; i += 1) await cache.getOrLoad(`moving`, () => 'v0');
      await checker.set(cache.keysFor('moving').lock, 'someone', 'PX', 60_000);

      const answers = new Map<string, number>();
      const count = (label: string) => answers.set(label, (answers.get(label) ?? 0) + 1);
      let running = true;
      const loops = [
        ...[sameMaster, otherMaster].flatMap((identity) =>
          Array.from({ length: 4 }, async () => {
            while (running) {
              const r = await limiter.take(identity);
              count(`limiter ${identity === sameMaster ? 'same master' : 'other master'}: ${r.reason ?? 'redis'}`);
            }
          }),
        ),
        ...Array.from({ length: 4 }, async (_, i) => {
          while (running) {
            let loaded = false;
            const value = await cache.getOrLoad(i % 2 === 0 ? 'moving' : 'other', () => ((loaded = true), 'loaded'));
            count(`cache: ${value === undefined ? 'undefined' : loaded ? 'its loader' : 'redis'}`);
            await sleep(5);
          }
        }),
      ];
      await moveSlot(slot, target, 40, async () => {
        await cache.invalidate('moving').catch(() => undefined); // keys on both sides now and then
        await sleep(600);
      });
      await sleep(300);
      running = false;
      await Promise.all(loops);

      if (process.env.RESHARD_VERBOSE) console.log(name, Object.fromEntries(answers));
      // no limiter answer came from the policy: the master of the moving slot was never down
      for (const [label, n] of answers) {
        if (label.startsWith('limiter')) expect(label.endsWith(': redis'), `${label} x${n}`).toBe(true);
      }
      expect(answers.get('limiter same master: redis')).toBeGreaterThan(20);
      expect(answers.get('limiter other master: redis')).toBeGreaterThan(20);
      expect(answers.get('cache: redis') ?? 0).toBeGreaterThan(0);
      expect((healthFor(client) as unknown as { degraded: boolean }).degraded).toBe(false);
      // every call abandoned at its deadline (ioredis still retrying a TRYAGAIN) settles in the end;
      // one waiting to be sent again had nothing in the client to abandon
      await until(() => healthFor(client).abandoned === 0, 5_000);
      // after the move, everything on the moved slot is answered by Redis again
      expect(await cache.getOrLoad('moving', () => 'after')).toBeDefined();
      expect((await limiter.take(sameMaster)).reason).toBeUndefined();
      expect(await ownerOf(slot)).toMatchObject({ id: target.id });
      expect(await keysWithoutTtl(checker)).toEqual([]);
      // move it back for the next client
      await moveSlot(slot, source, 0, async () => undefined);
    } finally {
      await close();
    }
  }, 60_000);
});
