import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { analyzeLua } from '../../lua-lint/index.js';

const dir = new URL('../../runtime/scripts/', import.meta.url);
const files = readdirSync(dir).filter((f) => f.endsWith('.lua')).sort();

describe('runtime scripts pass lua-lint with no finding', () => {
  it('ships the nineteen scripts', () => {
    expect(files).toEqual([
      'cache_del.lua',
      'cache_fail.lua',
      'cache_get.lua',
      'cache_release.lua',
      'cache_renew.lua',
      'cache_set.lua',
      'circuit_acquire.lua',
      'circuit_read.lua',
      'circuit_record.lua',
      'collect.lua',
      'fixed_window.lua',
      'gcra.lua',
      'increment.lua',
      'leaky_bucket.lua',
      'probe.lua',
      'set_keep_ttl.lua',
      'sliding_window_counter.lua',
      'sliding_window_log.lua',
      'token_bucket.lua',
    ]);
  });

  it('the analyzer does report the mistakes these scripts avoid (control)', () => {
    expect(analyzeLua("redis.call('GETSET', KEYS[1], '0')").map((f) => f.ruleId)).toEqual(['no-getset']);
    expect(analyzeLua("redis.call('SET', KEYS[1], '0', 'KEEPTTL')").map((f) => f.ruleId)).toEqual([
      'keepttl-needs-existing-key',
    ]);
  });

  it.each(files)('%s', (file) => {
    const source = readFileSync(new URL(file, dir), 'utf8');
    expect(analyzeLua(source)).toEqual([]);
  });
});
