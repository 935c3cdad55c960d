import { ESLint } from 'eslint';
const plugin = (await import(process.argv[2] + '/rules/index.ts')).default;
const opts = JSON.parse(process.argv[4] || '{}');
const eslint = new ESLint({ cwd: process.cwd(), overrideConfigFile: true, overrideConfig: [{ files: ['**/*.ts'], languageOptions: { parser: await import('@typescript-eslint/parser') }, plugins: { 'redis-ttl': plugin }, rules: { 'redis-ttl/set-requires-ttl-or-keepttl': ['error', opts], 'redis-ttl/incr-needs-expire-on-create': ['error', opts] } }] });
const [r] = await eslint.lintFiles([process.argv[3]]);
for (const m of r.messages) console.log(m.line, m.column, m.ruleId, m.messageId, m.message.slice(0, 150));
