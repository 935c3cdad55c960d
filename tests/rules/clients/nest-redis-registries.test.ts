/**
 * Clients handed out by a framework's registry of named clients (`redis-calls/client-registries.ts`):
 * a registry method (`getClient`, `getOrThrow`, `getOrNil`) called on an instance of a registry
 * class of nestjs-redis, @liaoliaots/nestjs-redis, @songkeys/nestjs-redis or
 * @nestjs-labs/nestjs-ioredis (declared as that class, or got from Nest's container with the class
 * as token) returns an ioredis client, so its writes are judged as ioredis writes, with or without
 * type information; a parameter, parameter property or class property decorated with these
 * packages' (or @nestjs-modules/ioredis') `@InjectRedis()` is that client whatever its annotation.
 * Near misses stay unreported: a decorator of the code's own or of another package, a `getClient` of another package's class or of
 * the code's own, a registry method that returns no client (`getClients()`, a `Map`), a session
 * store of koa-redis / connect-redis, a GET of a single egg-redis client.
 */
import incrRule from '../../../rules/incr-needs-expire-on-create.js';
import setRule from '../../../rules/set-requires-ttl-or-keepttl.js';
import { positionOf, runRule, setSuggestions, typedTester, untypedTester } from '../tester.js';

/** A Nest provider of `pkg` with the registry `cls` injected as `this.redisService`; `body` is the class body after the constructor. */
const provider = (pkg: string, cls: string, body: string): string =>
  `import { Injectable } from '@nestjs/common';\nimport { ${cls} } from '${pkg}';\n@Injectable()\nexport class UpProcessor {\n  constructor(private readonly redisService: ${cls}) {}\n${body}\n}`;

// the missed leak of bilibili-be: a write-only marker on the `log` client, no TTL
const markerSet = provider(
  'nestjs-redis',
  'RedisService',
  "  async timeOut(key: number) {\n    const redis = this.redisService.getClient('log');\n    await redis.set(`up:${key}`, 'time out');\n  }",
);
const chained = provider('@liaoliaots/nestjs-redis', 'RedisService', '  async save(id: string, v: string) {\n    await this.redisService.getOrThrow().set(`s:${id}`, v);\n  }');
const orNil = provider('@nestjs-labs/nestjs-ioredis', 'RedisService', "  async save(id: string, v: string) {\n    await this.redisService.getOrNil('cache')?.set(`s:${id}`, v);\n  }");
const managerMember = `import { RedisManager } from '@songkeys/nestjs-redis';\nexport class Store {\n  private readonly redis;\n  constructor(manager: RedisManager) {\n    this.redis = manager.getClient();\n  }\n  save(id: string, v: string) {\n    return this.redis.set(\`s:\${id}\`, v);\n  }\n}`;
const fromContainer = `import { NestFactory } from '@nestjs/core';\nimport { RedisService } from '@liaoliaots/nestjs-redis';\nexport async function boot(AppModule: any, id: string) {\n  const app = await NestFactory.create(AppModule);\n  const redisService = app.get(RedisService);\n  await redisService.getOrThrow('default').set(\`boot:\${id}\`, '1');\n}`;
const namespaced = `import * as nest from '@liaoliaots/nestjs-redis';\nexport const save = (svc: nest.ClusterService, id: string, v: string) => svc.getOrThrow().set(\`s:\${id}\`, v);`;

// @InjectRedis(): Nest injects the client of that name, whatever the annotation says (here none, `any`)
const injectedProperty = `import { InjectRedis } from '@songkeys/nestjs-redis';\nexport class Markers {\n  constructor(@InjectRedis('log') private readonly log: any) {}\n  mark(id: string) {\n    return this.log.set(\`job:\${id}\`, 'time out');\n  }\n}`;
const injectedParam = `import { InjectRedis } from '@nestjs-modules/ioredis';\nexport class Boot {\n  constructor(@InjectRedis() kv: any) {\n    kv.set(\`boot:\${Date.now()}\`, '1');\n  }\n}`;
const injectedField = `import { InjectRedis } from '@nestjs-modules/ioredis';\nexport class Markers {\n  @InjectRedis() private readonly kv: any;\n  mark(id: string) {\n    return this.kv.set(\`job:\${id}\`, 'time out');\n  }\n}`;

