/**
 * A DEL that only an in-process timer runs (redis-calls/timer-deletions.ts): a per-entity key
 * created without TTL and deleted by an end-of-life function that a one-off `setTimeout` calls (an
 * abandoned game aborted after a delay), or by a DEL inside such a timer's callback, is no managed
 * life: a restart before the timer fires drops the timer, and the key stays forever. `recommended`
 * reports the write as it reports a key nothing deletes, whether the DEL is in the same file or in
 * another module of the package. Near misses that stay clean: the same end function run from a
 * request handler, a `setInterval` sweep, a `setTimeout(..., 0)`, a timer only a test sets, a
 * built-in method or a parameter that bears the deleter's name in a timer, and a key deleted on
 * the request path that created it.
 */
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { lintApplication, lintWriteRules } from '../helpers/lint.js';
import { ioredis } from './tester.js';

const INCR = 'incr-needs-expire-on-create';
const SET = 'set-requires-ttl-or-keepttl';

const roots: string[] = [];
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

// line 3 the end function, 6 the chat list, 9 the ready flag, then the code that runs endGame
const endGame = (runs: string) =>
  ioredis(`async function endGame(id: string) {
  await redis.del(\`game:chat:\${id}\`, \`game:ready:\${id}\`);
}
export async function say(id: string, text: string) {
  await redis.rpush(\`game:chat:\${id}\`, text);
}
export async function ready(id: string) {
  await redis.set(\`game:ready:\${id}\`, '1');
}
${runs}
`);

const REPORTED = [
  [INCR, 'noExpiry', 7, 15, undefined],
  [SET, 'setWithoutTtl', 10, 15, undefined],
];

