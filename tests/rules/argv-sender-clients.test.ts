/**
 * Commands sent as argv arrays through an application's own client type (round 20, the
 * eighteenth validation set: RedisInsight's `abstract class RedisClient { abstract
 * sendCommand(command: RedisClientCommand, ...) }`, its commands named by enum members
 * `BrowserToolStringCommands.Set`). A class or interface of the code declaring `sendCommand` whose
 * first parameter is typed as an array or tuple (or a local alias of one) is a client by its shape
 * (`redis-calls/argv-sender-types.ts`), and an argv's head written `Enum.Member` of a string enum of
 * the file or of a module it imports names the command (`redis-calls/command-name.ts`). Limits: a
 * `sendCommand` taking a string or an untyped parameter, a numeric enum member. Fixtures in
 * tests/fixtures/argv-sender.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import incrRule from '../../rules/incr-needs-expire-on-create.js';
import setRule from '../../rules/set-requires-ttl-or-keepttl.js';
import { runRule, untypedTester } from './tester.js';

const fixtures = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'argv-sender');
const file = (path: string) => ({ code: readFileSync(join(fixtures, path), 'utf8'), filename: join(fixtures, path) });

/** A client type declared in the file (lines 1-3), then `body` from line 4. */
const declared = (type: string, body: string): string => `${type}\n${body}`;
const argvClass = 'export type Argv = [cmd: string, ...args: string[]];\nexport abstract class Store { abstract sendCommand(argv: Argv): Promise<unknown>; }\nexport enum Cmd { Hset = "hset", Expire = "expire" }';
const argvInterface = 'interface Conn {\n  sendCommand(args: readonly string[]): Promise<unknown>;\n}';
const arrayClass = 'class Conn {\n  sendCommand(args: Array<string>) { return args; }\n}';

runRule(untypedTester, 'set-requires-ttl-or-keepttl (argv sender types)', setRule, {
  valid: [
    // KEEPTTL keeps the key's expiry; EX gives one
    file('line.service.ts'),
    // a sendCommand taking one command line is no argv sender: nothing is read
    declared('class Conn {\n  sendCommand(line: string) { return line; }\n}\n', 'export async function f(c: Conn, k: string) { await c.sendCommand(["SET", k, "v"]); }'),
    // an untyped parameter says nothing of its shape
    declared('class Conn {\n  sendCommand(args) { return args; }\n}\n', 'export async function f(c: Conn, k: string) { await c.sendCommand(["SET", k, "v", "XX"]); await c.sendCommand(["EXPIRE", k, 60]); }'),
  ],
  invalid: [
    {
      ...file('string.service.ts'),
      errors: [{ messageId: 'setThenExpire', line: 7, column: 46 }],
    },
    {
      // an interface of the code with an array-typed sendCommand
      code: declared(argvInterface, 'export async function f(c: Conn, k: string, v: string) {\n  await c.sendCommand(["SET", k, v, "XX"]);\n  await c.sendCommand(["EXPIRE", k, "60"]);\n}'),
      errors: [{ messageId: 'setThenExpire', line: 5, column: 24 }],
    },
    {
      // a class with a concrete sendCommand(args: Array<string>)
      code: declared(arrayClass, 'export async function f(c: Conn, k: string, v: string) {\n  await c.sendCommand(["SET", k, v, "XX"]);\n  await c.sendCommand(["EXPIRE", k, "60"]);\n}'),
      errors: [{ messageId: 'setThenExpire', line: 5, column: 24 }],
    },
  ],
});

runRule(untypedTester, 'incr-needs-expire-on-create (argv sender types)', incrRule, {
  valid: [
    // the write and its expiry in one argv each, in one MULTI of the code's client: not read here,
    // and the file's other writes carry their TTL
    file('line.service.ts'),
  ],
  invalid: [
    {
      ...file('json.service.ts'),
      errors: [{ messageId: 'separateRoundTrip', line: 6, column: 31 }],
    },
    {
      // an enum of the same file names the command
      code: declared(argvClass, 'export async function f(s: Store, k: string) {\n  await s.sendCommand([Cmd.Hset, k, "f", "v"]);\n  await s.sendCommand([Cmd.Expire, k, "60"]);\n}'),
      errors: [{ messageId: 'separateRoundTrip', line: 5, column: 24 }],
    },
  ],
});
