// redis-ttl-audit --format html in a real headless browser: Debian's Chromium driven by
// playwright-core. The page is loaded from a file; the test asserts its elements (table rows,
// bars, the TTL histogram, file:line links), that it makes no request and logs no error (a
// Content-Security-Policy violation is a console error), that key names crafted to inject
// HTML or script stay text, and takes a screenshot. Never skipped: without Chromium it fails and
// says how to install it. Database 7 of the test server, flushed first.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Redis } from 'ioredis';
import { type BrowserContext, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { escapeHtml, fileHref } from '../../audit/html.js';
import { type InventoryDocument, serializeInventory } from '../../inventory/format.js';
import { needsOwnServer, useRedis } from '../helpers/redis.js';
import { runCli } from './run-cli.js';

const CHROMIUM = '/usr/bin/chromium';
const redis = useRedis();
const DB = 7;
const ownServerOnly = needsOwnServer('tests/audit/html.test.ts counts every key of a database it flushes');

const work = mkdtempSync(path.join(tmpdir(), 'audit-html-'));
const page = path.join(work, 'reports', 'audit.html');
/** A file of the application as reports name it: relative to the working directory. */
const shown = (file: string) => path.relative(process.cwd(), path.join(work, file)).split(path.sep).join('/');
/** Where the screenshot goes (outside the repository). */
export const SCREENSHOT = path.join(tmpdir(), 'redis-ttl-audit-report.png');

/** Key names that would run script if the page put them in its HTML unescaped. */
const HOSTILE = [
  'x:<script>window.__xss=1</script>',
  'y:"><img src=nope onerror="window.__xss=2">',
  "z:'><svg onload=window.__xss=3>",
  'w:</style><script>window.__xss=4</script>',
];

const inventory: InventoryDocument = {
  version: 1,
  root: '..',
  shapes: [
    { shape: 'session:*', writes: [{ file: 'src/store.ts', line: 7, column: 9, command: 'SET', client: 'ioredis', ttl: 'none' }] },
    {
      shape: 'cache:page:*',
      writes: [
        { file: 'src/cache.ts', line: 3, column: 5, command: 'SET', client: 'ioredis', ttl: 'atomic' },
        { file: 'src/cache.ts', line: 9, column: 5, command: 'SET', client: 'ioredis', ttl: 'atomic' },
      ],
    },
    { shape: 'rl:{*}:count', writes: [{ file: 'src/limiter.ts', line: 10, column: 3, command: 'INCR', client: 'ioredis', ttl: 'separate' }] },
    // a file name that would be a javascript: URL if the link were not made relative
    { shape: 'evil:*', writes: [{ file: 'javascript:window.__xss=5', line: 1, column: 1, command: 'SET', client: 'ioredis', ttl: 'none' }] },
  ],
};

let r: Redis;
let context: BrowserContext | undefined;

beforeAll(async () => {
  if (ownServerOnly) return;
  r = redis.client({ db: DB });
  await r.flushdb();
  const p = r.pipeline();
  for (let i = 0; i < 40; i += 1) p.set(`session:${(0xabc000 + i).toString(16)}`, 'x');
  for (let i = 0; i < 30; i += 1) {
    if (i < 27) p.set(`cache:page:${i}`, 'x', 'EX', i < 10 ? 30 : i < 20 ? 1800 : 90_000);
    else p.set(`cache:page:${i}`, 'x');
  }
  for (let i = 0; i < 12; i += 1) {
    if (i < 9) p.set(`rl:{user${i}}:count`, '1', 'PX', 20_000);
    else p.set(`rl:{user${i}}:count`, '1');
  }
  for (let i = 0; i < 6; i += 1) p.set(`legacy:${i}`, 'x');
  for (let i = 0; i < 3; i += 1) p.set(`evil:${i}`, 'x');
  for (const key of HOSTILE) p.set(key, 'x');
  await p.exec();
  mkdirSync(path.join(work, 'build'), { recursive: true });
  mkdirSync(path.join(work, 'src'), { recursive: true });
  for (const file of ['store.ts', 'cache.ts', 'limiter.ts']) writeFileSync(path.join(work, 'src', file), '// source\n');
  writeFileSync(path.join(work, 'build', 'keys.json'), serializeInventory(inventory));
  const url = `${redis.url().replace(/\/\d*$/, '')}/${DB}`;
  const inventoryArgs = ['--url', url, '--inventory', path.join(work, 'build', 'keys.json')];
  // a baseline without the last 20 sessions: the page shows their growth, over --fail-on-growth 10
  const baseline = path.join(work, 'before.json');
  expect(await runCli([...inventoryArgs, '--format', 'json', '--output', baseline])).toEqual({ code: 0, stdout: '', stderr: '' });
  for (let i = 40; i < 60; i += 1) await r.set(`session:${(0xabc000 + i).toString(16)}`, 'x');
  const run = await runCli([...inventoryArgs, '--format', 'html', '--output', page, '--baseline', baseline, '--fail-on-growth', '10']);
  expect([run.code, run.stdout]).toEqual([1, '']);
  expect(run.stderr).toMatch(/^redis-ttl-audit: --fail-on-growth 10: 'session:\*' has 20 more keys without TTL than .*before\.json \(40 -> 60\)/);
}, 60_000);

afterAll(async () => {
  await context?.close();
});

async function browser(): Promise<BrowserContext> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`${CHROMIUM} not found: the HTML report is checked in Debian's Chromium. Install it with "apt-get install chromium" (.ci/run does).`);
  }
  context ??= await chromium.launchPersistentContext(mkdtempSync(path.join(tmpdir(), 'chromium-profile-')), {
    executablePath: CHROMIUM,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    viewport: { width: 1400, height: 1000 },
  });
  return context;
}