describe('a DEL run from an in-process one-off timer', () => {
  it('does not bound a key created without TTL: the end function is called from a one-off setTimeout', () => {
    expect(lintWriteRules(endGame(`export function onStart(id: string) {
  setTimeout(async () => {
    await endGame(id);
  }, 30_000);
}`))).toEqual(REPORTED);
  });

  it('nor when the timer is handed the end function itself, or calls it as a method', () => {
    expect(lintWriteRules(endGame(`export function onStart(id: string) {
  setTimeout(endGame, 30_000, id);
}`))).toEqual(REPORTED);
    // a method deleter called through this, by a global.setTimeout
    expect(lintWriteRules(ioredis(`export class Games {
  async endGame(id: string) {
    await redis.del(\`game:chat:\${id}\`);
  }
  async say(id: string, text: string) {
    await redis.rpush(\`game:chat:\${id}\`, text);
  }
  onStart(id: string) {
    const t = global.setTimeout(() => this.endGame(id), ABORT_MS);
    return t;
  }
}
declare const ABORT_MS: number;`))).toEqual([[INCR, 'noExpiry', 8, 17, undefined]]);
  });

  it('nor when a request handler calls the end function too: an abandoned game waits for the timer', () => {
    expect(lintWriteRules(endGame(`export function register(io: any) {
  io.on('resign', async (id: string) => endGame(id));
  io.on('start', (id: string) => setTimeout(() => endGame(id), 5_000));
}`))).toEqual(REPORTED);
  });

  it('takes no same-named local, parameter member or other function for the end function', () => {
    for (const runs of [
      // a parameter's member named like the end function (a plain function of the module)
      `export function onStart(games: { endGame(id: string): void }, id: string) {
  setTimeout(() => games.endGame(id), 30_000);
}`,
      // a local of the same name in another function
      `export function toast(ui: { hide(): void }) {
  const endGame = () => ui.hide();
  setTimeout(endGame, 3_000);
}`,
    ]) {
      expect(lintWriteRules(endGame(runs))).toEqual([]);
    }
  });

  it('takes a setTimeout that re-arms itself for a recurring sweep, as setInterval', () => {
    expect(lintWriteRules(endGame(`function tick() {
  setTimeout(async () => {
    for (const id of await redis.smembers('games:ended')) await endGame(id);
    tick();
  }, 60_000);
}
tick();`))).toEqual([]);
  });

  it('nor when the DEL itself sits in the callback of a timer', () => {
    expect(lintWriteRules(ioredis(`export async function join(id: string) {
  await redis.set(\`room:\${id}\`, '1');
}
export function leave(id: string) {
  setTimeout(async () => {
    await redis.del(\`room:\${id}\`);
  }, 60_000);
}
`))).toEqual([[SET, 'setWithoutTtl', 4, 15, undefined]]);
  });

  it('keeps the DEL as the end of the key when no one-off timer of the process runs it', () => {
    // a request handler, a recurring sweep, a deferral to the next turn
    for (const runs of [
      `export function register(io: any) {
  io.on('resign', async (id: string) => endGame(id));
}`,
      `export function onStart(id: string) {
  setInterval(() => endGame(id), 30_000);
}`,
      `export function onStart(id: string) {
  setTimeout(() => endGame(id), 0);
}`,
    ]) {
      expect(lintWriteRules(endGame(runs))).toEqual([]);
    }
    // the strict config still names the DEL of endGame
    expect(lintWriteRules(endGame(''), { allowDeletedKeys: false }).map(([, messageId, line, , named]) => [messageId, line, named])).toEqual([
      ['deletedElsewhere', 7, '4'],
      ['deletedElsewhere', 10, '4'],
    ]);
  });

  it('takes no built-in method or local name in a timer for a call of the deleter', () => {
    // a Map's delete in a timer is no call of the repository's delete; a parameter named like the
    // end function is not it
    expect(lintWriteRules(ioredis(`export class Games {
  async delete(id: string) {
    await redis.del(\`game:\${id}\`);
  }
  async save(id: string) {
    await redis.set(\`game:\${id}\`, '1');
  }
}
const pending = new Map<string, number>();
export function later(id: string) {
  setTimeout(() => pending.delete(id), 10_000);
}
export function defer(id: string, endGame: (id: string) => void) {
  setTimeout(() => endGame(id), 10_000);
}
async function endGame(id: string) {
  await redis.del(\`room:\${id}\`);
}
export async function open(id: string) {
  await redis.set(\`room:\${id}\`, '1');
}
`))).toEqual([]);
  });

  it('takes `this.remove(id)` in a timer of the class whose method `remove` is the deleter for its call, from a method or a field arrow', () => {
    const rooms = (schedule: string) =>
      ioredis(`export class Rooms {
  private pending = new Set<string>();
  async remove(id: string) {
    await redis.del(\`room:\${id}\`);
  }
  async open(id: string) {
    await redis.set(\`room:\${id}\`, '1');
  }
  ${schedule}
}
`);
    for (const schedule of [
      `later(id: string) { setTimeout(() => this.remove(id), 60_000); }`,
      `later = (id: string) => { setTimeout(() => this.remove(id), 60_000); };`,
    ]) {
      expect(lintWriteRules(rooms(schedule))).toEqual([[SET, 'setWithoutTtl', 9, 17, undefined]]);
    }
    // a Set's delete, another object's remove, or `this` of a function of its own
    for (const schedule of [
      `later(id: string) { setTimeout(() => this.pending.delete(id), 60_000); }`,
      `later(id: string, other: { remove(id: string): void }) { setTimeout(() => other.remove(id), 60_000); }`,
      `later(id: string) { setTimeout(function (this: { remove(id: string): void }) { this.remove(id); }, 60_000); }`,
    ]) {
      expect(lintWriteRules(rooms(schedule))).toEqual([]);
    }
  });

  it('takes a setTimeout of the code for no timer of the runtime, and the one imported from node:timers for one', () => {
    // a local setTimeout that runs its callback at once
    expect(lintWriteRules(endGame(`function setTimeout(run: () => void, _label: string) {
  run();
}
export function onStart(id: string) {
  setTimeout(() => endGame(id), 'now');
}`))).toEqual([]);
    expect(lintWriteRules(endGame(`import { setTimeout } from 'node:timers';
export function onStart(id: string) {
  setTimeout(() => endGame(id), 30_000);
}`))).toEqual(REPORTED);
  });

  it('keeps a key deleted on the request path that created it, whatever timer calls that path (deleted-after.ts decides it first)', () => {
    expect(lintWriteRules(ioredis(`export async function handle(id: string) {
  try {
    await redis.set(\`probe:\${id}\`, '1');
    await work(id);
  } finally {
    await redis.del(\`probe:\${id}\`);
  }
}
export function later(id: string) {
  setTimeout(() => handle(id), 10_000);
}
declare function work(id: string): Promise<void>;
`))).toEqual([]);
  });
});

