/**
 * The one error type the CLIs (`lua-lint`, `redis-ttl-audit`) report without a stack trace: a
 * usage error, an unreadable file, an invalid config file, a pattern that matches nothing, a
 * server that cannot be reached. `main()` prints `<command>: <message>` on standard error and
 * exits with code 2. Any other exception is a bug.
 */
export class CliError extends Error {
  override name = 'CliError';
}

/** A short, human description of a Node.js file-system error (`permission denied (EACCES)`). */
export function describeFsError(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  switch (code) {
    case 'ENOENT':
      return 'file not found (ENOENT)';
    case 'EACCES':
    case 'EPERM':
      return `permission denied (${code})`;
    case 'EISDIR':
      return 'is a directory (EISDIR)';
    case 'ENXIO':
      return 'not a regular file (ENXIO)';
    case undefined:
      return error instanceof Error ? error.message : String(error);
    default:
      return `${(error as Error).message.replace(/^[A-Z]+: /, '')} (${code})`;
  }
}