describe('escapeHtml and fileHref', () => {
  it('escapes the five characters that matter in text and attributes', () => {
    expect(escapeHtml(`<a href="x" title='y'>&amp;</a>`)).toBe('&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;amp;&lt;/a&gt;');
  });

  it('makes relative links that never read as a URL scheme, percent-encoded', () => {
    expect(fileHref('src/store.ts')).toBe('./src/store.ts');
    expect(fileHref('src/store.ts', 'reports')).toBe('../src/store.ts');
    expect(fileHref('../app/src/a b#c?.ts', 'out/html')).toBe('../../../app/src/a%20b%23c%3F.ts');
    expect(fileHref('javascript:alert(1)')).toBe('./javascript%3Aalert(1)');
  });
});

describe.skipIf(ownServerOnly)('--format html in Chromium', () => {
  it('renders the table, the bar chart, the TTL histogram and the links, with no request and no console error', async () => {
    const html = readFileSync(page, 'utf8');
    // Static checks: nothing of a key name is markup, the page loads nothing from elsewhere.
    for (const key of HOSTILE) expect(html).toContain(escapeHtml(key));
    expect(html).not.toMatch(/<script>window\.__xss/);
    expect(html).not.toMatch(/<img src=nope/);
    expect(html).not.toMatch(/\b(?:src|href)="(?:https?:)?\/\//);
    expect(html).toMatch(/<meta http-equiv="Content-Security-Policy" content="default-src &#39;none&#39;; style-src &#39;sha256-[A-Za-z0-9+/=]+&#39;; script-src &#39;sha256-/);

    const ctx = await browser();
    const tab = await ctx.newPage();
    const errors: string[] = [];
    const requests: string[] = [];
    tab.on('console', (message) => {
      if (message.type() === 'error' || message.type() === 'warning') errors.push(`${message.type()}: ${message.text()}`);
    });
    tab.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
    tab.on('request', (request) => requests.push(request.url()));
    await tab.goto(pathToFileURL(page).href, { waitUntil: 'load' });

    expect(await tab.title()).toMatch(/^redis-ttl-audit · redis:\/\/127\.0\.0\.1:\d+\/7$/);
    // one row per pattern: session, cache, rl, legacy, evil and the four hostile keys
    const rows = tab.locator('#patterns-table tbody tr');
    expect(await rows.count()).toBe(9);
    expect(await rows.locator('td.pattern').allTextContents()).toEqual(['session:*', 'cache:page:*', 'rl:{*}:count', 'legacy:*', 'evil:*', ...[...HOSTILE].sort()]);
    // bars: every pattern with keys without TTL (session 60, legacy 6, evil 3, cache 3, rl 3, 4 hostile keys)
    expect(await tab.locator('#no-ttl-chart rect.bar').count()).toBe(9);
    expect(await tab.locator('#no-ttl-chart text.label').first().textContent()).toBe('session:*');
    // the histogram: no TTL, <1m, <1h, <1d, <7d, >=7d
    expect(await tab.locator('#ttl-histogram .hist-bar').count()).toBe(6);
    expect(await tab.locator('#ttl-histogram .hist-bar title').allTextContents()).toEqual([
      'no TTL: 79 keys',
      'TTL <1m: 19 keys',
      'TTL <1h: 10 keys',
      'TTL <1d: 0 keys',
      'TTL <7d: 7 keys',
      'TTL >=7d: 0 keys',
    ]);
    // the written-by cells: file:line links relative to the page, "no code" for legacy:*
    const written = rows.locator('td.written-by');
    expect(await written.nth(0).locator('a.site').textContent()).toBe(`${shown('src/store.ts')}:7:9`);
    expect(await written.nth(0).locator('a.site').getAttribute('href')).toBe('../src/store.ts');
    expect(await written.nth(1).locator('a.site').first().textContent()).toBe(`${shown('src/cache.ts')}:3:5`);
    expect(await written.nth(1).locator('details summary').textContent()).toBe('1 more');
    expect(await written.nth(3).textContent()).toBe('no code');
    expect(await written.nth(4).locator('a.site').getAttribute('href')).toBe('../javascript%3Awindow.__xss%3D5');
    // following a link opens the source file next to the page's directory
    const target = await written.nth(0).locator('a.site').evaluate((a) => (a as unknown as { href: string }).href);
    expect(target).toBe(pathToFileURL(path.join(work, 'src', 'store.ts')).href);
    // growth: every pattern of either run, session:* first, over the threshold
    const growth = tab.locator('#growth tbody tr');
    expect(await growth.count()).toBe(9);
    expect(await growth.first().locator('td').allTextContents()).toEqual(['session:*', '40', '60', '40', '60', '+20', 'FAIL']);
    expect(await tab.locator('#growth p.fail').textContent()).toBe('--fail-on-growth 10: 1 pattern grew by more than 10 keys without TTL.');
    // the three sections
    expect(await tab.locator('#leaking ul.findings > li').count()).toBe(9);
    expect(await tab.locator('#unwritten ul.findings > li').count()).toBe(5);
    expect(await tab.locator('#unexplained ul.findings > li').count()).toBe(1);
    expect(await tab.locator('#unexplained ul.findings > li .key').first().textContent()).toBe('cache:page:*');
    // the sorting script runs under the page's CSP: sort by keys, ascending on a second click
    await tab.locator('#patterns-table th', { hasText: /^keys$/ }).click();
    await tab.locator('#patterns-table th', { hasText: /^keys$/ }).click();
    expect(await rows.first().locator('td.pattern').textContent()).toBe(HOSTILE.slice().sort()[0]);
    // no key name ran as script, nothing was fetched, nothing logged
    expect(await tab.evaluate(() => (globalThis as unknown as { __xss?: number }).__xss)).toBeUndefined();
    expect(requests).toEqual([pathToFileURL(page).href]);
    expect(errors).toEqual([]);

    await tab.locator('#patterns-table th', { hasText: /^no TTL$/ }).click();
    await tab.screenshot({ path: SCREENSHOT, fullPage: true });
    const png = readFileSync(SCREENSHOT);
    expect(png.subarray(1, 4).toString()).toBe('PNG');
    expect(png.length).toBeGreaterThan(20_000);
    await tab.close();
  }, 60_000);
});
