/**
 * `expire-needs-positive-ttl`: a TTL division whose dividend is a property of a factory's options
 * parameter (`export function createBackoffTracker(opts) { return async (req) => { ...
 * redis.expire(key, opts.maxDelay / 1000) } }`) is judged by the values every call of the factory
 * gives it (`redis-calls/constructor-arguments.ts` factoryArgumentValues), read in its file and,
 * for an exported factory of an application, in the modules of its package that import it
 * (pasar-backend: `createBackoffTracker({ maxDelay: 8000 })` and `({ maxDelay: 5000 })`, so the
 * TTL is 8 or 5 whole seconds). Limits (stay reported): a call giving a value that is no multiple
 * (1500: a fraction Redis rejects), a call whose argument is no constant, and a library (its
 * factories are called outside it).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll } from 'vitest';
import rule from '../../rules/expire-needs-positive-ttl.js';
import { fixturesDir, ioredis, runRule, untypedTester } from './tester.js';

const root = mkdtempSync(join(fixturesDir, 'factory-args-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Writes an application (or a library, `private: false`) under `root/name` and returns its folder. */
function project(name: string, files: Record<string, string>, isPrivate = true): string {
  const dir = join(root, name);
  const all: Record<string, string> = { 'package.json': JSON.stringify({ name, private: isPrivate, type: 'module' }), ...files };
  for (const [path, text] of Object.entries(all)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

/** The middleware factory, its TTL expression `ttl` on line 8. */
const middleware = (ttl: string): string =>
  ioredis(
    `interface BackoffOptions { initialDelay: number; maxDelay: number; prefix: string }\nexport function createBackoffTracker(opts: BackoffOptions) {\n  return async function backoffTracker(ip: string) {\n    const key = \`\${opts.prefix}:\${ip}\`;\n    const count = await redis.incr(key);\n    if (count === 1) {\n      await redis.expire(key, ${ttl});\n    }\n  };\n}`,
  );
/** A module calling the factory with `maxDelay`. */
const caller = (maxDelay: string): string =>
  `import { createBackoffTracker } from '../middleware/security';\nexport const track = createBackoffTracker({ initialDelay: 500, maxDelay: ${maxDelay}, prefix: 'backoff:signin' });\nexport const other = createBackoffTracker({ initialDelay: 300, maxDelay: 5000, prefix: 'backoff:otp' });\n`;

const TTL = 'opts.maxDelay / 1000';
const whole = project('whole', { 'src/middleware/security.ts': middleware(TTL), 'src/utils/auths.ts': caller('8000') });
const fraction = project('fraction', { 'src/middleware/security.ts': middleware(TTL), 'src/utils/auths.ts': caller('1500') });
const unknown = project('unknown', { 'src/middleware/security.ts': middleware(TTL), 'src/utils/auths.ts': caller('Number(process.env.MAX_DELAY)') });
const library = project('library', { 'src/middleware/security.ts': middleware(TTL), 'src/utils/auths.ts': caller('8000') }, false);
/** The factory with a default for its options (a default is the parameter's initialiser, not a reassignment). */
const defaultedMiddleware = middleware(TTL).replace('createBackoffTracker(opts: BackoffOptions)', "createBackoffTracker(opts: BackoffOptions = { initialDelay: 1, maxDelay: 4000, prefix: 'b' })");
const defaulted = project('defaulted', { 'src/middleware/security.ts': defaultedMiddleware, 'src/utils/auths.ts': caller('8000') });
const file = (dir: string): string => join(dir, 'src', 'middleware', 'security.ts');

/** The finding on the TTL (line 9 of {@link middleware}), with its clamp suggestion. */
function reported(dir: string) {
  return {
    code: middleware(TTL),
    filename: file(dir),
    errors: [{ messageId: 'computed' as const, line: 9, column: 31, suggestions: [{ messageId: 'clampToOne' as const, output: middleware(`Math.max(1, Math.ceil(${TTL}))`) }] }],
  };
}

runRule(untypedTester, 'expire-needs-positive-ttl (a factory argument)', rule, {
  valid: [
    // every call, in another module of the application, passes a whole number of seconds
    { code: middleware(TTL), filename: file(whole) },
    { code: middleware(`Math.floor(${TTL})`), filename: file(whole) },
    // rounded down, 1500 gives 1: never 0
    { code: middleware(`Math.floor(${TTL})`), filename: file(fraction) },
    // a default for the options parameter: still judged by what every call passes
    { code: defaultedMiddleware, filename: file(defaulted) },
  ],
  invalid: [
    // a call giving 1500: 1.5, which EXPIRE rejects
    reported(fraction),
    // a call passing a value nobody fixes
    reported(unknown),
    // a library: its factories are called by code outside it
    reported(library),
  ],
});
