/**
 * What one file costs in the plugin's rules when it is linted with type information: the time
 * ESLint's own per-rule statistics (`stats: true`) give the `redis-ttl/*` rules on a file, in a
 * fresh process per file, so that the file pays the type checker's first questions as an editor
 * or the first file of a CI run does (issue 25 measured 2.4-7.3 s for one file per node-redis
 * codebase).
 *
 * The corpus is written by the bench into `.bench-tmp/eslint-typed-file/` (gitignored; the
 * repository's `redis` and `ioredis` resolve from its node_modules): a node-redis 5 client created
 * with `scripts` options and exported, and the modules that use it the ways applications do: a
 * class holding it in a member typed `typeof client`, functions taking `RedisClientType` or
 * `ReturnType<typeof createClient>` parameters, a `multi()` chain, a client reached through an
 * annotated options object, plus an ioredis module and a file without Redis as controls. Each file
 * is linted alone in a child process with `parserOptions.project`; the rounds alternate the
 * plugins measured and the report gives, per file, the median time of the rules, their findings,
 * and with `--plugin <dir>` the same for the plugin of another checkout (`<dir>/rules/index.ts`,
 * e.g. `git archive <commit> rules redis-calls semantics lua-lint text cli package.json | tar -x
 * -C <dir>`), side by side in the same rounds. The machine's load moves the times; the ratio
 * between the two plugins in one round moves less.
 *
 *   node --import tsx bench/eslint/typed-file.ts [--rounds 5] [--plugin <dir>] [--file <name>]
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import tsParser from '@typescript-eslint/parser';
import { Linter } from 'eslint';
import { median, runChild } from './child.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const corpus = join(root, '.bench-tmp', 'eslint-typed-file');

/** The corpus: file name -> source. */
const FILES: Record<string, string> = {
  'client.ts': `import { createClient, defineScript } from 'redis';

export const scripts = {
  incrWithTtl: defineScript({
    NUMBER_OF_KEYS: 1,
    SCRIPT: "local n = redis.call('INCR', KEYS[1]) if n == 1 then redis.call('EXPIRE', KEYS[1], ARGV[1]) end return n",
    parseCommand(parser, key: string, ttl: number) {
      parser.pushKey(key);
      parser.push(String(ttl));
    },
    transformReply: (reply: unknown) => reply as number,
  }),
};

export const client = createClient({ url: process.env.REDIS_URL, scripts, RESP: 3 });
export type AppClient = typeof client;

export async function connect(): Promise<AppClient> {
  if (!client.isOpen) await client.connect();
  return client;
}
`,
  'store.ts': `import type { RedisClientType } from 'redis';
import { client, connect, type AppClient } from './client';

const SESSION_TTL_SECONDS = 60 * 60;

export class SessionStore {
  constructor(private readonly redis: AppClient, private readonly prefix: string) {}

  async save(id: string, data: Record<string, string>) {
    await this.redis.hSet(\`\${this.prefix}:\${id}\`, data);
    await this.redis.expire(\`\${this.prefix}:\${id}\`, SESSION_TTL_SECONDS);
  }

  async touch(id: string) {
    await this.redis.set(\`touch:\${id}\`, Date.now().toString(), { EX: SESSION_TTL_SECONDS });
  }

  async count(id: string) {
    return this.redis.multi().incr(\`count:\${id}\`).expire(\`count:\${id}\`, 60).exec();
  }

  async hit(id: string) {
    return this.redis.incrWithTtl(\`hits:\${id}\`, 60);
  }
}

export async function remember(c: RedisClientType, key: string, value: string) {
  await c.set(\`cache:\${key}\`, value);
  await c.lPush(\`log:\${key}\`, value);
  await c.sAdd(\`seen:\${key}\`, value);
  await c.zAdd(\`rank:\${key}\`, { score: 1, value });
}

export async function withOptions(options: { redis: AppClient; ttl: number }, key: string) {
  const store = options.redis;
  await store.set(\`opt:\${key}\`, '1', { EX: options.ttl });
  await store.getSet(\`swap:\${key}\`, '0');
}

export async function shared(key: string) {
  const c = await connect();
  await c.incr(\`shared:\${key}\`);
  await client.json.set(\`doc:\${key}\`, '$', { a: 1 });
}
`,
  'service.ts': `import { createClient } from 'redis';

type Redis = ReturnType<typeof createClient>;

export function makeLimiter(redis: Redis, windowSeconds: number) {
  return async (ip: string) => {
    const key = \`rl:\${ip}\`;
    const n = await redis.incr(key);
    if (n === 1) await redis.expire(key, windowSeconds);
    return n;
  };
}

export async function lock(redis: Redis, name: string, token: string) {
  return redis.set(\`lock:\${name}\`, token, { NX: true, PX: 30_000 });
}
`,
  'ioredis-store.ts': `import Redis from 'ioredis';

const redis = new Redis();

export async function put(id: string, value: string) {
  await redis.set(\`item:\${id}\`, value);
  await redis.multi().incr(\`n:\${id}\`).expire(\`n:\${id}\`, 60).exec();
}
`,
  'no-redis.ts': `export function add(a: number, b: number) {
  const cache = new Map<string, number>();
  cache.set(\`\${a}+\${b}\`, a + b);
  return cache.get(\`\${a}+\${b}\`);
}
`,
};