describe('a DEL of another module run from an in-process one-off timer', () => {
  const files = (moves: string, extra: Record<string, string> = {}) => ({
    'src/redis.ts': `import Redis from 'ioredis';\nexport const redis = new Redis();\n`,
    'src/cleanup.ts': `import { redis } from './redis';
export async function endGame(id: string) {
  await redis.del(\`game:chat:\${id}\`);
}
`,
    'src/chat.ts': `import { redis } from './redis';
export async function say(id: string, text: string) {
  await redis.rpush(\`game:chat:\${id}\`, text);
}
`,
    'src/moves.ts': moves,
    ...extra,
  });
  const lint = (moves: string, extra?: Record<string, string>) => lintApplication(roots, files(moves, extra), 'src/chat.ts', { [INCR]: {} }, []);

  it('reports the write when a module importing the cleanup calls it from a one-off setTimeout', () => {
    expect(lint(`import { endGame } from './cleanup';
export function onMove(id: string) {
  setTimeout(async () => {
    await endGame(id);
  }, 30_000);
}
`)).toEqual([[INCR, 'noExpiry', 3, 15]]);
  });

  it('follows the import that binds the cleanup: under another local name, or through an index that re-exports it', () => {
    expect(lint(`import { endGame as finish } from './cleanup';
export function onMove(id: string) {
  setTimeout(() => finish(id), 30_000);
}
`)).toEqual([[INCR, 'noExpiry', 3, 15]]);
    expect(lint(`import { endGame } from './index';
export function onMove(id: string) {
  setTimeout(() => endGame(id), 30_000);
}
`, { 'src/index.ts': `export { endGame } from './cleanup';\n` })).toEqual([[INCR, 'noExpiry', 3, 15]]);
  });

  it('takes no function of another module that bears the cleanup\'s name for it', () => {
    // moves.ts imports the cleanup module, but its timer runs the lobby's endGame; the cleanup's
    // endGame runs on a request path
    expect(lint(`import { VERSION } from './cleanup';
import { endGame } from './lobby';
export function onMove(id: string) {
  setTimeout(() => endGame(id), 30_000 * VERSION);
}
`, {
      'src/cleanup.ts': `import { redis } from './redis';
export async function endGame(id: string) {
  await redis.del(\`game:chat:\${id}\`);
}
export const VERSION = 1;
`,
      'src/lobby.ts': `export async function endGame(id: string) { console.log(id); }\n`,
      'src/routes.ts': `import { endGame } from './cleanup';\nexport const resign = (id: string) => endGame(id);\n`,
    })).toEqual([]);
  });

  it('keeps the cleanup as the end of the key when that module calls it from a handler, or only a test sets the timer', () => {
    expect(lint(`import { endGame } from './cleanup';
export function register(io: any) {
  io.on('resign', async (id: string) => endGame(id));
}
`)).toEqual([]);
    expect(
      lint(`import { endGame } from './cleanup';
export const resign = (id: string) => endGame(id);
`, {
        'src/cleanup.test.ts': `import { endGame } from './cleanup';
it('ends', () => { setTimeout(() => endGame('g1'), 1_000); });
`,
      }),
    ).toEqual([]);
  });
});
