import { accessSync, constants, statfsSync } from 'node:fs';

/** What a memory file system must have free to take the suite's temporary folders. */
const ENOUGH_BYTES = 1024 ** 3;

/**
 * The environment that puts the tests' temporary folders (config folders, fleet files, copies of
 * the package) on a memory file system where the machine has one with room: Linux's /dev/shm.
 * Every save of a config folder syncs its file and folder to the disk (src/config/store.ts), and
 * hundreds of runs save one: on a disk that is 5 s of the command tests' 40 s on a 2-core
 * machine, on /dev/shm nothing. Elsewhere, or with less room (a container's 64 MB /dev/shm), the
 * temporary folders stay where TMPDIR says.
 */
export function memoryTempEnv(): Record<string, string> {
  const dir = '/dev/shm';
  if (process.platform !== 'linux') return {};
  try {
    accessSync(dir, constants.W_OK);
    const fs = statfsSync(dir);
    return fs.bavail * fs.bsize >= ENOUGH_BYTES ? { TMPDIR: dir } : {};
  } catch {
    return {};
  }
}
