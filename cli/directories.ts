import { mkdir, stat } from 'node:fs/promises';
import path from 'node:path';

/**
 * `mkdir -p`, one level at a time from the nearest existing ancestor. Node 20's
 * `mkdir(dir, { recursive: true })` never settles (and spins) when a level cannot be made although
 * its parent exists and the error is ENOENT, as under `/proc`; a level made one call each fails
 * with that error instead.
 * @throws the file-system error of the first level that cannot be made (not EEXIST: a level made
 *   meanwhile by another process is fine)
 */
export async function makeDirectories(dir: string): Promise<void> {
  const missing: string[] = [];
  for (let current = path.resolve(dir); ; current = path.dirname(current)) {
    try {
      await stat(current);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || path.dirname(current) === current) throw error;
      missing.push(current);
    }
  }
  for (const level of missing.reverse()) {
    try {
      await mkdir(level);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
}
