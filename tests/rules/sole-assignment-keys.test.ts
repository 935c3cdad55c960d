/**
 * Declared `persistentKeys` patterns matched against a key held in a `let` / `var` declared
 * without an initializer and assigned once (issue 25, round 35: "bounded fixed key set kept on
 * purpose (declared pattern cannot reach)", keenwon/antcolony's `var key; ... key =
 * util.format('bucket:%d', distance); redis.lpush(key, value)`): the one assignment is read as a
 * `const`'s initializer would be, so `bucket:*` names the key. Near misses stay reported: a key
 * the pattern does not name, a variable assigned twice to values the pattern does not both name,
 * one written by `+=`, and one whose value names the variable itself.
 */
import incrRule from '../../rules/incr-needs-expire-on-create.js';
import { noExpiryWithMulti, persistentSettings as persistent, runRule, untypedTester } from './tester.js';

/** A function pushing onto the list `key` after `assign` (which gives `key` its value). */
const pushed = (assign: string): string =>
  [
    "import Redis from 'ioredis';",
    "import util from 'node:util';",
    'const redis = new Redis();',
    'export function push(nodes) {',
    '  var key, value;',
    '  for (const node of nodes) {',
    `    ${assign}`,
    '    value = node.id;',
    '    redis.lpush(key, value);',
    '    redis.ltrim(key, 0, 7);',
    '  }',
    '}',
  ].join('\n');

const formatted = pushed("key = util.format('bucket:%d', node.distance);");
const template = pushed('key = `bucket:${node.distance}`;');
// near misses
const twice = pushed("key = `bucket:${node.distance}`; if (node.old) key = `old:${node.id}`;");
const compound = pushed("key = 'bucket:'; key += node.distance;");
const selfNamed = pushed("key = 'bucket:' + (key || node.distance);");

const lpushAt = (code: string) => noExpiryWithMulti(code, 'lpush(key, value)', 'key');

runRule(untypedTester, 'incr-needs-expire-on-create (declared persistent keys of a variable assigned once)', incrRule, {
  valid: [
    { code: formatted, settings: persistent('bucket:*') },
    { code: template, settings: persistent('bucket:*') },
  ],
  invalid: [
    // the pattern names another family
    { code: formatted, settings: persistent('remoteNodes'), errors: [lpushAt(formatted)] },
    { code: twice, settings: persistent('bucket:*'), errors: [lpushAt(twice)] },
    { code: compound, settings: persistent('bucket:*'), errors: [lpushAt(compound)] },
    { code: selfNamed, settings: persistent('bucket:*'), errors: [lpushAt(selfNamed)] },
  ],
});
