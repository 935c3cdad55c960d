/** Runs the redis-ttl-keys CLI in-process with captured streams. */
import { main } from '../../keys/cli/main.js';

export async function runKeys(args: string[], cwd = process.cwd()): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await main(args, { stdout: { write: (t: string) => (stdout += t) }, stderr: { write: (t: string) => (stderr += t) }, env: {}, cwd });
  return { code, stdout, stderr };
}
