#!/usr/bin/env node
/**
 * The `lua-lint` executable (package.json `bin`). All logic lives in `main.ts`; `runAsProcess`
 * connects it to the process and turns an unexpected exception (a bug) into exit code 2.
 */
import { main } from './main.js';
import { runAsProcess } from './process.js';

runAsProcess('lua-lint', (argv, io) => main(argv, { ...io, cwd: process.cwd() }));
