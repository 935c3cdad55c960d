/**
 * Valkey GLIDE (`@valkey/valkey-glide`, issue 26, item 1), from its Node API: receivers made by
 * `GlideClient.createClient(...)` / `GlideClusterClient.createClient(...)` (named, namespace and
 * `require` imports) or typed `GlideClient`; SET's option object (`expiry: { type:
 * TimeUnit.Seconds | Milliseconds | UnixSeconds | UnixMilliseconds, count }`, `expiry:
 * 'keepExisting'`, `conditionalSet`), `incrBy`, `hset(key, { f: v })`, `zadd(key, [{ element,
 * score }])`, `expire`, `customCommand([...])`; `new Batch(true)` / `Transaction` as MULTI and `new
 * Batch(false)` / `new ClusterBatch(false)` as a pipeline, their commands chained or queued on a
 * variable. Suggestions are GLIDE's own: the expiry object (with `TimeUnit` added to the file's
 * import of GLIDE when it is missing), `expiry: 'keepExisting'`, `new Batch(true)` for a pipeline;
 * GLIDE's clients have no `multi()`, so a lone INCR gets no MULTI suggestion. Both testers: GLIDE
 * is not installed here, so the typed run shows a typed project reads GLIDE from the code alone.
 * `new Script(code)` + `invokeScript` is in embedded-lua.test.ts.
 */
import expireNeedsPositiveTtl from '../../../rules/expire-needs-positive-ttl.js';
import noPersist from '../../../rules/no-persist.js';
import incrRule from '../../../rules/incr-needs-expire-on-create.js';
import setRule from '../../../rules/set-requires-ttl-or-keepttl.js';
import { runRule, typedTester, untypedTester } from '../tester.js';

const CONNECT = "{ addresses: [{ host: 'localhost', port: 6379 }] }";
/** A standalone client `client` (lines 1-2), without `TimeUnit` imported. */
const standalone = (body: string): string => `import { GlideClient } from '@valkey/valkey-glide';\nconst client = await GlideClient.createClient(${CONNECT});\n${body}`;
/** A cluster client `client` (lines 1-3), `TimeUnit` imported and a TTL constant declared. */
const cluster = (body: string): string =>
  `import { GlideClusterClient, TimeUnit } from '@valkey/valkey-glide';\nconst SESSION_TTL = 3600;\nconst client = await GlideClusterClient.createClient(${CONNECT});\n${body}`;
/** Batches: `Batch` imported with the client (lines 1-2). */
const batches = (body: string): string =>
  `import { Batch, ClusterBatch, GlideClient } from '@valkey/valkey-glide';\nconst client = await GlideClient.createClient(${CONNECT});\n${body}`;

/** `code` with `insert` written right after the first `after`. */
const insertAfter = (code: string, after: string, insert: string): string => code.replace(after, `${after}${insert}`);

