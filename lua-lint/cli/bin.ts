#!/usr/bin/env node
/**
 * The `lua-lint` executable (package.json `bin`). All logic lives in `main.ts`; `runAsProcess`
 * loads and connects it to the process and turns an unexpected exception (a bug) into exit code 2.
 */
import { runAsProcess } from '../../cli/process.js';
import { deferOptimization } from './tiering.js';

// TurboFan off until main() knows how much it will read (see tiering.ts)
deferOptimization();

runAsProcess('lua-lint', async () => {
  const { main } = await import('./main.js');
  return (argv, io) => main(argv, { ...io, cwd: process.cwd() });
});
