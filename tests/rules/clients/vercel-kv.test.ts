/**
 * @vercel/kv is @upstash/redis' client under another package (`VercelKV extends Redis`): its
 * client values `kv` and the default export, `createClient(config)` and the type `VercelKV` are
 * receivers of @upstash/redis' flavor, so its calls, options (`{ ex: 60 }`) and suggestions are
 * Upstash's. Its other names are no clients, and a local `kv` that is not imported from it is
 * not one by this import.
 */
import incrRule from '../../../rules/incr-needs-expire-on-create.js';
import setRule from '../../../rules/set-requires-ttl-or-keepttl.js';
import { positionOf, runRule, untypedTester } from '../tester.js';

const named = (body: string): string => `import { kv } from '@vercel/kv';\n${body}`;
const byDefault = (body: string): string => `import store from '@vercel/kv';\n${body}`;
const made = (body: string): string => `import { createClient } from '@vercel/kv';\nconst kv = createClient({ url: 'https://kv.example', token: 't' });\n${body}`;
const typed = (body: string): string => `import type { VercelKV } from '@vercel/kv';\n${body}`;

/** The two suggestions of an Upstash-flavoured SET without TTL: an expiry, then KEEPTTL, as options. */
const upstashSuggestions = (code: string, call: string) => [
  { messageId: 'addExpiryPlaceholder' as const, output: code.replace(`${call})`, `${call}, { ex: TTL_SECONDS })`) },
  { messageId: 'addKeepTtl' as const, output: code.replace(`${call})`, `${call}, { keepTtl: true })`) },
];

const setNamed = named('export const save = (id: string, v: string) => kv.set(`s:${id}`, v);');
const setDefault = byDefault('export const save = (id: string, v: string) => store.set(`s:${id}`, v);');
const setMade = made('export const save = (id: string, v: string) => kv.set(`s:${id}`, v);');
const setTyped = typed('export const save = (kv: VercelKV, id: string, v: string) => kv.set(`s:${id}`, v);');

runRule(untypedTester, 'set-requires-ttl-or-keepttl (Vercel KV)', setRule, {
  valid: [
    named('export const save = (id: string, v: string) => kv.set(`s:${id}`, v, { ex: 60 });'),
    byDefault('export const save = (id: string, v: string) => store.set(`s:${id}`, v, { px: 500, nx: true });'),
    made('export const save = (id: string, v: string) => kv.set(`s:${id}`, v, { keepTtl: true });'),
    // a `kv` of the code's own making is not @vercel/kv's
    "const kv = new Map<string, string>();\nexport const save = (id: string, v: string) => kv.set(`s:${id}`, v);",
  ],
  invalid: [
    { code: setNamed, errors: [{ messageId: 'setWithoutTtl', ...positionOf(setNamed, 'set(`s:'), suggestions: upstashSuggestions(setNamed, 'kv.set(`s:${id}`, v') }] },
    { code: setDefault, errors: [{ messageId: 'setWithoutTtl', ...positionOf(setDefault, 'set(`s:'), suggestions: upstashSuggestions(setDefault, 'store.set(`s:${id}`, v') }] },
    { code: setMade, errors: [{ messageId: 'setWithoutTtl', ...positionOf(setMade, 'set(`s:'), suggestions: upstashSuggestions(setMade, 'kv.set(`s:${id}`, v') }] },
    { code: setTyped, errors: [{ messageId: 'setWithoutTtl', ...positionOf(setTyped, 'set(`s:'), suggestions: upstashSuggestions(setTyped, 'kv.set(`s:${id}`, v') }] },
  ],
});

const incrNamed = named('export async function view(slug: string) {\n  await kv.incr(`views:${slug}`);\n}');
const incrMade = made('export async function view(slug: string) {\n  await kv.sadd(`seen:${slug}`, 1);\n}');

runRule(untypedTester, 'incr-needs-expire-on-create (Vercel KV)', incrRule, {
  valid: [
    named('export async function view(slug: string) {\n  await kv.multi().incr(`views:${slug}`).expire(`views:${slug}`, 60).exec();\n}'),
    byDefault('export async function view(slug: string) {\n  const p = store.pipeline();\n  p.incr(`views:${slug}`);\n  p.expire(`views:${slug}`, 60);\n  await p.exec();\n}'),
  ],
  invalid: [
    {
      code: incrNamed,
      errors: [
        {
          messageId: 'noExpiry',
          line: 3,
          column: 12,
          suggestions: [{ messageId: 'wrapInMulti', output: incrNamed.replace('kv.incr(`views:${slug}`)', 'kv.multi().incr(`views:${slug}`).expire(`views:${slug}`, TTL_SECONDS).exec()') }],
        },
      ],
    },
    {
      code: incrMade,
      errors: [
        {
          messageId: 'noExpiry',
          line: 4,
          column: 12,
          suggestions: [{ messageId: 'wrapInMulti', output: incrMade.replace('kv.sadd(`seen:${slug}`, 1)', 'kv.multi().sadd(`seen:${slug}`, 1).expire(`seen:${slug}`, TTL_SECONDS).exec()') }],
        },
      ],
    },
  ],
});
