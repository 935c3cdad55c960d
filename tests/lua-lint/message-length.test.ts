// Every Lua message fits an editor hover or a CI log line: at most 300 characters as the user sees
// it, and the ESLint rule embedded-lua relays it behind its rule id (`[write-path-needs-ttl] ...`),
// so lua-lint's own limit is 300 minus the longest such prefix. What is wrong, why it leaks and the
// fix (docs/rules/<rule>.md holds the rest). Checked on every finding of the
// handed Lua cases, of the Lua found in the handed TS cases, of the project's Lua and host-language
// fixtures, and of the rule pages' examples, with the options that add to messages (strict mode,
// caller-chosen TTLs reported, an old redisVersion).
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { lintHostSource } from '../../lua-lint/hosts/index.js';
import { analyzeLua, RULE_IDS, type AnalyzeOptions, type LuaFinding } from '../../lua-lint/index.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const fixtures = path.join(root, 'tests', 'fixtures');
/** The longest `[rule-id] ` prefix embedded-lua puts before a relayed message. */
const PREFIX = Math.max(...RULE_IDS.map((id) => `[${id}] `.length));
const MAX = 300 - PREFIX;
const OPTIONS: readonly AnalyzeOptions[] = [{}, { strict: true, allowOptionalTtl: false, redisVersion: '6.0' }];

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesUnder(path.join(dir, entry.name)) : [path.join(dir, entry.name)],
  );
}

/** The ```lua blocks of a markdown page. */
function luaBlocks(markdown: string): string[] {
  return [...markdown.matchAll(/^```lua\n([\s\S]*?)^```$/gm)].map((match) => match[1]!);
}

interface Message {
  where: string;
  finding: LuaFinding;
}

async function messages(): Promise<Message[]> {
  const out: Message[] = [];
  const add = (where: string, findings: readonly LuaFinding[]) => {
    for (const finding of findings) out.push({ where: `${where}:${finding.line}:${finding.column}`, finding });
  };
  const lua = [...filesUnder(path.join(fixtures, 'cases', 'lua')), ...filesUnder(path.join(fixtures, 'lua'))].filter((file) => file.endsWith('.lua'));
  for (const file of lua) for (const options of OPTIONS) add(path.relative(root, file), analyzeLua(readFileSync(file, 'utf8'), options));
  // the Lua of the handed TS cases, as the embedded-lua rule and lua-lint find it; the host fixtures
  const hosts = [...filesUnder(path.join(fixtures, 'cases', 'ts')), ...filesUnder(path.join(fixtures, 'hosts'))];
  for (const file of hosts) for (const options of OPTIONS) add(path.relative(root, file), await lintHostSource(file, readFileSync(file, 'utf8'), options));
  const pages = path.join(root, 'docs', 'rules');
  for (const page of readdirSync(pages)) {
    luaBlocks(readFileSync(path.join(pages, page), 'utf8')).forEach((code, i) => {
      for (const options of OPTIONS) add(`docs/rules/${page} (example ${i + 1})`, analyzeLua(code, options));
    });
  }
  return out;
}

describe('Lua messages', () => {
  it(`are at most ${MAX} characters on every handed case and fixture`, async () => {
    const all = await messages();
    // the inputs hold findings of every rule, from the TS cases too: the check cannot pass on nothing
    expect(new Set(all.map((m) => m.finding.ruleId))).toEqual(new Set([...RULE_IDS, null]));
    expect(all.filter((m) => m.where.startsWith('tests/fixtures/cases/ts/')).length).toBeGreaterThan(0);
    const tooLong = all.filter((m) => m.finding.message.length > MAX).map((m) => `${m.where} ${m.finding.ruleId} (${m.finding.message.length}): ${m.finding.message}`);
    expect(tooLong).toEqual([]);
  });
});
