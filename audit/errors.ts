/** A problem with the request or the server that stops the audit (the CLI exits with 2). */
export class AuditError extends Error {
  override name = 'AuditError';
}
