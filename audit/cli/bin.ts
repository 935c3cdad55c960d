#!/usr/bin/env node
/**
 * The `redis-ttl-audit` executable (package.json `bin`). All logic lives in `main.ts`;
 * `runAsProcess` connects it to the process and turns an unexpected exception (a bug) into exit
 * code 2.
 */
import { runAsProcess } from '../../lua-lint/cli/process.js';
import { main } from './main.js';

runAsProcess('redis-ttl-audit', main);
