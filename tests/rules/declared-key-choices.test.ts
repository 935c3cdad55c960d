/**
 * Declared persistent keys chosen among a few (issue 25, round 31: the twenty-ninth validation
 * set). The one key speller lists every value a key can take when it is one of a few: both arms of
 * a conditional (`isOnRide ? GEO_KEY_RIDE : GEO_KEY`), each assignment of a `let` (`let key =
 * GEO_KEY; if (isRide) key = GEO_KEY_RIDE`), each caller's argument for a key parameter of a
 * function only its module calls, also a method of an object literal called through `this`
 * (`this._tryFormMatch(queueKey)` in a factory's returned object). When every one matches a `persistentKeys` pattern (not
 * necessarily the same), the key is declared persistent, though the spelling the values share
 * (`*Drivers:geo`) matches none. Near misses stay reported: one arm, one assignment or one caller
 * whose key no pattern matches, and a value the speller cannot read (a call's result).
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import incrRule from '../../rules/incr-needs-expire-on-create.js';
import { keyShapes } from '../helpers/key-shapes.js';
import { ioredis, noExpiryWithMulti, persistentSettings, runRule, untypedTester } from './tester.js';

// a factory's object literal whose method calls another through `this` (tests/fixtures/key-choices)
const matchmaking = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'key-choices', 'matchmaking.js');
const service = readFileSync(matchmaking, 'utf8');
const onlyQueueCaller = service.replace(/ {4}async retryLater[^]*?\n {4}},\n/, '');
const requeue = (code: string) => noExpiryWithMulti(code, 'lpush(queueKey, player)', 'queueKey', 'stateRedis');

const declared = persistentSettings('onlineDrivers:*:geo', 'rideDrivers:*');
// one index per region: a family of keys (not one bounded key), declared persistent by pattern
const head = 'const GEO_KEY = (region: string) => `onlineDrivers:${region}:geo`;\nconst GEO_KEY_RIDE = (region: string) => `rideDrivers:${region}:geo`;\n';
const signature = 'id: string, region: string, lng: number, lat: number, isRide: boolean';
/** `redis.geoadd(key, ...)` of a driver, the key chosen by `choose`. */
const located = (choose: string) => ioredis(`${head}export async function locate(${signature}) {\n  ${choose}\n  await redis.geoadd(key, lng, lat, id);\n}`);
/** A helper adding to the index it is given, called with `first` and `second`. */
const added = (first: string, second: string) =>
  ioredis(`${head}async function add(key: string, id: string) {\n  await redis.geoadd(key, 0, 0, id);\n}\nexport async function one(id: string, region: string) {\n  await add(${first}, id);\n}\nexport async function two(id: string, region: string) {\n  await add(${second}, id);\n}`);

const conditional = located('const key = isRide ? GEO_KEY_RIDE(region) : GEO_KEY(region);');
const reassigned = located('let key = GEO_KEY(region);\n  if (isRide) key = GEO_KEY_RIDE(region);');
const inline = ioredis(`${head}export async function locate(${signature}) {\n  await redis.geoadd(isRide ? \`rideDrivers:\${id}\` : GEO_KEY(region), lng, lat, id);\n}`);
const callers = added('GEO_KEY(region)', 'GEO_KEY_RIDE(region)');

// near misses: one value outside the patterns, a value not read
const oneArmOutside = located('const key = isRide ? `busyDrivers:${region}:geo` : GEO_KEY(region);');
const oneAssignmentOutside = located('let key = GEO_KEY(region);\n  if (isRide) key = `driver:${id}:geo`;');
const unreadAssignment = located('let key = GEO_KEY(region);\n  if (isRide) key = pickKey(id);');
const oneCallerOutside = added('GEO_KEY(region)', '`idleDrivers:${id}`');

describe('keyShapeOf lists the values of a key', () => {
  it('spells what they share and lists each', () => {
    expect(keyShapes(`${head}probe(c ? GEO_KEY_RIDE(r) : GEO_KEY(r));\nlet k = GEO_KEY(r); if (c) k = GEO_KEY_RIDE(r); probe(k);`)).toEqual(['*eDrivers:*:geo many', '* many']);
  });
});

runRule(untypedTester, 'incr-needs-expire-on-create (a key every value of which is declared persistent)', incrRule, {
  valid: [
    { code: conditional, settings: declared },
    { code: reassigned, settings: declared },
    { code: inline, settings: declared },
    { code: callers, settings: declared },
    // `this._tryFormMatch(queueKey)` in a method of the same object literal: its one caller passes queue:*:*
    { code: onlyQueueCaller, filename: matchmaking, settings: persistentSettings('queue:*') },
  ],
  invalid: [
    { code: oneArmOutside, settings: declared, errors: [noExpiryWithMulti(oneArmOutside, 'geoadd(key, lng, lat, id)', 'key')] },
    { code: oneAssignmentOutside, settings: declared, errors: [noExpiryWithMulti(oneAssignmentOutside, 'geoadd(key, lng, lat, id)', 'key')] },
    { code: unreadAssignment, settings: declared, errors: [noExpiryWithMulti(unreadAssignment, 'geoadd(key, lng, lat, id)', 'key')] },
    { code: oneCallerOutside, settings: declared, errors: [noExpiryWithMulti(oneCallerOutside, 'geoadd(key, 0, 0, id)', 'key')] },
    // a second caller passes retry:<user>, which no pattern names
    { code: service, filename: matchmaking, settings: persistentSettings('queue:*'), errors: [requeue(service)] },
    // the values the patterns name, but no pattern for the other one
    { code: conditional, settings: persistentSettings('onlineDrivers:*:geo'), errors: [noExpiryWithMulti(conditional, 'geoadd(key, lng, lat, id)', 'key')] },
  ],
});
