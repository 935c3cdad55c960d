/**
 * A write whose key is a parameter of a method of a singleton class (its one instance handed out
 * by a static accessor, `RedisManager.getInstance()`), judged at the method's callers: every call,
 * in the package's modules importing the class, passes a key under a `persistentKeys` pattern,
 * so the write is a persistent record. Near misses stay reported: one caller passing a key no
 * pattern names, an instance made outside the accessor (`new RedisManager()`: the singleton
 * reading does not apply, the class is a facade whose calls are judged where they are: the
 * `session:*` caller is reported), and no pattern declared.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import incrRule from '../../rules/incr-needs-expire-on-create.js';
import { persistentSettings, positionOf, runRule, untypedTester } from './tester.js';

const fixtures = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'singleton-holder');
/** The singleton's module of one fixture application, as linted. */
const manager = (app: string) => {
  const filename = join(fixtures, app, 'src', 'redisManager.js');
  return { code: readFileSync(filename, 'utf8'), filename };
};
const settings = persistentSettings('user:*', 'item:*');
const hset = (app: string, extra: Record<string, unknown> = {}) => {
  const { code, filename } = manager(app);
  return { code, filename, ...extra, errors: [{ messageId: 'noExpiry' as const, ...positionOf(code, 'hset(key, info)') }] };
};

runRule(untypedTester, 'incr-needs-expire-on-create (a singleton class method judged at its callers)', incrRule, {
  valid: [
    { ...manager('ok'), settings },
    // the same instance made outside the accessor: the class's own write is judged at its callers
    { ...manager('escaped'), settings },
    // the class's own instance method calls it as this.createData('user:' + name): a caller under the pattern
    { ...manager('inner-instance'), settings },
  ],
  invalid: [
    // one caller passes session:*, which no pattern names
    hset('mixed', { settings }),
    // a caller makes its own instance: judged at that caller
    (() => {
      const filename = join(fixtures, 'escaped', 'src', 'handlers', 'session.js');
      const code = readFileSync(filename, 'utf8');
      return { code, filename, settings, errors: [{ messageId: 'noExpiry' as const, ...positionOf(code, 'createData(') }] };
    })(),
    // no pattern declared
    hset('ok'),
    // review 37 D1: a static method of the class calls it through the instance with a session:
    // key; the class's own body is a caller the walk over its references does not see
    hset('inner-static', { settings }),
  ],
});
