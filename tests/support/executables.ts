import { accessSync, constants } from 'node:fs';
import path from 'node:path';

/** The executable `name` on PATH or in one of `extraDirs`, or undefined when this machine has none. */
export function findExecutable(name: string, extraDirs: string[] = []) {
  for (const dir of [...(process.env.PATH ?? '').split(path.delimiter), ...extraDirs]) {
    const candidate = path.join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not in this directory
    }
  }
  return undefined;
}
