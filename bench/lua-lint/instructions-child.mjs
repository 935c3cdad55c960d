// One process of bench/lua-lint/instructions.ts, run under valgrind's callgrind:
//   node instructions-child.mjs <corpus.json> <none|parse|analyze> <rounds>
// reads the corpus (a JSON array of script texts) and runs the step over every script `rounds`
// times: luaparse with the options lua-lint parses with, or analyzeLua from dist/.
import { readFileSync } from 'node:fs';
import process from 'node:process';
import luaparse from 'luaparse';
import { analyzeLua } from '../../dist/lua-lint/index.js';

const [corpusFile, mode, roundsText] = process.argv.slice(2);
const sources = JSON.parse(readFileSync(corpusFile, 'utf8'));
const rounds = Number(roundsText);
const parseOptions = { comments: true, locations: false, ranges: true, scope: false, luaVersion: '5.1', encodingMode: 'pseudo-latin1' };
const blank = (source) => (source.startsWith('#!') ? `--${source.slice(2)}` : source);
const parseSources = sources.map(blank);
let sink = 0;
for (let round = 0; round < rounds; round++) {
  if (mode === 'parse') for (const source of parseSources) sink += luaparse.parse(source, parseOptions).body.length;
  else if (mode === 'analyze') for (const source of sources) sink += analyzeLua(source).length;
}
process.stdout.write(`${mode} ${sink}\n`);
