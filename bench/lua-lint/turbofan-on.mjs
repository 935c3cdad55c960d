// The lua-lint executable without its TurboFan choice (lua-lint/cli/tiering.ts): dist/'s bin.js
// minus the deferOptimization() call, so V8 optimizes from the start. For bench/lua-lint/cli.ts.
import process from 'node:process';
import { runAsProcess } from '../../dist/cli/process.js';

runAsProcess('lua-lint', async () => {
  const { main } = await import('../../dist/lua-lint/cli/main.js');
  return (argv, io) => main(argv, { ...io, cwd: process.cwd() });
});
