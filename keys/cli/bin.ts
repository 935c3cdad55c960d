#!/usr/bin/env node
/**
 * The `redis-ttl-keys` executable (package.json `bin`). All logic lives in `main.ts`;
 * `runAsProcess` loads and connects it to the process and turns an unexpected exception (a bug)
 * into exit code 2, a module missing from a broken install into one line and exit code 2.
 */
import { runAsProcess } from '../../cli/process.js';

runAsProcess('redis-ttl-keys', async () => (await import('./main.js')).main);