interface Sample {
  /** Time in the plugin's rules on the file, in ms (ESLint's per-rule statistics). */
  rulesMs: number;
  findings: number;
}

function writeCorpus(): void {
  mkdirSync(corpus, { recursive: true });
  for (const [name, text] of Object.entries(FILES)) writeFileSync(join(corpus, name), text);
  const tsconfig = {
    compilerOptions: { target: 'ES2022', module: 'ESNext', moduleResolution: 'Bundler', strict: true, skipLibCheck: true, noEmit: true, types: ['node'] },
    files: Object.keys(FILES),
  };
  writeFileSync(join(corpus, 'tsconfig.json'), `${JSON.stringify(tsconfig, null, 2)}\n`);
}

/** The child: lints one file of the corpus with the given plugin and prints a {@link Sample}. */
async function child(file: string, pluginDir: string | undefined): Promise<void> {
  const plugin = (
    pluginDir
      ? await import(pathToFileURL(join(resolve(pluginDir), 'rules', 'index.ts')).href)
      : await import('../../rules/index.js')
  ) as { default: { configs: { recommended: Linter.Config } } };
  const linter = new Linter({ configType: 'flat' });
  const filename = join(corpus, file);
  const config: Linter.Config[] = [
    {
      files: ['**/*.ts'],
      languageOptions: { parser: tsParser, parserOptions: { project: join(corpus, 'tsconfig.json'), tsconfigRootDir: corpus } },
    },
    plugin.default.configs.recommended,
  ];
  // ESLint keeps per-rule statistics on its fix passes: verifyAndFix without fixing is one pass
  // (`stats` is ESLint's option, missing from its types)
  const { messages } = linter.verifyAndFix(readFileSync(filename, 'utf8'), config, { filename, stats: true, fix: false } as Linter.FixOptions);
  const fatal = messages.find((m) => m.fatal);
  if (fatal) throw new Error(`${file}: ${fatal.message}`);
  const times = linter.getTimes() as { passes: Array<{ rules?: Record<string, { total: number }> }> };
  let rulesMs = 0;
  for (const pass of times.passes) {
    for (const [id, time] of Object.entries(pass.rules ?? {})) if (id.startsWith('redis-ttl/')) rulesMs += time.total;
  }
  const sample: Sample = { rulesMs, findings: messages.filter((m) => m.ruleId?.startsWith('redis-ttl/')).length };
  process.stdout.write(`${JSON.stringify(sample)}\n`);
}

function runOne(file: string, pluginDir: string | undefined): Sample {
  return runChild<Sample>(import.meta.url, file, pluginDir, root);
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const option = (name: string): string | undefined => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
  const pluginDir = option('--plugin');
  const childFile = option('--child');
  if (childFile) {
    await child(childFile, pluginDir);
    return;
  }
  writeCorpus();
  const rounds = Number(option('--rounds') ?? 5);
  const files = option('--file') ? [option('--file')!] : Object.keys(FILES);
  const plugins: Array<string | undefined> = pluginDir ? [undefined, pluginDir] : [undefined];
  const samples = new Map<string, Sample[]>();
  const id = (file: string, plugin: string | undefined): string => `${file}\0${plugin ?? ''}`;
  for (let round = 0; round < rounds; round++) {
    for (const file of files) {
      // alternate which plugin goes first, so that a slow moment hits both alike
      const order = round % 2 === 0 ? plugins : [...plugins].reverse();
      for (const plugin of order) {
        const list = samples.get(id(file, plugin)) ?? [];
        list.push(runOne(file, plugin));
        samples.set(id(file, plugin), list);
      }
    }
  }
  console.log(`rules' time per file with type information (parserOptions.project), one child process per file and run, ${rounds} rounds; medians:`);
  const header = pluginDir ? `| file | rules ms | findings | rules ms, ${pluginDir} | findings | ratio |` : '| file | rules ms | findings |';
  console.log(header);
  console.log(pluginDir ? '| --- | --: | --: | --: | --: | --: |' : '| --- | --: | --: |');
  for (const file of files) {
    const own = samples.get(id(file, undefined))!;
    const ownMs = median(own.map((s) => s.rulesMs));
    if (!pluginDir) {
      console.log(`| ${file} | ${ownMs.toFixed(0)} | ${own[0]!.findings} |`);
      continue;
    }
    const other = samples.get(id(file, pluginDir))!;
    const ratios = own.map((s, i) => s.rulesMs / other[i]!.rulesMs);
    console.log(
      `| ${file} | ${ownMs.toFixed(0)} | ${own[0]!.findings} | ${median(other.map((s) => s.rulesMs)).toFixed(0)} | ${other[0]!.findings} | ${median(ratios).toFixed(3)} |`,
    );
  }
}

await main();
