/**
 * lua-lint's inputs that are not what they seem (breaker16, defect 13): a binary host-language
 * file is called binary, not "not a Lua source file"; a file or standard input that never ends
 * (`/dev/zero`) is read up to a cap (MAX_SOURCE_BYTES) and reported, instead of running forever;
 * a folder whose only content is a symbolic link to a folder says that the link was skipped (links
 * to folders are not followed, which keeps a loop safe), and naming the link lints its folder.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MAX_SOURCE_BYTES } from '../../lua-lint/cli/files.js';
import { main } from '../../lua-lint/cli/main.js';

const LEAK = "redis.call('SET', KEYS[1], ARGV[1])\nreturn 1\n";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'lua-lint-inputs-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

async function run(args: string[], stdin: Iterable<Buffer> = []): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await main(args, {
    stdout: { write: (text: string) => (stdout += text), isTTY: false },
    stderr: { write: (text: string) => (stderr += text) },
    stdin: Readable.from(stdin),
    cwd: dir,
    env: {},
  });
  return { code, stdout, stderr };
}

function write(name: string, content: string | Buffer): void {
  mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
  writeFileSync(path.join(dir, name), content);
}

const messagesOf = (stdout: string) => (JSON.parse(stdout) as Array<{ messages: Array<{ message: string; fatal?: boolean }> }>)[0]!.messages;

describe('lua-lint inputs', () => {
  it('calls a binary .js file binary, and a binary .lua file no Lua source (as before)', async () => {
    write('hosts/blob.js', Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0x00, 0x01]));
    write('blob.lua', Buffer.from([0x1b, 0x4c, 0x75, 0x61, 0x00]));
    const js = await run(['hosts/blob.js', '--format', 'json']);
    expect(js.code).toBe(1);
    expect(messagesOf(js.stdout)).toEqual([
      expect.objectContaining({ message: 'Not a text file: it contains NUL bytes (binary data, not .js source?), so no Lua script embedded in it was looked for.', fatal: true }),
    ]);
    expect(messagesOf((await run(['blob.lua', '--format', 'json'])).stdout)).toEqual([expect.objectContaining({ message: 'Not a Lua source file: it contains NUL bytes (binary data?).' })]);
  });

  it.runIf(existsSync('/dev/zero'))('reads /dev/zero up to the cap and reports it (exit 1), instead of never ending', async () => {
    const { code, stdout } = await run(['/dev/zero', '--format', 'json']);
    expect(code).toBe(1);
    expect(messagesOf(stdout)).toEqual([
      expect.objectContaining({
        message: `Not linted: more than ${MAX_SOURCE_BYTES} bytes were read from it, over the limit of ${MAX_SOURCE_BYTES} bytes (64 MiB) for one source file (a device such as /dev/zero never ends).`,
        fatal: true,
      }),
    ]);
  });

  it('refuses standard input past the cap (exit 2)', async () => {
    const chunk = Buffer.alloc(1 << 20, 0x20);
    function* endless(): Generator<Buffer> {
      for (;;) yield chunk;
    }
    expect(await run(['-'], endless())).toEqual({ code: 2, stdout: '', stderr: `lua-lint: Standard input holds more than ${MAX_SOURCE_BYTES} bytes (64 MiB), the limit for one source file: not linted.\n` });
  });

  it('an ordinary file is still read whole and linted', async () => {
    write('leak.lua', LEAK);
    const { code, stdout } = await run(['leak.lua', '--format', 'json']);
    expect(code).toBe(1);
    expect(messagesOf(stdout).map((m) => m.message)).toHaveLength(1);
  });

  it('names the symbolic link it skipped when a folder holds only a link to a folder; the link itself lints', async () => {
    write('scripts/leak.lua', LEAK);
    mkdirSync(path.join(dir, 'tree'));
    symlinkSync(path.join(dir, 'scripts'), path.join(dir, 'tree', 'linked'));
    expect(await run(['tree'])).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'lua-lint: No .lua files (nor Go, Python, Ruby, PHP, Java, C#, JS or TS files) were found in the directory "tree". Symbolic links to folders are not followed (a link back up the tree would be walked forever): "tree/linked" was skipped; name a link on the command line to lint the folder it leads to.\n',
    });
    const named = await run(['tree/linked', '--format', 'json']);
    expect(named.code).toBe(1);
    // a link to a file or a dangling link is not named: only folders are skipped
    rmSync(path.join(dir, 'tree', 'linked'));
    symlinkSync(path.join(dir, 'nowhere'), path.join(dir, 'tree', 'dangling'));
    expect((await run(['tree'])).stderr).toBe('lua-lint: No .lua files (nor Go, Python, Ruby, PHP, Java, C#, JS or TS files) were found in the directory "tree".\n');
  });
});
