/**
 * Receivers whose declared return types name each other (`f(): ReturnType<typeof g>`,
 * `g(): ReturnType<typeof f>`, or a function naming itself) are judged once per function: the
 * cycle gives no verdict instead of overflowing the stack (which aborted the whole lint). A
 * receiver typed by a function that does return a client is still one. Class members assigned
 * from each other (`this.a = this.b; this.b = this.a`) are judged once per member: n members
 * assigning each other no longer take n^depth steps (eleven took minutes), and a member reached
 * twice keeps its verdict (a client, or provably none).
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

describe('class members assigned from each other', () => {
  const assignEachOther = (n: number): string =>
    Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => `    this.m${i} = this.m${j};`).join('\n')).join('\n');

  it('eleven members assigning each other give no verdict (and do not take minutes)', () => {
    const code = `import Redis from 'ioredis';
export class C {
  init() {
${assignEachOther(11)}
  }
  async run(id: string) { await this.m0.set(\`k:\${id}\`, 'v'); }
}
`;
    expect(found(code)).toEqual([]);
  });

  it('a client assigned into the cycle is still found through it', () => {
    const code = `import Redis from 'ioredis';
export class C {
  init() {
    this.a = this.b;
    this.b = this.a;
    this.b = new Redis();
  }
  async run(id: string) { await this.a.set(\`k:\${id}\`, 'v'); }
}
`;
    expect(found(code)).toEqual([['redis-ttl/set-requires-ttl-or-keepttl', 8, 40, false]]);
  });

  it('a member reached twice keeps its verdict: provably no client, whatever the name (near miss)', () => {
    const code = `import Redis from 'ioredis';
export class C {
  init(flag: boolean) {
    this.c = new Map();
    this.a = this.c;
    this.b = this.c;
    this.redis = flag ? this.a : this.b;
  }
  async run(id: string) { await this.redis.set(\`k:\${id}\`, 'v'); }
}
`;
    expect(found(code)).toEqual([]);
  });
});