for (const tester of [untypedTester, typedTester]) {
  runRule(tester, 'set-requires-ttl-or-keepttl', setRule, {
    valid: [
      cluster('await client.set(`s:${id}`, v, { expiry: { type: TimeUnit.Seconds, count: SESSION_TTL } });'),
      cluster('await client.set(`s:${id}`, v, { expiry: { type: TimeUnit.Milliseconds, count: 500 } });'),
      cluster('await client.set(`s:${id}`, v, { expiry: { type: TimeUnit.UnixSeconds, count: 1767225600 } });'),
      cluster('await client.set(`s:${id}`, v, { conditionalSet: \'onlyIfDoesNotExist\', expiry: { type: TimeUnit.UnixMilliseconds, count: Date.now() + 60_000 } });'),
      standalone("await client.set(`s:${id}`, v, { expiry: 'keepExisting' });"),
      // JavaScript without TimeUnit: its values are the Redis tokens
      standalone("await client.set(`s:${id}`, v, { expiry: { type: 'EX', count: 60 } });"),
      // options from a const
      cluster('const OPTS = { expiry: { type: TimeUnit.Seconds, count: 60 } };\nawait client.set(`s:${id}`, v, OPTS);'),
      standalone("await client.customCommand(['SET', `s:${id}`, v, 'EX', '60']);"),
      batches('await client.exec(new Batch(true).set(`s:${id}`, v).expire(`s:${id}`, 60), true);'),
      // GLIDE's Script is no client
      "import { Script } from '@valkey/valkey-glide';\nconst redis = new Script('return 1');\nredis.set(`s:${id}`, v);",
    ],
    invalid: [
      {
        code: standalone('await client.set(`s:${id}`, v);'),
        errors: [
          {
            messageId: 'setWithoutTtl',
            line: 3,
            column: 14,
            suggestions: [
              {
                messageId: 'addExpiryPlaceholder',
                output: standalone('await client.set(`s:${id}`, v, { expiry: { type: TimeUnit.Seconds, count: TTL_SECONDS } });').replace('{ GlideClient }', '{ GlideClient, TimeUnit }'),
              },
              { messageId: 'addKeepTtl', output: standalone("await client.set(`s:${id}`, v, { expiry: 'keepExisting' });") },
            ],
          },
        ],
      },
      {
        // NX without expiry: the expiry goes into the existing options object (a lock's placeholder)
        code: standalone("await client.set(`lock:${id}`, '1', { conditionalSet: 'onlyIfDoesNotExist' });"),
        errors: [
          {
            messageId: 'createWithoutTtl',
            line: 3,
            column: 14,
            suggestions: [
              {
                messageId: 'addExpiryPlaceholder',
                output: standalone("await client.set(`lock:${id}`, '1', { expiry: { type: TimeUnit.Seconds, count: LOCK_TTL_SECONDS }, conditionalSet: 'onlyIfDoesNotExist' });").replace(
                  '{ GlideClient }',
                  '{ GlideClient, TimeUnit }',
                ),
              },
            ],
          },
        ],
      },
      {
        // onlyIfExists (XX) still drops the TTL the key had; the file's TimeUnit and TTL constant are used
        code: cluster("await client.set(`s:${id}`, v, { conditionalSet: 'onlyIfExists' });"),
        errors: [
          {
            messageId: 'setWithoutTtl',
            line: 4,
            column: 14,
            suggestions: [
              { messageId: 'addExpiry', output: cluster("await client.set(`s:${id}`, v, { expiry: { type: TimeUnit.Seconds, count: SESSION_TTL }, conditionalSet: 'onlyIfExists' });") },
              { messageId: 'addKeepTtl', output: cluster("await client.set(`s:${id}`, v, { expiry: 'keepExisting', conditionalSet: 'onlyIfExists' });") },
            ],
          },
        ],
      },
      {
        // a namespace import: glide.TimeUnit
        code: `import * as glide from '@valkey/valkey-glide';\nconst client = await glide.GlideClusterClient.createClient(${CONNECT});\nawait client.set(\`s:\${id}\`, v);`,
        errors: [
          {
            messageId: 'setWithoutTtl',
            line: 3,
            column: 14,
            suggestions: [
              {
                messageId: 'addExpiryPlaceholder',
                output: `import * as glide from '@valkey/valkey-glide';\nconst client = await glide.GlideClusterClient.createClient(${CONNECT});\nawait client.set(\`s:\${id}\`, v, { expiry: { type: glide.TimeUnit.Seconds, count: TTL_SECONDS } });`,
              },
              {
                messageId: 'addKeepTtl',
                output: `import * as glide from '@valkey/valkey-glide';\nconst client = await glide.GlideClusterClient.createClient(${CONNECT});\nawait client.set(\`s:\${id}\`, v, { expiry: 'keepExisting' });`,
              },
            ],
          },
        ],
      },
      {
        // CommonJS: TimeUnit joins the destructuring
        code: `const { GlideClient } = require('@valkey/valkey-glide');\nasync function save(id, v) {\n  const client = await GlideClient.createClient(${CONNECT});\n  await client.set(\`s:\${id}\`, v);\n}`,
        errors: [
          {
            messageId: 'setWithoutTtl',
            line: 4,
            column: 16,
            suggestions: [
              {
                messageId: 'addExpiryPlaceholder',
                output: `const { GlideClient, TimeUnit } = require('@valkey/valkey-glide');\nasync function save(id, v) {\n  const client = await GlideClient.createClient(${CONNECT});\n  await client.set(\`s:\${id}\`, v, { expiry: { type: TimeUnit.Seconds, count: TTL_SECONDS } });\n}`,
              },
              {
                messageId: 'addKeepTtl',
                output: `const { GlideClient } = require('@valkey/valkey-glide');\nasync function save(id, v) {\n  const client = await GlideClient.createClient(${CONNECT});\n  await client.set(\`s:\${id}\`, v, { expiry: 'keepExisting' });\n}`,
              },
            ],
          },
        ],
      },
      {
        // customCommand takes strings only
        code: standalone("await client.customCommand(['SET', `s:${id}`, v]);"),
        errors: [
          {
            messageId: 'setWithoutTtl',
            line: 3,
            column: 29,
            suggestions: [
              { messageId: 'addExpiryPlaceholder', output: standalone("await client.customCommand(['SET', `s:${id}`, v, 'EX', String(TTL_SECONDS)]);") },
              { messageId: 'addKeepTtl', output: standalone("await client.customCommand(['SET', `s:${id}`, v, 'KEEPTTL']);") },
            ],
          },
        ],
      },
      {
        // a SET queued on a pipeline batch
        code: batches('const pipe = new ClusterBatch(false).set(`s:${id}`, v);\nawait client.exec(pipe, true);'),
        errors: [
          {
            messageId: 'setWithoutTtl',
            line: 3,
            column: 38,
            suggestions: [
              {
                messageId: 'addExpiryPlaceholder',
                output: batches('const pipe = new ClusterBatch(false).set(`s:${id}`, v, { expiry: { type: TimeUnit.Seconds, count: TTL_SECONDS } });\nawait client.exec(pipe, true);').replace(
                  '{ Batch, ClusterBatch, GlideClient }',
                  '{ Batch, ClusterBatch, GlideClient, TimeUnit }',
                ),
              },
              { messageId: 'addKeepTtl', output: batches("const pipe = new ClusterBatch(false).set(`s:${id}`, v, { expiry: 'keepExisting' });\nawait client.exec(pipe, true);") },
            ],
          },
        ],
      },
    ],
  });

  runRule(tester, 'incr-needs-expire-on-create', incrRule, {
    valid: [
      batches('await client.exec(new Batch(true).incr(`a:${id}`).expire(`a:${id}`, 60), true);'),
      batches('const tx = new Batch(true);\ntx.incrBy(`a:${id}`, 5);\ntx.expire(`a:${id}`, 60);\nawait client.exec(tx, true);'),
      "import { GlideClient, Transaction } from '@valkey/valkey-glide';\nconst tx = new Transaction();\ntx.incr(`a:${id}`).expire(`a:${id}`, 60);",
      // HSETEX with its fields' expiry
      cluster("await client.hsetex(`h:${id}`, { a: '1' }, { expiry: { type: TimeUnit.Seconds, count: 60 } });"),
      // a pipeline is accepted unless allowPipeline is off
      batches('const pipe = new Batch(false);\npipe.incr(`b:${id}`);\npipe.expire(`b:${id}`, 60);\nawait client.exec(pipe, true);'),
    ],
    invalid: [
      {
        // GLIDE's clients have no multi(): no MULTI suggestion
        code: "import { GlideClient } from '@valkey/valkey-glide';\nexport async function hit(client: GlideClient, id: string) {\n  await client.incrBy(`hits:${id}`, 5);\n  await client.expire(`hits:${id}`, 60);\n}",
        errors: [{ messageId: 'separateRoundTrip', line: 3, column: 16 }],
      },
      {
        code: standalone("await client.zadd(`z:${id}`, [{ element: 'm', score: 1 }]);\nawait client.expire(`z:${id}`, 60);"),
        errors: [{ messageId: 'separateRoundTrip', line: 3, column: 14 }],
      },
      {
        code: standalone("await client.hset(`h:${id}`, { a: '1' });"),
        errors: [{ messageId: 'noExpiry', line: 3, column: 14 }],
      },
      {
        code: standalone("await client.hsetex(`h:${id}`, [{ field: 'a', value: '1' }]);"),
        errors: [{ messageId: 'noExpiry', line: 3, column: 14 }],
      },
      {
        // a pipeline with allowPipeline off: new Batch(false) becomes new Batch(true)
        code: batches('const pipe = new Batch(false);\npipe.incr(`b:${id}`);\npipe.expire(`b:${id}`, 60);\nawait client.exec(pipe, true);'),
        options: [{ allowPipeline: false }],
        errors: [
          {
            messageId: 'pipelineNotAtomic',
            line: 4,
            column: 6,
            suggestions: [{ messageId: 'useMulti', output: batches('const pipe = new Batch(true);\npipe.incr(`b:${id}`);\npipe.expire(`b:${id}`, 60);\nawait client.exec(pipe, true);') }],
          },
        ],
      },
      {
        code: batches('await client.exec(new ClusterBatch(false).incrBy(`c:${id}`, 2).expire(`c:${id}`, 60), true);'),
        options: [{ allowPipeline: false }],
        errors: [
          {
            messageId: 'pipelineNotAtomic',
            line: 3,
            column: 43,
            suggestions: [{ messageId: 'useMulti', output: batches('await client.exec(new ClusterBatch(true).incrBy(`c:${id}`, 2).expire(`c:${id}`, 60), true);') }],
          },
        ],
      },
      {
        // queued on an atomic batch without its expiry: the expiry is chained after it
        code: batches('const tx = new Batch(true);\ntx.incr(`a:${id}`);\nawait client.exec(tx, true);'),
        errors: [
          {
            messageId: 'noExpiry',
            line: 4,
            column: 4,
            suggestions: [{ messageId: 'appendExpire', output: insertAfter(batches('const tx = new Batch(true);\ntx.incr(`a:${id}`);\nawait client.exec(tx, true);'), 'tx.incr(`a:${id}`)', '.expire(`a:${id}`, TTL_SECONDS)') }],
          },
        ],
      },
    ],
  });

  runRule(tester, 'no-persist', noPersist, {
    valid: [cluster("await client.hgetex(`h:${id}`, ['a'], { expiry: { type: TimeUnit.Seconds, count: 60 } });"), standalone("await client.httl(`h:${id}`, ['a']);")],
    invalid: [
      { code: standalone("await client.hgetex(`h:${id}`, ['a'], { expiry: 'PERSIST' });"), errors: [{ messageId: 'persistFields', line: 3, column: 14 }] },
      { code: standalone('await client.hpersist(`h:${id}`, fields);'), errors: [{ messageId: 'persistFields', line: 3, column: 14 }] },
      { code: standalone("await client.getex(`s:${id}`, { expiry: 'persist' });"), errors: [{ messageId: 'persist', line: 3, column: 14 }] },
    ],
  });

  runRule(tester, 'expire-needs-positive-ttl', expireNeedsPositiveTtl, {
    valid: [cluster('await client.set(`s:${id}`, v, { expiry: { type: TimeUnit.Seconds, count: 1 } });')],
    invalid: [
      {
        // SET ... EX 0: Redis refuses it
        code: cluster('await client.set(`s:${id}`, v, { expiry: { type: TimeUnit.Seconds, count: 0 } });'),
        errors: [{ messageId: 'literalRejected', line: 4, column: 75 }],
      },
    ],
  });
}
