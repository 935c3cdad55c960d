#!/usr/bin/env node
/**
 * The `redis-ttl-audit` executable (package.json `bin`). All logic lives in `main.ts`; this file
 * only connects it to the process and turns an unexpected exception (a bug) into exit code 2.
 */
import { main } from './main.js';

// `redis-ttl-audit ... | head` closes the pipe early: stop quietly instead of crashing on EPIPE.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw error;
});

main(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  stdin: process.stdin,
  env: process.env,
}).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(
      `redis-ttl-audit: internal error, please report it at https://github.com/eslint-plugin-redis-ttl/eslint-plugin-redis-ttl/issues\n` +
        `${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exitCode = 2;
  },
);
