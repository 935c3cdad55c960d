/**
 * With type information, a receiver whose declared type says nothing about its value (`{}`, which
 * TypeScript gives `new Proxy({}, handler)`; `object`; `any`; an empty interface or class; an index
 * signature only; the lib's `Function`) is judged by the untyped evidence (names, imports, how the
 * value was made), as in the untyped run; a type with members that are not a client's (a class of
 * the code, `Map`, an object literal's inferred type) still says "not a client"
 * (`redis-calls/client-checker.ts`, `saysNothing`).
 */
import incrRule from '../../rules/incr-needs-expire-on-create.js';
import setRule from '../../rules/set-requires-ttl-or-keepttl.js';
import { positionOf, runRule, setSuggestions, typedTester, untypedTester } from './tester.js';

/**
 * A value named `redis` whose type is `type`, made by a call the syntax cannot see into (so the
 * type checker is asked), and its INCR returned on the last line.
 */
const made = (type: string, before = '') =>
  `${before}declare function lazy<T>(): T;\nconst redis = lazy<${type}>();\nexport const hit = (id: string) => redis.incr(\`c:\${id}\`);`;

/** Types that say nothing about the value: the name `redis` decides, typed as untyped. */
const uninformative = [
  made('{}'),
  made('object'),
  made('any'),
  made('Record<string, any>'),
  made('{ [command: string]: Function }'),
  made('Function'),
  made('Conn', 'interface Conn {}\n'),
  made('Conn', 'declare class Conn {}\n'),
  made('Conn', 'type Conn = Record<string, (...args: unknown[]) => Promise<unknown>>;\n'),
  made('{} & Record<string, unknown>'),
  made('Conn | undefined', 'interface Conn {}\n'),
];

/** The INCR, reported with no suggestion (its value is returned). */
const incrFinding = (code: string) => ({ messageId: 'noExpiry' as const, ...positionOf(code, 'incr(') });

for (const tester of [untypedTester, typedTester]) {
  const run = tester === typedTester ? 'typed' : 'untyped';
  runRule(tester, `incr-needs-expire-on-create (receivers typed with no information, ${run})`, incrRule, {
    valid: [
      // an object literal with client-named methods, its type inferred
      'const redis = { incr: (k: string) => k.length, set: (k: string, v: string) => v };\nexport const hit = (id: string) => redis.incr(`c:${id}`);',
    ],
    invalid: uninformative.map((code) => ({ code, errors: [incrFinding(code)] })),
  });
}

// A type with members that are not a client's says "not a client": the name no longer decides.
runRule(typedTester, 'incr-needs-expire-on-create (receivers typed with members that are not a client\'s)', incrRule, {
  valid: [
    made('Meter', 'declare class Meter { incr(name: string): number; readonly name: string }\n'),
    made('Map<string, number>'),
    made('Meter & {}', 'declare class Meter { incr(name: string): number; readonly name: string }\n'),
    made('Meter & Record<string, unknown>', 'declare class Meter { incr(name: string): number; readonly name: string }\n'),
    made('(name: string) => number'),
    made('Meter | undefined', 'declare class Meter { incr(name: string): number; readonly name: string }\n'),
  ],
  invalid: [
    {
      // the leak next to the safe shape: the Map says nothing of the `{}` beside it
      code: made('{}', 'declare const counters: Map<string, number>;\n') + '\nexport const count = (id: string) => counters.set(`c:${id}`, 1);',
      errors: [incrFinding(made('{}', 'declare const counters: Map<string, number>;\n'))],
    },
  ],
});

/** An ioredis client handed out through `new Proxy({}, handler)`, next to a `Map` named `cache`. */
const proxied = [
  "import Redis from 'ioredis';",
  'let real: Redis | undefined;',
  'export function connect() { real = new Redis(); }',
  'export const redis = new Proxy({}, { get: (_target, name) => (real as any)[name] });',
  'const cache = new Map<string, string>();',
  'export async function save(id: string, v: string) {',
  '  cache.set(`s:${id}`, v);',
  '  await redis.set(`s:${id}`, v);',
  '}',
].join('\n');

/** The same Proxy, whose handler wraps an object of the code with `set` / `get` methods. */
const proxiedStore = [
  'class Store { private readonly m = new Map<string, string>(); set(k: string, v: string) { this.m.set(k, v); } get(k: string) { return this.m.get(k); } }',
  'const store = new Store();',
  'export const sessions = new Proxy({}, { get: (_target, name) => (store as any)[name] });',
  'export async function save(id: string, v: string) {',
  '  store.set(`s:${id}`, v);',
  '  await sessions.set(`s:${id}`, v);',
  '}',
].join('\n');

for (const tester of [untypedTester, typedTester]) {
  const run = tester === typedTester ? 'typed' : 'untyped';
  runRule(tester, `set-requires-ttl-or-keepttl (a client handed out as new Proxy({}, ...), ${run})`, setRule, {
    valid: [
      // nothing names the Proxy a client, nor does its making: the untyped evidence decides, and has none
      proxiedStore,
    ],
    invalid: [
      {
        code: proxied,
        options: [{ allowConstantKeys: false }],
        // the Map's set on line 7 is not reported; the client's on line 8 is
        errors: [{ messageId: 'setWithoutTtl', line: 8, column: 15, suggestions: setSuggestions(proxied, 'redis.set(`s:${id}`, v') }],
      },
    ],
  });
}
