/**
 * Duck-typed clients: a receiver whose declared type of the code (an interface, a type alias of a
 * type literal, or a type literal written at the parameter) lists Redis commands is a client by
 * its shape (`duckTypedCommands`, redis-calls/client-syntax.ts): at least two methods named after
 * commands of the shared table, with Redis-shaped parameters (the key first, typed as a key; a TTL
 * typed as a number), at least one of them a command no generic store has. Its calls get no fix
 * and no suggestion (the type lists no `multi()`, no SET options). Near-misses stay no client: a
 * `Map`-like store, a cache `get / set(key, value, ttl) / del`, numeric or generic keys, a TTL
 * typed as a string, a single command.
 */
import incrRule from '../../rules/incr-needs-expire-on-create.js';
import setRule from '../../rules/set-requires-ttl-or-keepttl.js';
import { runRule, typedTester, untypedTester } from './tester.js';

const counter = `interface Counter {\n  incr(key: string): Promise<number>;\n  expire(key: string, seconds: number): Promise<number>;\n}\nexport async function hit(counter: Counter, id: string) {\n  await counter.incr(\`hits:\${id}\`);\n}`;
const literal = `export async function put(store: { set(key: string, value: string): Promise<unknown>; expire(key: string, s: number): Promise<unknown> }, id: string, v: string) {\n  await store.set(\`s:\${id}\`, v);\n  await store.expire(\`s:\${id}\`, 60);\n}`;
const alias = `type HashStore = {\n  hSet: (key: string, field: string, value: string) => Promise<number>;\n  pExpire: (key: string | Buffer, ms: number) => Promise<number>;\n};\nexport async function tag(store: HashStore, id: string) {\n  await store.hSet(\`tags:\${id}\`, 'a', '1');\n}`;
const session = `export interface SessionClient {\n  get(key: string): Promise<string | null>;\n  set(key: string, value: string): Promise<unknown>;\n  setEx?(key: string, ttlSeconds: number, value: string): Promise<unknown>;\n}\nexport async function save(db: SessionClient, id: string, v: string) {\n  await db.set(\`sess:\${id}\`, v);\n}`;

const notClients = [
  // a Map-like store: get / set / delete are no Redis client
  `interface MapStore { get(key: string): string | undefined; set(key: string, value: string): void; delete(key: string): boolean }\nexport function put(a: MapStore, id: string) { a.set(\`s:\${id}\`, 'v'); }`,
  // a cache of the application: only generic store methods, its set takes a numeric TTL
  `interface CacheStore { get(key: string): Promise<string>; set(key: string, value: string, ttl?: number): Promise<void>; del(key: string): Promise<void> }\nexport async function put(b: CacheStore, id: string) { await b.set(\`s:\${id}\`, 'v'); }`,
  // keys that are numbers, a TTL that is a string, a generic key type: not Redis-shaped
  `interface NumKeys { incr(key: number): Promise<number>; expire(key: number, seconds: number): Promise<number> }\nexport async function hit(c: NumKeys) { await c.incr(1); }`,
  `interface StringTtl { incr(key: string): Promise<number>; expire(key: string, seconds: string): Promise<number> }\nexport async function hit(d: StringTtl, id: string) { await d.incr(\`n:\${id}\`); }`,
  `interface Generic<K> { incr(key: K): Promise<number>; expire(key: K, seconds: number): Promise<number> }\nexport async function hit(f: Generic<string>, id: string) { await f.incr(\`n:\${id}\`); }`,
  // one command is not enough
  `interface OneCommand { incr(key: string): Promise<number>; flush(): void }\nexport async function hit(e: OneCommand, id: string) { await e.incr(\`n:\${id}\`); }`,
];

for (const tester of [untypedTester, typedTester]) {
  runRule(tester, 'incr-needs-expire-on-create (duck-typed clients)', incrRule, {
    valid: notClients,
    invalid: [
      // no suggestion: the interface lists no multi()
      { code: counter, errors: [{ messageId: 'noExpiry', line: 6, column: 17, suggestions: [] }] },
      { code: alias, errors: [{ messageId: 'noExpiry', line: 6, column: 15, suggestions: [] }] },
    ],
  });
  runRule(tester, 'set-requires-ttl-or-keepttl (duck-typed clients)', setRule, {
    valid: notClients,
    invalid: [
      { code: literal, errors: [{ messageId: 'setThenExpire', line: 2, column: 15, suggestions: [] }] },
      // get / set are generic, setEx is not: a session client
      { code: session, errors: [{ messageId: 'setWithoutTtl', line: 7, column: 12, suggestions: [] }] },
    ],
  });
}
