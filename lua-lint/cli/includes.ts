/**
 * `--- @include` references as files on disk (see `../includes.ts` for the syntax): relative to the
 * including file, else under the include root; `~/x` and `<name>/x` (BullMQ's mapped paths) under
 * the include root. `.lua` is added to a name without extension.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { IncludeResolver } from '../includes.js';

/**
 * A resolver over the file system.
 * @param root the include root (absolute)
 * @param searchRoot whether a relative reference not found next to the including file is also
 *   looked up under `root` (true when the user set the root)
 */
export function createIncludeResolver(root: string, searchRoot: boolean): IncludeResolver {
  const isFile = (file: string): boolean => {
    try {
      return existsSync(file) && statSync(file).isFile();
    } catch {
      return false;
    }
  };
  return {
    resolve(reference, fromFile) {
      const name = path.extname(reference) === '' ? `${reference}.lua` : reference;
      const mapped = /^(?:~|<[^>]*>)[\\/](.*)$/.exec(name);
      if (mapped) {
        const file = path.resolve(root, mapped[1]!);
        return isFile(file) ? file : undefined;
      }
      const candidates = [path.resolve(path.dirname(fromFile), name), ...(searchRoot ? [path.resolve(root, name)] : [])];
      return candidates.find(isFile);
    },
    read(file) {
      try {
        return readFileSync(file, 'utf8');
      } catch {
        return undefined;
      }
    },
  };
}
