// makeDirectories, the `mkdir -p` of every CLI's --output: Node 20's mkdir({ recursive: true })
// spins forever when a level answers ENOENT although its parent exists (under /proc); this one
// rejects with that error, and makes every missing level elsewhere.
import { existsSync, mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeDirectories } from '../../cli/directories.js';
import { runKeys } from '../keys/run-keys.js';

describe('makeDirectories', () => {
  it('makes every missing level, and accepts levels that exist', async () => {
    const root = mkdtempSync(path.join(tmpdir(), 'dirs-'));
    const deep = path.join(root, 'a', 'b', 'c');
    await makeDirectories(deep);
    expect(statSync(deep).isDirectory()).toBe(true);
    await makeDirectories(deep);
    expect(existsSync(deep)).toBe(true);
  });

  it('rejects with ENOENT under /proc instead of spinning', async () => {
    await expect(makeDirectories('/proc/redis-ttl-no-such-dir/sub')).rejects.toMatchObject({ code: 'ENOENT' });
  });
});

describe('redis-ttl-keys --output under a directory that cannot be made', () => {
  it('exits 2 with one line naming the file', async () => {
    const result = await runKeys(['--no-config', '--format', 'json', '--output', '/proc/redis-ttl-no-such-dir/k.json', 'examples/app']);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe('redis-ttl-keys: cannot write /proc/redis-ttl-no-such-dir/k.json: file not found (ENOENT).\n');
  });
});