for (const tester of [untypedTester, typedTester]) {
  runRule(tester, 'set-requires-ttl-or-keepttl (Nest Redis registries)', setRule, {
    valid: [
      provider('nestjs-redis', 'RedisService', "  async timeOut(key: number) {\n    const redis = this.redisService.getClient('log');\n    await redis.set(`up:${key}`, 'time out', 'EX', 86400);\n  }"),
      provider('@liaoliaots/nestjs-redis', 'RedisService', '  async save(id: string, v: string) {\n    await this.redisService.getOrThrow().set(`s:${id}`, v, "KEEPTTL");\n  }'),
      // a registry method that hands out no client: getClients() is a Map of them
      provider('nestjs-redis', 'RedisService', "  register(client: unknown) {\n    this.redisService.getClients().set('extra', client as never);\n  }"),
      // a getClient of another package's registry (an HTTP client registry), of the code's own class
      provider('@acme/http-clients', 'HttpClientRegistry', "  async call(v: string) {\n    await this.redisService.getClient('api').set('x', v);\n  }"),
      "class Pools {\n  getClient(name: string) {\n    return new Map<string, string>();\n  }\n}\nconst pools = new Pools();\nexport const save = (v: string) => pools.getClient('db').set('x', v);",
      // a class of a registry package that is no registry
      "import { RedisModule } from '@liaoliaots/nestjs-redis';\nexport const save = (m: RedisModule, v: string) => (m as any).getClient().set('x', v);",
      // koa-redis and connect-redis stores are session stores, not clients
      "import redisStore from 'koa-redis';\nconst store = redisStore({});\nexport const save = (sid: string, sess: object) => store.set(sid, sess, 86400000);",
      "import { RedisStore } from 'connect-redis';\ndeclare const client: any;\nconst store = new RedisStore({ client });\nexport const save = (sid: string, sess: any) => store.set(sid, sess, () => {});",
      // a decorator of the code's own, or of another package, injects nothing known
      "const InjectRedis = () => (..._a: unknown[]) => undefined;\nexport class Markers {\n  constructor(@InjectRedis() private readonly kv: any) {}\n  mark(id: string) {\n    return this.kv.set(`job:${id}`, 'x');\n  }\n}",
      "import { InjectRepository } from '@nestjs/typeorm';\nexport class Markers {\n  constructor(@InjectRepository('User') private readonly users: any) {}\n  mark(id: string) {\n    return this.users.set(`job:${id}`, 'x');\n  }\n}",
      // a single egg-redis client: app.redis.get(key) is a GET
      "export default class Svc {\n  app: any;\n  async read(id: string) {\n    return await this.app.redis.get(`s:${id}`);\n  }\n}",
    ],
    invalid: [
      { code: markerSet, errors: [{ messageId: 'setWithoutTtl', ...positionOf(markerSet, 'set(`up:'), suggestions: setSuggestions(markerSet, "redis.set(`up:${key}`, 'time out'") }] },
      { code: chained, errors: [{ messageId: 'setWithoutTtl', ...positionOf(chained, 'set(`s:'), suggestions: setSuggestions(chained, 'getOrThrow().set(`s:${id}`, v') }] },
      { code: orNil, errors: [{ messageId: 'setWithoutTtl', ...positionOf(orNil, 'set(`s:'), suggestions: setSuggestions(orNil, "getOrNil('cache')?.set(`s:${id}`, v") }] },
      { code: managerMember, errors: [{ messageId: 'setWithoutTtl', ...positionOf(managerMember, 'set(`s:'), suggestions: setSuggestions(managerMember, 'redis.set(`s:${id}`, v') }] },
      { code: fromContainer, errors: [{ messageId: 'setWithoutTtl', ...positionOf(fromContainer, 'set(`boot:'), suggestions: setSuggestions(fromContainer, "set(`boot:${id}`, '1'") }] },
      { code: namespaced, errors: [{ messageId: 'setWithoutTtl', ...positionOf(namespaced, 'set(`s:'), suggestions: setSuggestions(namespaced, 'set(`s:${id}`, v') }] },
      { code: injectedProperty, errors: [{ messageId: 'setWithoutTtl', ...positionOf(injectedProperty, 'set(`job:'), suggestions: setSuggestions(injectedProperty, "set(`job:${id}`, 'time out'") }] },
      { code: injectedParam, errors: [{ messageId: 'setWithoutTtl', ...positionOf(injectedParam, 'set(`boot:'), suggestions: setSuggestions(injectedParam, "set(`boot:${Date.now()}`, '1'") }] },
      { code: injectedField, errors: [{ messageId: 'setWithoutTtl', ...positionOf(injectedField, 'set(`job:'), suggestions: setSuggestions(injectedField, "set(`job:${id}`, 'time out'") }] },
    ],
  });
}

const counter = provider('@liaoliaots/nestjs-redis', 'RedisManager', "  async hit(ip: string) {\n    await this.redisService.getClient('rate').incr(`hits:${ip}`);\n  }");

runRule(untypedTester, 'incr-needs-expire-on-create (Nest Redis registries)', incrRule, {
  valid: [
    provider(
      '@liaoliaots/nestjs-redis',
      'RedisManager',
      "  async hit(ip: string) {\n    const redis = this.redisService.getClient('rate');\n    await redis.multi().incr(`hits:${ip}`).expire(`hits:${ip}`, 60).exec();\n  }",
    ),
    // another package's getClient: no client, no INCR
    provider('@acme/http-clients', 'HttpClientRegistry', "  async hit(ip: string) {\n    await this.redisService.getClient('rate').incr(`hits:${ip}`);\n  }"),
  ],
  invalid: [
    {
      code: counter,
      errors: [
        {
          messageId: 'noExpiry',
          ...positionOf(counter, 'incr(`hits:'),
          suggestions: [{ messageId: 'wrapInMulti', output: counter.replace("getClient('rate').incr(`hits:${ip}`)", "getClient('rate').multi().incr(`hits:${ip}`).expire(`hits:${ip}`, TTL_SECONDS).exec()") }],
        },
      ],
    },
  ],
});
