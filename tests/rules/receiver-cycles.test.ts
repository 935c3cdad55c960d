/**
 * Receivers whose declared return types name each other (`f(): ReturnType<typeof g>`,
 * `g(): ReturnType<typeof f>`, or a function naming itself) are judged once per function: the
 * cycle gives no verdict instead of overflowing the stack (which aborted the whole lint). A
 * receiver typed by a function that does return a client is still one.
 */
import { describe, expect, it } from 'vitest';
import { lintSnippet } from '../helpers/lint.js';

const rules = { 'redis-ttl/set-requires-ttl-or-keepttl': 'error' } as const;
const found = (code: string) => lintSnippet(code, rules).map((m) => [m.ruleId, m.line, m.column, m.fatal ?? false]);

describe('return types that name each other', () => {
  it('a function whose return type is its own gives no verdict and no crash', () => {
    const code = `import Redis from 'ioredis';
export function f(): ReturnType<typeof f> { return f(); }
export async function run(k: ReturnType<typeof f>, id: string) { await k.set(\`c:\${id}\`, 'v'); }
`;
    expect(found(code)).toEqual([]);
  });

  it('two functions whose return types name each other give no verdict and no crash', () => {
    const code = `import Redis from 'ioredis';
export function f(): ReturnType<typeof g> { return g(); }
export function g(): ReturnType<typeof f> { return f(); }
export async function run(k: ReturnType<typeof g>, id: string) { await k.set(\`c:\${id}\`, 'v'); }
`;
    expect(found(code)).toEqual([]);
  });

  it('a receiver typed by a function that returns a client is still one (near miss)', () => {
    const code = `import Redis from 'ioredis';
const redis = new Redis();
export function h() { return redis; }
export function f(): ReturnType<typeof h> { return h(); }
export async function run(k: ReturnType<typeof f>, id: string) { await k.set(\`c:\${id}\`, 'v'); }
`;
    expect(found(code)).toEqual([['redis-ttl/set-requires-ttl-or-keepttl', 5, 74, false]]);
  });
});
