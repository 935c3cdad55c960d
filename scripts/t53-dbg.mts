import { ESLint } from 'eslint';
import plugin from '/work/wt/t53-store/rules/index.ts';
const dir = '/work/wt/t53-store/.bench-tmp/eslint-precision/tuning-apps/Wei-Shaw+claude-relay-service';
const eslint = new ESLint({ cwd: dir, overrideConfigFile: true, overrideConfig: [{ files: ['**/*.js'], plugins: { 'redis-ttl': plugin as any }, rules: { 'redis-ttl/incr-needs-expire-on-create': 'error', 'redis-ttl/set-requires-ttl-or-keepttl': 'error' }, languageOptions: { sourceType: 'commonjs', ecmaVersion: 2022 } }] });
const res = await eslint.lintFiles([process.argv[2]]);
for (const r of res) for (const m of r.messages) console.log(m.line, m.column, m.ruleId, m.message.slice(0, 100));
