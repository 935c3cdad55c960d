/**
 * Persistent records the declared pattern reaches only through a path alias: the key is built by a
 * key builder of another module imported through a tsconfig `paths` alias (`@src/model/keys`,
 * under its own name or renamed, `import { keys as dataKeys }`, or through a barrel), in a tsconfig
 * whose `extends` names a package that is not installed (`lvyjs/tsconfig.json`). The file's own
 * `paths` still say where `@src/*` is, so the key is spelled and the `persistentKeys` pattern
 * matches. Near misses stay reported: a key of the same builders outside the pattern, a pattern
 * that names another family, an alias whose tsconfig cannot be read (no key spelled), and a
 * per-entity key with no pattern declared.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import setRule from '../../rules/set-requires-ttl-or-keepttl.js';
import { ioredis, persistentSettings, positionOf, runRule, setSuggestions, untypedTester } from './tester.js';

const fixtures = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'persist-alias');
/** A file of the project whose tsconfig extends an uninstalled package. */
const app = join(fixtures, 'src', 'response', 'res.ts');
/** The same under a tsconfig that does not parse. */
const broken = join(fixtures, 'broken', 'src', 'response', 'res.ts');
const settings = persistentSettings('data:game:*');

/** The SET of `code` reported without TTL; `call` the call's text up to its last argument. */
const reported = (code: string, call: string) => [{ messageId: 'setWithoutTtl' as const, ...positionOf(code, call), suggestions: setSuggestions(code, call) }];
const savePlayer = 'set(dataKeys.player(id), JSON.stringify(p)';

const renamed = ioredis("import { keys as dataKeys } from '@src/model/keys';\nexport async function save(id: string, p: object) { await redis.set(dataKeys.player(id), JSON.stringify(p)); }");
const named = ioredis("import { keys } from '@src/model/keys';\nexport async function audit(name: string, list: string[]) { await redis.set(keys.associationAudit(name), JSON.stringify(list)); }");
const barrel = ioredis("import { keys } from '@src/model';\nexport async function save(id: string, p: object) { await redis.set(keys.player(id), JSON.stringify(p)); }");
// the same builders' other family, outside the pattern
const other = ioredis("import { keys as dataKeys, keysAction } from '@src/model/keys';\nexport async function act(id: string, a: object) { await redis.set(keysAction.action(id), JSON.stringify(a)); }");

runRule(untypedTester, 'set-requires-ttl-or-keepttl (persistent keys through a path alias of a tsconfig extending an uninstalled base)', setRule, {
  valid: [
    { code: renamed, filename: app, settings },
    { code: named, filename: app, settings },
    { code: barrel, filename: app, settings },
  ],
  invalid: [
    { code: other, filename: app, settings, errors: reported(other, 'set(keysAction.action(id), JSON.stringify(a)') },
    // a pattern naming another family
    { code: renamed, filename: app, settings: persistentSettings('data:other:*'), errors: reported(renamed, savePlayer) },
    // no pattern declared: a per-entity key
    { code: renamed, filename: app, errors: reported(renamed, savePlayer) },
    // the alias's tsconfig does not parse: where `@src/*` points is unknown, no key is spelled
    { code: renamed, filename: broken, settings, errors: reported(renamed, savePlayer) },
  ],
});

// `// redis-ttl persistent:` on the declaration statement of the keys object a key builder returns
const builder = "function buildKeys(id: string) { return { profile: `user:${id}:profile`, seen: `user:${id}:seen` }; }\n";
const annotated = ioredis(`${builder}export async function save(id: string, v: string) {\n  // redis-ttl persistent: the profile is the user's record\n  const keys = buildKeys(id);\n  await redis.set(keys.profile, v);\n}`);
// the annotation on another declaration: the write's keys are not read through it
const otherDeclaration = ioredis(
  `${builder}export async function save(id: string, v: string) {\n  // redis-ttl persistent: the admin's record\n  const admin = buildKeys('admin');\n  const keys = buildKeys(id);\n  await redis.set(keys.profile, v);\n  return admin;\n}`,
);
// the annotated declaration is there, but the key is spelled apart from it
const notReadThrough = ioredis(`${builder}export async function save(id: string, v: string) {\n  // redis-ttl persistent: the profile is the user's record\n  const keys = buildKeys(id);\n  await redis.set(\`user:\${id}:seen\`, keys.seen);\n}`);

runRule(untypedTester, 'set-requires-ttl-or-keepttl (a persistent annotation on the declaration of a built keys object)', setRule, {
  valid: [annotated],
  invalid: [
    { code: otherDeclaration, errors: reported(otherDeclaration, 'set(keys.profile, v') },
    { code: notReadThrough, errors: reported(notReadThrough, 'set(`user:${id}:seen`, keys.seen') },
  ],
});

// a `let` whose every assignment spells a key of the declared family, builders imported through the alias
const letKey = (other: string) =>
  ioredis(
    `import { keys as dataKeys, keysAction } from '@src/model/keys';\nexport async function save(id: string, name: string, audit: boolean, p: object) {\n  let key = dataKeys.player(id);\n  if (audit) key = ${other};\n  await redis.set(key, JSON.stringify(p));\n}`,
  );
const letPersistent = letKey('dataKeys.associationAudit(name)');
// one assignment outside the pattern
const letMixed = letKey('keysAction.action(id)');

runRule(untypedTester, 'set-requires-ttl-or-keepttl (a let reassigned in a branch, every value under the pattern)', setRule, {
  valid: [{ code: letPersistent, filename: app, settings }],
  invalid: [{ code: letMixed, filename: app, settings, errors: reported(letMixed, 'set(key, JSON.stringify(p)') }],
});
