import { analyzeLua } from './lua-lint/index.ts';
const src = process.argv[2]!.replace(/\\n/g, '\n');
for (const f of analyzeLua(src)) console.log(`${f.line}:${f.column} ${f.ruleId} ${f.message}`);
