/** Runs the lua-lint CLI in-process with captured streams, no standard input and an empty environment. */
import { Readable } from 'node:stream';
import { main } from '../../lua-lint/cli/main.js';

export async function runLuaLint(args: string[], cwd: string): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await main(args, {
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
    stdin: Readable.from([]),
    cwd,
    env: {},
  });
  return { code, stdout, stderr };
}
